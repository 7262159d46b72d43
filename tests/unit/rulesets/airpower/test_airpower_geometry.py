"""Air Power rule "Angle-Off": arcs, lines, borderlines, same-location attacks, arc ranges.

The figures are not in the rules text, so the positions of the worked example ("Angle-Off
Procedure for Attack Modifiers": targets A1/A2/A3, attackers B1/B2/B3 and C1/C2/C3) are built
here from what the text says of them:

- Figure "facing hex side": A1 in a hex facing a side; C1 on the 0 line facing the target; B1
  on the border of the right 150 and 180 arcs.
- Figure "facing hex corner": A2 in a hex facing a corner; C2 inside the right 90 arc; B2 on the
  border of the right 60 and 90 arcs, facing along it.
- Figure "on hex side": A3 on a hex side; B3 on the border of the left 90 and 120 arcs; C3 on the
  0 line but not facing the target.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core import hexgrid
from app.core.errors import MissingTableValue
from rulesets.airpower.geometry import (
    AngleOff,
    ArcRange,
    HexPosition,
    angle_off,
    gun_range,
    in_field,
    read_angle_off,
)
from rulesets.airpower.tables import angle_off_modifiers

A1 = HexPosition(0, 0, 90)  # facing a hex side (north)
C1 = HexPosition(0, -2, 90)
B1 = HexPosition(2, 3, 270)
A2 = HexPosition(0, 0, 0)  # facing a hex corner (east)
C2 = HexPosition(-1, -2.5, 60)
B2 = HexPosition(-2, -3, 60)
A3 = HexPosition(1, 0, 0)  # on a hex side, along it
B3 = HexPosition(1, 1.5, 30)
C3 = HexPosition(0, 0, 30)

# Not the game's values (the table is not in the rules text): two made-up monotone tables, used
# only to check that the tie-break follows whatever the umpire enters.
REAR_BETTER = {
    AngleOff.LINE_0: -1,
    AngleOff.ARC_30: 0,
    AngleOff.ARC_60: 1,
    AngleOff.ARC_90: 2,
    AngleOff.ARC_120: 3,
    AngleOff.ARC_150: 4,
    AngleOff.ARC_180: 5,
    AngleOff.LINE_180: 3,
}
FRONT_BETTER = {k: -v for k, v in REAR_BETTER.items()}


def reading(t: HexPosition, a: HexPosition, ts: float, as_: float, table=REAR_BETTER) -> str:
    r = read_angle_off(
        t,
        a,
        target_speed=ts,
        attacker_speed=as_,
        beneficial=lambda x, y: y if table[y] < table[x] else x,
    )
    return r.label


def test_positions_are_valid_map_positions() -> None:
    assert A3.on_side and not A1.on_side
    with pytest.raises(ValueError):
        HexPosition(1, 0, 90)  # a hex side runs east-west here
    with pytest.raises(ValueError):
        HexPosition(0, 0, 45)
    with pytest.raises(ValueError):
        HexPosition(0.25, 0, 0)


def test_unambiguous_c1_and_c2() -> None:
    """Angle-Off: "C1 is unambiguously on the 0 line, and C2 is unambiguously in the right 90
    arc"."""
    for ts, as_ in [(5, 7), (7, 5), (6, 6)]:
        assert reading(A1, C1, ts, as_) == "0 line"
        assert reading(A2, C2, ts, as_) == "right 90 arc"


def test_targets_slower() -> None:
    """Angle-Off: "If the targets were slower ... B1 would be in the right 150 arc, B2 in the
    adjacent arc (right 60 or 90) that would give it the more beneficial modifier, B3 in the
    left 120 arc, and C3 in the left 30 arc"."""
    assert reading(A1, B1, 5, 7) == "right 150 arc"
    assert reading(A2, B2, 5, 7, REAR_BETTER) == "right 60 arc"
    assert reading(A2, B2, 5, 7, FRONT_BETTER) == "right 90 arc"
    assert reading(A3, B3, 5, 7) == "left 120 arc"
    assert reading(A3, C3, 5, 7) == "left 30 arc"


def test_targets_faster() -> None:
    """Angle-Off: "if the targets were faster ..., B2 would be in the right 60 arc, B3 in the left
    90 arc, and the other arcs would be unchanged"."""
    for table in (REAR_BETTER, FRONT_BETTER):
        assert reading(A1, B1, 7, 5, table) == "right 150 arc"
        assert reading(A2, B2, 7, 5, table) == "right 60 arc"
        assert reading(A3, B3, 7, 5, table) == "left 90 arc"
        assert reading(A3, C3, 7, 5, table) == "left 30 arc"


def test_same_speed_takes_the_more_beneficial_arc() -> None:
    """Angle-Off: "if the target and attacker were to have the same speed, then B1, B2, B3, and
    C3 would be in the adjacent arcs that would give them the more beneficial modifiers"."""
    assert reading(A1, B1, 6, 6, REAR_BETTER) == "right 150 arc"
    assert reading(A1, B1, 6, 6, FRONT_BETTER) == "right 180 arc"
    assert reading(A2, B2, 6, 6, REAR_BETTER) == "right 60 arc"
    assert reading(A2, B2, 6, 6, FRONT_BETTER) == "right 90 arc"
    assert reading(A3, B3, 6, 6, REAR_BETTER) == "left 90 arc"
    assert reading(A3, B3, 6, 6, FRONT_BETTER) == "left 120 arc"
    assert reading(A3, C3, 6, 6) == "left 30 arc"


def test_original_wording_treats_same_speed_as_target_faster() -> None:
    """Angle-Off (original wording): "The examples assume the target aircraft is co-speed or
    faster"; with the other aircraft faster "Phantom B would be in the left 120 arc and Phantom C
    would be in the left 30 arc"."""
    for t, a, expected in [(A1, B1, "150 arc"), (A2, B2, "60 arc"), (A3, B3, "90 arc")]:
        assert angle_off(
            t, a, target_speed=6, attacker_speed=6, modifiers=FRONT_BETTER, original_wording=True
        ) == AngleOff(expected)
    assert angle_off(A3, B3, target_speed=5, attacker_speed=7, modifiers={}) == AngleOff.ARC_120


def test_the_board_reads_by_the_games_wording(_user_data: object) -> None:
    """The board's reading fills the attack form, so it follows the game's variant: with the
    original wording, equal speeds on a borderline move the target forward (Phantom B of the
    example: the 150 arc), where the revised text takes the more beneficial arc (180 with the
    front arcs better: test values)."""
    from app.core.data import save_override
    from app.core.ruleset import Piece
    from app.plugins import load_ruleset

    save_override(
        "airpower", "modifiers", {"angle_off": {str(k): v for k, v in FRONT_BETTER.items()}}
    )
    target = Piece(A1.x, A1.y, A1.facing, 0, 6)
    attacker = Piece(B1.x, B1.y, B1.facing, 0, 6)
    revised = load_ruleset("airpower").geometry
    original = load_ruleset("airpower").bind(["original_wording"]).geometry
    assert revised is not None and original is not None
    assert revised.relate(target, attacker).readings["angle_off"] == AngleOff.ARC_180
    assert original.relate(target, attacker).readings["angle_off"] == AngleOff.ARC_150


def test_equal_modifiers_on_a_borderline_reading() -> None:
    """Angle-Off (open reading): an attacker left on the line takes "the arc that benefits the
    attacker"; with equal modifiers on both arcs the default is the more rearward arc, the
    borderline_equal_heading variant takes the arc the attacker heads into (B3 of the example,
    equal speeds: between the 90 and 120 arcs, heading into the 120; B1 heads into the 150,
    the rearward arc anyway)."""
    flat = {arc: 0 for arc in AngleOff}
    same = {"target_speed": 6, "attacker_speed": 6}
    assert angle_off(A3, B3, modifiers=flat, **same) == AngleOff.ARC_90
    assert angle_off(A3, B3, modifiers=flat, equal_modifiers_heading=True, **same) == (
        AngleOff.ARC_120
    )
    assert angle_off(A1, B1, modifiers=flat, equal_modifiers_heading=True, **same) == (
        AngleOff.ARC_150
    )
    # unequal modifiers: the variant changes nothing (the more beneficial arc)
    for heading in (False, True):
        assert (
            angle_off(A3, B3, modifiers=REAR_BETTER, equal_modifiers_heading=heading, **same)
            == AngleOff.ARC_90
        )


def test_horizontal_gun_range_from_the_board_or_typed() -> None:
    """Air-to-Air Gun Combat, Range (open reading): the horizontal range comes from Figure
    "air-to-air gun attacks", not printed. Default: the board fills it with the hexes between
    the locations; gun_range_from_figure: the board says the hexes apart but leaves the field to
    the umpire."""
    from app.core.ruleset import Piece
    from app.plugins import load_ruleset

    target, attacker = Piece(0, 0, 90, 2, 6), Piece(0, -2, 90, 2, 6)
    board = load_ruleset("airpower").geometry
    typed = load_ruleset("airpower").bind(["gun_range_from_figure"]).geometry
    assert board is not None and typed is not None
    assert board.relate(target, attacker).readings["horizontal_range"] == 2
    relation = typed.relate(target, attacker)
    assert "horizontal_range" not in relation.readings
    assert dict(relation.lines)["Location"] == "2 hex(es) apart"


def test_tie_break_reads_the_umpires_table() -> None:
    """The more beneficial arc comes from the modifier table; the text does not print it."""
    with pytest.raises(MissingTableValue) as e:
        angle_off(A2, B2, target_speed=6, attacker_speed=6)
    assert "angle-off" in str(e.value)
    assert set(angle_off_modifiers().values()) == {"missing"}
    # an unambiguous position needs no table
    assert angle_off(A2, C2, target_speed=6, attacker_speed=6) == AngleOff.ARC_90


def test_lines_only_when_facing_along_them() -> None:
    """Angle-Off Lines: on the 0 or 180 line but not facing along it towards the target is the
    30 or 180 arc."""
    head_on = HexPosition(0, 3, 270)
    assert angle_off(A1, head_on, target_speed=5, attacker_speed=5, modifiers={}) == "180 line"
    crossing = HexPosition(0, 3, 0)
    assert reading(A1, crossing, 5, 7) == "right 180 arc"  # heading east, to A1's right
    assert reading(A1, HexPosition(0, 3, 180), 5, 7) == "left 180 arc"
    assert reading(A1, HexPosition(0, -3, 30), 5, 7) == "right 30 arc"


def test_same_location_uses_the_facing_difference() -> None:
    """Angle-Off Procedure: "if the target faces N and the attacker faces NNW, the facing
    difference is 30, and the attacker is in the target's left 30 arc"; 180 is the 180 line."""
    north = HexPosition(0, 0, 90)
    assert reading(north, HexPosition(0, 0, 120), 5, 5) == "left 30 arc"
    assert reading(north, HexPosition(0, 0, 60), 5, 5) == "right 30 arc"
    assert reading(north, HexPosition(0, 0, 240), 5, 5) == "left 150 arc"
    assert reading(north, HexPosition(0, 0, 270), 5, 5) == "180 line"
    assert reading(north, HexPosition(0, 0, 90), 5, 5) == "0 line"
    assert reading(A3, HexPosition(1, 0, 180), 5, 5) == "180 line"


def test_arc_ranges() -> None:
    """Ranges of Angle-Off Arcs: "60-" is the 30 and 60 arcs, "150+" the 150 and 180 arcs."""
    r = ArcRange.parse("60-")
    assert [a for a in AngleOff if r.contains(a)] == ["0 line", "30 arc", "60 arc"]
    r = ArcRange.parse("150+")
    assert [a for a in AngleOff if r.contains(a)] == ["150 arc", "180 arc", "180 line"]
    with pytest.raises(ValueError):
        ArcRange.parse("45+")


def test_sensor_fields_include_their_border_and_ignore_speed() -> None:
    """Angle-Off Procedure for Other Cases: on the border of the field is within it."""
    # B2 is on the border of the right 60 and 90 arcs of A2
    assert in_field(A2, B2, "60-")
    assert in_field(A2, B2, "90+")
    assert not in_field(A2, B2, "120+")
    assert not in_field(A2, C2, "60-")
    assert in_field(A1, B1, "150+") and in_field(A1, B1, "180")


def test_sighting_reference_moves_when_the_element_stays_on_the_line() -> None:
    """Angle-Off Procedure for Restricted and Blind Arcs: a faster sighted element that stays on
    the borderline means the sighting aircraft is taken as faster."""
    r = read_angle_off(A2, B2, target_speed=5, attacker_speed=7, purpose="sighting")
    assert r.label == "right 60 arc"
    ground = read_angle_off(A3, B3, target_speed=5, attacker_speed=9, attacker_is_ground=True)
    assert ground.label == "left 90 arc"


def test_gun_range_adds_half_the_altitude_difference() -> None:
    """Air-to-Air Gun Combat, Range: vertical range is the level difference / 2 rounded down."""
    assert gun_range(0, 5, 6) == 0
    assert gun_range(0, 5, 7) == 1
    assert gun_range(1, 8, 5) == 2
    assert gun_range(2, 3, 3) == 2


# -- properties ------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> HexPosition:
    x = draw(st.integers(-4, 4))
    y = draw(st.integers(-4, 4)) + (0.5 if x % 2 else 0.0)
    if draw(st.booleans()):
        return HexPosition(float(x), y, draw(st.sampled_from(range(0, 360, 30))))
    n = draw(st.sampled_from(hexgrid.neighbours(float(x), y)))
    sx, sy = (x + n[0]) / 2, (y + n[1]) / 2
    return HexPosition(sx, sy, draw(st.sampled_from(hexgrid.valid_directions(sx, sy))))


speeds = st.sampled_from([4.0, 5.5, 7.0])


def _mirror(p: HexPosition) -> HexPosition:
    return HexPosition(*hexgrid.mirror(p.x, p.y), (-p.facing) % 360)


def _rotate(p: HexPosition, k: int) -> HexPosition:
    return HexPosition(*hexgrid.rotate(p.x, p.y, k), (p.facing + 60 * k) % 360)


def _read(t: HexPosition, a: HexPosition, ts: float, as_: float) -> tuple[str, str | None]:
    r = read_angle_off(
        t, a, target_speed=ts, attacker_speed=as_, beneficial=lambda x, y: min(x, y, key=str)
    )
    return str(r.arc), r.side


@settings(max_examples=150, deadline=None)
@given(positions(), positions(), speeds, speeds)
def test_mirror_image_gives_the_mirrored_side(
    t: HexPosition, a: HexPosition, ts: float, as_: float
) -> None:
    arc, side = _read(t, a, ts, as_)
    m_arc, m_side = _read(_mirror(t), _mirror(a), ts, as_)
    assert m_arc == arc
    assert m_side == {"left": "right", "right": "left", None: None}[side]


@settings(max_examples=150, deadline=None)
@given(positions(), positions(), speeds, speeds, st.integers(1, 5))
def test_turning_the_picture_by_60_degrees_changes_nothing(
    t: HexPosition, a: HexPosition, ts: float, as_: float, k: int
) -> None:
    assert _read(_rotate(t, k), _rotate(a, k), ts, as_) == _read(t, a, ts, as_)


@settings(max_examples=50, deadline=None)
@given(positions(), speeds, speeds)
def test_same_location_same_facing_is_the_0_line(t: HexPosition, ts: float, as_: float) -> None:
    assert angle_off(t, t, target_speed=ts, attacker_speed=as_, modifiers={}) == AngleOff.LINE_0


def test_restricted_and_blind_arcs() -> None:
    """Angle-Off Procedure for Restricted and Blind Arcs: B2 sits on the border of A2's right 60
    and 90 arcs, facing along it. A faster B2 stays on the line, so A2 is taken as faster and
    moves: the 60 arc, inside a "60-" blind arc. At equal speeds the arc that benefits the
    sighted aircraft: inside. A ground unit is always slower (A2 "moves")."""
    from rulesets.airpower.geometry import in_sighting_arc

    assert in_sighting_arc(A2, B2, "60-", sighting_speed=5, element_speed=7)
    assert in_sighting_arc(A2, B2, "60-", sighting_speed=6, element_speed=6)
    assert in_sighting_arc(A2, B2, "90+", sighting_speed=6, element_speed=6)
    assert not in_sighting_arc(A2, B2, "90+", sighting_speed=5, element_speed=7)
    assert not in_sighting_arc(
        A3, B3, "120+", sighting_speed=4, element_speed=9, element_is_ground=True
    )


def test_advantage() -> None:
    """Angle-Off Procedure for Advantage: the same, an undecided borderline going the way of the
    potentially disadvantaged aircraft."""
    from rulesets.airpower.geometry import has_advantage

    assert has_advantage(A2, B2, "60-", seeker_speed=5, other_speed=7)
    assert not has_advantage(A2, B2, "60-", seeker_speed=6, other_speed=6)
    assert has_advantage(A2, B2, "60-", seeker_speed=7, other_speed=5)


def test_sighting_equal_speeds_original_wording() -> None:
    """Original wording: "If the reference and attacker have the same speed, use the arc that
    would result if the reference were moved forward" (B2 -> right 60 arc)."""
    from rulesets.airpower.geometry import in_sighting_arc

    assert not in_sighting_arc(
        A2, B2, "90+", sighting_speed=6, element_speed=6, original_wording=True
    )


def test_forward_steps() -> None:
    assert A1.forward() == HexPosition(0, 1, 90)
    assert A3.forward() == HexPosition(2, 0, 0)
    assert A2.forward() == HexPosition(1, 0, 0)
