"""The pure core: text in, typed values out; no I/O, no network, no clock."""
