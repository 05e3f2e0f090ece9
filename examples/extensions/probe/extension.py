"""A packaged extension (G3): tools in this file, records in src/probe/models.py."""
from __future__ import annotations

from typing import Annotated

import blockether.vis.extension as vis
from probe.models import Reading


def measure(
    target: str,
    /,
    *labels: str,
    timeout_s: Annotated[float | None, "Seconds; None disables the timeout."] = None,
    **options: bool,
) -> Reading:
    """Measure one target. Requires a known target; does not change it."""
    return Reading(elapsed_s=None, labels=list(labels))


def query(*, dry_run: bool = False, limit: int = 200, since: str = "1h", services=()):
    """Query services without changing them."""
    return []


vis.register_extension(vis.Extension(
    name="probe",
    description="Measures targets.",
    alias="probe",
    symbols=[
        vis.Symbol(measure, name="probe", activity=vis.Activity("generic", label="Measure target")),
        vis.Symbol(query, activity=vis.Activity("generic", label="Query services")),
    ],
    env=["PROBE_TOKEN"],
))
