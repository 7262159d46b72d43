"""Issue 32: a two-aircraft procedure's prefill opening lives once in app.core:
``Procedure.prefill`` reads the attacker and the target from the engagement and hands them to
``prefill_pair`` with their cards and states typed by the ruleset's ``Card`` and ``State``
(``app.core.procedure.parties``)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AircraftAdded
from app.core.procedure import Decision, Draft, Party, Procedure, parties
from app.core.ruleset import ProcedureInputs


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    guns: int
    size: str = "medium"


class State(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    altitude: int = 0


class ShotInputs(ProcedureInputs):
    guns: int = 0
    target_size: str = "medium"
    target_altitude: int = 0


class Shot(Procedure):
    id, title, rule, Inputs = "shot", "Shot", "1", ShotInputs

    def decide(self, inputs: Any, dice: DiceSource, draft: Draft) -> Decision:
        return Decision("miss", "miss")

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if a:
            out["guns"] = a.card.guns
        if t:
            out.update(target_size=t.card.size, target_altitude=t.state.altitude)
        return out


def _game() -> Engagement:
    e = Engagement()
    planes = (("a", {"guns": 3}, {"altitude": 2}), ("b", {"guns": 1, "size": "small"}, {}))
    for n, (aid, card, attributes) in enumerate(planes, start=1):
        added = AircraftAdded(
            aircraft=aid,
            name=aid.upper(),
            side=aid,
            type_id="jet",
            card=card,
            attributes={"altitude": 5} if aid == "b" else attributes,
        )
        e = e.apply(added, n)
    return e


def test_parties_reads_both_aircraft_with_their_card_and_state_typed() -> None:
    e = _game()
    a, t = parties(e, "a", "b", Card, State)
    assert a is not None and t is not None
    assert (a.id, a.card, a.state) == ("a", Card(guns=3), State(altitude=2))
    assert t.aircraft is e.get("b") and t.card.size == "small" and t.state.altitude == 5
    assert parties(e, None, "b", Card, State)[0] is None
    assert parties(e, "a", None, Card, State)[1] is None
    with pytest.raises(RuleViolation, match="no aircraft 'zz'"):
        parties(e, "a", "zz", Card, State)


def test_prefill_hands_the_typed_pair_to_prefill_pair() -> None:
    shot = Shot(frozenset(), State, None, Card)
    e = _game()
    assert shot.prefill(e, "a", "b") == {"guns": 3, "target_size": "small", "target_altitude": 5}
    assert shot.prefill(e, "a", None) == {"guns": 3}
    assert shot.prefill(e, None, "b") == {"target_size": "small", "target_altitude": 5}
    assert shot.prefill(e, None, None) == {}


def test_a_procedure_made_without_its_rulesets_models_says_so() -> None:
    with pytest.raises(TypeError, match="without its ruleset's Card and State"):
        Shot().prefill(_game(), "a", "b")
