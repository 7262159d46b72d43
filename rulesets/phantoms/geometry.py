"""Phantoms on the board (issue 18): aircraft stand in hexes at an altitude level, and the
range for missiles and radar is the hexes apart plus the altitude difference (7.1.1b: "The
range to the target is equal to the number of hexes the firing aircraft is from the target,
plus the difference in altitude between the two aircraft").

The attacker's place relative to the target's facing is computed too: the sector the firing
-position charts name (7.1.1a's heat-seeking charts, 7.2's Gun Firing Position Diagram) and the
aspect of 7.1.1b's radar modifiers. The charts are pictures in the published game; the desk's
reading of them is the hex grid's own: the angle off the target's nose, with the hex rows at 60
and 120 degrees as boundaries -- 0 head on, up to 60 (the row included) the front quarter,
between 60 and 120 the beam, from 120 (the row included) the rear quarter, 180 dead astern. The
radar aspect merges them: front (up to 60), side, rear (from 120). The charts' numbers and the
radar cone's width stay missing data until the umpire fills them in (Tables editor).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from app.core import hexgrid
from app.core.errors import MissingTableValue
from app.core.ruleset import Piece, Relation
from rulesets.phantoms.tables import positions

#: tolerance for the angles read off hex centres
_EPS = 1e-6

Sector = Literal["head on", "front quarter", "beam", "rear quarter", "dead astern"]
Aspect = Literal["front", "side", "rear"]


class Readings(BaseModel):
    """What the board reads of a pair (``Relation.readings``), typed: the range (7.1.1b), the
    altitudes, same hex and altitude (7.1, 7.2) and then the same facing, the firing position
    sector (7.1.1a) and radar aspect (7.1.1b), the Gun Firing Position and its number (7.2),
    inside the radar cone (7.1.1b). A reading the board cannot make is left out (``None``);
    procedures read them through ``readings_of``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    range_hexes: int | None = None
    attacker_altitude: int | None = None
    target_altitude: int | None = None
    same_hex_same_altitude: bool | None = None
    same_facing: bool | None = None
    sector: Sector | None = None
    aspect: Aspect | None = None
    gun_position: str | None = None
    gun_position_modifier: int | None = None
    in_radar_cone: bool | None = None

    def dump(self) -> dict[str, Any]:
        """The readings as the desk keeps them (``Relation.readings``): the ones made."""
        return self.model_dump(exclude_none=True)


def readings_of(readings: Mapping[str, Any]) -> Readings:
    """The board's readings of a pair, typed (a procedure's ``board_inputs``)."""
    return Readings.model_validate(readings)


def board_range(attacker: Piece, target: Piece) -> tuple[int, int, int]:
    """7.1.1b: (hexes apart, altitude difference, range)."""
    hexes = hexgrid.hex_distance((attacker.x, attacker.y), (target.x, target.y))
    levels = abs(attacker.altitude - target.altitude)
    return hexes, levels, hexes + levels


def off_nose(reference: Piece, other: Piece) -> float:
    """Degrees (0 to 180) between ``reference``'s facing and the direction to ``other``."""
    bearing = hexgrid.bearing(reference.x, reference.y, other.x, other.y)
    off = hexgrid.normalize(bearing - reference.facing)
    return min(off, 360.0 - off)


def sector(target: Piece, attacker: Piece) -> Sector:
    """Where the attacker sits relative to the target's facing (see the module's reading)."""
    a = off_nose(target, attacker)
    if a <= _EPS:
        return "head on"
    if a <= 60 + _EPS:
        return "front quarter"
    if a < 120 - _EPS:
        return "beam"
    if a < 180 - _EPS:
        return "rear quarter"
    return "dead astern"


#: 7.1.1b's radar aspects as the sectors merge into them (see the module's reading)
RADAR_ASPECT: dict[str, Aspect] = {
    "head on": "front",
    "front quarter": "front",
    "beam": "side",
    "rear quarter": "rear",
    "dead astern": "rear",
}


def aspect(target: Piece, attacker: Piece) -> Aspect:
    """7.1.1b's radar modifiers fire "from target's front aspect" or "side aspect" (or rear)."""
    return RADAR_ASPECT[sector(target, attacker)]


def gun_position(target: Piece, attacker: Piece, hexes: int, levels: int) -> str | None:
    """The attacker's place on the Gun Firing Position Diagram (7.2) as the desk names it:
    the same hex (same altitude or one level apart) or an adjacent hex by sector; ``None``
    beyond gun reach."""
    if hexes == 0:
        return {0: "same hex, same altitude", 1: "same hex, one level apart"}.get(levels)
    if hexes == 1 and levels <= 1:
        return f"adjacent, {sector(target, attacker)}"
    return None


def in_radar_cone(attacker: Piece, target: Piece, width_degrees: float) -> bool:
    """7.1.1b: the target is in the cone ``width_degrees`` wide centred on the attacker's
    facing, its edges included."""
    return off_nose(attacker, target) <= width_degrees / 2 + _EPS


def radar_cone_arc(attacker: Piece, width_degrees: float) -> tuple[str, float, float]:
    """7.1.1b: the radar cone for the board to draw around the attacker (degrees
    counter-clockwise from +x), ``width_degrees`` wide centred on its facing."""
    half = width_degrees / 2
    return (
        "radar cone",
        hexgrid.normalize(attacker.facing - half),
        hexgrid.normalize(attacker.facing + half),
    )


def sector_arcs(target: Piece) -> tuple[tuple[str, float, float], ...]:
    """The firing-position sectors around the target for the board to draw (degrees
    counter-clockwise from +x): the quarters between the hex rows at 60 and 120 off its nose."""
    f = target.facing
    spans = (
        ("front quarter right", -60, 0),
        ("front quarter left", 0, 60),
        ("beam left", 60, 120),
        ("rear quarter left", 120, 180),
        ("rear quarter right", 180, 240),
        ("beam right", 240, 300),
    )
    return tuple((name, hexgrid.normalize(f + a), hexgrid.normalize(f + b)) for name, a, b in spans)


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
        if hexes == 0 and levels == 0:  # 7.2: only the same facing may fire there
            readings["same_facing"] = hexgrid.normalize(attacker.facing - target.facing) == 0
        lines = [
            ("Hexes apart", str(hexes)),
            ("Altitude difference", f"{levels} level(s)"),
            ("Range (7.1.1b)", f"{rng} = {hexes} hexes + {levels} levels"),
        ]
        if hexes:
            where = sector(target, attacker)
            lines.append(("Firing position (7.1.1a)", where))
            lines.append(("Radar aspect (7.1.1b)", aspect(target, attacker)))
            readings["sector"] = where
            readings["aspect"] = aspect(target, attacker)
        gun = gun_position(target, attacker, hexes, levels)
        if gun is not None:
            lines.append(("Gun Firing Position (7.2)", gun))
            readings["gun_position"] = gun
            try:
                readings["gun_position_modifier"] = positions().modifier("gun", gun)
            except MissingTableValue:
                lines.append(("Gun position number", "not filled in (Tables editor)"))
        lines.append(self._cone(attacker, target, hexes, readings))
        width = positions().radar_cone.width_degrees
        cone = (radar_cone_arc(attacker, width),) if isinstance(width, int) else ()
        return Relation(
            lines=tuple(lines),
            arcs=sector_arcs(target),
            readings=Readings.model_validate(readings).dump(),
            attacker_arcs=cone,
        )

    @staticmethod
    def _cone(
        attacker: Piece, target: Piece, hexes: int, readings: dict[str, Any]
    ) -> tuple[str, str]:
        width = positions().radar_cone.width_degrees
        if not isinstance(width, int):
            return ("Radar cone (7.1.1b)", "its width is not filled in (Tables editor)")
        if hexes == 0:
            return ("Radar cone (7.1.1b)", "same hex: no bearing")
        inside = in_radar_cone(attacker, target, width)
        readings["in_radar_cone"] = inside
        return ("Radar cone (7.1.1b)", "target inside" if inside else "target outside")
