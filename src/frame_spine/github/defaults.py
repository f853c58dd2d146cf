"""The defaults of the wire's two settings, in seconds (SPEC 6, 8): ``timeout`` (each attempt
of a request, in all) and ``max-wait`` (rate-limit waiting per comment).

Their one home: the GitHub session's settings default to them, :mod:`frame_spine.inputs`
re-exports them as the inputs' defaults, and action.yml's defaults are tested equal to them.
A leaf (it imports nothing), so input parsing reads it without loading the network code.
"""

DEFAULT_TIMEOUT = 10
DEFAULT_MAX_WAIT = 60
