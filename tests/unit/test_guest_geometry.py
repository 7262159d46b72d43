"""Issue 31: a ruleset's geometry is guest code too. Its board readings and its check of a
position run guarded: an exception other than the geometry's own refusal (``ValueError``: a
point that is not a hex centre) becomes a ``GuestError`` naming the ruleset and the call,
nothing is written; a refusal stays the rules' refusal, named by the aircraft."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.core.errors import RuleViolation
from app.core.guest import GuestError
from app.session import GameSession


class BrokenGeometry:
    """Raises where the geometry's own code is called; ``check_position`` refuses x < 0."""

    def __init__(self, how: str) -> None:
        self.how = how

    def relate(self, target: Any, attacker: Any) -> Any:
        if self.how == "raise":
            raise ZeroDivisionError("the geometry divides by zero")
        return object()  # no readings at all

    def check_position(self, x: float, y: float, facing: int) -> None:
        if x < 0:
            raise ValueError("not on the map")
        if self.how == "raise":
            raise TypeError("the geometry's check is broken")


@pytest.fixture
def game(hostile_site: ModuleType, tmp_path: Path) -> Iterator[GameSession]:
    s = GameSession.create(tmp_path / "geometry.airboss", ruleset="guest", title="Geometry")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    yield s
    s.close()


@pytest.mark.parametrize("how", ["raise", "wrong_type"])
def test_board_readings_of_a_broken_geometry_are_a_guest_error(
    game: GameSession, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game.roster.place("blue-1", 0.0, 0.0, 0)
    game.roster.place("red-1", 1.0, 0.0, 0)
    monkeypatch.setattr(game.ruleset, "geometry", BrokenGeometry(how))
    seq = game.engagement.seq
    with pytest.raises(GuestError, match=r"Guest \(hostile test ruleset\).*geometry \(board"):
        game.actions.board_readings({"attacker": "blue-1", "target": "red-1"})
    assert game.engagement.seq == seq


def test_a_broken_position_check_is_a_guest_error_and_its_refusal_a_rule(
    game: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game.ruleset, "geometry", BrokenGeometry("raise"))
    seq = game.engagement.seq
    with pytest.raises(GuestError, match=r"geometry \(check a position\).*TypeError"):
        game.roster.place("blue-1", 1.0, 0.0, 0)
    with pytest.raises(RuleViolation, match="Blue 1: not on the map") as refused:
        game.roster.place("blue-1", -1.0, 0.0, 0)
    assert not isinstance(refused.value, GuestError)
    assert game.engagement.seq == seq
