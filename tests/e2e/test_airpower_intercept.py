"""An F-4E (sample card) guns a MiG-17F (sample card) over two game turns through GameSession
(Air Power). Dice are typed as at a real table (TableDice).

The umpire first fills in the modifier table cells the rules text does not print (test
values), then:

Turn 1  The F-4E turns ET on its last FP (speed 7.0): no gun attack after it (Gun Attack
        Requirements). The clock moves on: the flight becomes last turn's.
Turn 2  Recovery Split Between Game Turns: after FPs 1-3 no gun attack; after FP 4 a snap shot
        at range 1 from the 0 line (hit 6 at range 1; 0 line -2, size 0, average 0, snap +1:
        total -1): roll 6 hits (5 <= 6), attack rating 5 - 1 = 4, half a point of ammunition.
        Undo and redo. A normal shot after FP 5: total -2, roll 9 misses (7 > 6); one point.
        A third attack is refused and nothing is written. The hit's damage roll (damage table
        filled in with test values): roll 2 gives "X" in the attack rating 4 column.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from app.core.data import save_override
from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.session import GameSession
from tests.umpire_values import AIRPOWER_MODIFIERS

# The umpire's values for cells the rules text does not print (test values, not the game's).
TEST_MODIFIERS = AIRPOWER_MODIFIERS


def test_gun_intercept(tmp_path: Path) -> None:
    save_override("airpower", "modifiers", TEST_MODIFIERS)
    s = GameSession.create(tmp_path / "ap.airboss", ruleset="airpower", title="Intercept")
    try:
        f4 = s.add_aircraft(side="Blue", type_id="f-4e", name="Phantom", pilot="average")
        mig = s.add_aircraft(side="Red", type_id="mig-17f", name="Fresco", pilot="average")
        assert s.engagement.aircraft[f4].ledgers["gun_ammunition"].value == 4

        s.perform("flight", {"aircraft": f4, "speed": 7.0, "this_turn": ["none"] * 6 + ["ET"]})
        gun_attack = s.ruleset.procedures["gun_attack"]

        def gun() -> dict[str, object]:
            # as the desk does: the numbers off the cards and the flight record, then what the
            # umpire sees on the table
            pre = gun_attack.prefill(s.engagement, f4, mig)
            return {
                **pre,
                "horizontal_range": 1,
                "angle_off": "0 line",
                "attacker": f4,
                "target": mig,
            }

        assert gun()["hit_numbers"] == [8, 6, 4] and gun()["attack_rating"] == 5
        assert gun()["last_fp"] == "ET" and gun()["fp"] == 7
        with pytest.raises(RuleViolation, match="ET"):
            s.perform("gun_attack", gun(), TableDice([1]))
        n = len(s.events())

        for _ in s.ruleset.steps(s.engagement):
            s.clock.next_step()
        assert s.engagement.turn == 2
        assert s.engagement.aircraft[f4].attributes["last_turn"][-1] == "ET"
        flight = s.ruleset.procedures["flight"]
        for fps, may_fire in [(1, False), (3, False), (4, True)]:
            pre = flight.prefill(s.engagement, f4, None)
            r = s.perform("flight", {**pre, "aircraft": f4, "this_turn": ["none"] * fps})
            assert r.outcome.startswith("may fire guns" if may_fire else "may not fire guns")
            if not may_fire:
                assert gun()["recovering_from"] == "ET"
                with pytest.raises(RuleViolation, match="recovery"):
                    s.perform("gun_attack", gun(), TableDice([1]))

        r = s.perform("gun_attack", {**gun(), "snap_shot": True}, TableDice([6]))
        assert r.outcome == "hit: attack rating 4"
        assert s.engagement.aircraft[f4].ledgers["gun_ammunition"].value == Fraction(7, 2)
        s.undo()
        assert s.engagement.aircraft[f4].ledgers["gun_ammunition"].value == 4
        s.redo()
        assert s.engagement.aircraft[f4].ledgers["gun_ammunition"].value == Fraction(7, 2)

        pre = flight.prefill(s.engagement, f4, None)
        s.perform("flight", {**pre, "aircraft": f4, "this_turn": ["none"] * 5})
        r = s.perform("gun_attack", gun(), TableDice([9]))
        assert r.outcome == "miss"
        assert s.engagement.aircraft[f4].ledgers["gun_ammunition"].value == Fraction(5, 2)
        before = len(s.events())
        with pytest.raises(RuleViolation, match="at most two"):
            s.perform("gun_attack", {**gun(), "fp": 6}, TableDice([1]))
        assert len(s.events()) == before > n

        # the hit waits on the MiG for its damage roll (table filled in: test values)
        assert s.engagement.aircraft[mig].attributes["hits_to_resolve"][0]["attack_rating"] == 4
        save_override("airpower", "aircraft_damage", {"results": {"4": ["X"] * 6 + ["-"] * 6}})
        damage = s.ruleset.procedures["damage"]
        pre = damage.prefill(s.engagement, f4, mig)
        assert pre == {"attack_rating": 4, "weapon": "gun"}
        r = s.perform("damage", {**pre, "target": mig}, TableDice([2]))
        assert r.outcome == "X"
        assert s.engagement.aircraft[mig].criticals[-1].result == "X"
        assert s.engagement.aircraft[mig].attributes["hits_to_resolve"] == []
    finally:
        s.close()
