"""Issue 35: luck and the series work for every ruleset from the log alone.

For each built-in ruleset, an eight-aircraft game plays every procedure that rolls dice and
that these aircraft may do now (prefilled from the cards as the desk does, Airboss rolling;
at least one per ruleset: Advanced Air Force's gun fire, Nth Fleet's mission effectiveness,
more for the others); the odds the log's replay works out for each roll equal the odds the
procedure gave on the state just before it, exactly.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.core.after_action import read_after_action
from app.core.dice import SeededDice
from app.core.errors import RuleViolation
from app.core.events import ProcedureResolved
from app.core.luck import luck_rolls
from app.core.procedure import Procedure
from app.plugins import load_ruleset
from app.session import GameSession

RULESETS = ("phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception")


def eight_aircraft(path: Path, rid: str) -> GameSession:
    types = list(load_ruleset(rid).aircraft)
    s = GameSession.create(path, rid, f"{rid} luck")
    for i in range(8):
        side = "Blue" if i < 4 else "Red"
        extra = {"base": f"{side} carrier"} if rid == "nth_fleet" else {}
        s.add_aircraft(side, types[i % len(types)], f"{side} {i % 4 + 1}", **extra)
    return s


def missions(s: GameSession) -> None:
    """Nth Fleet fights in the air only: every group flies a mission (fighters CAP)."""
    for a in s.engagement.aircraft.values():
        for mission in ("cap", "strike"):
            try:
                s.perform("launch_mission", {"aircraft": a.id, "points": 2, "mission": mission})
                break
            except RuleViolation:
                continue


def candidates(s: GameSession, proc: Procedure) -> list[dict[str, Any]]:
    """Inputs to try: each aircraft against each enemy (as the desk prefills them), the
    required whole numbers the cards do not give set to 1."""
    fields = proc.Inputs.model_fields
    planes = list(s.engagement.aircraft.values())
    out = []
    for a in planes:
        for t in [t for t in planes if t.side != a.side][:2]:
            refs = {
                k: v
                for k, v in (("attacker", a.id), ("target", t.id), ("aircraft", a.id))
                if k in fields and not (k == "aircraft" and "attacker" in fields)
            }
            first = refs.get("attacker") or refs.get("aircraft")
            inputs = {**proc.prefill(s.engagement, first, refs.get("target")), **refs}
            for name, info in fields.items():
                if info.is_required() and name not in inputs and info.annotation is int:
                    inputs[name] = 1
            out.append(inputs)
    return out


@pytest.mark.parametrize("rid", RULESETS)
def test_replayed_odds_equal_the_odds_before_each_roll(rid: str, tmp_path: Path) -> None:
    s = eight_aircraft(tmp_path / f"{rid}.airboss", rid)
    if rid == "nth_fleet":
        missions(s)
    live: dict[int, dict[str, Fraction]] = {}
    for n, proc in enumerate(s.ruleset.procedures.values()):
        if proc.is_calculator:
            continue
        for inputs in candidates(s, proc):
            before = s.engagement
            try:
                s.perform(proc.id, inputs, SeededDice(n))
            except (RuleViolation, ValidationError):
                continue  # not open to these aircraft now (a rule, an unprinted table cell ...)
            record = next(e for e in reversed(s.events()) if isinstance(e.event, ProcedureResolved))
            if record.event.rolls:
                live[record.seq] = proc.odds(proc.parse(record.event.inputs), before)
            break
    assert live, f"{rid}: no procedure could be played"
    rolls = luck_rolls(list(s.log.iter_stored()), s.ruleset.procedures)
    assert {r.seq for r in rolls} == set(live)
    for r in rolls:
        assert r.why == "" and r.odds == live[r.seq], (rid, r.procedure)
        assert sum(r.odds.values()) == 1 and r.outcome in r.odds
    series = read_after_action(list(s.log.iter_stored()))
    assert "damage" in series.quantities() and len(series.of_aircraft("damage")) == 8
    s.close()
