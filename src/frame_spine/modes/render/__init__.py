"""The render mode: see :mod:`frame_spine.modes` for the files every mode has."""
