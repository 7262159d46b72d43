"""The critical-hit log: rows from the log, filters, undone entries struck through, CSV."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.critical_log import CriticalLogDock
from app.ui.model import EngagementModel


@pytest.fixture
def game(tmp_path):
    s = GameSession.create(tmp_path / "g.airboss", "skirmish", "Crit test")
    s.add_aircraft("Blue", "jet", "Blue 1")
    s.add_aircraft("Red", "prop", "Red 1")
    s.add_aircraft("Red", "prop", "Red 2")
    yield s
    s.close()


@pytest.fixture
def dock(qtbot, game):
    d = CriticalLogDock(EngagementModel(game))
    qtbot.addWidget(d)
    d.show()
    return d


def shown(dock):
    v = dock.view
    return [
        tuple(v.item(r, c).text() for c in range(v.columnCount()))
        for r in range(v.rowCount())
        if not v.isRowHidden(r)
    ]


def struck(dock, row):
    return dock.view.item(row, 0).font().strikeOut()


def test_damage_and_criticals_appear_with_turn_roll_result_and_rule(dock, game):
    assert shown(dock) == [] and dock.empty.isVisible()
    gun = {"attacker": "blue-1", "target": "red-1"}
    game.perform("gun_attack", gun, TableDice([2]))
    game.perform("critical_hit", {"aircraft": "red-1"}, TableDice([3]))
    for _ in range(3):
        game.clock.next_step()  # turn 2
    game.perform("critical_hit", {"aircraft": "red-2"}, TableDice([5]))
    game.perform("critical_hit", {"aircraft": "blue-1"}, TableDice([9]))  # no effect: no row
    assert shown(dock) == [
        ("1", "Red", "Red 1", "d10=2 (typed)", "1 damage from Blue 1", "Skirmish 1"),
        ("1", "Red", "Red 1", "3", "fire", "Skirmish 2"),
        ("2", "Red", "Red 2", "5", "pilot wounded", "Skirmish 2"),
    ]
    assert not dock.empty.isVisible()


def test_filters_by_side_aircraft_and_turn(dock, game):
    game.perform("gun_attack", {"attacker": "red-1", "target": "blue-1"}, TableDice([1]))
    game.perform("critical_hit", {"aircraft": "red-1"}, TableDice([1]))
    for _ in range(3):
        game.clock.next_step()
    game.perform("critical_hit", {"aircraft": "red-2"}, TableDice([4]))
    sides = [dock.side.itemText(i) for i in range(dock.side.count())]
    assert sides == ["All sides", "Blue", "Red"]
    dock.side.setCurrentIndex(dock.side.findText("Red"))
    assert [r[2] for r in shown(dock)] == ["Red 1", "Red 2"]
    dock.turn.setCurrentIndex(dock.turn.findText("Turn 2"))
    assert [r[2] for r in shown(dock)] == ["Red 2"]
    dock.aircraft.setCurrentIndex(dock.aircraft.findText("Red 1"))
    assert shown(dock) == []
    assert dock.empty.text() == "No entries match these filters."
    dock.turn.setCurrentIndex(0)
    assert [r[4] for r in shown(dock)] == ["fire"]
    dock.side.setCurrentIndex(0)
    dock.aircraft.setCurrentIndex(0)
    assert len(shown(dock)) == 3


def test_undone_entries_are_struck_through_and_redo_restores_them(dock, game):
    game.perform("critical_hit", {"aircraft": "red-1"}, TableDice([1]))
    assert not struck(dock, 0)
    game.undo()
    assert shown(dock)[0][4] == "fire"  # still listed
    assert struck(dock, 0)
    assert dock.view.item(0, 4).toolTip().startswith("Undone")
    game.redo()
    assert not struck(dock, 0)


def test_reopened_game_shows_the_same_log(qtbot, tmp_path, game):
    game.perform("critical_hit", {"aircraft": "red-1"}, TableDice([2]))
    game.undo()
    game.close()
    s = GameSession.open(tmp_path / "g.airboss")
    d = CriticalLogDock(EngagementModel(s))
    qtbot.addWidget(d)
    assert shown(d)[0][4] == "fire" and struck(d, 0)
    s.close()


def test_export_csv_writes_the_filtered_rows(qtbot, dock, game, tmp_path, monkeypatch):
    game.perform("critical_hit", {"aircraft": "red-1"}, TableDice([1]))
    game.perform("critical_hit", {"aircraft": "blue-1"}, TableDice([4]))
    game.undo()
    out = tmp_path / "crits.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "CSV"))
    qtbot.mouseClick(dock.export_button, Qt.MouseButton.LeftButton)
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert rows[0] == ["Turn", "Side", "Aircraft", "Roll", "Result", "Rule", "Undone", "Log entry"]
    assert [r[2] for r in rows[1:]] == ["Red 1", "Blue 1"]
    assert rows[2][6] == "yes" and rows[1][6] == ""
    assert "Exported 2 entries" in dock.status.text()
    dock.side.setCurrentIndex(dock.side.findText("Blue"))
    dock.export_csv(out)
    assert [r[2] for r in csv.reader(out.open(encoding="utf-8"))][1:] == ["Blue 1"]


def test_export_to_an_unwritable_place_says_so(dock, tmp_path):
    dock.export_csv(tmp_path / "no-such-dir" / "x.csv")
    assert "Could not write" in dock.message.message
