"""Validation of a plan (SPEC 10, 14), shared by the validate, render and audit modes: the
finding codes, findings and result (:mod:`.models`), the facts read from a plan
(:mod:`.facts`), the rules (:mod:`.rules`, :mod:`.spine_rules`, :mod:`.variant_rules`), the
dispatch matrix (:mod:`.dispatch`) and the findings table (:mod:`.findings`).

Pure: scanned comments in, findings out; no I/O. It reads input parsing (:mod:`frame_spine.inputs`)
for the shapes of an online target, and nothing of any mode.
"""
