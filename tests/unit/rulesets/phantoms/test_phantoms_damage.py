"""Phantoms 8.0-8.2 and 9.0: damage, critical hits, ejection, fire checks."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from app.core.engagement import Status
from app.core.errors import RuleViolation
from rulesets.phantoms import RULESET
from rulesets.phantoms.damage import criticals_owed

CRIT = RULESET.procedures["critical_hit"]
EJECT = RULESET.procedures["ejection"]
FIRE = RULESET.procedures["fire_check"]


def test_8_1_examples() -> None:
    # 8.1.2: "if 6 damage points are inflicted, the attacker would roll twice ... if 5 damage
    # points are inflicted, the attacker would roll once"
    assert criticals_owed(6, 0, 20, missile=False) == 2
    assert criticals_owed(5, 0, 20, missile=False) == 1
    assert criticals_owed(2, 0, 20, missile=False) == 0
    # 8.1.3: "maximum of 5 damage points and already has 4 ... 3 more damage points ...
    # roll 3 times, once for inflicting 3 damage points and two more times"
    assert criticals_owed(3, 4, 5, missile=False) == 3
    # 8.1.1: a missile hit always rolls once
    assert criticals_owed(1, 0, 20, missile=True) == 1
    assert criticals_owed(3, 0, 20, missile=True) == 2
    # points already beyond the maximum count again for each new point
    assert criticals_owed(1, 7, 5, missile=False) == 1
    assert criticals_owed(0, 7, 5, missile=True) == 0


def test_8_1_example_on_the_damage_track(game: Any) -> None:
    """The 8.1.3 example, on a card with a maximum of 5 damage points: 4 taken, then 3 more."""
    from dataclasses import replace

    from rulesets.phantoms.damage import damage_events

    g = game()
    g.add("m", "Red", "mig21")
    m = replace(g.a("m"), max_damage=5, damage=4)
    events = damage_events(m, 3, missile=False, source=None)
    points = sum(e.points for e in events if e.kind == "damage_taken")
    due = [e.values["criticals_due"] for e in events if e.kind == "attributes_set"]
    assert points == 3 and due == [3]
    assert any(e.kind == "status_changed" and Status.LOADED in e.set for e in events)


CRIT_ROWS = {
    1: "miss",
    2: "miss",
    3: "miss",
    4: "pilot wounded",
    5: "structural damage",
    6: "structural damage",
    7: "engine hit",
    8: "fire",
    9: "major damage",
    10: "major damage",
}


def test_critical_hit_table_first_hits() -> None:
    from rulesets.phantoms.damage import critical_result

    i = CRIT.Inputs()
    assert {r: critical_result(r, i) for r in range(1, 11)} == CRIT_ROWS
    odds = CRIT.odds(i)
    assert odds == {
        "miss": Fraction(3, 10),
        "pilot wounded": Fraction(1, 10),
        "structural damage": Fraction(2, 10),
        "engine hit": Fraction(1, 10),
        "fire": Fraction(1, 10),
        "major damage": Fraction(2, 10),
    }


def test_critical_hit_table_second_hits() -> None:
    from rulesets.phantoms.damage import critical_result

    i = CRIT.Inputs(pilot_wounded=True, structural_damage=True, engine_hit=True, had_fire=True)
    assert critical_result(4, i) == "pilot killed"
    assert critical_result(5, i) == "structural failure"  # 2nd hit = treat as #10
    assert critical_result(7, i) == "engine lost"  # 2nd hit = treat as #10
    assert critical_result(8, i) == "destroyed by fire"
    # structural damage in a Hard Turn or Loop breaks the aircraft up
    assert critical_result(6, CRIT.Inputs(in_hard_turn_or_loop=True)) == "aircraft breaks up"
    odds = CRIT.odds(i)
    lost = odds["pilot killed"] + odds["structural failure"] + odds["engine lost"]
    assert lost + odds["destroyed by fire"] + odds["major damage"] == Fraction(7, 10)


def test_critical_hits_read_state_and_escalate(game: Any) -> None:
    from app.core.events import AttributesSet

    g = game()
    g.add("f4", "Blue", "f4e")
    g.add("m", "Red", "mig21")
    with pytest.raises(RuleViolation, match="no critical hit to roll"):
        g.do("critical_hit", {"aircraft": "m"}, [4])
    g.apply([AttributesSet(aircraft="m", values={"criticals_due": 4})])
    g.do("critical_hit", {"aircraft": "m"}, [2])  # minor damage: logged, no effect
    assert g.a("m").status == frozenset()
    g.do("critical_hit", {"aircraft": "m"}, [7])
    assert Status.ENGINE_DAMAGED in g.a("m").status
    g.do("critical_hit", {"aircraft": "m"}, [4])
    assert Status.WOUNDED in g.a("m").status
    # the table is read from the state: a second #4 kills the pilot, whatever the form said
    r = g.do("critical_hit", {"aircraft": "m", "pilot_wounded": False}, [4])
    assert r.outcome == "pilot killed"
    m = g.a("m")
    assert {Status.DESTROYED, Status.PILOT_KILLED} <= m.status
    assert m.attributes["criticals_due"] == 0
    assert [c.result for c in m.criticals] == [
        "Minor Damage",
        "Engine hit",
        "Pilot wounded",
        "Pilot killed",
    ]
    assert g.e.attributes["kills"] == {"Blue": 1}


def test_second_fire_destroys(game: Any) -> None:
    from app.core.events import AttributesSet

    g = game()
    g.add("f4", "Blue", "f4e")
    g.add("m", "Red", "mig21")
    g.apply([AttributesSet(aircraft="m", values={"criticals_due": 2})])
    g.do("critical_hit", {"aircraft": "m"}, [8])
    assert Status.ON_FIRE in g.a("m").status
    r = g.do("critical_hit", {"aircraft": "m"}, [8])
    assert r.outcome == "destroyed by fire"
    assert Status.DESTROYED in g.a("m").status
    assert g.a("m").attributes["destroyed_by"] == "fire"


# --- 8.2 ejection ---------------------------------------------------------------------------


def test_8_2_ejection_odds_by_hand() -> None:
    # >= 3 safe: plain 8/10
    assert EJECT.odds(EJECT.Inputs()) == {"pilot lost": Fraction(2, 10), "ejected": Fraction(8, 10)}
    # wounded -2 and on fire -3: need d10 >= 8
    o = EJECT.odds(EJECT.Inputs(wounded=True, on_fire=True))
    assert o["ejected"] == Fraction(3, 10)
    # major damage -2: d10 >= 5
    assert EJECT.odds(EJECT.Inputs(destroyed_by="major damage"))["ejected"] == Fraction(6, 10)
    # structural breakup in a hard turn -4: d10 >= 7
    assert EJECT.odds(EJECT.Inputs(destroyed_by="structural breakup"))["ejected"] == Fraction(4, 10)
    # all together -11: never
    assert EJECT.odds(
        EJECT.Inputs(wounded=True, on_fire=True, destroyed_by="structural breakup")
    ) == {"pilot lost": Fraction(1)}


def test_8_2_ejection_only_when_destroyed(game: Any) -> None:
    from app.core.events import AttributesSet

    g = game()
    g.add("f4", "Blue", "f4e")
    g.add("m", "Red", "mig21")
    with pytest.raises(RuleViolation, match="not destroyed"):
        g.do("ejection", {"aircraft": "m"}, [5])
    g.apply([AttributesSet(aircraft="m", values={"criticals_due": 1})])
    g.do("critical_hit", {"aircraft": "m"}, [9])
    pre = EJECT.prefill(g.e, "m", None)
    assert pre["destroyed_by"] == "major damage"
    r = g.do("ejection", {"aircraft": "m"}, [4])  # 4 - 2 = 2 < 3
    assert r.outcome == "pilot lost"
    with pytest.raises(RuleViolation, match="no ejection left"):
        g.do("ejection", {"aircraft": "m"}, [10])


# --- 9.0 fire check -------------------------------------------------------------------------


def test_9_0_fire_modifiers() -> None:
    m = FIRE.modifier  # type: ignore[attr-defined]
    assert m(FIRE.Inputs(speed=8)) == 3
    assert m(FIRE.Inputs(speed=6)) == 2 and m(FIRE.Inputs(speed=7)) == 2
    assert m(FIRE.Inputs(speed=4)) == 1 and m(FIRE.Inputs(speed=5)) == 1
    assert m(FIRE.Inputs(speed=3)) == 0
    assert m(FIRE.Inputs(speed=3, dove=True)) == 1
    assert m(FIRE.Inputs(speed=3, pilot="ace")) == 2
    assert m(FIRE.Inputs(speed=3, pilot="experienced")) == 1
    assert m(FIRE.Inputs(speed=3, pilot="green")) == -1


def test_9_0_a_nine_keeps_burning_by_default() -> None:
    # speed 1, average: the die alone. >9 out (10); 9 still burning (default reading);
    # 6-8 still burning; <=5 critical hit
    odds = FIRE.odds(FIRE.Inputs(speed=1))
    assert odds == {
        "critical hit": Fraction(5, 10),
        "still burning": Fraction(4, 10),
        "fire out": Fraction(1, 10),
    }
    variant = RULESET.bind(["fire_out_on_9"]).procedures["fire_check"]
    assert variant.odds(FIRE.Inputs(speed=1)) == {
        "critical hit": Fraction(5, 10),
        "still burning": Fraction(3, 10),
        "fire out": Fraction(2, 10),
    }
    # speed 8 and an ace: +5 -> out on 5+, never a critical
    assert FIRE.odds(FIRE.Inputs(speed=8, pilot="ace")) == {
        "still burning": Fraction(4, 10),
        "fire out": Fraction(6, 10),
    }


def test_9_0_fire_check_on_the_aircraft(game: Any) -> None:
    from app.core.events import AttributesSet

    g = game()
    g.add("f4", "Blue", "f4e")
    g.add("m", "Red", "mig21", speed=3)
    with pytest.raises(RuleViolation, match="not on fire"):
        g.do("fire_check", {"aircraft": "m"}, [5])
    g.apply([AttributesSet(aircraft="m", values={"criticals_due": 1})])
    g.do("critical_hit", {"aircraft": "m"}, [8])
    r = g.do("fire_check", {"aircraft": "m"}, [3])
    assert r.outcome == "critical hit"
    assert g.a("m").attributes["criticals_due"] == 1
    r = g.do("fire_check", {"aircraft": "m"}, [10])
    assert r.outcome == "fire out"
    assert Status.ON_FIRE not in g.a("m").status
