"""The ledgers panel: value / start per aircraft with exact halves, history, refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest
from PySide6.QtCore import Qt

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.combat import CombatDock
from app.ui.docks.ledgers import LedgersDock, exact
from app.ui.model import EngagementModel


@pytest.fixture
def game(tmp_path):
    s = GameSession.create(tmp_path / "g.airboss", "skirmish", "Ledger test")
    s.add_aircraft("Blue", "jet", "Blue 1")
    s.add_aircraft("Red", "prop", "Red 1")
    yield s
    s.close()


@pytest.fixture
def model(game):
    return EngagementModel(game)


@pytest.fixture
def dock(qtbot, model):
    d = LedgersDock(model)
    qtbot.addWidget(d)
    d.show()
    return d


def tree_rows(dock):
    out = []
    for i in range(dock.tree.topLevelItemCount()):
        top = dock.tree.topLevelItem(i)
        out.append(top.text(0))
        for j in range(top.childCount()):
            c = top.child(j)
            out.append(("  " + c.text(0), c.text(1), c.text(2), c.text(3)))
    return out


def snap(game, n=1):
    for _ in range(n):
        game.perform("gun_attack", {"attacker": "blue-1", "snap_shot": True}, TableDice([10]))


def test_exact_shows_halves():
    assert [exact(Fraction(v)) for v in ("3", "1/2", "5/2", "0", "-1/2", "-3/2")] == [
        "3",
        "1/2",
        "2 1/2",
        "0",
        "-1/2",
        "-1 1/2",
    ]


def test_every_ledger_of_every_aircraft_as_value_and_start(dock, game):
    assert tree_rows(dock) == [
        "Blue 1 (Blue)",
        ("  Gun ammunition", "3", "3", "Skirmish 1"),
        ("  Afterburner uses", "2", "2", "Skirmish 3"),
        "Red 1 (Red)",
        ("  Gun ammunition", "2", "2", "Skirmish 1"),
    ]
    snap(game)
    assert tree_rows(dock)[1] == ("  Gun ammunition", "2 1/2", "3", "Skirmish 1")
    game.add_aircraft("Red", "jet", "Red 2")
    assert "Red 2 (Red)" in tree_rows(dock)
    game.roster.remove_aircraft("red-1")
    assert "Red 1 (Red)" not in tree_rows(dock)


def test_history_of_a_ledger_with_undone_changes_struck_through(qtbot, dock, game):
    snap(game, 2)
    game.undo()
    dock.select("blue-1", "ammunition")
    assert dock.history_title.text() == "History of Blue 1: Gun ammunition"
    rows = dock.history_rows()
    assert [r[:3] for r in rows] == [
        ("1", "start 3", "3 / 3"),
        ("1", "-1/2", "2 1/2 / 3"),
        ("1", "-1/2", "2 1/2 / 3"),  # undone: nothing spent
    ]
    assert rows[1][3] == "Skirmish 1"
    assert not dock.history_table.item(1, 1).font().strikeOut()
    assert dock.history_table.item(2, 1).font().strikeOut()
    assert tree_rows(dock)[1][1] == "2 1/2"
    game.redo()
    assert not dock.history_table.item(2, 1).font().strikeOut()
    assert dock.history_rows()[2][2] == "2 / 3"
    assert tree_rows(dock)[1][1] == "2"


def test_selecting_an_aircraft_shows_all_its_ledgers(qtbot, dock, game):
    game.perform("afterburner", {"aircraft": "blue-1"})
    top = dock.tree.topLevelItem(0)
    rect = dock.tree.visualItemRect(top)
    qtbot.mouseClick(dock.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dock.history_title.text() == "History of Blue 1: every ledger"
    changes = [r[1] for r in dock.history_rows()]
    assert changes == [
        "Gun ammunition: start 3",
        "Afterburner uses: start 2",
        "Afterburner uses: -1",
    ]


def test_an_empty_ledger_is_marked_and_a_spend_it_cannot_pay_is_refused(qtbot, dock, model, game):
    snap(game, 4)  # four half points: 3 - 2 = 1 left
    game.perform("gun_attack", {"attacker": "blue-1"}, TableDice([10]))
    assert tree_rows(dock)[1][1] == "0 (empty)"
    model.dice_mode.set_players_roll(False)  # Airboss rolls: the refusal is the ledger's
    combat = CombatDock(model)
    qtbot.addWidget(combat)
    combat.set_aircraft("blue-1")
    before = len(game.events())
    # said in the form at once, Resolve not offered (issue 29); Ctrl+Return says it again
    assert not combat.resolve_button.isEnabled()
    combat.resolve()
    assert len(game.events()) == before
    why = "Blue 1 cannot pay 1 ammunition: only 0 left"
    assert why in dock.message.message
    assert why in combat.refusal.message
    game.perform("afterburner", {"aircraft": "blue-1"})
    assert dock.message.message == ""  # the next action clears it


def test_a_refusal_about_something_else_is_not_shown_here(dock, model, game):
    game.clock.next_step()
    game.clock.next_step()
    game.clock.next_step()
    model.attempt(lambda: game.perform("gun_attack", {"attacker": "blue-1", "target": "x"}))
    assert dock.message.message == ""


def test_umpire_correction_spends_with_a_reason_and_refuses_what_cannot_be_paid(qtbot, dock, game):
    dock.select("blue-1", "ammunition")
    assert dock.apply_button.isEnabled()
    qtbot.keyClicks(dock.amount, "-1/2")
    qtbot.keyClicks(dock.reason, "jammed round")
    qtbot.mouseClick(dock.apply_button, Qt.MouseButton.LeftButton)
    assert game.engagement.aircraft["blue-1"].ledgers["ammunition"].value == Fraction(5, 2)
    assert "jammed round" in game.events()[-1].narrative
    assert dock.amount.text() == ""
    assert any("jammed round" in row[3] for row in dock.history_rows())
    before = len(game.events())
    qtbot.keyClicks(dock.amount, "5")
    qtbot.keyClicks(dock.reason, "refill")
    qtbot.keyClick(dock.reason, Qt.Key.Key_Return)
    assert len(game.events()) == before
    assert "cannot exceed" in dock.message.text()
    dock.select("blue-1")
    assert not dock.apply_button.isEnabled()
