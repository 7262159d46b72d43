"""Air Power's board: angle-off arcs (rule "Angle-Off") on the map's hex grid, gun range, and the
``Geometry`` the desk's angle-off board reads (arc, side, ranges, whether a gun or rocket attack
is possible from here and why not).

The map conventions (columns, hex sides, facings) are ``app.core.hexgrid``'s and API.md's. The
target defines the line of flight; the angle-off is the horizontal angle between the line
extending behind the target and the line from the target to the attacker, described in 30
degree arcs to the left and right ("Angle-Off Arcs"). The lines bounding the arcs run from the
target's location every 30 degrees, so they follow the hex rows and spines of the grid for a
target in a hex facing a side, in a hex facing a corner and on a hex side alike.

Borderline cases are resolved as "Angle-Off Procedure for Attack Modifiers" says (and, for the
other uses of the arcs, as the three procedures after it say): move the faster element forward;
if it stays on the line, or neither is faster, the attacker is in the adjacent arc with the more
beneficial modifier, read from the angle-off rows of the gun and rocket modifier table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from app.core import hexgrid
from app.core.errors import MissingTableValue
from app.core.ruleset import Piece, Relation
from rulesets.airpower.arcs import AngleOff, ArcRange
from rulesets.airpower.tables import FIELDS, angle_off_modifiers, fields

__all__ = [
    "ANGLE_OFF_RULE",
    "AirPowerGeometry",
    "AngleOff",
    "ArcRange",
    "ArcReading",
    "HexPosition",
    "Purpose",
    "Side",
    "angle_off",
    "attack_beneficial",
    "gun_range",
    "has_advantage",
    "in_field",
    "in_sighting_arc",
    "read_angle_off",
    "relative_angle",
    "same_location",
]

ANGLE_OFF_RULE = "Air Power, Angle-Off"
_EPS = 1e-7

Side = Literal["left", "right"]
Purpose = Literal["attack", "sighting", "advantage"]


@dataclass(frozen=True)
class HexPosition:
    """A piece on the map: a hex centre or hex side, facing in degrees counter-clockwise from +x.

    In a hex centre the facing is a multiple of 30 (30, 90, 150 ... face hex sides; 0, 60, 120
    ... face hex corners); on a hex side it is parallel to the side. ``ValueError`` otherwise.
    The facing is kept in ``[0, 360)``.
    """

    x: float
    y: float
    facing: int

    def __post_init__(self) -> None:
        if isinstance(self.facing, bool) or not isinstance(self.facing, int):
            raise ValueError(f"facing {self.facing!r} is not a whole number of degrees")
        where = hexgrid.kind(self.x, self.y)
        facing = self.facing % 360
        allowed = hexgrid.valid_directions(self.x, self.y)
        if facing not in allowed:
            what = (
                "a multiple of 30 degrees in a hex centre"
                if where == "centre"
                else f"parallel to the hex side ({allowed[0]} or {allowed[1]})"
            )
            raise ValueError(f"facing {self.facing} at ({self.x}, {self.y}) must be {what}")
        object.__setattr__(self, "facing", facing)

    @property
    def on_side(self) -> bool:
        return hexgrid.kind(self.x, self.y) == "side"

    @property
    def location(self) -> tuple[float, float]:
        return (self.x, self.y)

    def forward(self) -> HexPosition:
        """One location straight ahead, same facing."""
        return HexPosition(*hexgrid.step(self.x, self.y, self.facing), self.facing)


def same_location(a: HexPosition, b: HexPosition) -> bool:
    """Whether two pieces share a hex or hex side."""
    return abs(a.x - b.x) < _EPS and abs(a.y - b.y) < _EPS


def _physical(p: HexPosition) -> tuple[float, float]:
    return hexgrid.physical(p.x, p.y)


def _cross(a: tuple[float, float], b: tuple[float, float]) -> float:
    return a[0] * b[1] - a[1] * b[0]


def relative_angle(target: HexPosition, attacker: HexPosition) -> float:
    """Signed angle in degrees ``(-180, 180]`` from the target's tail to the attacker's location:
    negative on the target's left, positive on its right. ``ValueError`` for the same location."""
    if same_location(target, attacker):
        raise ValueError("the attacker and target are in the same location")
    t, a = _physical(target), _physical(attacker)
    r = (a[0] - t[0], a[1] - t[1])
    tail = hexgrid.direction(target.facing + 180)
    # clockwise from the tail is the target's left, counter-clockwise its right
    rel = math.degrees(math.atan2(_cross(tail, r), tail[0] * r[0] + tail[1] * r[1]))
    if rel <= -180 + _EPS:
        rel = 180.0
    return 0.0 if abs(rel) < _EPS else rel


def _side_of(rel: float) -> Side:
    return "left" if rel < 0 else "right"


@dataclass(frozen=True)
class ArcReading:
    """Where the attacker is: the arc or line, the side (``None`` on a line or when either side
    is the same), the two arcs of a borderline it sat on, and how the borderline was decided."""

    arc: AngleOff
    side: Side | None
    borderline: tuple[AngleOff, AngleOff] | None = None
    how: str = ""
    degrees: float | None = None

    @property
    def label(self) -> str:
        return f"{self.side} {self.arc}" if self.side else str(self.arc)


#: the more beneficial of two adjacent arcs; ``None`` when neither is (equal modifiers)
BeneficialFn = Callable[[AngleOff, AngleOff], AngleOff | None]


def _facing_difference(target: HexPosition, attacker: HexPosition) -> ArcReading:
    d = (attacker.facing - target.facing) % 360
    if d == 0:
        return ArcReading(AngleOff.LINE_0, None, how="same location, same facing", degrees=0)
    if d == 180:
        return ArcReading(
            AngleOff.LINE_180, None, how="same location, opposite facing", degrees=180
        )
    side: Side = "left" if d < 180 else "right"
    arc = AngleOff.arc(d if d < 180 else 360 - d)
    return ArcReading(arc, side, how=f"same location, facing difference {arc.degrees}")


def _moved(rel: float, turn: float) -> float:
    """``rel`` after the attacker's bearing turns by the (tiny, signed) ``turn`` degrees."""
    out = rel + turn
    if out > 180:
        out -= 360
    if out <= -180:
        out += 360
    return out


def _arc_after(rel: float, sense: float) -> tuple[AngleOff, Side] | None:
    """The arc an attacker on the borderline at ``rel`` moves into when its bearing from the
    target turns the way ``sense`` says (sign only); ``None`` if it stays on the line."""
    if abs(sense) < _EPS:
        return None
    after = _moved(rel, math.copysign(1e-3, sense))
    m = abs(after)
    return AngleOff.arc(int(math.ceil(m / 30 - 1e-9) * 30)), _side_of(after)


def _attacker_moves(target: HexPosition, attacker: HexPosition, rel: float) -> float:
    """Sign of the change of ``rel`` if the attacker moves forward along its facing."""
    t, a = _physical(target), _physical(attacker)
    r = (a[0] - t[0], a[1] - t[1])
    # a counter-clockwise turn of the bearing increases rel (see relative_angle)
    return _cross(r, hexgrid.direction(attacker.facing))


def _target_moves(target: HexPosition, attacker: HexPosition, rel: float) -> float:
    t, a = _physical(target), _physical(attacker)
    r = (a[0] - t[0], a[1] - t[1])
    d = hexgrid.direction(target.facing)
    return _cross(r, (-d[0], -d[1]))


def read_angle_off(
    target: HexPosition,
    attacker: HexPosition,
    *,
    target_speed: float,
    attacker_speed: float,
    purpose: Purpose = "attack",
    beneficial: BeneficialFn | None = None,
    equal_speed_moves_target: bool = False,
    attacker_is_ground: bool = False,
    equal_modifiers_heading: bool = False,
) -> ArcReading:
    """The attacker's angle-off arc and side relative to the target (rule "Angle-Off").

    ``purpose`` picks the borderline procedure: ``"attack"`` (gun, rocket and missile attack
    modifiers), ``"sighting"`` (restricted and blind arcs: the sighting aircraft is ``target``,
    the sighted element ``attacker``) or ``"advantage"`` (the aircraft seeking advantage is
    ``target``). ``beneficial(a, b)`` names the more beneficial of two adjacent arcs (for
    attacks, from the modifier table); ``equal_speed_moves_target`` is the original wording,
    whose examples treat equal speeds as the target being faster. When the two arcs benefit
    equally (``beneficial`` returns ``None``), the more rearward arc is taken, or with
    ``equal_modifiers_heading`` the one the attacker heads into. A ground unit is always slower
    than an aircraft.
    """
    if same_location(target, attacker):
        return _facing_difference(target, attacker)
    rel = relative_angle(target, attacker)
    m = abs(rel)
    if m > _EPS and m < 180 - _EPS and abs(m / 30 - round(m / 30)) > 1e-9:
        arc = AngleOff.arc(int(math.ceil(m / 30)) * 30)
        return ArcReading(arc, _side_of(rel), how="inside the arc", degrees=m)

    # on one of the lines every 30 degrees
    if m <= _EPS:
        if attacker.facing == target.facing:
            return ArcReading(AngleOff.LINE_0, None, how="on the 0 line facing along it", degrees=0)
        pair = (AngleOff.ARC_30, AngleOff.ARC_30)
    elif m >= 180 - _EPS:
        if attacker.facing == (target.facing + 180) % 360:
            return ArcReading(
                AngleOff.LINE_180, None, how="on the 180 line facing along it", degrees=180
            )
        pair = (AngleOff.ARC_180, AngleOff.ARC_180)
    else:
        k = int(round(m / 30)) * 30
        pair = (AngleOff.arc(k), AngleOff.arc(k + 30))

    attacker_sense = _attacker_moves(target, attacker, rel)
    target_sense = _target_moves(target, attacker, rel)
    a_speed = attacker_speed
    t_speed = target_speed
    if attacker_is_ground:
        a_speed, t_speed = 0.0, max(t_speed, 1.0)
    steps: list[tuple[str, float]] = []
    if t_speed < a_speed:
        steps.append(("the attacker is faster and moves forward", attacker_sense))
        if purpose != "attack":
            steps.append(("it stays on the line, so the reference aircraft moves", target_sense))
    elif t_speed > a_speed or equal_speed_moves_target:
        why = "faster" if t_speed > a_speed else "as fast (original wording)"
        steps.append((f"the target is {why} and moves forward", target_sense))
    for why, sense in steps:
        moved = _arc_after(rel if m < 180 - _EPS else 180.0, sense)
        if moved is not None:
            return ArcReading(moved[0], moved[1], pair, why, m)

    # still on the line, or neither is faster: the more beneficial adjacent arc
    side: Side | None = None
    own = _arc_after(rel if m < 180 - _EPS else 180.0, attacker_sense)
    if pair[0] == pair[1]:
        side = own[1] if own else None
        return ArcReading(
            pair[0],
            side,
            pair,
            "on the line between the left and right arcs"
            + (f"; the {side} side is where it heads" if side else ""),
            m,
        )
    side = _side_of(rel)
    if beneficial is None:
        raise ValueError(f"borderline between {pair[0]} and {pair[1]}: no tie-break given")
    chosen = beneficial(*pair)
    why = "neither is faster" if not steps else "it stays on the borderline"
    if chosen is not None:
        return ArcReading(chosen, side, pair, f"{why}: the more beneficial arc", m)
    heading = own[0] if own is not None else None
    if equal_modifiers_heading and heading in pair:
        return ArcReading(heading, side, pair, f"{why}, equal modifiers: the arc it heads into", m)
    return ArcReading(pair[0], side, pair, f"{why}, equal modifiers: the more rearward arc", m)


def attack_beneficial(
    modifiers: Mapping[AngleOff, int | str], table: str = "angle-off modifiers"
) -> BeneficialFn:
    """The adjacent arc with the lower (better) hit-roll modifier; ``None`` on equal modifiers
    (``read_angle_off`` then decides by the game's reading)."""

    def pick(a: AngleOff, b: AngleOff) -> AngleOff | None:
        values = []
        for arc in (a, b):
            v = modifiers.get(arc, "missing")
            if not isinstance(v, int):
                raise MissingTableValue(table, f"angle-off {arc}", ANGLE_OFF_RULE)
            values.append(v)
        if values[0] == values[1]:
            return None
        return b if values[1] < values[0] else a

    return pick


def angle_off(
    target: HexPosition,
    attacker: HexPosition,
    *,
    target_speed: float,
    attacker_speed: float,
    modifiers: Mapping[AngleOff, int | str] | None = None,
    original_wording: bool = False,
    equal_modifiers_heading: bool = False,
) -> AngleOff:
    """The angle-off arc for an attack (rule "Angle-Off Procedure for Attack Modifiers").

    ``modifiers`` are the angle-off hit modifiers used for the "more beneficial" tie-break;
    by default the ruleset's table (with the umpire's values). A tie-break that needs a cell the
    rules text does not print raises ``MissingTableValue``.
    """
    if modifiers is None:
        modifiers = angle_off_modifiers()
    return read_angle_off(
        target,
        attacker,
        target_speed=target_speed,
        attacker_speed=attacker_speed,
        beneficial=attack_beneficial(modifiers),
        equal_speed_moves_target=original_wording,
        equal_modifiers_heading=equal_modifiers_heading,
    ).arc


def in_field(reference: HexPosition, element: HexPosition, field: ArcRange | str) -> bool:
    """Whether ``element`` is in the sensor, jammer or designator field of ``reference``
    (rule "Angle-Off Procedure for Other Cases"): borders included, speeds ignored. In the same
    location the facing difference decides."""
    rng = ArcRange.parse(field) if isinstance(field, str) else field
    if same_location(reference, element):
        d = (element.facing - reference.facing) % 360
        m = float(min(d, 360 - d))
    else:
        m = abs(relative_angle(reference, element))
    return rng.low - _EPS <= m <= rng.high + _EPS


def in_sighting_arc(
    sighting: HexPosition,
    element: HexPosition,
    arcs: ArcRange | str,
    *,
    sighting_speed: float,
    element_speed: float,
    element_is_ground: bool = False,
    original_wording: bool = False,
) -> bool:
    """Whether ``element`` is in the restricted or blind arcs ``arcs`` of ``sighting`` (rule
    "Angle-Off Procedure for Restricted and Blind Arcs"). A borderline still undecided goes the
    way that benefits the element being sighted (original wording, "In sighting attempts, the
    arc that benefits the aircraft being sighted"): inside the restricted or blind arcs. A
    ground unit is always slower than the aircraft. In the original wording equal speeds move
    the sighting aircraft forward ("use the arc that would result if the reference were moved
    forward")."""
    rng = ArcRange.parse(arcs) if isinstance(arcs, str) else arcs
    r = read_angle_off(
        sighting,
        element,
        target_speed=sighting_speed,
        attacker_speed=element_speed,
        purpose="sighting",
        beneficial=lambda a, b: a if rng.contains(a) else b,
        attacker_is_ground=element_is_ground,
        equal_speed_moves_target=original_wording,
    )
    return rng.contains(r.arc)


def has_advantage(
    seeker: HexPosition,
    other: HexPosition,
    arcs: ArcRange | str,
    *,
    seeker_speed: float,
    other_speed: float,
    original_wording: bool = False,
) -> bool:
    """Whether ``other`` is in the arcs ``arcs`` of ``seeker`` that give advantage (rule
    "Angle-Off Procedure for Advantage"; the arc ranges are the initiative rule's). A borderline
    still undecided goes the way that benefits the potentially disadvantaged aircraft (original
    wording: "the arc that benefits the aircraft being considered for potential disadvantage")."""
    rng = ArcRange.parse(arcs) if isinstance(arcs, str) else arcs
    r = read_angle_off(
        seeker,
        other,
        target_speed=seeker_speed,
        attacker_speed=other_speed,
        purpose="advantage",
        beneficial=lambda a, b: a if not rng.contains(a) else b,
        equal_speed_moves_target=original_wording,
    )
    return rng.contains(r.arc)


def gun_range(horizontal: int, target_altitude: int, attacker_altitude: int) -> int:
    """Gun range (rule "Air-to-Air Gun Combat, Range"): horizontal range plus the altitude
    difference in levels divided by two, rounded down."""
    if horizontal < 0:
        raise ValueError("a horizontal range cannot be negative")
    return horizontal + abs(target_altitude - attacker_altitude) // 2


# -- the desk's angle-off board --------------------------------------------------------------

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
    """The ``Geometry`` of Air Power: hex map, angle-off arcs of rule "Angle-Off"; with the
    original wording, equal speeds on a borderline move the target forward (its examples)."""

    grid: Literal["hex", "inches"] = "hex"

    def __init__(
        self,
        *,
        original_wording: bool = False,
        equal_modifiers_heading: bool = False,
        range_typed: bool = False,
    ) -> None:
        self.original_wording = original_wording
        self.equal_modifiers_heading = equal_modifiers_heading
        #: the horizontal range is read off Figure "air-to-air gun attacks" by the umpire: the
        #: board shows the hexes apart but does not fill the attack's field
        self.range_typed = range_typed

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
                equal_speed_moves_target=self.original_wording,
                equal_modifiers_heading=self.equal_modifiers_heading,
            )
        except MissingTableValue:
            plain = read_angle_off(
                target,
                attacker,
                target_speed=ts,
                attacker_speed=as_,
                beneficial=lambda a, b: a,
                equal_speed_moves_target=self.original_wording,
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
        readings: dict[str, Any] = {
            "same_location": same,
            "attacker_altitude": attacker.altitude,
            "target_altitude": target.altitude,
        }
        if not self.range_typed:
            readings["horizontal_range"] = horizontal
        if reading is not None:
            readings["angle_off"] = reading.arc
        return Relation(
            lines=tuple(lines),
            arcs=_arcs(t),
            attack_allowed=None if unknown else not gun_why,
            why_not=gun_why,
            readings=readings,
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
