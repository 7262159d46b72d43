"""Air Power's geometry for the desk's angle-off board: arc, side, ranges, and whether a gun or
rocket attack is possible from here (and why not)."""

from __future__ import annotations

from typing import Literal

from app.core import hexgrid
from app.core.errors import MissingTableValue
from app.core.ruleset import Piece, Relation
from rulesets.airpower.geometry import (
    ArcRange,
    ArcReading,
    HexPosition,
    attack_beneficial,
    gun_range,
    in_field,
    read_angle_off,
    same_location,
)
from rulesets.airpower.tables import FIELDS, angle_off_modifiers, fields

GUN_MAX_RANGE = 2  # "All aircraft guns have a range of two hexes unless indicated otherwise"
ROCKET_RANGES = range(1, 5)


def _position(p: Piece, who: str) -> HexPosition:
    try:
        return HexPosition(p.x, p.y, int(p.facing))
    except ValueError as e:
        raise ValueError(f"{who}: {e}") from None


def _field(name: str) -> ArcRange | None:
    value = getattr(fields(), name)
    return None if value == "missing" else ArcRange.parse(value)


def _arcs(target: HexPosition) -> tuple[tuple[str, float, float], ...]:
    tail = target.facing + 180
    out = []
    for k in range(30, 181, 30):
        out.append((f"right {k}", hexgrid.normalize(tail + k - 30), hexgrid.normalize(tail + k)))
        out.append((f"left {k}", hexgrid.normalize(tail - k), hexgrid.normalize(tail - k + 30)))
    return tuple(out)


class AirPowerGeometry:
    """The ``Geometry`` of Air Power: hex map, angle-off arcs of rule "Angle-Off"."""

    grid: Literal["hex", "inches"] = "hex"

    def reading(
        self, target: HexPosition, attacker: HexPosition, ts: float, as_: float
    ) -> tuple[ArcReading | None, str]:
        try:
            r = read_angle_off(
                target,
                attacker,
                target_speed=ts,
                attacker_speed=as_,
                beneficial=attack_beneficial(angle_off_modifiers()),
            )
        except MissingTableValue:
            plain = read_angle_off(
                target, attacker, target_speed=ts, attacker_speed=as_, beneficial=lambda a, b: a
            )
            assert plain.borderline is not None
            a, b = plain.borderline
            side = f"{plain.side} " if plain.side else ""
            return None, (
                f"{side}{a} or {b} (borderline: the more beneficial, from the angle-off "
                "modifiers not yet filled in)"
            )
        return r, r.label

    def relate(self, target: Piece, attacker: Piece) -> Relation:
        try:
            t = _position(target, "target")
            a = _position(attacker, "attacker")
        except ValueError as e:
            return Relation(lines=(("Position", str(e)),), attack_allowed=False, why_not=str(e))
        reading, arc_text = self.reading(t, a, target.speed, attacker.speed)
        lines: list[tuple[str, str]] = [("Angle-off", arc_text)]
        if reading is not None:
            lines.append(("Side", reading.side or "on a line"))
            if reading.borderline:
                lines.append(("Borderline", reading.how))
        same = same_location(t, a)
        horizontal = 0 if same else hexgrid.location_distance(t.location, a.location)
        levels = abs(target.altitude - attacker.altitude)
        rng = gun_range(horizontal, target.altitude, attacker.altitude)
        lines += [
            ("Location", "same hex or hex side" if same else f"{horizontal} hex(es) apart"),
            ("Altitude difference", f"{levels} level(s)"),
            ("Gun range", f"{rng} (horizontal {horizontal} + {levels} levels / 2)"),
        ]
        head_on = reading is not None and reading.arc == "180 line"
        lines.append(("Head-on", "yes: return fire possible" if head_on else "no"))

        gun_why = self._gun(t, a, rng, same, levels)
        rocket_why = self._rockets(t, a, horizontal + levels // 2)
        lines.append(("Gun attack", "possible" if not gun_why else "no: " + gun_why))
        lines.append(("Rocket attack", "possible" if not rocket_why else "no: " + rocket_why))
        unknown = "not filled in" in gun_why
        return Relation(
            lines=tuple(lines),
            arcs=_arcs(t),
            attack_allowed=None if unknown else not gun_why,
            why_not=gun_why,
        )

    def _gun(self, t: HexPosition, a: HexPosition, rng: int, same: bool, levels: int) -> str:
        if rng > GUN_MAX_RANGE:
            return f"range {rng} is beyond {GUN_MAX_RANGE} hexes"
        if same and levels:
            note = "in level flight only at the same altitude in the same location"
        elif levels > 1:
            note = "in level flight only at the same or an adjacent level"
        else:
            note = ""
        if not same:
            fof = _field("gun_field_of_fire")
            if fof is None:
                return f"gun field of fire ({FIELDS}) not filled in"
            if not in_field(a, t, fof):
                return f"target outside the gun field of fire ({fof})"
        return "" if not note else f"only climbing or diving ({note})"

    def _rockets(self, t: HexPosition, a: HexPosition, rng: int) -> str:
        if rng == 0:
            return "rocket attacks may not be made at range 0"
        if rng not in ROCKET_RANGES:
            return f"range {rng}: rockets reach 1 to 4 hexes"
        arc = _field("limited_radar_arc")
        if arc is None:
            return f"limited radar arc ({FIELDS}) not filled in"
        if not in_field(a, t, arc):
            return f"target outside the limited radar arc ({arc})"
        return ""
