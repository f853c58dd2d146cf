"""The pure core: text in, typed values out; no I/O, no network, no clock.

Comment bodies are scanned for blocks and marker lines (:mod:`.blocks`, with code as GitHub
renders it, :mod:`.code_regions`), the spine is parsed (:mod:`.spine`) and found
(:mod:`.plan`), slices are addressed (:mod:`.slices`), identities and stamps are judged
(:mod:`.identity`, :mod:`.stamps`), and timestamps and digests compared (:mod:`.timestamps`,
:mod:`.digest`). Statuses and the one failure type live in :mod:`.status`. The modes
(``frame_spine.modes``) decide with these; the edges fetch and write.
"""
