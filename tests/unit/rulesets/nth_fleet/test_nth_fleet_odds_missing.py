"""Issue 45: Nth Fleet's odds before an air combat whose tables the text does not print name
the missing table and never raise (``GameSession.odds`` gives ``UnknownOdds``)."""

from __future__ import annotations

from pathlib import Path

from app.core.procedure import UnknownOdds
from app.session import GameSession


def test_odds_name_the_missing_table_and_never_raise(tmp_path: Path) -> None:
    s = GameSession.create(tmp_path / "n.airboss", "nth_fleet", "odds")
    s.add_aircraft(side="Blue", type_id="f14a", name="VF-1", base="Nimitz", unit_sides=2, units=2)
    s.add_aircraft(
        side="Red", type_id="mig29", name="Fulcrums", base="Olenya", units=2, unit_sides=2
    )
    s.perform("launch_mission", {"aircraft": "vf-1", "points": 4, "mission": "cap"})
    s.perform("launch_mission", {"aircraft": "fulcrums", "points": 4, "mission": "cap"})
    p = s.actions.prepare("air_attack", {"attacker": "vf-1", "target": "fulcrums"})
    assert p.inputs is not None, p.error
    odds = s.odds.odds(p)
    assert isinstance(odds, UnknownOdds) and not odds
    assert odds.missing.table == "Air-to-air attack table"
    assert "not printed in the rules text" in str(odds.missing)
    what_if = s.actions.prepare("air_attack", {}, {"attack_total": 20})
    assert what_if.inputs is not None
    assert isinstance(s.odds.odds(what_if), UnknownOdds)
    chain = s.odds.chain_odds(p)  # the chain names it too
    assert chain.missing and "Air-to-air attack table" in chain.missing[0]
    s.close()
