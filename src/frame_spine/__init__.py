"""frame-spine-lookup: fetch one addressable step (slice) of a plan kept in issue comments.

The pure core (no I/O) is :mod:`frame_spine.blocks` (SPEC 2), :mod:`frame_spine.spine`
(SPEC 3), :mod:`frame_spine.slices` (SPEC 4), :mod:`frame_spine.lookup` (SPEC 5-6),
:mod:`frame_spine.digest` (SPEC 7); the edges are the command line (:mod:`frame_spine.cli`)
and rendering (:mod:`frame_spine.render`).
"""

__version__ = "0.1.0"
