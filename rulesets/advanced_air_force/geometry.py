"""Advanced Air Force on the board (issue 18): aircraft in hexes, altitudes in feet; the board
reads the hexes apart, the altitude difference and the attacker's clock position on the target
(rule 12: 2, 4, 8 and 10 o'clock are High Deflection), and whether the target is directly ahead
of the attacker in a straight path of hexes or in its 12 o'clock (rule 2: what fixed guns
need). The range for the fire table combines the first two by the game's reading (rules 1, 4:
the ``range_adds_altitude`` variant), so it is left to the Gun range calculator, which the
board's numbers fill.
"""

from __future__ import annotations

from typing import Any, Literal

from app.core import hexgrid
from app.core.ruleset import Piece, Relation

from .entry import HIGH_DEFLECTION_CLOCK


def clock(target: Piece, attacker: Piece) -> int:
    """The attacker's position on the target's clock: 12 dead ahead, 3 to its right, 6
    astern, 9 to its left (30 degrees each, hex facings counter-clockwise from +x)."""
    bearing = hexgrid.bearing(target.x, target.y, attacker.x, attacker.y)
    off = hexgrid.normalize(target.facing - bearing)  # clockwise from the target's nose
    hour = round(off / 30) % 12
    return 12 if hour == 0 else hour


def straight_ahead(attacker: Piece, target: Piece) -> bool:
    """Rule 2: the target "directly ahead in a straight path of hexes": on the line of hexes
    the attacker faces along (its bearing from the attacker is the attacker's facing)."""
    bearing = hexgrid.bearing(attacker.x, attacker.y, target.x, target.y)
    off = hexgrid.normalize(bearing - attacker.facing)
    return min(off, 360 - off) < 1e-6


def clock_arcs(target: Piece) -> tuple[tuple[str, float, float], ...]:
    """The twelve clock positions around the target for the board to draw, 30 degrees each
    centred on its hour (degrees counter-clockwise from +x; 12 o'clock dead ahead)."""
    out = []
    for hour in range(1, 13):
        centre = target.facing - 30 * hour
        out.append((f"{hour}", hexgrid.normalize(centre - 15), hexgrid.normalize(centre + 15)))
    return tuple(out)


class AdvancedAirForceGeometry:
    """The ``Geometry`` of Advanced Air Force: a hex map, one aircraft per hex centre."""

    grid: Literal["hex", "inches"] = "hex"

    def check_position(self, x: float, y: float, facing: int) -> None:
        if not hexgrid.is_centre(x, y):
            raise ValueError(f"({x:g}, {y:g}) is not a hex centre: aircraft fly hex to hex")

    def relate(self, target: Piece, attacker: Piece) -> Relation:
        try:
            hexes = hexgrid.hex_distance((attacker.x, attacker.y), (target.x, target.y))
            at = clock(target, attacker) if hexes else None
        except ValueError as e:
            return Relation(lines=(("Position", str(e)),), attack_allowed=False, why_not=str(e))
        feet = target.altitude - attacker.altitude
        readings: dict[str, Any] = {"horizontal_hexes": hexes, "altitude_difference_ft": feet}
        lines = [
            ("Hexes apart", str(hexes)),
            ("Target altitude", f"{feet:+d} ft" if feet else "same altitude"),
        ]
        if at is not None:
            readings["target_clock"] = at
            hd = " (High Deflection, rule 12)" if at in HIGH_DEFLECTION_CLOCK else ""
            lines.append(("Attacker at the target's", f"{at} o'clock{hd}"))
            ahead = straight_ahead(attacker, target)
            noon = clock(attacker, target) == 12
            readings["target_straight_ahead"] = ahead
            readings["target_at_12_oclock"] = noon
            said = "straight ahead (rule 2)" if ahead else "12 o'clock" if noon else "not ahead"
            lines.append(("Target from the attacker", said))
        return Relation(lines=tuple(lines), arcs=clock_arcs(target), readings=readings)
