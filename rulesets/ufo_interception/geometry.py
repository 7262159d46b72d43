"""How two pieces relate on a table measured in inches (UFO rules, Firing and Movement)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal

from app.core.ruleset import Piece, Relation

from .card import MISSILE_DATA
from .tables import arcs

#: "Cannon. Range 6 inches"
CANNON_RANGE = 6


def inches(n: float | Fraction) -> str:
    """A distance in words: "1 inch", "1/2 inch", "12 inches" (a narrative read aloud)."""
    return f"{n} inch" if 0 < n <= 1 else f"{n} inches"


def off_the_nose(target: Piece, attacker: Piece) -> float:
    """Bearing of the target from the attacker's nose, -180..180 degrees (left positive)."""
    angle = math.degrees(math.atan2(target.y - attacker.y, target.x - attacker.x))
    return (angle - attacker.facing + 180) % 360 - 180


class InchesGeometry:
    """Range in inches and the bearing off the attacker's nose, with the weapon ranges.

    The text names a "forward arc" (cannon) and a "front arc" (missile lock) without giving
    their width: until the umpire fills the widths in (Tables editor, arcs) the bearing is
    shown for the umpire to judge; once filled, the board says whether the target is inside
    (edges included) and fills the cannon's forward-arc box.
    """

    def __init__(self) -> None:
        self.grid: Literal["hex", "inches"] = "inches"

    def relate(self, target: Piece, attacker: Piece) -> Relation:
        rng = math.hypot(target.x - attacker.x, target.y - attacker.y)
        bearing = off_the_nose(target, attacker)

        def reach(limit: int) -> str:
            return f"in range ({limit} in)" if rng <= limit else f"out of range ({limit} in)"

        widths = arcs()
        readings: dict[str, Any] = {}
        lines = [
            ("Range", f"{rng:.1f} in"),
            ("Bearing off the nose", f"{bearing:+.0f} deg"),
            ("Cannon", reach(CANNON_RANGE)),
            *((d.name, reach(d.range_inches)) for d in MISSILE_DATA.values()),
            ("Ray gun", f"charge minus {math.floor(rng)} dice (any direction)"),
        ]
        cannon = widths.cannon_forward_arc_degrees
        if isinstance(cannon, int):
            inside = abs(bearing) <= cannon / 2 + 1e-9
            readings["in_forward_arc"] = inside
            lines.append(("Cannon forward arc", "target inside" if inside else "target outside"))
        else:
            lines.append(("Cannon forward arc", "its width is not filled in (Tables editor)"))
        front = widths.missile_front_arc_degrees
        if isinstance(front, int):
            ahead = abs(bearing) <= front / 2 + 1e-9
            lines.append(("Missile front arc", "target inside" if ahead else "target outside"))
        why = "" if isinstance(cannon, int) else "no width for the forward arc yet: judge it"
        return Relation(tuple(lines), attack_allowed=None, why_not=why, readings=readings)
