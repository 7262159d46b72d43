"""Two full turns of the demo engagement (app/resources/demo.toml) through GameSession (Phantoms).

Every die is typed as at a real table (TableDice); the hand record below is the test. The
aircraft are the catalogue's sample cards (defaults: level maximum speed, altitude 3).

Turn 1  Set speed: initiative USAF 4+2 (ace) = 6, VPAF 9 -> VPAF holds the marker (4.0).
        Olds 1 slows 8 -> 7 (5.0).
        Imp 1 a: speeds 4-10 move. f: Red 1 (Exp.) guns Olds 2, position 0: 8+3+2 = 13 vs
        2+1 = 3, difference 10 -> last chart entry, 4 hits; 1 critical (8.1): 7 engine hit.
        Olds 1 (Ace) guns Red 1, position 2: 6+3-2+4 = 11 vs 5+2+1 = 8 -> 2 hits.
        h: Eagle 1 (Exp.) locks Red 3 at range 6: 3+6+1 = 10 vs 5+2+2 = 9 -> lock (7.1.1b).
        i: Olds 1 marks a left turn: 3 hexes at speed 7 (6.1).
        Imp 2 g: Eagle 1 launches an AIM-7M at Red 3, range 6, side aspect -2: Hit # 4, two
        impulses of flight (7.1.1b: 5 hexes per impulse) -> impact in impulse 4.
        Imp 3 c: Olds 2 (engine hit) may not use its afterburner (refused, nothing written).
        Red 4 lights its afterburner at its level maximum 9: the +3 is lost (6.5).
        Imp 4 e: AIM-7M impact: 9+4 = 13 vs 3+2 (C/M) +1 (Avg.) = 6 -> 7 hits; criticals
        1 (missile) + 2 (7 points) = 3: 2 minor, 5 structural damage, 9 major damage: Red 3
        is lost, a kill for USAF; ejection 6-2 = 4 >= 3: ejected (8.2). Undo, redo.
        Imp 5 a: Olds 1 completes its turn (moves in impulses 2, 4, 5): speed 7 -> 6.
Turn 2  Set speed: Olds 2 (damaged engine: level maximum 6) may not keep 8; sets 6.
        Break-off: Red 4 (Green), turn 2: 7+2-2 = 7 vs 4 -> broken off (10.0, text reading).
        Imp 1 f: Olds 1 guns Red 1: 10+5 = 15 vs 1+3 = 4, difference 11 -> 5 hits (Red 1 at
        7 of 8); 1 critical: 8 fire. i: Eagle 2 (Inexp.) marks a hard right turn, 3 hexes.
        Imp 2 b: fire check 4+3 (speed 8)+1 (Exp.) = 8: still burning.
        Imp 3 b: 5+4 = 9: still burning (9.0, default reading of the unprinted 9).
        Imp 4 a: Eagle 2 completes the hard turn (impulses 2, 3, 4): speed 9 -> 7 and a loss
        of control check (6.2.3): 8, outside 1-6 -> out of control.
        b: 1+4 = 5: a critical hit: 3 minor damage.
        Imp 5 a: Eagle 2 (speed 7) would move: recovery 3 (1-6) -> recovered; d6 4: speed
        7 -> 3; d6 2: two hexsides clockwise (6.4.3). b: 6+4 = 10: the fire is out.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from app.core.dice import TableDice
from app.core.engagement import Status
from app.core.errors import RuleViolation
from app.session import GameSession
from rulesets.phantoms.clock import step_of

DEMO = Path(__file__).parents[2] / "app" / "resources" / "demo.toml"


class Desk:
    def __init__(self, s: GameSession) -> None:
        self.s = s

    def do(self, proc: str, inputs: dict[str, Any], dice: Sequence[int] = ()) -> str:
        source = TableDice(list(dice))
        res = self.s.perform(proc, inputs, source)
        assert source.unused == []
        return res.outcome

    def prefilled(
        self, proc: str, attacker: str | None, target: str | None, **kw: Any
    ) -> dict[str, Any]:
        p = self.s.ruleset.procedures[proc]
        out = p.prefill(self.s.engagement, attacker, target)
        out.update(kw)
        if attacker:
            out["attacker"] = attacker
        if target:
            out["target"] = target
        return out

    def goto(self, turn: int, step: int) -> list[tuple[str, str]]:
        """Advance to a step; who acts there as (who, what), the procedure ids dropped."""
        while (self.s.engagement.turn, self.s.engagement.step) != (turn, step):
            self.s.clock.next_step()
        return [(line.who, line.what) for line in self.s.ruleset.acting(self.s.engagement)]

    def at(self, turn: int, impulse: int, segment: str) -> list[tuple[str, str]]:
        return self.goto(turn, step_of(impulse, segment))

    def a(self, aid: str) -> Any:
        return self.s.engagement.aircraft[aid]

    def ledger(self, aid: str, ledger: str) -> int:
        return int(self.a(aid).ledger(ledger))


def test_demo_engagement_two_turns(tmp_path: Path) -> None:
    demo = tomllib.loads(DEMO.read_text())
    assert demo["ruleset"] == "phantoms"
    s = GameSession.create(tmp_path / "demo.airboss", ruleset="phantoms", title=demo["title"])
    ids = {
        p["name"]: s.add_aircraft(
            side=p["side"], type_id=p["type"], name=p["name"], pilot=p["pilot"]
        )
        for p in demo["aircraft"]
    }
    o1, o2, e1, e2 = ids["Olds 1"], ids["Olds 2"], ids["Eagle 1"], ids["Eagle 2"]
    r1, r3, r4 = ids["Red 1"], ids["Red 3"], ids["Red 4"]
    d = Desk(s)

    # ---- turn 1 ------------------------------------------------------------------------------
    init = d.prefilled("initiative", None, None)
    assert init["first_side"] == "USAF" and init["first_ace"] is True
    assert d.do("initiative", init, [4, 9]) == "VPAF holds the marker"
    d.do("set_speed", {"aircraft": o1, "speed": 7})

    acting = d.at(1, 1, "a")
    assert {a for a, what in acting if what == "moves one hex (6.0)"} == set(ids.values())
    acting = d.at(1, 1, "f")
    assert acting[0][0] in {ids["Red 1"], ids["Red 2"], r3, r4}  # the marker holder first
    assert (
        d.do("gun_attack", d.prefilled("gun_attack", r1, o2, position_modifier=0), [8, 2])
        == "4 hits"
    )
    assert d.do("critical_hit", {"aircraft": o2}, [7]) == "engine hit"
    assert (
        d.do("gun_attack", d.prefilled("gun_attack", o1, r1, position_modifier=2), [6, 5])
        == "2 hits"
    )
    d.at(1, 1, "h")
    assert d.do("radar_lock", d.prefilled("radar_lock", e1, r3, range_hexes=6), [3, 5]) == "lock"
    d.at(1, 1, "i")
    d.do("mark_maneuver", {"aircraft": o1, "maneuver": "turn left"})
    assert d.a(o1).attributes["maneuver"]["hexes"] == 3

    d.at(1, 2, "g")
    d.do(
        "missile_launch",
        {
            "attacker": e1,
            "target": r3,
            "missile": "aim7m",
            "range_hexes": 6,
            "position_modifier": -2,
        },
    )
    (flight,) = s.engagement.attributes["missiles_in_flight"]
    assert flight["impact_at"] == 4 and flight["hit"] == 4

    d.at(1, 3, "c")
    before = len(s.events())
    with pytest.raises(RuleViolation, match="damaged engine"):
        d.do("afterburner", {"aircraft": o2})
    assert len(s.events()) == before
    d.do("afterburner", {"aircraft": r4})
    assert d.a(r4).attributes["speed"] == 9

    acting = d.at(1, 4, "e")
    assert (e1, "AIM-7M Sparrow impact on Red 3 (7.1.3)") in acting
    assert d.do("missile_attack", d.prefilled("missile_attack", e1, r3), [9, 3]) == "7 hits"
    assert d.a(r3).attributes["criticals_due"] == 3
    assert d.do("critical_hit", {"aircraft": r3}, [2]) == "miss"
    assert d.do("critical_hit", {"aircraft": r3}, [5]) == "structural damage"
    assert d.do("critical_hit", {"aircraft": r3}, [9]) == "major damage"
    assert d.do("ejection", {"aircraft": r3}, [6]) == "ejected"
    s.undo()
    assert Status.EJECTED not in d.a(r3).status
    s.redo()
    assert Status.EJECTED in d.a(r3).status

    d.at(1, 5, "a")
    assert d.a(o1).attributes["maneuver"] is None and d.a(o1).attributes["speed"] == 6

    # ---- turn 2 ------------------------------------------------------------------------------
    d.goto(2, 0)
    with pytest.raises(RuleViolation, match="level maximum 6"):
        d.do("set_speed", {"aircraft": o2, "speed": 8})
    d.do("set_speed", {"aircraft": o2, "speed": 6})
    d.goto(2, 1)
    assert (
        d.do("break_off", d.prefilled("break_off", None, None, aircraft=r4), [7, 4]) == "broken off"
    )

    d.at(2, 1, "f")
    assert (
        d.do("gun_attack", d.prefilled("gun_attack", o1, r1, position_modifier=2), [10, 1])
        == "5 hits"
    )
    assert d.do("critical_hit", {"aircraft": r1}, [8]) == "fire"
    d.at(2, 1, "i")
    d.do("mark_maneuver", {"aircraft": e2, "maneuver": "hard turn right"})

    d.at(2, 2, "b")
    assert d.do("fire_check", {"aircraft": r1}, [4]) == "still burning"
    d.at(2, 3, "b")
    assert d.do("fire_check", {"aircraft": r1}, [5]) == "still burning"
    acting = d.at(2, 4, "a")
    assert (e2, "checks loss of control (6.4.1)") in acting
    assert d.a(e2).attributes["speed"] == 7
    assert d.do("loss_of_control", {"aircraft": e2}, [8]) == "out of control"
    d.at(2, 4, "b")
    assert d.do("fire_check", {"aircraft": r1}, [1]) == "critical hit"
    assert d.do("critical_hit", {"aircraft": r1}, [3]) == "miss"
    acting = d.at(2, 5, "a")
    assert (e2, "checks recovery (6.4.2)") in acting
    assert d.do("recovery", {"aircraft": e2}, [3, 4, 2]) == "recovered"
    d.at(2, 5, "b")
    assert d.do("fire_check", {"aircraft": r1}, [6]) == "fire out"
    d.goto(2, len(s.ruleset.steps(s.engagement)) - 1)

    # ---- the hand record ---------------------------------------------------------------------
    assert d.ledger(o1, "gun_ammunition") == 3
    assert d.ledger(o2, "gun_ammunition") == 5
    assert d.ledger(r1, "gun_ammunition") == 2
    assert d.ledger(e1, "missile_aim7m") == 3 and d.ledger(e1, "missile_aim9m") == 4
    assert d.ledger(r4, "afterburner") == 3
    assert d.ledger(o2, "afterburner") == 4
    assert {a: d.a(a).damage for a in ids.values()} == {
        o1: 0,
        o2: 4,
        e1: 0,
        e2: 0,
        r1: 7,
        ids["Red 2"]: 0,
        r3: 7,
        r4: 0,
    }
    crits = {a: [c.result for c in d.a(a).criticals] for a in ids.values() if d.a(a).criticals}
    assert crits == {
        o2: ["Engine hit"],
        r3: ["Minor Damage", "Structural damage", "Major damage"],
        r1: ["Fire", "Minor Damage"],
    }
    assert d.a(o2).status == {Status.ENGINE_DAMAGED}
    assert d.a(r1).status == frozenset()
    assert {Status.DESTROYED, Status.EJECTED, "structural_damage"} == d.a(r3).status
    assert d.a(r4).status == {Status.BROKEN_OFF}
    assert d.a(e2).status == frozenset() and d.a(e2).attributes["speed"] == 3
    assert s.engagement.attributes["kills"] == {"USAF": 1}
    assert s.engagement.attributes["missiles_in_flight"] == []

    # the log replays to the same state
    path = tmp_path / "demo.airboss"
    expected = s.engagement.aircraft
    s.close()
    again = GameSession.open(path)
    try:
        assert {
            k: (v.damage, v.status, v.criticals) for k, v in again.engagement.aircraft.items()
        } == {k: (v.damage, v.status, v.criticals) for k, v in expected.items()}
    finally:
        again.close()
