"""frame-spine-lookup: fetch one addressable step (slice) of a plan kept in issue comments.

The layout (see docs/architecture.md): :mod:`frame_spine.core` is pure (blocks, code
regions, spine, slices, the plan's one spine, identity, stamps, statuses); ``github`` is the
only network edge; ``modes`` holds one folder per mode (lookup, validate, audit), each with
the same files; :mod:`frame_spine.inputs` checks inputs for every mode; ``step`` is what one
workflow step writes; :mod:`frame_spine.cli` and :mod:`frame_spine.action` are the two entry
points, glue only.
"""

__version__ = "0.1.0"
