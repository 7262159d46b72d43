"""Issue 32: every event of a game passes one door before it is stored
(``Ruleset.check_events``, called by the session for every append): an aircraft's attributes
must stay a valid ``State`` and the game's records a valid ``GameState``, whatever made the
event -- a procedure, ``on_clock``, the initial attributes of an aircraft put on the roster.
A ruleset's bug is named (event, aircraft, field) and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.engagement import Engagement
from app.core.events import AttributesSet, GameAttributesSet
from app.core.procedure import InvalidState
from app.plugins import load_ruleset
from app.session import GameSession


@pytest.fixture
def game(tmp_path: Path):
    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Door test")
    s.blue = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1", pilot="ace")
    yield s
    s.close()


def _nothing_written(s: GameSession, fn, match: str) -> None:
    before, state = len(s.events()), s.engagement
    with pytest.raises(InvalidState, match=match):
        fn()
    assert len(s.events()) == before and s.engagement is state


def test_an_on_clock_event_the_state_refuses_is_named_and_not_written(game, monkeypatch):
    def on_clock(engagement: Engagement, turn: int, step: int):
        return [AttributesSet(aircraft=game.blue, values={"sped": 6})]

    monkeypatch.setattr(game.ruleset, "on_clock", on_clock)
    _nothing_written(game, game.clock.next_step, r"Blue 1: state \{'sped': 6\}: sped: Extra inputs")


def test_initial_attributes_the_state_refuses_are_named_and_not_written(game, monkeypatch):
    monkeypatch.setattr(game.ruleset, "initial_attributes", lambda card, details: {"speed": "x"})
    _nothing_written(
        game,
        lambda: game.add_aircraft(side="Red", type_id="prop", name="Red 1"),
        r"Red 1: initial state \{'speed': 'x'\}: speed: Input should be a valid integer",
    )


@pytest.mark.parametrize(
    ("ruleset", "values", "said"),
    [
        ("phantoms", {"missiles_inflight": []}, "missiles_inflight: Extra inputs"),
        ("phantoms", {"kills": {"Blue": "two"}}, "kills.Blue: Input should be a valid integer"),
        ("ufo_interception", {"missile_serial": "M3"}, "missile_serial"),
        ("ufo_interception", {"initiative_ties": [["p1", 2]]}, "initiative_ties.0.1"),
        ("advanced_air_force", {"advantage": {"a": {"target": "b"}}}, "advantage.a.turn"),
        ("airpower", {"anything": 1}, "anything: Extra inputs"),
        ("nth_fleet", {"anything": 1}, "anything: Extra inputs"),
    ],
)
def test_each_rulesets_game_records_are_typed(ruleset: str, values: dict, said: str) -> None:
    rs = load_ruleset(ruleset)
    with pytest.raises(InvalidState, match=said):
        rs.check_events(Engagement(), [GameAttributesSet(values=values)])


def test_a_procedures_game_record_is_checked_in_its_draft() -> None:
    """The draft a procedure emits into checks the same way, so a later read in the same
    decision never sees a record the GameState refuses."""
    proc = load_ruleset("phantoms").procedures["missile_launch"]
    draft = proc.draft(Engagement())
    with pytest.raises(InvalidState, match="spots.a: Input should be a valid dictionary"):
        draft.emit(GameAttributesSet(values={"spots": {"a": ["b"]}}))
    assert draft.events == []
