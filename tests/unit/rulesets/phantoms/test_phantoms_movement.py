"""Phantoms 3.0, 5.0, 6.0-6.5, 11.0: sequence of play, speed, afterburner, maneuvers,
climbs and dives, loss of control and recovery."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from app.core.acting import ActingLine
from app.core.engagement import Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet
from rulesets.phantoms import RULESET
from rulesets.phantoms.clock import clock_of, step_of
from rulesets.phantoms.movement import moves_at

SEQUENCE_FILE = "/work/shared/seeds/004_34de3871fa69b92a.txt"


@pytest.mark.parametrize("speed", range(1, 11))
def test_6_0_impulse_chart_speed_n_moves_n_times(speed: int) -> None:
    assert sum(moves_at(speed, i) for i in range(1, 11)) == speed


def test_6_0_impulse_chart_rows() -> None:
    # spot checks against the printed chart
    assert [s for s in range(1, 11) if moves_at(s, 5)] == [1, 3, 5, 6, 7, 8, 10]
    assert [s for s in range(1, 11) if moves_at(s, 6)] == [7, 8, 9, 10]
    assert [s for s in range(1, 11) if moves_at(s, 2)] == [3, 7, 9, 10]


def test_3_0_steps() -> None:
    steps = RULESET.steps(None)  # type: ignore[arg-type]
    assert len(steps) == 2 + 10 * 10
    assert steps[0].rule == "5.0" and steps[1].rule == "10.0"
    assert [s.segment for s in steps[2:12]] == list("abcdefghij")
    assert steps[-1].impulse == 10 and steps[-1].segment == "j"
    assert clock_of(step_of(7, "f")) == (7, "f")


def test_3_0_movement_segment_moves_by_the_chart(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", speed=5)
    g.add("b", "Red", "mig21", speed=2)
    moved: dict[str, int] = {"a": 0, "b": 0}
    for imp in range(1, 11):
        g.clock(1, step_of(imp, "a"))
        acting = {line.who: line.what for line in g.rs.acting(g.e)}
        for aid in moved:
            if g.a(aid).attributes.get("moved_at") == imp:
                moved[aid] += 1
                assert acting[aid] == "moves one hex (6.0)"
        # going back and forth does not move twice
        g.apply(g.rs.on_clock(g.e, 1, step_of(imp, "a")))
    assert moved == {"a": 5, "b": 2}


def test_4_0_acting_marker_holder_first(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e")
    g.add("b", "Red", "mig21")
    g.do("initiative", {"first_side": "Blue", "second_side": "Red"}, [1, 9])
    g.clock(1, step_of(1, "a"))
    g.clock(1, step_of(1, "f"))
    assert [x.who for x in g.rs.acting(g.e)] == ["b", "a"]


def test_6_1_1_a_tailing_aircraft_places_its_marker_after_everyone_else(game: Any) -> None:
    """6.1.1: the marker holder's side places markers, then the other side, and finally any
    tailing aircraft; tailing is over an enemy only."""
    g = game()
    g.add("a", "Blue", "f4e")
    g.add("b", "Red", "mig21")
    g.add("c", "Red", "mig21")
    g.do("initiative", {"first_side": "Blue", "second_side": "Red"}, [1, 9])  # Red holds it
    g.do("tailing", {"attacker": "b", "target": "a"})
    with pytest.raises(RuleViolation, match=r"over an enemy aircraft \(6\.1\.1\)"):
        g.do("tailing", {"attacker": "c", "target": "b"})
    g.clock(1, step_of(1, "a"))
    g.clock(1, step_of(1, "i"))
    lines = g.rs.acting(g.e)
    assert [x.who for x in lines] == ["c", "a", "b"]
    assert lines[-1].what == "places its maneuver marker last: tailing (6.1.1)"


# --- 5.0 set speed ---------------------------------------------------------------------------


def test_5_0_set_speed_within_the_chart(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", speed=5)  # Normal Engine: adjust 2, max level 8, loaded 6
    g.do("set_speed", {"aircraft": "a", "speed": 7})
    assert g.a("a").attributes["speed"] == 7
    with pytest.raises(RuleViolation, match="allows"):
        g.do("set_speed", {"aircraft": "a", "speed": 4})
    with pytest.raises(RuleViolation, match="level maximum 8"):
        g.do("set_speed", {"aircraft": "a", "speed": 9})
    g2 = game()
    g2.add("a", "Blue", "f4e", speed=5, stores=True)
    with pytest.raises(RuleViolation, match="loaded maximum 6"):
        g2.do("set_speed", {"aircraft": "a", "speed": 7})
    g2.do("set_speed", {"aircraft": "a", "speed": 6})


def test_5_0_after_a_dive_the_lower_limit_comes_from_the_current_speed(game: Any) -> None:
    """5.0: 'Each aircraft may adjust speed within the amount shown on the Normal Engine ...
    portion of the Speed Chart' and 'may not exceed the maximum speed for level flight'. An
    F-4E at 9 after a one-level dive (level maximum 8, change 2) may set 7 or 8, not 6."""
    g = game()
    g.add("a", "Blue", "f4e", speed=8)
    g.apply([AttributesSet(aircraft="a", values={"speed": 9})])  # 6.3: +1 for the dive
    with pytest.raises(RuleViolation, match=r"from speed 9 the Normal Engine chart allows 7-8"):
        g.do("set_speed", {"aircraft": "a", "speed": 6})
    with pytest.raises(RuleViolation, match="level maximum 8"):
        g.do("set_speed", {"aircraft": "a", "speed": 9})
    g.do("set_speed", {"aircraft": "a", "speed": 7})
    assert g.a("a").attributes["speed"] == 7
    g.apply([AttributesSet(aircraft="a", values={"speed": 9})])
    g.do("set_speed", {"aircraft": "a", "speed": 8})
    assert g.a("a").attributes["speed"] == 8


def test_5_0_above_the_maximum_by_more_than_the_chart_sets_the_maximum(game: Any) -> None:
    """5.0: the speed 'may not exceed the maximum speed for level flight'; at 10 with a damaged
    engine (change 1, level maximum 6) the chart reaches only 9, so the maximum itself is the
    one speed left."""
    from app.core.events import StatusChanged

    g = game()
    g.add("a", "Blue", "f4e", speed=8)
    g.apply(
        [
            AttributesSet(aircraft="a", values={"speed": 10}),
            StatusChanged(aircraft="a", set=(Status.ENGINE_DAMAGED,)),
        ]
    )
    with pytest.raises(RuleViolation, match="allows only 6"):
        g.do("set_speed", {"aircraft": "a", "speed": 5})
    g.do("set_speed", {"aircraft": "a", "speed": 6})


def test_5_0_damaged_engine_chart(game: Any) -> None:
    from app.core.events import StatusChanged

    g = game()
    g.add("a", "Blue", "f4e", speed=6)
    g.apply([StatusChanged(aircraft="a", set=(Status.ENGINE_DAMAGED,))])
    # Damaged Engine: adjust 1, max level 6
    with pytest.raises(RuleViolation, match="Damaged Engine"):
        g.do("set_speed", {"aircraft": "a", "speed": 4})
    g.do("set_speed", {"aircraft": "a", "speed": 5})


def test_5_0_only_in_the_set_speed_phase(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", speed=5)
    g.clock(1, 1)
    with pytest.raises(RuleViolation, match="Set Speed Phase"):
        g.do("set_speed", {"aircraft": "a", "speed": 6})


# --- 6.5 afterburner -------------------------------------------------------------------------


def test_6_5_afterburner(game: Any) -> None:
    from app.core.events import StatusChanged

    g = game()
    g.add("a", "Blue", "f4e", speed=5)  # afterburner +2, 4 uses, max level 8
    g.clock(1, step_of(1, "c"))
    g.do("afterburner", {"aircraft": "a"})
    assert g.a("a").attributes["speed"] == 7
    assert g.a("a").ledger("afterburner") == 3
    with pytest.raises(RuleViolation, match="already used"):
        g.do("afterburner", {"aircraft": "a"})
    g.clock(1, step_of(2, "c"))
    r = g.do("afterburner", {"aircraft": "a"})
    assert g.a("a").attributes["speed"] == 8  # capped at the level maximum, excess lost
    assert "1 lost" in r.narrative
    g.apply([StatusChanged(aircraft="a", set=(Status.ON_FIRE,))])
    g.clock(1, step_of(3, "c"))
    with pytest.raises(RuleViolation, match="fire"):
        g.do("afterburner", {"aircraft": "a"})


def test_6_5_afterburner_uses_run_out(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "mig21", speed=1)  # 3 uses
    for imp in (1, 2, 3):
        g.clock(1, step_of(imp, "c"))
        g.do("afterburner", {"aircraft": "a"})
    g.clock(1, step_of(4, "c"))
    with pytest.raises(RuleViolation, match="only 0 left"):
        g.do("afterburner", {"aircraft": "a"})


# --- 6.1-6.3 maneuvers -----------------------------------------------------------------------


def _fly(g: Any, aid: str, impulses: range, turn: int = 1) -> None:
    for imp in impulses:
        g.clock(turn, step_of(imp, "a"))


def test_6_2_2_turn_completes_and_loses_speed(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", speed=4)  # turn at speed 4: 2 hexes, speed loss 1
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "turn left"})
    assert g.a("a").attributes["maneuver"]["hexes"] == 2
    with pytest.raises(RuleViolation, match="already has"):
        g.do("mark_maneuver", {"aircraft": "a", "maneuver": "straight"})
    _fly(g, "a", range(1, 2))  # speed 4 moves in impulse 1
    assert g.a("a").attributes["maneuver"]["moved"] == 1
    _fly(g, "a", range(2, 5))  # ... and in impulse 4
    a = g.a("a")
    assert a.attributes["maneuver"] is None
    assert a.attributes["speed"] == 3
    assert a.attributes["last_facing"] == "turns one hexside left (6.2.2)"


def test_6_2_4_sideslip_moves_a_row_over_and_back_and_loses_speed(game: Any) -> None:
    """6.2.4: the Slip marker goes the chart's hexes ahead; on reaching it the aircraft moves
    one row right or left and back one hex, and loses the chart's speed points."""
    g = game()
    g.add("a", "Blue", "f4e", speed=4)  # F-4E slip at speed 4: 2 hexes, speed loss 1
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "slip right"})
    assert g.a("a").attributes["maneuver"]["hexes"] == 2
    _fly(g, "a", range(1, 5))  # speed 4 moves in impulses 1 and 4
    a = g.a("a")
    assert a.attributes["maneuver"] is None and a.attributes["speed"] == 3
    assert a.attributes["last_facing"] == "moves one row right and back one hex (6.2.4)"
    assert a.attributes["control_checks"] == []  # no check for a slip, whatever the pilot


def test_6_2_5_loop_turns_three_hexsides_and_a_green_pilot_checks(game: Any) -> None:
    """6.2.5: the Loop marker at the chart's distance; on reaching it the aircraft turns three
    hexsides and loses the chart's speed; a Green pilot checks for loss of control (6.4)."""
    g = game()
    g.add("a", "Blue", "f4e", "green", speed=4)  # F-4E loop at speed 4: 3 hexes, loss 3
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "loop"})
    assert g.a("a").attributes["maneuver"]["hexes"] == 3
    _fly(g, "a", range(1, 8))  # speed 4 moves in impulses 1, 4 and 7
    a = g.a("a")
    assert a.attributes["maneuver"] is None and a.attributes["speed"] == 1
    assert a.attributes["last_facing"] == "turns three hexsides (6.2.5)"
    assert a.attributes["control_checks"] == [{"cause": "loop", "below_zero": 0}]
    with pytest.raises(RuleViolation, match="cannot fly a loop at speed 3"):
        g.add("b", "Blue", "f4e", speed=3)  # the chart's "-": no loop below speed 4
        g.do("mark_maneuver", {"aircraft": "b", "maneuver": "loop"})


def test_6_3_climb_costs_a_hex_and_speed(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", speed=4, altitude=2)
    # turn: 2 hexes; climbing 2 levels puts the marker 0 hexes out; 2 moves to finish
    with pytest.raises(RuleViolation, match="at most 2 level"):
        g.do("mark_maneuver", {"aircraft": "a", "maneuver": "turn left", "climb": 3})
    with pytest.raises(RuleViolation, match="climb and dive"):
        g.do("mark_maneuver", {"aircraft": "a", "maneuver": "turn left", "climb": 1, "dive": 1})
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "turn left", "climb": 1})
    assert g.a("a").attributes["maneuver"]["hexes"] == 1  # 2 - 1 level
    _fly(g, "a", range(1, 2))
    a = g.a("a")
    # climbed one level at -1 speed, and the turn completes (1 hex, 1 level) at -1 speed
    assert a.attributes["altitude"] == 3
    assert a.attributes["speed"] == 2
    assert a.attributes["maneuver"] is None


def test_6_3_dive_never_above_dive_speed(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", speed=8, altitude=3)  # max dive 10, +1 per level
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "straight", "dive": 1})
    _fly(g, "a", range(1, 2))
    assert g.a("a").attributes["speed"] == 9 and g.a("a").attributes["altitude"] == 2
    g2 = game()
    g2.add("a", "Blue", "f4e", speed=8, altitude=0)
    with pytest.raises(RuleViolation, match="altitude 0"):
        g2.do("mark_maneuver", {"aircraft": "a", "maneuver": "straight", "dive": 1})


def test_11_0_loaded_restrictions(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", speed=4, stores=True)
    with pytest.raises(RuleViolation, match="loaded"):
        g.do("mark_maneuver", {"aircraft": "a", "maneuver": "hard turn left"})
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "turn left"})
    assert g.a("a").attributes["maneuver"]["hexes"] == 3  # 2 + 1 for being loaded
    with pytest.raises(RuleViolation, match="Maneuver Marking"):
        g.do("jettison", {"aircraft": "a"})
    g.clock(1, step_of(1, "i"))
    g.do("jettison", {"aircraft": "a"})
    assert g.a("a").attributes["stores"] is False


@pytest.mark.parametrize(("variants", "hexes"), [((), 2), (("loaded_straight_one_hex",), 1)])
def test_6_2_1_and_11_0_loaded_straight_reading(game: Any, variants: Any, hexes: int) -> None:
    """6.2.1 places a Straight marker "always ... one hex in front"; 11.0 adds one hex to every
    maneuver of a loaded aircraft (open reading). Default: two hexes (so a two-level dive is
    allowed, 6.3); loaded_straight_one_hex: one hex (one level only)."""
    g = game(variants)
    g.add("a", "Blue", "f4e", speed=4, stores=True, altitude=5)
    if hexes == 1:
        with pytest.raises(RuleViolation, match="at most 1 level"):
            g.do("mark_maneuver", {"aircraft": "a", "maneuver": "straight", "dive": 2})
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "straight", "dive": hexes})
    assert g.a("a").attributes["maneuver"]["levels"] == hexes  # marker: hexes less the levels


def test_6_2_3_hard_turn_by_green_pilot_needs_a_check(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "mig21", "green", speed=4)  # hard turn at 4: 1 hex, -2 speed
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "hard turn right"})
    _fly(g, "a", range(1, 2))
    a = g.a("a")
    assert a.attributes["control_checks"] == [{"cause": "hard turn", "below_zero": 0}]
    assert a.attributes["speed"] == 2
    r = g.do("loss_of_control", {"aircraft": "a"}, [5])  # green: 1-4 safe
    assert r.outcome == "out of control"
    assert Status.OUT_OF_CONTROL in g.a("a").status


# --- 6.4 loss of control ---------------------------------------------------------------------


LOC = RULESET.procedures["loss_of_control"]


def test_6_4_1_check_ranges_by_hand() -> None:
    def p(**kw: Any) -> Fraction:
        return LOC.odds(LOC.Inputs(**kw)).get("safe", Fraction(0))

    assert p(cause="hard turn", pilot="green") == Fraction(4, 10)
    assert p(cause="hard turn", pilot="inexperienced") == Fraction(6, 10)
    assert p(cause="loop", pilot="green") == Fraction(4, 10)
    assert p(cause="speed", pilot="average") == Fraction(8, 10)
    assert p(cause="speed", pilot="ace") == Fraction(8, 10)
    assert p(cause="speed", pilot="inexperienced") == Fraction(6, 10)
    assert p(cause="speed", pilot="green") == Fraction(4, 10)
    # wounded pilots check a Hard Turn or Loop as Inexperienced (Critical Hit Table #4)
    assert p(cause="loop", pilot="ace", wounded=True) == Fraction(6, 10)
    # -1 per speed point below zero, counted against the pilot (default reading)
    assert p(cause="speed", pilot="average", below_zero=2) == Fraction(6, 10)
    literal = RULESET.bind(["loss_of_control_literal"]).procedures["loss_of_control"]
    # literal: roll - 2 must lie in 1-8 -> rolls 3-10
    assert literal.odds(LOC.Inputs(cause="speed", pilot="average", below_zero=2))[
        "safe"
    ] == Fraction(8, 10)
    with pytest.raises(RuleViolation, match="does not check"):
        LOC.odds(LOC.Inputs(cause="hard turn", pilot="average"))


def test_6_4_1_speed_zero_check_sets_speed_1(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", "average", speed=2, altitude=1)
    g.do("mark_maneuver", {"aircraft": "a", "maneuver": "hard turn left", "climb": 1})
    # speed 2 moves in impulse 3: climb -1 -> 1, hard turn -2 -> -1
    _fly(g, "a", range(1, 4))
    a = g.a("a")
    assert a.attributes["speed"] == -1
    assert a.attributes["control_checks"] == [{"cause": "speed", "below_zero": 1}]
    r = g.do("loss_of_control", {"aircraft": "a"}, [7])  # 7 + 1 = 8: safe
    assert r.outcome == "safe" and g.a("a").attributes["speed"] == 1


REC = RULESET.procedures["recovery"]


def test_6_4_2_recovery_odds() -> None:
    assert REC.odds(REC.Inputs(pilot="green", altitude=2)) == {
        "recovered": Fraction(4, 10),
        "still out of control": Fraction(6, 10),
    }
    assert REC.odds(REC.Inputs(pilot="ace", altitude=0)) == {
        "recovered": Fraction(8, 10),
        "crashed": Fraction(2, 10),
    }


def test_6_4_2_recovery_and_crash(game: Any) -> None:
    from app.core.events import StatusChanged

    g = game()
    g.add("a", "Blue", "f4e", "inexperienced", speed=5, altitude=1)
    g.add("b", "Red", "mig21")
    g.apply([StatusChanged(aircraft="a", set=(Status.OUT_OF_CONTROL,))])
    g.clock(1, step_of(2, "a"))  # speed 5 does not move in impulse 2
    with pytest.raises(RuleViolation, match="would move"):
        g.do("recovery", {"aircraft": "a"}, [1, 1, 1])
    g.clock(1, step_of(4, "a"))
    assert g.a("a").attributes["recovery_due_at"] == 4
    assert "moved_at" not in g.a("a").attributes  # out of control: stays in its hex
    r = g.do("recovery", {"aircraft": "a"}, [7])  # inexperienced: 1-6
    assert r.outcome == "still out of control" and g.a("a").attributes["altitude"] == 0
    g.clock(1, step_of(5, "a"))
    r = g.do("recovery", {"aircraft": "a"}, [9])
    assert r.outcome == "crashed"
    assert Status.CRASHED in g.a("a").status
    assert g.e.attributes["kills"] == {"Red": 1}


def test_6_4_3_recovery_effects(game: Any) -> None:
    from app.core.events import StatusChanged

    g = game()
    g.add("a", "Blue", "f4e", speed=5, altitude=3)
    g.apply([StatusChanged(aircraft="a", set=(Status.OUT_OF_CONTROL,))])
    g.clock(1, step_of(1, "a"))
    r = g.do("recovery", {"aircraft": "a"}, [8, 6, 2])
    assert r.outcome == "recovered"
    a = g.a("a")
    assert a.attributes["speed"] == 1  # 5 - 6 <= 0 -> 1
    assert "2 hexsides clockwise" in a.attributes["last_facing"]
    assert Status.OUT_OF_CONTROL not in a.status
    # just recovered: may not fire this impulse (7.0)
    g.add("b", "Red", "mig21")
    with pytest.raises(RuleViolation, match="just recovered"):
        g.do(
            "missile_launch", {"attacker": "a", "target": "b", "missile": "aim9j", "range_hexes": 2}
        )


def test_who_acts_names_the_procedure_to_open(game: Any) -> None:
    """3.0 b) Fire-Check Segment: a burning aircraft's line opens the fire check (9.0)."""
    from app.core.engagement import Status
    from app.core.events import StatusChanged

    g = game()
    g.add("a", "Blue", "f4e", speed=5)
    g.apply([StatusChanged(aircraft="a", set=(Status.ON_FIRE,))])
    g.clock(1, step_of(1, "b"))
    assert ActingLine("a", "checks its fire (9.0)", procedure="fire_check") in g.rs.acting(g.e)
    assert all(line.procedure in g.rs.procedures for line in g.rs.acting(g.e))
