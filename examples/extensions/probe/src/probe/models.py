from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated


@dataclass(frozen=True)
class Reading:
    """A measured duration; missing elapsed_s means no measurement."""

    elapsed_s: Annotated[float | None, "Seconds, or None when not measured."]
    labels: list[str] = field(default_factory=list)
