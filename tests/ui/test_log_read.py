"""Issue 20: the first read of a long log does not stall the desk. The history panels show what
is read so far and take in the rest a slice at a time, between turns of the event loop, with
"Reading the log… N of M events" on show; once whole, they show exactly what a read at once
shows, whatever happened during the read (an action, an undo, a filter, another game, the panel
hidden). Figures: tests/bench/bench_log_read.py."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

import app.ui.model as model_module
from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.critical_log import CriticalLogDock, cells
from app.ui.docks.game_log import GameLogDock
from app.ui.docks.ledgers import LedgersDock
from app.ui.model import EngagementModel

GUN = {"attacker": "blue-1", "target": "red-1"}


def long_game(path: Path, rounds: int = 60) -> str:
    """A game of about 500 events: a gun attack undone 140 events after it was taken (its line
    is read long before its undo), steps, hits, misses, reloads, criticals, and an undo last."""
    s = GameSession.create(path, "skirmish", "Long game")
    for side, name in (("Blue", "Blue 1"), ("Red", "Red 1"), ("Red", "Red 2")):
        s.add_aircraft(side, "jet", name)
    s.perform("gun_attack", GUN, TableDice([3]))
    for _ in range(70):
        s.clock.next_step()
    for _ in range(71):
        s.undo()
    for r in range(rounds):
        for _ in range(3):
            s.clock.next_step()
        target = "red-1" if r % 2 else "red-2"
        gun = {"attacker": "blue-1", "target": target}
        s.perform("gun_attack", gun, TableDice([2 if r % 15 == 0 else 9]))
        s.roster.adjust_ledger("blue-1", "ammunition", "1", "reload")
        if r % 20 == 5:
            s.perform("critical_hit", {"aircraft": target}, TableDice([3]))
    s.perform("gun_attack", GUN, TableDice([9]))
    s.undo()
    where = s.store.where
    s.close()
    return where


@pytest.fixture
def where(tmp_path: Path) -> str:
    return long_game(tmp_path / "long.airboss")


@pytest.fixture
def sliced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of one batch of events (64), a panel update after each, nothing read at once."""
    monkeypatch.setattr(model_module, "FIRST_SLICE", 0)
    monkeypatch.setattr(model_module, "SLICE_S", 0.0)
    monkeypatch.setattr(model_module, "SLICE_PAGE", 50)
    monkeypatch.setattr(model_module, "SHOW_EVERY_S", 0.0)


def game_log_view(dock: GameLogDock) -> list[tuple[str, bool]]:
    return [(text, dock.is_struck(r)) for r, text in enumerate(dock.lines())]


def critical_view(dock: CriticalLogDock) -> list[tuple[tuple[str, ...], bool, int]]:
    return [(cells(e), undone, e.seq) for e, undone in dock.visible_rows()]


def read_at_once(where: str, monkeypatch: pytest.MonkeyPatch, qtbot) -> dict:
    """What the panels show of this game when its log is read at once (as before issue 20)."""
    with monkeypatch.context() as m:
        m.setattr(model_module, "FIRST_SLICE", 10**9)
        session = GameSession.open(where)
        model = EngagementModel(session)
        game_log, critical, ledgers = GameLogDock(model), CriticalLogDock(model), LedgersDock(model)
        for d in (game_log, critical, ledgers):
            qtbot.addWidget(d)
        assert model.log_whole
        ledgers.select("blue-1", "ammunition")
        seen = {
            "game_log": game_log_view(game_log),
            "critical": critical_view(critical),
            "ledger": ledgers.history_rows(),
        }
        model.set_session(None)
    return seen


def start(where: str, qtbot, *panels):
    """A model on the game and the panels on screen, the read of the log begun."""
    model = EngagementModel(GameSession.open(where))
    docks = [p(model) for p in panels]
    for d in docks:
        qtbot.addWidget(d)
        d.show()
    return model, docks


def one_slice(model: EngagementModel, qtbot) -> None:
    """Let the read go on by a slice or two (64 events each here, each with a ``log_read``)."""
    before = model.log_progress[0]
    with qtbot.waitSignal(model.log_read, timeout=5_000):
        pass
    assert model.log_progress[0] > before


def test_a_long_log_is_shown_as_read_so_far_and_ends_whole_in_order(
    where, sliced, qtbot, monkeypatch
):
    expected = read_at_once(where, monkeypatch, qtbot)
    model, (game_log, critical, ledgers) = start(
        where, qtbot, GameLogDock, CriticalLogDock, LedgersDock
    )
    ledgers.select("blue-1", "ammunition")
    slices: list[list[int]] = []
    model.log_read.connect(slices.append)
    assert not model.log_whole
    shown = game_log_view(game_log)
    # the lines read so far are the oldest of the log, as they will stay
    assert 0 < len(shown) < len(expected["game_log"])
    assert [t for t, _ in shown[:-1]] == [t for t, _ in expected["game_log"][: len(shown) - 1]]
    assert game_log.progress.isVisible()
    assert game_log.progress.text().startswith("Reading the log… ")
    assert game_log.progress.text().endswith(f"of {model.engagement.seq:,} events")

    qtbot.waitUntil(lambda: model.log_whole, timeout=10_000)
    assert len(slices) > 3  # read between turns of the event loop, not in one go
    assert game_log_view(game_log) == expected["game_log"]
    assert critical_view(critical) == expected["critical"]
    assert ledgers.history_rows() == expected["ledger"]
    assert not game_log.progress.isVisible() and not critical.progress.isVisible()
    assert game_log.count.text() == f"{len(expected['game_log'])} lines"
    # the gun attack undone 140 events later: struck, though its line was shown before
    assert expected["game_log"][4][1] and "gun roll 3" in expected["game_log"][4][0]
    model.set_session(None)


def test_actions_taken_during_the_read_are_shown_once_in_their_place(
    where, sliced, qtbot, monkeypatch
):
    model, (game_log, critical) = start(where, qtbot, GameLogDock, CriticalLogDock)
    assert not model.log_whole
    model.session.clock.next_step()
    model.session.perform("gun_attack", GUN, TableDice([2]))
    one_slice(model, qtbot)  # between two actions
    model.session.clock.next_step()
    assert not model.log_whole
    qtbot.waitUntil(lambda: model.log_whole, timeout=10_000)
    # the game as it is now, read at once (the actions are in the file already)
    expected = read_at_once(where, monkeypatch, qtbot)
    assert game_log_view(game_log) == expected["game_log"]
    assert critical_view(critical) == expected["critical"]
    assert sum("gun roll 2: hit" in t for t, _ in game_log_view(game_log)[-3:]) == 1

    # once whole, each action is taken in as it comes
    model.session.perform("gun_attack", GUN, TableDice([2]))
    assert model.log_whole and len(game_log.lines()) == len(expected["game_log"]) + 1
    assert len(critical.visible_rows()) == len(expected["critical"]) + 1
    model.set_session(None)


def test_undo_during_the_read_strikes_the_right_lines(where, sliced, qtbot, monkeypatch):
    model, (game_log, critical, ledgers) = start(
        where, qtbot, GameLogDock, CriticalLogDock, LedgersDock
    )
    ledgers.select("blue-1", "ammunition")
    assert not model.log_whole
    model.session.undo()  # the last reload: its line is not read yet
    model.session.undo()  # the gun attack before it (a miss)
    one_slice(model, qtbot)
    model.session.redo()  # the gun attack again
    qtbot.waitUntil(lambda: model.log_whole, timeout=10_000)
    expected = read_at_once(where, monkeypatch, qtbot)
    lines = game_log_view(game_log)
    assert lines == expected["game_log"]
    assert [t.split("  ", 1)[1][:8] for t, _ in lines[-3:]] == ["Undone: ", "Undone: ", "Redone: "]
    assert ledgers.history_rows() == expected["ledger"]
    assert ledgers.history_rows()[-1][2] == ledgers.history_rows()[-2][2]  # reload undone
    assert critical_view(critical) == expected["critical"]
    model.set_session(None)


def test_another_game_opened_during_the_read_shows_only_that_game(
    where, sliced, qtbot, monkeypatch, tmp_path
):
    other = long_game(tmp_path / "other.airboss", rounds=30)
    expected = read_at_once(other, monkeypatch, qtbot)
    model, (game_log, critical) = start(where, qtbot, GameLogDock, CriticalLogDock)
    assert not model.log_whole and game_log.lines()
    first = model.session
    model.set_session(GameSession.open(other))
    qtbot.waitUntil(lambda: model.log_whole, timeout=10_000)
    qtbot.wait(20)  # nothing of the first game's read comes after
    assert game_log_view(game_log) == expected["game_log"]
    assert critical_view(critical) == expected["critical"]
    assert first.log.closed

    # and to a game with no history panel asked for: nothing is read
    model.set_session(None)
    assert model.log_whole and game_log.lines() == []


def test_filters_on_a_half_read_log(where, sliced, qtbot, monkeypatch):
    expected = read_at_once(where, monkeypatch, qtbot)
    model, (game_log, critical) = start(where, qtbot, GameLogDock, CriticalLogDock)
    assert not model.log_whole
    qtbot.keyClicks(game_log.filter, "reload")
    so_far = game_log.lines()
    assert all("reload" in t.lower() for t in so_far)
    critical.aircraft.setCurrentIndex(critical.aircraft.findData("red-1"))
    qtbot.waitUntil(lambda: model.log_whole, timeout=10_000)
    wanted = [t for t, _ in expected["game_log"] if "reload" in t.lower()]
    assert len(wanted) > len(so_far) and game_log.lines() == wanted
    assert game_log.lines()[: len(so_far)] == so_far
    # the aircraft filter chosen on the hits read so far holds for the hits read after it
    assert critical.aircraft.currentData() == "red-1"
    red_1 = [row for row in expected["critical"] if row[0][2] == "Red 1"]
    assert critical_view(critical) == red_1 and 1 < len(red_1) < len(expected["critical"])
    critical.aircraft.setCurrentIndex(0)
    assert critical_view(critical) == expected["critical"]
    model.set_session(None)


def test_an_export_during_the_read_has_every_row(where, sliced, qtbot, monkeypatch, tmp_path):
    expected = read_at_once(where, monkeypatch, qtbot)
    model, (critical,) = start(where, qtbot, CriticalLogDock)
    assert not model.log_whole
    out = tmp_path / "hits.csv"
    critical.export_csv(out)
    with out.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    assert [int(r[-1]) for r in rows] == [seq for _, _, seq in expected["critical"]]
    assert model.log_whole and critical_view(critical) == expected["critical"]
    model.set_session(None)


def test_a_panel_hidden_during_the_read_catches_up_when_shown(where, sliced, qtbot, monkeypatch):
    window = QMainWindow()
    qtbot.addWidget(window)
    model = EngagementModel(GameSession.open(where))
    game_log = GameLogDock(model)
    dock = QDockWidget("Game log", window)
    dock.setWidget(game_log)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    window.show()
    game_log.when_shown.attach(dock)
    qtbot.waitUntil(lambda: game_log.lines() != [], timeout=5_000)
    assert not model.log_whole
    dock.hide()
    shown_before = len(game_log.lines())
    model.session.clock.next_step()  # an action while it is hidden
    qtbot.waitUntil(lambda: model.log_whole, timeout=10_000)
    assert len(game_log.lines()) == shown_before  # out of view, it did no work
    dock.show()
    qtbot.waitUntil(lambda: not game_log.when_shown.stale, timeout=5_000)
    expected = read_at_once(where, monkeypatch, qtbot)
    assert game_log_view(game_log) == expected["game_log"]
    model.set_session(None)
