"""A Spitfire, a P-47 and a Bf 110 for two Game-Turns through GameSession (Advanced Air Force).

Dice are typed as at a real table (TableDice):

Turn 1  Plot: all unaffected. Advantage: Spitfire over the Bf 110 (600 ft below it).
        Fire: Spitfire 8 FF factors at 2 hexes, straight ahead, First Advantage: column 4,
        roll 5 -> 2F2E: twin engine (rule 24) -1 Power Factor, -1 Max. Level Sp., -.2 climb.
        The P-47 may not fire its fixed guns at the Bf 110 this Game-Turn (rule 14).
        Bf 110 rear gunner, 2 "F" factors at 1 hex from the 6 o'clock straight path (rule 15):
        entry roll 3 (needs above 4) -> miss, no ammunition spent.
Turn 2  Plot: the Bf 110 is Disadvantaged and moves before the Advantaged Spitfire (rule 2).
        Advantage repeated: Second Consecutive. Fire: the target in the 12 o'clock suffices.
        Spitfire at 1 hex: column 5, roll 2 -> 3FW2L. Undo and redo it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.session import GameSession


def test_two_turns(tmp_path: Path) -> None:
    path = tmp_path / "aaf.airboss"
    s = GameSession.create(path, ruleset="advanced_air_force", title="Channel", variants=())
    try:
        spit = s.add_aircraft(side="RAF", type_id="spitfire_sample", name="Spitfire")
        p47 = s.add_aircraft(side="RAF", type_id="p47_sample", name="Thunderbolt")
        bf = s.add_aircraft(side="LW", type_id="bf110_sample", name="Zerstorer")
        e = s.engagement
        assert e.aircraft[spit].pilot is None
        steps = s.ruleset.steps(e)
        assert [x.phase for x in steps] == ["Movement", "Advantage", "Fire"]

        s.clock.next_step()
        s.perform(
            "declare_advantage",
            {"attacker": spit, "target": bf, "altitude_difference_ft": 600},
            TableDice([]),
        )
        s.clock.next_step()
        fire = {
            "attacker": spit,
            "target": bf,
            "total_gun_factors": 8,
            "range_hexes": 2,
            "target_straight_ahead": True,
            "advantage": "first",
        }
        r = s.perform("gun_fire", fire, TableDice([5]))
        assert r.outcome == "2F2E"
        target = s.engagement.aircraft[bf]
        assert dict(target.boxes) == {"F": 2, "E": 2}
        assert target.attributes["power_factor_loss"] == 1
        assert target.attributes["max_level_speed_loss"] == 1
        assert target.attributes["climb_loss_ft"] == 200
        assert s.engagement.aircraft[spit].ledger("ammunition") == 5

        n = len(s.events())
        with pytest.raises(RuleViolation, match="rule 14"):
            s.perform(
                "gun_fire",
                {"attacker": p47, "target": bf, "total_gun_factors": 12, "range_hexes": 3},
                TableDice([1]),
            )
        assert len(s.events()) == n

        r = s.perform(
            "gun_fire",
            {
                "attacker": bf,
                "target": spit,
                "gun_type": "F",
                "total_gun_factors": 2,
                "range_hexes": 1,
                "six_oclock_straight_path": True,
                "advantage": "disadvantaged",
            },
            TableDice([3]),
        )
        assert r.outcome == "miss"
        assert s.engagement.aircraft[bf].ledger("ammunition") == 6

        s.clock.next_step()
        e = s.engagement
        assert (e.turn, e.step) == (2, 0)
        assert [line.who for line in s.ruleset.acting(e)] == [p47, bf, spit]
        s.clock.next_step()
        r = s.perform(
            "declare_advantage",
            {"attacker": spit, "target": bf, "altitude_difference_ft": 300},
            TableDice([]),
        )
        assert r.outcome == "second consecutive advantage"
        s.clock.next_step()
        fire.update(
            range_hexes=1,
            target_straight_ahead=False,
            target_at_12_oclock=True,
            advantage="second_consecutive",
        )
        r = s.perform("gun_fire", fire, TableDice([2]))
        assert r.outcome == "3FW2L"
        assert dict(s.engagement.aircraft[bf].boxes) == {"F": 5, "E": 2, "W": 1, "L": 2}
        s.undo()
        assert dict(s.engagement.aircraft[bf].boxes) == {"F": 2, "E": 2}
        s.redo()
        assert dict(s.engagement.aircraft[bf].boxes) == {"F": 5, "E": 2, "W": 1, "L": 2}

        card = s.ruleset.card_spec(s.engagement.aircraft[bf], s.engagement)
        titles = [b.title for b in card.blocks]
        assert "Data (SAMPLE VALUES)" in titles
        assert "F hits" in titles and "E hits" in titles
    finally:
        s.close()

    again = GameSession.open(path)
    try:
        assert dict(again.engagement.aircraft[bf].boxes) == {"F": 5, "E": 2, "W": 1, "L": 2}
    finally:
        again.close()
