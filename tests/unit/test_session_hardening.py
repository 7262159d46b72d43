"""Issue 16 (hostile inputs through GameSession): a lone surrogate is a validation refusal,
extra typed dice are refused; nothing is appended either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.session import GameSession


@pytest.fixture
def game(tmp_path: Path) -> GameSession:
    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Hostile")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1", pilot="ace")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    return s


def test_lone_surrogate_in_a_name_is_refused(game: GameSession) -> None:
    n = len(game.events())
    with pytest.raises(RuleViolation, match="cannot be stored"):
        game.add_aircraft(side="Blue", type_id="jet", name="Bad \ud800 name")
    with pytest.raises(RuleViolation, match="cannot be stored"):
        game.roster.change_aircraft("blue-1", name="x\udfff")
    assert len(game.events()) == n


def test_lone_surrogate_in_a_reason_is_refused(game: GameSession) -> None:
    ledger = next(iter(game.engagement.get("blue-1").ledgers), None)
    assert ledger is not None, "the test ruleset's jet carries an ammunition ledger"
    n = len(game.events())
    with pytest.raises(RuleViolation, match="cannot be stored"):
        game.roster.adjust_ledger("blue-1", ledger, -1, "pasted \udc80")
    assert len(game.events()) == n


def test_extra_typed_dice_are_refused(game: GameSession) -> None:
    n = len(game.events())
    inputs = {"attacker": "blue-1", "target": "red-1", "hit_number": 6}
    with pytest.raises(RuleViolation, match="unused: 5, 6"):
        game.perform("gun_attack", inputs, TableDice([1, 5, 6]))
    assert len(game.events()) == n
    game.perform("gun_attack", inputs, TableDice([1]))
    assert len(game.events()) > n
