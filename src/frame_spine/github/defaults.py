"""The defaults of the wire's two settings, in seconds (SPEC 6, 8): ``timeout`` and
``max-wait``; their one home (a leaf: input parsing reads it without the network code)."""

DEFAULT_TIMEOUT = 10
DEFAULT_MAX_WAIT = 60
