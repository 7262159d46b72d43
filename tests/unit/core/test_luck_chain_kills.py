"""Issue 45: after-action luck credits a kill to the attack whose chain put the target out of
the fight -- its own roll and the rolls it owed. In Phantoms aircraft die through the critical
hits a hit owes (8.1), so a gun attack's kill comes in its critical hit's action; its kill
chance is the chain's chance of "out of the fight"."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from app.core.after_action import read_after_action
from app.core.chain_odds import chain_odds
from app.core.dice import TableDice
from app.core.luck import luck_rolls, tally
from app.session import GameSession


def test_a_kill_through_the_critical_hits_a_gun_hit_owed(tmp_path: Path) -> None:
    s = GameSession.create(tmp_path / "luck.airboss", "phantoms", "luck")
    olds = s.add_aircraft("USAF", "f4e", "Olds 1")
    red = s.add_aircraft("VPAF", "mig21", "Red 1")
    roles = {"attacker": olds, "target": red}
    p = s.actions.prepare("gun_attack", roles, {"position_modifier": 0})
    assert p.inputs is not None
    chain = chain_odds(s.ruleset, s.engagement, "gun_attack", p.inputs)
    # 10 against 1: the F-4E wins by 9 + its modifiers, hits off its chart, critical hits owed
    s.actions.resolve(p, TableDice([10, 1]))
    assert s.engagement.get(red).attributes["criticals_due"] >= 1
    s.perform("critical_hit", {"aircraft": red}, TableDice([10]))  # Major Damage: lost
    assert not s.engagement.get(red).in_play
    rolls = luck_rolls(list(s.log.iter_stored()), s.ruleset.procedures, chains=s.ruleset)
    gun = next(r for r in rolls if r.procedure == "gun_attack")
    assert gun.killed
    assert gun.kill_chance == chain.chances["out of the fight"] > 0
    blue = next(t for t in tally(rolls) if t.who == "USAF")
    assert blue.kills == 1 and blue.expected_kills == chain.chances["out of the fight"]
    # the after-action's loss names the attacker
    (loss,) = read_after_action(list(s.log.iter_stored())).losses
    assert (loss.name, loss.by_name) == ("Red 1", "Olds 1")
    # without the chains, the old count: the roll itself destroys nothing
    plain = luck_rolls(list(s.log.iter_stored()), s.ruleset.procedures)
    assert next(r for r in plain if r.procedure == "gun_attack").kill_chance == Fraction(0)
    s.close()
