"""Two Tornados against a Small UFO for three turns through GameSession (UFO interception).

Every die is typed as at a real table (TableDice), so the hand record below is the test:

Turn 1  initiative Blue 1 3+2=5, Blue 2 6+1=7 -> moving order Blue 1, Blue 2.
        Saucer moves 6". Blue 2 cannon at 5": d6 3 -> miss; at 3": d6 4 -> 2 hits.
        Damage on the Saucer: 7 -> 1 DP; 8 -> 2 DP and ray gun -d6 (2): charge 7.
        Missile firing (UFO 13-7 = 6): Blue 2 (7), Saucer (6), Blue 1 (5).
        Blue 2: two Sidewinders (HP2 and HP4) M1, M2. Saucer: ray gun 7 at 4" -> 3 dice
        5 2 6 -> 2 hits on Blue 1, charge 0. Blue 1: AMRAAM (HP3) M3.
        M1 within 1": d6 2 -> 2 rolls; M2 loses lock; M3 tracking.
        Blue 1 rolls 6 -> 2 DP, 9 -> 3 DP (5 DP); vital d6 6, not less than 5: flies on.
        Saucer rolls 6 -> 1 DP, 11 -> 1 DP and anti-grav -1: Saucer 5 DP, anti-grav 6.
Turn 2  initiative Blue 1 4+2=6, Blue 2 5+1=6: tie, Blue 1's higher reaction moves second.
        Saucer turns 90 and moves 4" (moved 6 last turn, not further than anti-grav 6).
        Blue 1 slows to 6". Blue 1 cannon at 1": d6 1 -> 1 hit; damage 6 -> 1 DP (6 DP).
        Missile firing (UFO 13-0 = 13): Saucer recharges d6 5 -> charge 5; Blue 1 guns once
        at 4": d6 2 -> miss; Blue 2 one Sidewinder (HP2) M4. M3 tracking (1 turn left);
        M4 within 1": d6 1 -> 1 roll: 3 -> 1 DP and max speed -1 (7 DP, max speed 5).
Turn 3  initiative Blue 1 1+2=3, Blue 2 1+1=2 -> Blue 2, Blue 1.
        Saucer may not move 6" (max speed 5): moves 5".
        Missile firing (UFO 13-5 = 8): Saucer ray gun 5 at 2" on Blue 2: 6 6 1 -> 2 hits;
        Blue 2 rolls 7 -> 1 DP, 10 -> 1 DP; vital d6 1 < 2: the pilot ejects.
        M3 within 1": d6 3 -> 3 rolls; the first, 12 -> 2D6 DP (2+1=3): 10 DP, destroyed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.session import GameSession


class Table:
    """The umpire at the desk: perform with typed dice, and step through the turn."""

    def __init__(self, s: GameSession) -> None:
        self.s = s

    def do(self, proc: str, inputs: dict[str, Any], dice: Sequence[int] = ()) -> str:
        source = TableDice(list(dice))
        res = self.s.perform(proc, inputs, source)
        assert source.unused == []
        return res.outcome

    def step(self, label: str) -> list[str]:
        """Advance to the next step, check its name, and return who acts, in order."""
        self.s.clock.next_step()
        e = self.s.engagement
        assert self.s.ruleset.steps(e)[e.step].label == label
        return [line.who for line in self.s.ruleset.acting(e)]

    def ledger(self, aircraft: str, ledger: str) -> int:
        return int(self.s.engagement.aircraft[aircraft].ledger(ledger))

    def damage(self, aircraft: str) -> int:
        return self.s.engagement.aircraft[aircraft].damage

    def half(self, half: int, speeds: dict[str, int], previous: dict[str, int]) -> list[str]:
        """One half of the planes' moves, lowest initiative first; returns that order."""
        order = self.step("Move first half" if half == 1 else "Move second half")
        for plane in order:
            self.do(
                "aircraft_move",
                {
                    "aircraft": plane,
                    "half": half,
                    "speed": speeds[plane],
                    "previous_speed": previous[plane],
                    "top_speed": 8,
                },
            )
        return order

    def damage_rolls(self, target: str, kind: str, dice: Sequence[Sequence[int]]) -> None:
        for d in dice:
            self.do("damage_roll", {"target": target, "target_type": kind}, d)


def test_two_tornados_against_a_small_ufo(tmp_path: Path) -> None:
    s = GameSession.create(tmp_path / "ufo.airboss", ruleset="ufo_interception", title="Bar test")
    b1 = s.add_aircraft(side="NATO", type_id="tornado", name="Blue 1", reaction=2)
    b2 = s.add_aircraft(side="NATO", type_id="tornado", name="Blue 2", reaction=1)
    ufo = s.add_aircraft(side="Visitors", type_id="small_ufo", name="Saucer")
    t = Table(s)
    e = s.engagement
    assert (e.turn, e.step) == (1, 0)
    assert [line.who for line in s.ruleset.acting(e)] == [b1, b2]
    assert t.ledger(ufo, "ray_gun_1") == 9 and t.ledger(b1, "hard_point_3") == 3

    # ---- turn 1 --------------------------------------------------------------------------
    planes = {"planes": [b1, b2], "reactions": [2, 1]}
    assert t.do("initiative", planes, [3, 6]) == f"{b1}, {b2}"
    assert t.step("UFO Moves") == [ufo]
    t.do("ufo_move", {"aircraft": ufo, "inches": 6, "anti_grav": 7})
    assert t.half(1, {b1: 8, b2: 8}, {b1: 8, b2: 8}) == [b1, b2]
    assert t.step("Cannon firing, at the half way point") == [b2, b1]
    assert t.do("cannon", {"attacker": b2, "target": ufo, "range_inches": 5}, [3]) == "miss"
    assert t.half(2, {b1: 8, b2: 8}, {b1: 8, b2: 8}) == [b1, b2]
    assert t.step("Cannon firing, at the end of the move") == [b2, b1]
    assert t.do("cannon", {"attacker": b2, "target": ufo, "range_inches": 3}, [4]) == "2 hits"
    t.damage_rolls(ufo, "ufo", [[3, 4], [5, 3, 2]])
    assert (t.damage(ufo), t.ledger(ufo, "ray_gun_1")) == (3, 7)
    assert t.step("Missile Firing")[:3] == [b2, ufo, b1]
    assert (
        t.do(
            "missile_launch",
            {
                "attacker": b2,
                "target": ufo,
                "missile": "sidewinder",
                "count": 2,
                "range_inches": 10,
            },
        )
        == "launched"
    )
    shot = {"attacker": ufo, "target": b1, "charge": 7, "range_inches": 4}
    assert t.do("ray_gun", shot, [5, 2, 6]) == "2 hits"
    t.do("missile_launch", {"attacker": b1, "target": ufo, "missile": "amraam", "range_inches": 18})
    assert t.do("missile_flight", {"missile": "M1", "came_within_1_inch": True}, [2]) == (
        "2 damage rolls"
    )
    t.do(
        "missile_flight",
        {"missile": "M2", "came_within_1_inch": False, "target_in_front_arc": False},
    )
    t.do("missile_flight", {"missile": "M3", "came_within_1_inch": False})
    t.damage_rolls(b1, "fighter", [[2, 4], [4, 5]])
    assert t.do("vital_system", {"aircraft": b1, "total_damage": 5}, [6]) == "miss"
    t.damage_rolls(ufo, "ufo", [[1, 5], [5, 6]])
    with pytest.raises(RuleViolation, match="only a gun that does not fire"):
        t.do("recharge", {"aircraft": ufo, "charge": 0, "power": 9, "recharge_dice": 1}, [3])
    # the hand record at the end of turn 1
    assert (t.damage(ufo), t.ledger(ufo, "anti_grav"), t.ledger(ufo, "ray_gun_1")) == (5, 6, 0)
    assert t.damage(b1) == 5 and t.ledger(b1, "hard_point_3") == 2
    assert (t.ledger(b2, "hard_point_2"), t.ledger(b2, "hard_point_4")) == (2, 2)
    assert [m["id"] for m in s.engagement.attributes["missiles"]] == ["M3"]

    # ---- turn 2 --------------------------------------------------------------------------
    assert t.step("Roll Initiative") == [b1, b2]
    assert s.engagement.turn == 2 and s.engagement.initiative_order == ()
    assert t.do("initiative", planes, [4, 5]) == f"{b2}, {b1}"
    t.step("UFO Moves")
    t.do(
        "ufo_move",
        {
            "aircraft": ufo,
            "inches": 4,
            "direction_change": 90,
            "anti_grav": 6,
            "moved_last_turn": 6,
        },
    )
    assert t.half(1, {b1: 6, b2: 8}, {b1: 8, b2: 8}) == [b2, b1]
    assert t.step("Cannon firing, at the half way point") == [b1, b2]
    t.half(2, {b1: 6, b2: 8}, {b1: 8, b2: 8})
    assert t.step("Cannon firing, at the end of the move") == [b1, b2]
    assert t.do("cannon", {"attacker": b1, "target": ufo, "range_inches": 1}, [1]) == "1 hit"
    t.damage_rolls(ufo, "ufo", [[3, 3]])
    assert t.step("Missile Firing")[:3] == [ufo, b1, b2]
    assert (
        t.do("recharge", {"aircraft": ufo, "charge": 0, "power": 9, "recharge_dice": 1}, [5])
        == "charge 5"
    )
    assert t.do("cannon", {"attacker": b1, "target": ufo, "range_inches": 4}, [2]) == "miss"
    t.do(
        "missile_launch",
        {"attacker": b2, "target": ufo, "missile": "sidewinder", "range_inches": 6},
    )
    t.do("missile_flight", {"missile": "M3", "came_within_1_inch": False})
    t.do("missile_flight", {"missile": "M4", "came_within_1_inch": True}, [1])
    t.damage_rolls(ufo, "ufo", [[1, 2]])
    assert (t.damage(ufo), t.ledger(ufo, "max_speed"), t.ledger(ufo, "ray_gun_1")) == (7, 5, 5)
    assert (t.ledger(b2, "hard_point_2"), t.ledger(b2, "hard_point_4")) == (1, 2)
    assert s.engagement.attributes["missiles"][0]["turns_left"] == 1

    # ---- turn 3 --------------------------------------------------------------------------
    t.step("Roll Initiative")
    assert t.do("initiative", planes, [1, 1]) == f"{b2}, {b1}"
    t.step("UFO Moves")
    with pytest.raises(RuleViolation, match="up to 5 inches"):
        t.do(
            "ufo_move",
            {"aircraft": ufo, "inches": 6, "anti_grav": 6, "max_speed": 5, "moved_last_turn": 4},
        )
    t.do(
        "ufo_move",
        {"aircraft": ufo, "inches": 5, "anti_grav": 6, "max_speed": 5, "moved_last_turn": 4},
    )
    t.half(1, {b1: 6, b2: 8}, {b1: 6, b2: 8})
    t.step("Cannon firing, at the half way point")
    t.half(2, {b1: 6, b2: 8}, {b1: 6, b2: 8})
    assert t.step("Cannon firing, at the end of the move") == [b1, b2]
    assert t.step("Missile Firing")[:3] == [ufo, b1, b2]
    shot = {"attacker": ufo, "target": b2, "charge": 5, "range_inches": 2}
    assert t.do("ray_gun", shot, [6, 6, 1]) == "2 hits"
    t.damage_rolls(b2, "fighter", [[3, 4], [5, 5]])
    assert t.do("vital_system", {"aircraft": b2, "total_damage": 2}, [1]) == (
        "vital system hit: pilot ejects"
    )
    assert "ejected" in s.engagement.aircraft[b2].status
    t.do("missile_flight", {"missile": "M3", "came_within_1_inch": True}, [3])
    t.damage_rolls(ufo, "ufo", [[6, 6, 2, 1]])

    # undo and redo the killing blow
    assert "destroyed" in s.engagement.aircraft[ufo].status
    s.undo()
    assert t.damage(ufo) == 7 and s.engagement.aircraft[ufo].in_play
    s.redo()
    saucer = s.engagement.aircraft[ufo]
    assert saucer.damage == 10 and "destroyed" in saucer.status
    assert saucer.attributes["damage_rolls_due"] == 2

    # the final hand record
    assert [line.who for line in s.ruleset.acting(s.engagement)] == [b1]
    assert (t.damage(b1), t.damage(b2)) == (5, 2)
    assert [t.ledger(b1, f"hard_point_{n}") for n in (2, 3, 4)] == [3, 2, 3]
    assert [t.ledger(b2, f"hard_point_{n}") for n in (2, 3, 4)] == [1, 3, 2]
    assert s.engagement.attributes["missiles"] == []
    assert s.engagement.turn == 3
    s.close()

    # the log replays to the same state
    again = GameSession.open(tmp_path / "ufo.airboss")
    assert again.engagement.aircraft[ufo].damage == 10
    assert any("2D6 DP" in env.narrative for env in again.events())
    again.close()
