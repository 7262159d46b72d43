"""Phantoms on the board (issue 18): aircraft stand in hexes at an altitude level, and the
range for missiles and radar is the hexes apart plus the altitude difference (7.1.1b: "The
range to the target is equal to the number of hexes the firing aircraft is from the target,
plus the difference in altitude between the two aircraft").

The radar cone and the Gun Firing Position Diagram are not read off the board yet: the umpire
still types the firing position.
"""

from __future__ import annotations

from typing import Any, Literal

from app.core import hexgrid
from app.core.ruleset import Piece, Relation


def board_range(attacker: Piece, target: Piece) -> tuple[int, int, int]:
    """7.1.1b: (hexes apart, altitude difference, range)."""
    hexes = hexgrid.hex_distance((attacker.x, attacker.y), (target.x, target.y))
    levels = abs(attacker.altitude - target.altitude)
    return hexes, levels, hexes + levels


class PhantomsGeometry:
    """The ``Geometry`` of Phantoms: a hex map, one aircraft per hex centre."""

    grid: Literal["hex", "inches"] = "hex"

    def check_position(self, x: float, y: float, facing: int) -> None:
        """Aircraft stand in hexes (not on hex sides) facing a hex side (6.0)."""
        if not hexgrid.is_centre(x, y):
            raise ValueError(
                f"({x:g}, {y:g}) is not a hex centre: Phantoms aircraft stand in hexes"
            )
        if facing % 60 != 30:  # from a centre, 30, 90, 150 ... face the six hex sides
            raise ValueError(f"facing {facing} is not towards a hex side (30, 90, 150 ...)")

    def relate(self, target: Piece, attacker: Piece) -> Relation:
        try:
            hexes, levels, rng = board_range(attacker, target)
        except ValueError as e:
            return Relation(lines=(("Position", str(e)),), attack_allowed=False, why_not=str(e))
        readings: dict[str, Any] = {
            "range_hexes": rng,
            "attacker_altitude": attacker.altitude,
            "target_altitude": target.altitude,
            "same_hex_same_altitude": hexes == 0 and levels == 0,
        }
        return Relation(
            lines=(
                ("Hexes apart", str(hexes)),
                ("Altitude difference", f"{levels} level(s)"),
                ("Range (7.1.1b)", f"{rng} = {hexes} hexes + {levels} levels"),
            ),
            readings=readings,
        )
