"""Air Power's angle-off arcs and ranges of arcs, named as the rules name them (rule
"Angle-Off": "Angle-Off Arcs", "Angle-Off Lines", "Ranges of Angle-Off Arcs").

Shared by the table models (the modifier table is keyed by arc, the fields of fire are arc
ranges) and the board geometry; it imports neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

__all__ = ["AngleOff", "ArcRange"]


class AngleOff(StrEnum):
    """The angle-off arcs and lines, named as the rules name them."""

    LINE_0 = "0 line"
    ARC_30 = "30 arc"
    ARC_60 = "60 arc"
    ARC_90 = "90 arc"
    ARC_120 = "120 arc"
    ARC_150 = "150 arc"
    ARC_180 = "180 arc"
    LINE_180 = "180 line"

    @property
    def degrees(self) -> int:
        """The arc's outer bound (0 and 180 for the lines)."""
        return int(self.value.split()[0])

    @property
    def is_line(self) -> bool:
        return self.value.endswith("line")

    @classmethod
    def arc(cls, degrees: int) -> AngleOff:
        """The arc whose outer bound is ``degrees`` (30 ... 180)."""
        return cls(f"{degrees} arc")


@dataclass(frozen=True)
class ArcRange:
    """A range of arcs (rule "Ranges of Angle-Off Arcs"): ``60-`` is the 30 and 60 arcs, ``150+``
    the 150 and 180 arcs, both sides; a bare ``90`` is the one arc."""

    bound: int
    sense: Literal["+", "-", ""]

    @classmethod
    def parse(cls, text: str) -> ArcRange:
        t = text.strip()
        sense = t[-1] if t and t[-1] in "+-" else ""
        try:
            bound = int(t[:-1] if sense else t)
        except ValueError:
            raise ValueError(f"{text!r} is not an arc range such as 60- or 150+") from None
        if bound not in range(30, 181, 30):
            raise ValueError(f"{text!r}: arcs are 30, 60, 90, 120, 150 or 180")
        return cls(bound, sense)  # type: ignore[arg-type]

    @property
    def low(self) -> int:
        """Smallest angle-off (degrees) in the range, borders included."""
        return 0 if self.sense == "-" else self.bound - 30

    @property
    def high(self) -> int:
        return 180 if self.sense == "+" else self.bound

    def contains(self, arc: AngleOff) -> bool:
        """Whether an arc (or line) is in the range; the 0 line goes with the 30 arc and the 180
        line with the 180 arc."""
        deg = 30 if arc is AngleOff.LINE_0 else 180 if arc is AngleOff.LINE_180 else arc.degrees
        return self.low < deg <= self.high

    def __str__(self) -> str:
        return f"{self.bound}{self.sense}"
