"""Validation of a plan (SPEC 10) and its dispatch matrix (SPEC 14), shared by the validate,
render and audit modes. Pure: scanned comments in, findings out."""
