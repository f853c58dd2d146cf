"""Run `frame-spine audit` in this process and note where its memory goes (for bench_audit.py).

    python benchmarks/audit_memory_probe.py OUT.json audit --repo ... --format json

Runs the CLI's ``main`` with the arguments after ``OUT.json`` (its output goes to stdout as
usual) and writes to OUT.json: the resident memory (``/proc/self/statm``) when the listing is
read (the walks begin) and when every plan is classified (the report assembled); and, at the
end of the listing, what the listing keeps, in bytes: the kept bodies (UTF-8), the rest of
each listed comment and the listing's indexes. Measuring wraps two functions of the audit;
nothing else is changed. The peak (``ru_maxrss``) is for the caller to read, e.g. with
``/usr/bin/time``: a process forked from a large one (the benchmark, which serves the fake
API) inherits its high-water mark across ``exec``, so the probe's own would be wrong.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from pathlib import Path
from typing import Any

from frame_spine.cli import main
from frame_spine.modes.audit import online, rules

PAGE = os.sysconf("SC_PAGE_SIZE")
figures: dict[str, Any] = {}


def resident() -> int:
    """The process's resident memory now, in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


def kept_sizes(listing: rules.Listing) -> dict[str, int]:
    """What ``listing`` keeps at the end of the listing, in bytes (objects counted once)."""
    kept = [item for item in listing.listed.values() if item.body is not None]
    seen: set[int] = set()
    bodies = other = 0
    for item in listing.listed.values():
        bodies += len(item.body or b"")
        parts = [item, item.comment, item.body]
        parts += [getattr(item.comment, name) for name in item.comment.__slots__]
        for part in parts:
            if id(part) not in seen and part is not None and not isinstance(part, int):
                seen.add(id(part))
                other += sys.getsizeof(part)
    other -= bodies  # the bytes objects' own bytes are the bodies
    indexes = sum(
        sys.getsizeof(index) for index in (listing.listed, listing.versions, listing.kept_plans)
    )
    return {"kept": len(kept), "bodies": bodies, "other": other, "indexes": indexes}


plan_like = rules.Listing.plan_like
report_of = online.report_of


def measured_plan_like(self: rules.Listing) -> Any:
    figures["listed"] = resident()
    figures.update(kept_sizes(self))
    return plan_like(self)


def measured_report_of(*args: Any, **kwargs: Any) -> Any:
    figures["classified"] = resident()
    rows = list(inspect.signature(report_of).bind(*args, **kwargs).arguments["plans"])
    figures["rows"] = len(rows)
    figures["row_bytes"] = sum(
        sys.getsizeof(row) + sys.getsizeof(row.__dict__) + sys.getsizeof(row.model_fields_set)
        for row in rows
    )
    return report_of(*args, **kwargs)


rules.Listing.plan_like = measured_plan_like  # type: ignore[method-assign]
online.report_of = measured_report_of

if __name__ == "__main__":
    out = Path(sys.argv[1])
    try:
        code = main(sys.argv[2:])
    finally:
        out.write_text(json.dumps(figures))
    sys.exit(code)
