"""Phantoms 7.1-7.2: guns, radar lock-on, breaking lock, missile launch and impact."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.core.dice import TableDice
from app.core.engagement import Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import StatusChanged
from rulesets.phantoms import RULESET
from rulesets.phantoms.missiles import flight_impulses, missile_range
from rulesets.phantoms.spotting import SPOTTING_OFF

GUN = RULESET.procedures["gun_attack"]
MISSILE = RULESET.procedures["missile_attack"]
LOCK = RULESET.procedures["radar_lock"]
MISSILE_LOST = RULESET.procedures["missile_lost"]


def enumerate_contest(att: int, dfn: int, label: Any) -> dict[str, Fraction]:
    """Hand enumeration: all 100 pairs of d10 faces, each 1/100."""
    out: dict[str, Fraction] = {}
    for a in range(1, 11):
        for b in range(1, 11):
            key = label((a + att) - (b + dfn))
            out[key] = out.get(key, Fraction(0)) + Fraction(1, 100)
    return out


def gun_inputs(**kw: Any) -> Any:
    base: dict[str, Any] = dict(
        attacker_gun_value=5,
        position_modifier=1,
        attacker_pilot="ace",
        target_defense=3,
        target_pilot="experienced",
        hits_by_difference=[1, 1, 2, 3],
    )
    base.update(kw)
    return GUN.Inputs(**base)


# --- 7.2 guns --------------------------------------------------------------------------------


def test_7_2_gun_odds_exact_against_hand_enumeration() -> None:
    # 7.2: attacker 5 - 1 + 4 (Ace) = +8; target 3 + 1 (Experienced) = +4
    def label(d: int) -> str:
        if d <= 0:
            return "miss"
        h = [1, 1, 2, 3][min(d, 4) - 1]
        return f"{h} hit" + ("s" if h > 1 else "")

    odds = GUN.odds(gun_inputs())
    assert odds == enumerate_contest(8, 4, label)
    assert sum(odds.values()) == 1
    # a tie is a miss: P(a + 8 <= b + 4) = P(b - a >= 4) = (6+5+4+3+2+1)/100
    assert odds["miss"] == Fraction(21, 100)


def test_7_2_gun_pilot_modifiers_from_the_text() -> None:
    # 7.2 / 12.x: attacker +4 Ace, +2 Experienced, -2 Green; target +2 Ace, +1 Experienced
    for pilot, mod in (("ace", 4), ("experienced", 2), ("average", 0), ("green", -2)):
        att, _ = GUN.modifiers(gun_inputs(attacker_pilot=pilot))  # type: ignore[attr-defined]
        assert att == 5 - 1 + mod
    for pilot, mod in (("ace", 2), ("experienced", 1), ("average", 0), ("inexperienced", 0)):
        _, dfn = GUN.modifiers(gun_inputs(target_pilot=pilot))  # type: ignore[attr-defined]
        assert dfn == 3 + mod


def test_7_2_zero_hits_on_the_chart_is_a_miss() -> None:
    odds = GUN.odds(gun_inputs(hits_by_difference=[0, 0, 1]))
    assert set(odds) == {"miss", "1 hit"}


def test_7_2_unspotted_only_with_the_optional_rule() -> None:
    """13.0 (issue 15): with spotting off everyone is spotted: the desk does not offer the
    box, and a tick given anyway is refused, never silently ignored (gun, missile, 10.0)."""
    with pytest.raises(RuleViolation, match="13.0 spotting is an optional rule"):
        GUN.odds(gun_inputs(attacker_unspotted=True))
    assert GUN.inputs_off() == {"attacker_unspotted": SPOTTING_OFF}
    for pid, field in (("missile_attack", "attacker_unspotted"), ("break_off", "unspotted")):
        assert field in RULESET.procedures[pid].inputs_off()
        assert not RULESET.bind(["spotting"]).procedures[pid].inputs_off()
    spot = RULESET.bind(["spotting"]).procedures["gun_attack"]
    assert spot.odds(gun_inputs(attacker_unspotted=True)) == GUN.odds(
        gun_inputs(attacker_modifiers=4)
    )


def test_7_2_bad_inputs_are_refused() -> None:
    with pytest.raises(ValidationError):
        gun_inputs(hits_by_difference=[])
    with pytest.raises(ValidationError):
        gun_inputs(attacker_pilot="veteran")
    with pytest.raises(ValidationError):
        gun_inputs(hits_by_difference=[1, -1])


def test_7_2_gun_resolve_typed_dice() -> None:
    r = GUN.resolve(gun_inputs(), TableDice([7, 3]), Engagement())
    # 7 + 8 = 15 against 3 + 4 = 7: difference 8 -> last entry, 3 hits
    assert r.outcome == "3 hits"
    assert len(r.events) == 1  # what-if: only the record
    with pytest.raises(RuleViolation):
        GUN.resolve(gun_inputs(), TableDice([11, 3]), Engagement())


@settings(max_examples=40, deadline=None)
@given(
    gun=st.integers(-5, 12),
    pos=st.integers(-3, 6),
    dfn=st.integers(-3, 8),
    hits=st.lists(st.integers(0, 6), min_size=1, max_size=8),
)
def test_7_2_gun_odds_sum_to_one(gun: int, pos: int, dfn: int, hits: list[int]) -> None:
    odds = GUN.odds(
        gun_inputs(
            attacker_gun_value=gun,
            position_modifier=pos,
            target_defense=dfn,
            hits_by_difference=hits,
        )
    )
    assert sum(odds.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in odds.values())


def _in_impulse(g: Any, impulse: int = 1, seg: str = "f") -> None:
    from rulesets.phantoms.clock import step_of

    g.clock(1, step_of(impulse, "a"))
    g.clock(1, step_of(impulse, seg))


def test_7_2_gun_attack_spends_ammunition_and_marks_damage(game: Any) -> None:
    g = game()
    g.add("f4", "Blue", "f4e", "ace")
    g.add("mig", "Red", "mig21", "average")
    _in_impulse(g)  # both at their maximum level speed (8) move in impulse 1
    inputs = GUN.prefill(g.e, "f4", "mig")
    assert inputs["attacker_gun_value"] == 3 and inputs["target_defense"] == 2
    inputs.update(attacker="f4", target="mig", position_modifier=0)
    r = g.do("gun_attack", inputs, [10, 1])
    # 10 + 3 + 4 = 17 against 1 + 2 = 3: difference 14 -> last entry (5 hits)
    assert r.outcome == "5 hits"
    assert g.a("f4").ledger("gun_ammunition") == 4
    mig = g.a("mig")
    assert mig.damage == 5
    assert mig.attributes["criticals_due"] == 1  # 8.1.2: one per full 3 points
    # 7.0 guns or missiles, not both; one gun target per segment
    with pytest.raises(RuleViolation, match="already fired"):
        g.do("gun_attack", inputs, [5, 5])


def test_7_0_only_aircraft_that_moved_fire_guns(game: Any) -> None:
    g = game()
    g.add("f4", "Blue", "f4e", speed=2)
    g.add("mig", "Red", "mig21")
    _in_impulse(g, 1)  # speed 2 does not move in impulse 1 (6.0)
    inputs = {
        **GUN.prefill(g.e, "f4", "mig"),
        "attacker": "f4",
        "target": "mig",
        "position_modifier": 0,
    }
    with pytest.raises(RuleViolation, match="did not move"):
        g.do("gun_attack", inputs, [5, 5])


def test_7_2_no_ammunition_left_is_refused(game: Any) -> None:
    g = game()
    g.add("mig", "Red", "mig21")
    g.add("f4", "Blue", "f4e")
    inputs = {
        **GUN.prefill(g.e, "mig", "f4"),
        "attacker": "mig",
        "target": "f4",
        "position_modifier": 0,
    }
    for _ in range(3):
        g.do("gun_attack", inputs, [1, 10])
    assert g.a("mig").ledger("gun_ammunition") == 0
    with pytest.raises(RuleViolation, match="only 0 left"):
        g.do("gun_attack", inputs, [1, 10])


# --- 7.1.1b radar lock-on ----------------------------------------------------------------------


def test_7_1_1b_range_example_f15_mig21() -> None:
    # "An F-15 ... MiG-21 that is 3 hexes away. The F-15 is at altitude level 4 and the MiG-21
    # is at altitude level 1. The range between the F-15 and MiG-21 is 6."
    assert missile_range(3, 4, 1) == 6


def lock_inputs(**kw: Any) -> Any:
    base: dict[str, Any] = dict(
        attacker_radar=6,
        attacker_pilot="average",
        attacker_altitude=4,
        target_altitude=1,
        target_radar_countermeasures=2,
        range_hexes=6,
    )
    base.update(kw)
    return LOCK.Inputs(**base)


def test_7_1_1b_lock_odds_f15_example_exact() -> None:
    # attacker 6 (radar) - 1 (target lower) = +5; target 2 (C/M) + 2 (range 6 >= 5) = +4
    odds = LOCK.odds(lock_inputs())
    assert set(odds) == {"lock", "miss"}
    assert odds == enumerate_contest(5, 4, lambda d: "lock" if d > 0 else "miss")
    # lock iff a + 1 > b, i.e. b <= a: 55 of the 100 pairs (45 with b < a, 10 with b = a)
    assert odds["lock"] == Fraction(55, 100)


def test_7_1_1b_lock_modifiers() -> None:
    from rulesets.phantoms.radar import radar_modifiers

    assert radar_modifiers(lock_inputs(attacker_pilot="ace"), frozenset()) == (6 + 2 - 1, 4)
    assert radar_modifiers(lock_inputs(attacker_pilot="experienced"), frozenset()) == (6 + 1 - 1, 4)
    assert radar_modifiers(lock_inputs(attacker_pilot="green"), frozenset()) == (6 - 2 - 1, 4)
    assert radar_modifiers(lock_inputs(target_altitude=5), frozenset()) == (6 + 1, 4)
    assert radar_modifiers(lock_inputs(target_altitude=4, range_hexes=4), frozenset()) == (6, 2)
    # altitude 0 below the attacker: -1 lower and -4 at altitude 0, as the text lists both;
    # the altitude_0_replaces_lower reading (open, a variant): the -4 alone
    assert radar_modifiers(lock_inputs(target_altitude=0), frozenset()) == (6 - 1 - 4, 4)
    only = frozenset({"altitude_0_replaces_lower"})
    assert radar_modifiers(lock_inputs(target_altitude=0), only) == (6 - 4, 4)
    assert radar_modifiers(lock_inputs(target_altitude=2), only) == (6 - 1, 4)


def test_7_1_1b_lock_is_kept_and_lost_on_a_new_target(game: Any) -> None:
    g = game()
    g.add("f4", "Blue", "f4e")
    g.add("m1", "Red", "mig21")
    g.add("m2", "Red", "mig21")
    base = {"range_hexes": 4}
    r = g.do(
        "radar_lock",
        {**LOCK.prefill(g.e, "f4", "m1"), **base, "attacker": "f4", "target": "m1"},
        [10, 1],
    )
    assert r.outcome == "lock" and g.a("f4").attributes["locks"] == ["m1"]
    # trying to lock another target loses the first lock (the F-4E card keeps one)
    r = g.do(
        "radar_lock",
        {**LOCK.prefill(g.e, "f4", "m2"), **base, "attacker": "f4", "target": "m2"},
        [1, 10],
    )
    assert r.outcome == "miss" and g.a("f4").attributes["locks"] == []


def test_7_1_1c_break_lock(game: Any) -> None:
    g = game()
    g.add("f4", "Blue", "f4e")
    g.add("m1", "Red", "mig21")
    inp = {**LOCK.prefill(g.e, "f4", "m1"), "range_hexes": 4, "attacker": "f4", "target": "m1"}
    g.do("radar_lock", inp, [10, 1])
    brk = g.rs.procedures["break_lock"]
    # same manner as a lock-on: the lock holds only if the locking side still rolls higher
    odds = brk.odds(brk.parse({k: v for k, v in inp.items() if k not in ("attacker", "target")}))
    lock = LOCK.odds(LOCK.parse({k: v for k, v in inp.items() if k not in ("attacker", "target")}))
    assert odds["lock broken"] == lock["miss"]
    r = g.do("break_lock", inp, [1, 10])
    assert r.outcome == "lock broken" and g.a("f4").attributes["locks"] == []


# --- 7.1.2 launch, 7.1.3 impact --------------------------------------------------------------


def test_7_1_3_radar_missile_flies_5_hexes_per_impulse() -> None:
    assert flight_impulses("heat", 3) == 1
    assert [flight_impulses("radar", r) for r in (1, 5, 6, 10, 11, 15)] == [1, 1, 2, 2, 3, 3]


def missile_inputs(**kw: Any) -> Any:
    base: dict[str, Any] = dict(
        guidance="heat",
        hit_number=5,
        position_modifier=-1,
        target_countermeasures=2,
        target_pilot="experienced",
        target_altitude=3,
    )
    base.update(kw)
    return MISSILE.Inputs(**base)


def test_7_1_3_missile_odds_exact() -> None:
    # attacker 5 - 1 + 4 (afterburner, heat) = 8; target 2 + 2 (Exp.) + 3 (hard turn) + 2 (alt 0)
    i = missile_inputs(
        target_used_afterburner=True, target_hard_turn_or_loop=True, target_altitude=0
    )
    odds = MISSILE.odds(i)

    def label(d: int) -> str:
        return "miss" if d <= 0 else f"{d} hit" + ("s" if d > 1 else "")

    assert odds == enumerate_contest(8, 9, label)
    # radar-guided missiles get no afterburner bonus (heat-seeking only)
    r = MISSILE.odds(missile_inputs(guidance="radar", target_used_afterburner=True))
    assert r == MISSILE.odds(missile_inputs(guidance="radar"))
    # 7.1.4: +3 for breaking contact; pilot ability 0/0/1/2/3
    assert MISSILE.modifiers(missile_inputs(target_broke_contact=True))[1] == 2 + 2 + 3  # type: ignore[attr-defined]
    for pilot, ability in (("green", 0), ("inexperienced", 0), ("average", 1), ("ace", 3)):
        assert MISSILE.modifiers(missile_inputs(target_pilot=pilot))[1] == 2 + ability  # type: ignore[attr-defined]


def test_7_1_missile_launch_and_impact(game: Any) -> None:
    from rulesets.phantoms.clock import step_of

    g = game()
    g.add("f15", "Blue", "f15c", "average", altitude=4)
    g.add("mig", "Red", "mig21", "average", altitude=1)
    g.clock(1, step_of(1, "h"))
    g.do(
        "radar_lock",
        {**LOCK.prefill(g.e, "f15", "mig"), "range_hexes": 6, "attacker": "f15", "target": "mig"},
        [10, 1],
    )
    g.clock(1, step_of(2, "g"))
    # range 6: outside the AIM-7M's minimum 2 and inside its maximum 15; 2 impulses of flight
    g.do(
        "missile_launch",
        {
            "attacker": "f15",
            "target": "mig",
            "missile": "aim7m",
            "range_hexes": 6,
            "position_modifier": -2,
        },
    )
    assert g.a("f15").ledger("missile_aim7m") == 3
    (m,) = g.e.attributes["missiles_in_flight"]
    assert m["impact_at"] == 4 and m["hit"] == 4
    # the desk's Displays panel shows the missile and the impulse of its impact (7.1.2)
    board = g.rs.displays(g.e)[0]
    assert board.title == "Missiles in flight (7.1.2, 7.1.3)"
    assert board.rows == ((m["name"], "f15", "mig", "turn 1, impulse 4"),)
    # not due in impulse 3
    g.clock(1, step_of(3, "e"))
    with pytest.raises(RuleViolation, match="due"):
        g.do(
            "missile_attack",
            {
                **MISSILE.prefill(g.e, "f15", "mig"),
                "guidance": "radar",
                "hit_number": 4,
                "target_countermeasures": 2,
                "target_altitude": 1,
                "attacker": "f15",
                "target": "mig",
            },
            [5, 5],
        )
    g.clock(1, step_of(4, "e"))
    pre = MISSILE.prefill(g.e, "f15", "mig")
    assert pre["hit_number"] == 4 and pre["target_countermeasures"] == 2  # 1970s Russia radar C/M
    r = g.do("missile_attack", {**pre, "attacker": "f15", "target": "mig"}, [10, 2])
    # 10 + 4 = 14 against 2 + 2 (C/M) + 1 (Average) = 5: 9 hits
    assert r.outcome == "9 hits"
    mig = g.a("mig")
    assert mig.damage == 9
    # 8.1: one for the missile hit, 3 for 9 points, 1 for the point beyond the maximum of 8
    assert mig.attributes["criticals_due"] == 1 + 3 + 1
    assert Status.LOADED in mig.status  # 8.0: into the grey zone
    assert g.e.attributes["missiles_in_flight"] == []


def test_7_1_launch_restrictions(game: Any) -> None:
    from rulesets.phantoms.clock import step_of

    g = game()
    g.add("f15", "Blue", "f15c", altitude=4)
    g.add("mig", "Red", "mig21", altitude=1)
    g.clock(1, step_of(1, "g"))
    with pytest.raises(RuleViolation, match="no radar lock-on"):
        g.do(
            "missile_launch",
            {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": 6},
        )
    with pytest.raises(RuleViolation, match="one altitude level"):
        g.do(
            "missile_launch",
            {"attacker": "f15", "target": "mig", "missile": "aim9m", "range_hexes": 6},
        )
    with pytest.raises(RuleViolation, match="same hex"):
        g.do(
            "missile_launch",
            {
                "attacker": "f15",
                "target": "mig",
                "missile": "aim9m",
                "range_hexes": 0,
                "same_hex_same_altitude": True,
            },
        )
    with pytest.raises(RuleViolation, match="carries no missile"):
        g.do(
            "missile_launch",
            {"attacker": "f15", "target": "mig", "missile": "aim120", "range_hexes": 3},
        )
    g.do(
        "radar_lock",
        {**LOCK.prefill(g.e, "f15", "mig"), "range_hexes": 20, "attacker": "f15", "target": "mig"},
        [10, 1],
    )
    with pytest.raises(RuleViolation, match="outside its minimum"):
        g.do(
            "missile_launch",
            {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": 16},
        )
    with pytest.raises(RuleViolation, match="outside its minimum"):
        g.do(
            "missile_launch",
            {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": 2},
        )
    g.do(
        "missile_launch",
        {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": 10},
    )
    # one missile per impulse unless the card says otherwise (7.1.2)
    with pytest.raises(RuleViolation, match="per impulse"):
        g.do(
            "missile_launch",
            {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": 10},
        )


def _sparrow_at_12_hexes(g: Any) -> dict[str, Any]:
    """An F-15C locked on a MiG-21 12 hexes away (both at altitude 4) fires an AIM-7M in
    impulse 1; the radar-lock inputs are returned."""
    from rulesets.phantoms.clock import step_of

    g.add("f15", "Blue", "f15c", altitude=4)
    g.add("mig", "Red", "mig21", altitude=4)
    g.clock(1, step_of(1, "g"))
    inp = {**LOCK.prefill(g.e, "f15", "mig"), "range_hexes": 12, "attacker": "f15", "target": "mig"}
    g.do("radar_lock", inp, [10, 1])
    g.do(
        "missile_launch",
        {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": 12},
    )
    return inp


def test_7_1_1b_missile_misses_when_the_lock_is_broken(game: Any) -> None:
    from rulesets.phantoms.clock import step_of

    g = game()
    inp = _sparrow_at_12_hexes(g)
    assert len(g.e.attributes["missiles_in_flight"]) == 1
    g.clock(1, step_of(2, "g"))
    g.do("break_lock", inp, [1, 10])
    assert g.e.attributes["missiles_in_flight"] == []


def test_7_2_gun_range_and_climb_dive_restrictions(game: Any) -> None:
    g = game()
    g.add("f4", "Blue", "f4e", altitude=3)
    g.add("low", "Red", "mig21", altitude=1)
    g.add("mid", "Red", "mig21", altitude=2)
    g.do("mark_maneuver", {"aircraft": "f4", "maneuver": "straight", "climb": 1})
    _in_impulse(g)  # the F-4E climbs to 4 while moving in impulse 1
    assert g.a("f4").attributes["altitude"] == 4
    base = {"attacker": "f4", "position_modifier": 0}
    with pytest.raises(RuleViolation, match="one altitude level"):
        g.do("gun_attack", {**GUN.prefill(g.e, "f4", "low"), **base, "target": "low"}, [5, 5])
    g2 = game()
    g2.add("f4", "Blue", "f4e", altitude=3)
    g2.add("mid", "Red", "mig21", altitude=3)
    g2.do("mark_maneuver", {"aircraft": "f4", "maneuver": "straight", "climb": 1})
    _in_impulse(g2)
    # 7.2: climbed this impulse, may not fire at a lower aircraft
    with pytest.raises(RuleViolation, match="climbed"):
        g2.do("gun_attack", {**GUN.prefill(g2.e, "f4", "mid"), **base, "target": "mid"}, [5, 5])
    # the different-altitude modifier is prefilled (-2)
    assert GUN.prefill(g2.e, "f4", "mid")["attacker_modifiers"] == -2


def test_7_1_launch_position_from_the_charts(game: Any) -> None:
    from app.core.data import save_override
    from app.core.errors import MissingTableValue
    from rulesets.phantoms.clock import step_of
    from rulesets.phantoms.missiles import launch_position_modifier

    # Radar Missile Hit # Modifiers: front aspect -3, side aspect -2
    assert launch_position_modifier("radar", "front") == -3
    assert launch_position_modifier("radar", "side") == -2
    with pytest.raises(MissingTableValue):
        launch_position_modifier("HW", "beam")
    with pytest.raises(RuleViolation, match="cannot be fired"):
        launch_position_modifier("HN", "head on")  # not on the narrow-aspect chart
    save_override("phantoms", "positions", {"heat_wide": {"cells": {"beam": -2}}})
    g = game()
    g.add("f4", "Blue", "f4e", altitude=3)
    g.add("mig", "Red", "mig21", altitude=3)
    g.clock(1, step_of(1, "g"))
    g.do(
        "missile_launch",
        {
            "attacker": "f4",
            "target": "mig",
            "missile": "aim9j",
            "range_hexes": 2,
            "position": "beam",
        },
    )
    (m,) = g.e.attributes["missiles_in_flight"]
    assert m["hit"] == 5 - 2 and m["impact_at"] == 2  # heat-seekers impact next impulse


def test_7_0_guns_missiles_and_radar_lock_refuse_a_friendly_target(game: Any) -> None:
    """7.0/7.1.1b/7.1.2 (issue 13/15): fire and lock-ons are aimed at the other side only."""
    g = game()
    g.add("f15", "Blue", "f15c")
    g.add("wing", "Blue", "f15c")
    g.add("mig", "Red", "mig21")
    _in_impulse(g, 1, "f")
    gun = {**GUN.prefill(g.e, "f15", "wing"), "attacker": "f15", "target": "wing"}
    with pytest.raises(RuleViolation, match=r"same side \(7\.2\)"):
        g.do("gun_attack", {**gun, "position_modifier": 0}, [5, 5])
    _in_impulse(g, 1, "g")
    with pytest.raises(RuleViolation, match=r"same side \(7\.1\.2\)"):
        g.do(
            "missile_launch",
            {"attacker": "f15", "target": "wing", "missile": "aim9m", "range_hexes": 3},
        )
    _in_impulse(g, 1, "h")
    lock = {**LOCK.prefill(g.e, "f15", "wing"), "range_hexes": 5}
    with pytest.raises(RuleViolation, match=r"same side \(7\.1\.1b\)"):
        g.do("radar_lock", {**lock, "attacker": "f15", "target": "wing"}, [10, 1])
    assert g.a("wing").damage == 0


def test_critical_4_a_wounded_pilot_is_minus_1_when_firing_missiles_too(game: Any) -> None:
    """Critical hit #4 (8.1): "Pilot Wounded ... -1 when firing" -- the missile's Hit #."""
    g = game()
    g.add("f15", "Blue", "f15c")
    g.add("mig", "Red", "mig21")
    _in_impulse(g, 1, "g")
    g.apply([StatusChanged(aircraft="f15", set=(Status.WOUNDED,))])
    r = g.do(
        "missile_launch",
        {"attacker": "f15", "target": "mig", "missile": "aim9m", "range_hexes": 3},
    )
    (flight,) = g.e.attributes["missiles_in_flight"]
    assert flight["hit"] == 6 - 1  # the AIM-9M's Hit # 6, wounded -1
    assert "pilot wounded -1, critical #4" in r.narrative


def test_critical_4_guns_only_reading_keeps_the_missile_hit_number(game: Any) -> None:
    """Critical hit #4: "-1 when firing"; 7.1.3 and the missile charts do not list it. With
    the ``wounded_minus_one_guns_only`` reading the AIM-9M keeps its Hit # 6, and the gun
    attack still takes the chart's "wounded -1"."""
    g = game(["wounded_minus_one_guns_only"])
    g.add("f15", "Blue", "f15c")
    g.add("mig", "Red", "mig21")
    _in_impulse(g, 1, "g")
    g.apply([StatusChanged(aircraft="f15", set=(Status.WOUNDED,))])
    r = g.do(
        "missile_launch",
        {"attacker": "f15", "target": "mig", "missile": "aim9m", "range_hexes": 3},
    )
    (flight,) = g.e.attributes["missiles_in_flight"]
    assert flight["hit"] == 6 and "wounded" not in r.narrative
    assert g.rs.procedures["gun_attack"].prefill(g.e, "f15", "mig")["attacker_modifiers"] == -1


def test_7_1_4_a_radar_missile_misses_when_its_launcher_breaks_contact(game: Any) -> None:
    """7.1.4: "If an aircraft fired a radar guided missile, but breaks contact before the
    missile impacts, the missile automatically misses": its impact is refused (no roll) and
    the missile is removed as lost."""
    from rulesets.phantoms.clock import step_of

    g = game()
    _sparrow_at_12_hexes(g)
    g.apply([StatusChanged(aircraft="f15", set=(Status.BROKEN_OFF,))])  # 10.0 broke contact
    (flight,) = g.e.attributes["missiles_in_flight"]
    g.clock(1, step_of(flight["impact_at"], "e"))
    impact = {**MISSILE.prefill(g.e, "f15", "mig"), "attacker": "f15", "target": "mig"}
    with pytest.raises(RuleViolation, match=r"automatically misses \(7\.1\.4\)"):
        g.do("missile_attack", impact, [10, 1])
    r = g.do(
        "missile_lost",
        {"attacker": "f15", "target": "mig", "reason": "firing aircraft broke contact"},
    )
    assert r.outcome == "miss" and g.e.attributes["missiles_in_flight"] == []
    assert g.a("mig").damage == 0


@pytest.mark.parametrize("variants", [(), ("active_homers_miss_on_break_contact",)])
def test_7_1_4_active_homer_and_broken_contact_reading(game: Any, variants: Any) -> None:
    """7.1.4 vs 7.1.1b (open reading): an Active Radar Homing missile needs no lock after
    launch. Default: it keeps tracking when its launcher breaks contact (impact rolled,
    missile_lost refuses that reason); the active_homers_miss_on_break_contact variant applies
    7.1.4 to it too (impact refused, removed as lost)."""
    from app.core.events import GameAttributesSet
    from rulesets.phantoms.clock import step_of

    g = game(variants)
    _sparrow_at_12_hexes(g)
    (flight,) = g.e.attributes["missiles_in_flight"]
    # an active homer in flight (no shipped card carries one: the record is marked by hand)
    g.apply([GameAttributesSet(values={"missiles_in_flight": [{**flight, "active": True}]})])
    g.apply([StatusChanged(aircraft="f15", set=(Status.BROKEN_OFF,))])
    g.clock(1, step_of(flight["impact_at"], "e"))
    impact = {**MISSILE.prefill(g.e, "f15", "mig"), "attacker": "f15", "target": "mig"}
    lost = {"attacker": "f15", "target": "mig", "reason": "firing aircraft broke contact"}
    if variants:
        assert g.rs.procedures["missile_lost"].prefill(g.e, "f15", "mig") == {
            "reason": lost["reason"]
        }
        with pytest.raises(RuleViolation, match=r"automatically misses \(7\.1\.4\)"):
            g.do("missile_attack", impact, [10, 1])
        assert g.do("missile_lost", lost).outcome == "miss"
    else:
        assert g.rs.procedures["missile_lost"].prefill(g.e, "f15", "mig") == {}
        with pytest.raises(RuleViolation, match="keeps tracking"):
            g.do("missile_lost", lost)
        assert g.do("missile_attack", impact, [10, 1]).outcome


@pytest.mark.parametrize(
    ("variants", "at_minimum", "beyond"),
    [((), "refused", "refused"), (("missile_range_inclusive",), "launched", "refused")],
)
def test_7_1_1b_range_bounds_reading(game: Any, variants: Any, at_minimum: str, beyond: str):
    """7.1.1b (open reading): 'outside the minimum range' -- at exactly the minimum the
    default refuses, the missile_range_inclusive variant launches; beyond the maximum both
    refuse."""
    from rulesets.phantoms.clock import step_of

    g = game(variants)
    g.add("f15", "Blue", "f15c", altitude=4)
    g.add("mig", "Red", "mig21", altitude=4)
    g.clock(1, step_of(1, "g"))
    inp = {**LOCK.prefill(g.e, "f15", "mig"), "range_hexes": 2, "attacker": "f15", "target": "mig"}
    g.do("radar_lock", inp, [10, 1])

    def launch(r: int, impulse: int) -> str:
        g.clock(1, step_of(impulse, "g"))  # one missile per impulse (7.1.2)
        try:
            g.do(
                "missile_launch",
                {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": r},
            )
        except RuleViolation as e:
            assert "(7.1.1b)" in str(e)
            return "refused"
        return "launched"

    assert launch(2, 2) == at_minimum  # the AIM-7M's minimum is 2
    assert launch(16, 3) == beyond  # its maximum is 15


def test_7_1_1b_out_of_range_launch_automatically_misses_with_the_variant(game: Any) -> None:
    """7.1.1b: 'If a radar-guided missile is fired outside of these ranges, it will
    automatically miss' (the out_of_range_launch_misses reading): spent, then lost."""
    from rulesets.phantoms.clock import step_of

    g = game(["out_of_range_launch_misses"])
    g.add("f15", "Blue", "f15c", altitude=4)
    g.add("mig", "Red", "mig21", altitude=4)
    g.clock(1, step_of(1, "g"))
    inp = {**LOCK.prefill(g.e, "f15", "mig"), "range_hexes": 16, "attacker": "f15", "target": "mig"}
    g.do("radar_lock", inp, [10, 1])
    r = g.do(
        "missile_launch",
        {"attacker": "f15", "target": "mig", "missile": "aim7m", "range_hexes": 16},
    )
    assert "fired out of range, it will automatically miss" in r.narrative
    assert g.a("f15").ledger("missile_aim7m") == 3
    (flight,) = g.e.attributes["missiles_in_flight"]
    g.clock(1, step_of(flight["impact_at"], "e"))
    (line,) = g.rs.acting(g.e)
    assert line.procedure == "missile_lost" and "automatic miss, 7.1.1b" in line.what
    with pytest.raises(RuleViolation, match=r"automatically misses \(7\.1\.1b\)"):
        g.do(
            "missile_attack",
            {**MISSILE.prefill(g.e, "f15", "mig"), "attacker": "f15", "target": "mig"},
            [10, 1],
        )
    lost = MISSILE_LOST.prefill(g.e, "f15", "mig")
    assert lost == {"reason": "fired outside its range"}
    g.do("missile_lost", {**lost, "attacker": "f15", "target": "mig"})
    assert g.e.attributes["missiles_in_flight"] == []


@pytest.mark.parametrize(("variants", "own"), [((), -3), (("maneuver_ends_at_marker",), 0)])
def test_7_2_hard_turn_completed_this_impulse_gun_and_missile_agree(
    game: Any, variants: Any, own: int
) -> None:
    """7.2 / 7.1.3 (open reading): a Hard Turn completed in this impulse's movement still
    counts for the firing aircraft's -3 (as a missile's target 'just did' it) by default;
    with maneuver_ends_at_marker it stops at the marker. Missiles keep 'just did' either way."""
    g = game(variants)
    g.add("f4", "Blue", "f4e", speed=3, altitude=3)
    g.add("mig", "Red", "mig21", speed=3, altitude=3)
    for aid in ("f4", "mig"):
        g.do("mark_maneuver", {"aircraft": aid, "maneuver": "hard turn left"})
    _in_impulse(g, 2, "f")  # speed 3: the one-hex hard turn completes in impulse 2's movement
    assert g.a("f4").attributes["maneuver"] is None
    assert g.rs.procedures["gun_attack"].prefill(g.e, "f4", "mig")["attacker_modifiers"] == own
    missile = g.rs.procedures["missile_attack"]
    assert missile.prefill(g.e, "f4", "mig")["target_hard_turn_or_loop"] is True


# --- 7.2 same hex, same altitude --------------------------------------------------------------

SAME_HEX_RULE = (
    "If in the same hex as the target at the same altitude, the firing aircraft must be facing "
    "the same direction as the target and be the last aircraft to enter the hex. If the aircraft "
    "entered the hex in the same impulse and are facing the same direction, only the slowest "
    "aircraft (after all adjustments for maneuvers and climb/dive) may fire."
)


def _same_hex_pair(game: Any, f4_facing: int = 90) -> Any:
    from app.core.events import PositionSet

    g = game()
    g.add("f4", "Blue", "f4e", speed=7, altitude=3)
    g.add("mig", "Red", "mig21", speed=8, altitude=3)
    g.apply(
        [
            PositionSet(aircraft="f4", x=2, y=1, facing=f4_facing, altitude=3),
            PositionSet(aircraft="mig", x=2, y=1, facing=90, altitude=3),
        ]
    )
    return g


def _gun(g: Any, attacker: str, target: str) -> dict[str, Any]:
    return {
        **GUN.prefill(g.e, attacker, target),
        "attacker": attacker,
        "target": target,
        "position_modifier": 0,
    }


def test_7_2_same_hex_both_entered_this_impulse_only_the_slower_fires(game: Any) -> None:
    """7.2 (``SAME_HEX_RULE``): speeds 7 and 8 both enter the hex in impulse 1; the 8 may not
    fire at the 7, the 7 may fire at the 8."""
    g = _same_hex_pair(game)
    _in_impulse(g, 1)  # 6.0: speeds 7 and 8 both move in impulse 1
    assert g.a("f4").attributes["moved_at"] == g.a("mig").attributes["moved_at"]
    mig_fires = _gun(g, "mig", "f4")
    assert mig_fires["same_hex_same_altitude"] and mig_fires["same_facing"]  # off the board
    with pytest.raises(RuleViolation, match=r"speed 8.*speed 7.*only the slower .*\(7\.2\)"):
        g.do("gun_attack", mig_fires, [10, 1])
    assert g.a("mig").ledger("gun_ammunition") == g.a("mig").ledgers["gun_ammunition"].maximum
    r = g.do("gun_attack", _gun(g, "f4", "mig"), [10, 1])  # the F-4E at 7 is the slower
    assert r.outcome != "miss"


def test_7_2_same_hex_the_last_to_enter_fires(game: Any) -> None:
    """7.2 (``SAME_HEX_RULE``): the F-4E enters in impulse 2, the MiG was already there."""
    g = _same_hex_pair(game)
    _in_impulse(g, 2)  # 6.0: speed 7 moves in impulse 2, speed 8 does not
    g.do("gun_attack", _gun(g, "f4", "mig"), [10, 1])
    assert g.a("f4").ledger("gun_ammunition") == 4


def test_7_2_same_hex_facing_another_way_may_not_fire(game: Any) -> None:
    """7.2 (``SAME_HEX_RULE``): "must be facing the same direction as the target"."""
    g = _same_hex_pair(game, f4_facing=150)
    _in_impulse(g, 2)
    inputs = _gun(g, "f4", "mig")
    assert inputs["same_hex_same_altitude"] and not inputs["same_facing"]
    with pytest.raises(RuleViolation, match=r"must face the same way as the target \(7\.2\)"):
        g.do("gun_attack", inputs, [10, 1])
    # a what-if with the same hex ticked asks for the same facing too
    with pytest.raises(RuleViolation, match="same way"):
        GUN.resolve(gun_inputs(same_hex_same_altitude=True), TableDice([5, 5]), Engagement())
    assert (
        GUN.resolve(
            gun_inputs(same_hex_same_altitude=True, same_facing=True),
            TableDice([10, 1]),
            Engagement(),
        ).outcome
        == "3 hits"
    )


def test_7_2_board_reads_same_hex_and_facing() -> None:
    from app.core.ruleset import Piece

    geo = RULESET.geometry
    assert geo is not None
    same = geo.relate(Piece(2, 1, 90, altitude=3), Piece(2, 1, 90, altitude=3)).readings
    assert same["same_hex_same_altitude"] is True and same["same_facing"] is True
    other = geo.relate(Piece(2, 1, 90, altitude=3), Piece(2, 1, 150, altitude=3)).readings
    assert other["same_facing"] is False
    apart = geo.relate(Piece(2, 1, 90, altitude=3), Piece(2, 1, 90, altitude=2)).readings
    assert "same_facing" not in apart
    assert GUN.board_inputs(same)["same_facing"] is True
