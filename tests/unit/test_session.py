"""GameSession (API.md "Game sessions"): the facade; a refused action appends nothing."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.core.dice import DiceError, SeededDice, TableDice
from app.core.engagement import Position
from app.core.errors import RuleViolation
from app.core.events import CardsPrinted
from app.core.history import Timeline
from app.session import GameSession
from app.store import StoreError


@pytest.fixture
def game(tmp_path: Path):
    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Bar test")
    s.blue = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1", pilot="ace")
    s.red = s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    yield s
    s.close()


def refused(s: GameSession, fn, exc=(RuleViolation, ValidationError)) -> None:
    before = len(s.events())
    state = s.engagement
    with pytest.raises(exc):
        fn()
    assert len(s.events()) == before
    assert s.engagement is state


def test_api_surface(game: GameSession) -> None:
    a = game.engagement.aircraft[game.blue]
    assert (a.name, a.side, a.type_id, a.pilot) == ("Blue 1", "Blue", "jet", "ace")
    assert a.status == frozenset()
    assert game.ruleset.id == "skirmish"
    assert "jet" in game.ruleset.aircraft
    assert [e.seq for e in game.events()] == [1, 2, 3]


def test_pinned_names_keep_their_signatures() -> None:
    """Issue 44: the facade moved everything but the names shared/API.md pins to its parts;
    those keep their parameters, defaults and kinds as the contract writes them."""
    import inspect

    def params(f) -> list[tuple[str, object, str]]:
        sig = inspect.signature(f)
        return [(p.name, p.default, p.kind.name) for p in sig.parameters.values()]

    empty = inspect.Parameter.empty
    pos = "POSITIONAL_OR_KEYWORD"
    create = params(GameSession.create)
    assert create[:4] == [
        ("target", empty, pos),
        ("ruleset", empty, pos),
        ("title", empty, pos),
    ] + [("variants", (), pos)]
    assert params(GameSession.open)[:2] == [("target", empty, pos), ("game", None, pos)]
    assert params(GameSession.add_aircraft) == [
        ("self", empty, pos),
        ("side", empty, pos),
        ("type_id", empty, pos),
        ("name", empty, pos),
        ("pilot", "average", pos),
        ("details", empty, "VAR_KEYWORD"),
    ]
    assert params(GameSession.perform)[:4] == [
        ("self", empty, pos),
        ("procedure", empty, pos),
        ("inputs", empty, pos),
        ("dice", None, pos),
    ]
    for name in ("undo", "redo", "events", "close"):
        assert params(getattr(GameSession, name)) == [("self", empty, pos)], name
    assert isinstance(GameSession.__dict__["engagement"], property)


def test_perform_spends_and_damages(game: GameSession) -> None:
    r = game.perform(
        "gun_attack",
        {"attacker": game.blue, "target": game.red, "hit_number": 6, "snap_shot": True},
        TableDice([4]),
    )
    assert r.outcome == "hit"
    e = game.engagement
    assert e.aircraft[game.blue].ledgers["ammunition"].value == Fraction(5, 2)
    assert e.aircraft[game.red].damage == 1


def test_refusals_append_nothing(game: GameSession) -> None:
    refused(game, lambda: game.perform("gun_attack", {"hit_number": 11}, TableDice([1])))
    refused(game, lambda: game.perform("gun_attack", {"hit_number": 5}, TableDice([11])), DiceError)
    refused(game, lambda: game.perform("gun_attack", {"hit_number": 5}, TableDice([])), DiceError)
    refused(game, lambda: game.perform("nope", {}))
    refused(game, lambda: game.perform("gun_attack", {"attacker": "ghost"}, TableDice([1])))
    refused(game, lambda: game.add_aircraft(side="Blue", type_id="zeppelin", name="Z"))
    refused(game, lambda: game.add_aircraft(side="Blue", type_id="jet", name="Z", pilot="hero"))
    refused(game, lambda: game.add_aircraft(side="Blue", type_id="jet", name="Z", wings=3))
    refused(game, lambda: game.roster.change_aircraft(game.blue, pilot="legend"))
    refused(game, lambda: game.clock.previous_step())
    refused(game, lambda: game.redo())


def test_empty_ledger_refused(game: GameSession) -> None:
    for _ in range(3):
        game.perform("gun_attack", {"attacker": game.blue, "hit_number": 6}, SeededDice(1))
    refused(game, lambda: game.perform("gun_attack", {"attacker": game.blue}, TableDice([1])))


def test_rule_refusal_from_resolve(game: GameSession) -> None:
    game.perform("critical_hit", {"aircraft": game.blue}, TableDice([1]))
    refused(game, lambda: game.perform("afterburner", {"aircraft": game.blue}))


def test_undo_names_the_action_and_round_trips(game: GameSession) -> None:
    game.perform("gun_attack", {"attacker": game.blue, "target": game.red}, TableDice([2]))
    assert game.undoing.undo_text == "Blue 1 — Gun attack on Red 1: gun roll 2: hit (Skirmish 1)"
    after = game.engagement
    assert game.undo() == "Blue 1 — Gun attack on Red 1: gun roll 2: hit (Skirmish 1)"
    assert game.engagement.aircraft[game.red].damage == 0
    assert game.undoing.redo_text == "Blue 1 — Gun attack on Red 1: gun roll 2: hit (Skirmish 1)"
    game.redo()
    assert game.engagement.aircraft == after.aircraft
    assert game.log.undone_actions() == set()


def test_clock_wraps_into_next_turn(game: GameSession) -> None:
    for _ in range(3):
        game.clock.next_step()
    assert (game.engagement.turn, game.engagement.step) == (2, 0)
    game.clock.previous_step()
    assert (game.engagement.turn, game.engagement.step) == (1, 2)


def test_initiative_and_marker(game: GameSession) -> None:
    game.perform("initiative", {"sides": ["Blue", "Red"]}, TableDice([2, 5]))
    assert game.engagement.initiative_order == ("Red", "Blue")
    assert game.engagement.initiative_marker == "Red"
    # passing the marker is a ruleset's own rule (Phantoms 4.0), not the session's
    assert not hasattr(game, "pass_marker")


def test_changed_since_printed(game: GameSession) -> None:
    assert set(game.roster.changed_since_printed()) == {game.blue, game.red}
    game.roster.mark_printed([game.blue, game.red])
    assert game.roster.changed_since_printed() == []
    game.perform("gun_attack", {"attacker": game.blue, "target": game.red}, TableDice([2]))
    assert set(game.roster.changed_since_printed()) == {game.blue, game.red}
    game.undo()
    assert game.roster.changed_since_printed() == []
    assert isinstance(game.events()[-2].event, CardsPrinted) is False


def test_aircraft_ids_are_readable_and_unique(game: GameSession) -> None:
    assert game.blue == "blue-1"
    again = game.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    assert again == "blue-1-2"


def test_rename_remove_and_undo(game: GameSession) -> None:
    game.roster.change_aircraft(game.red, name="Red Leader", pilot="green")
    assert game.engagement.aircraft[game.red].name == "Red Leader"
    game.roster.remove_aircraft(game.red)
    assert game.red not in game.engagement.aircraft
    game.undo()
    assert game.engagement.aircraft[game.red].pilot == "green"


def test_an_attack_on_a_removed_aircraft_is_refused_naming_it(game: GameSession) -> None:
    """Issue 13: an attack whose target was removed is refused, by name, and not written."""
    game.roster.remove_aircraft(game.red)
    before = len(game.events())
    with pytest.raises(RuleViolation, match="Red 1 was removed from the roster"):
        game.perform("gun_attack", {"attacker": game.blue, "target": game.red}, TableDice([3]))
    assert len(game.events()) == before


def test_variants_are_checked(tmp_path: Path) -> None:
    with pytest.raises(RuleViolation, match="no variant"):
        GameSession.create(
            tmp_path / "v.airboss", ruleset="skirmish", title="v", variants=["moon_gravity"]
        )
    assert not (tmp_path / "v.airboss").exists()
    s = GameSession.create(
        tmp_path / "v.airboss", ruleset="skirmish", title="v", variants=["long_guns"]
    )
    assert s.engagement.variants == ("long_guns",)
    assert s.ruleset.chosen == {"long_guns"}
    s.close()
    r = GameSession.open(tmp_path / "v.airboss")
    assert r.ruleset.chosen == {"long_guns"}
    r.close()


def test_umpire_ledger_correction(game: GameSession) -> None:
    game.roster.adjust_ledger(game.blue, "ammunition", "-1/2", "jammed gun cleared")
    assert game.engagement.aircraft[game.blue].ledgers["ammunition"].value == Fraction(5, 2)
    assert "jammed gun cleared" in game.events()[-1].narrative
    refused(game, lambda: game.roster.adjust_ledger(game.blue, "ammunition", 1, "over the top"))
    refused(game, lambda: game.roster.adjust_ledger(game.blue, "ammunition", "-1/3", "odd"))
    refused(game, lambda: game.roster.adjust_ledger(game.blue, "ammunition", -1, " "))
    refused(game, lambda: game.roster.adjust_ledger(game.blue, "fuel", -1, "no such ledger"))
    game.undo()
    assert game.engagement.aircraft[game.blue].ledgers["ammunition"].value == 3


def test_empty_name_or_side_refused(game: GameSession) -> None:
    refused(game, lambda: game.roster.change_aircraft(game.blue, name="  "))
    refused(game, lambda: game.roster.change_aircraft(game.blue, side=""))


def test_save_copy(game: GameSession, tmp_path: Path) -> None:
    game.perform("gun_attack", {"attacker": game.blue, "target": game.red}, TableDice([2]))
    copy = game.save_copy(tmp_path / "copy.airboss")
    with GameSession.open(copy) as c:
        assert c.engagement == game.engagement
    with pytest.raises(StoreError, match="exists already"):
        game.save_copy(copy)


session_ops = st.lists(
    st.sampled_from(["gun", "snap", "crit", "burner", "undo", "redo", "next", "prev"]),
    max_size=14,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=session_ops, seed=st.integers(0, 10_000))
def test_any_performs_undos_and_redos_keep_ledgers_and_replay(tmp_path: Path, ops, seed) -> None:
    """Issue 2: through GameSession, no ledger goes negative and a replay of the stored log
    (as on reopening) equals the state built action by action."""
    import uuid

    path = tmp_path / f"{uuid.uuid4().hex}.airboss"
    s = GameSession.create(path, ruleset="skirmish", title="Property")
    a = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    b = s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    dice = SeededDice(seed)
    actions = {
        "gun": lambda: s.perform("gun_attack", {"attacker": a, "target": b}, dice),
        "snap": lambda: s.perform(
            "gun_attack", {"attacker": b, "target": a, "snap_shot": True}, dice
        ),
        "crit": lambda: s.perform("critical_hit", {"aircraft": a}, dice),
        "burner": lambda: s.perform("afterburner", {"aircraft": a}),
        "undo": s.undo,
        "redo": s.redo,
        "next": s.clock.next_step,
        "prev": s.clock.previous_step,
    }
    for op in ops:
        try:
            actions[op]()
        except RuleViolation:
            pass
        for craft in s.engagement.aircraft.values():
            assert all(led.value >= 0 for led in craft.ledgers.values())
    state = s.engagement
    s.close()
    with GameSession.open(path) as again:
        assert again.engagement == state
        assert Timeline.replay(again.events()).state == state


def test_place_is_an_undoable_position_event(tmp_path):
    """Positions are events (issue: board geometry): placed, moved, undone, replayed."""
    s = GameSession.create(tmp_path / "p.airboss", ruleset="phantoms", title="board")
    a = s.add_aircraft(side="Blue", type_id=next(iter(s.ruleset.aircraft)), name="Blue 1")
    s.roster.place(a, 2, 3, facing=90, altitude=4)
    assert s.engagement.get(a).position == Position(2, 3, 90, 4)
    s.roster.place(a, 4, 3, facing=90, altitude=4)
    s.undo()
    assert s.engagement.get(a).position == Position(2, 3, 90, 4)
    s.close()
    s = GameSession.open(tmp_path / "p.airboss")
    assert s.engagement.get(a).position == Position(2, 3, 90, 4)
    s.roster.place(a, None, None)
    assert s.engagement.get(a).position is None
    s.close()


def test_a_snapshot_is_kept_every_500_events_even_of_one_event_actions(tmp_path, monkeypatch):
    """Opening a long game reads the newest snapshot and the tail, never the whole log: a
    snapshot falls due whenever an action reaches a multiple of 500, one-event actions too."""
    monkeypatch.setenv("AIRBOSS_SQLITE_SYNC", "normal")
    s = GameSession.create(tmp_path / "long.airboss", ruleset="skirmish", title="long")
    while s.engagement.seq < 1010:
        s.clock.next_step()  # one ClockSet event per action
    seq, _ = s.store.latest_snapshot(s.game_id)
    assert seq == 1000
    s.close()
