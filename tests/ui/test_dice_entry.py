"""Issue 28: dice are entered as dice, belong to one prepared action, and how they are rolled is
asked once. Driven with keys and clicks through the real desk at 1366x768."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from app.core.data import save_override
from app.core.dice import TableDice
from app.core.events import ProcedureResolved
from app.session import GameSession
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from rulesets.phantoms.clock import step_of


def open_desk(qtbot: Any, tmp_path: Path, session: GameSession, ask: bool = True) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    model = EngagementModel()
    window = MainWindow(model, settings)
    qtbot.addWidget(window)
    window.show_session(session)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.build_panels()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    if ask:
        qtbot.mouseClick(window.dice_question.players, Qt.MouseButton.LeftButton)
    return window


@pytest.fixture
def desk(tmp_path: Path, qtbot: Any) -> Iterator[tuple[MainWindow, GameSession]]:
    """The Phantoms demo in the gun combat segment of impulse 1, the players rolling."""
    session = create_demo_game(tmp_path / "demo.airboss")
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    while (session.engagement.turn, session.engagement.step) != (1, step_of(1, "f")):
        session.clock.next_step()
    window = open_desk(qtbot, tmp_path, session)
    yield window, session
    window.model.set_session(None)


def open_line(qtbot: Any, window: MainWindow, text: str) -> None:
    """Enter on the "who acts now" line that contains ``text``."""
    acting = window.panels["turn"].acting
    row = next(i for i in range(acting.count()) if text in acting.item(i).text())
    acting.setFocus()
    acting.setCurrentRow(row)
    qtbot.keyClick(acting, Qt.Key.Key_Return)


def gun_line(qtbot: Any, window: MainWindow) -> Any:
    combat = window.panels["combat"]
    open_line(qtbot, window, "Olds 1 — may fire guns")
    assert QApplication.focusWidget() is combat.form.editor("position_modifier")
    qtbot.keyClicks(QApplication.focusWidget(), "2")  # the position: on to the first die
    return combat


def test_ten_on_a_d10_is_one_die_and_zero_reads_ten(desk, qtbot) -> None:
    """A d10 takes 1-10 and 0 read as 10: "10" typed in the first of two d10 fields is one
    die (the cursor moves on only then), "0" in the second is a 10; the event records 10, 10."""
    window, session = desk
    combat = gun_line(qtbot, window)
    first, second = combat.dice_fields
    assert first.edit.hasFocus()
    qtbot.keyClicks(first.edit, "1")
    assert first.edit.hasFocus()  # a 1 may become 10: the cursor stays
    qtbot.keyClicks(first.edit, "0")
    assert (first.edit.text(), second.edit.hasFocus()) == ("10", True)
    qtbot.keyClicks(second.edit, "0")
    before = len(session.events())
    qtbot.keyClick(second.edit, Qt.Key.Key_Return)
    rec = session.events()[before].event
    assert isinstance(rec, ProcedureResolved)
    assert [r["dice"] for r in rec.rolls] == [[10], [10]]


def test_eleven_on_a_d10_is_refused_in_place_never_split(desk, qtbot) -> None:
    """ "11" does not fit a d10: refused in the field, nothing carried to the next field,
    nothing written on Enter."""
    window, session = desk
    combat = gun_line(qtbot, window)
    first, second = combat.dice_fields
    qtbot.keyClicks(first.edit, "11")
    assert first.edit.text() == "11" and first.edit.hasFocus()
    assert "11 is not a face of a d10" in first.error.text()
    assert second.edit.text() == ""
    qtbot.keyClicks(first.edit, "1")  # a third digit: shown as typed, refused in place
    assert first.edit.text() == "111" and "111 is not a face of a d10" in first.error.text()
    before = len(session.events())
    qtbot.keyClick(first.edit, Qt.Key.Key_Return)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert len(session.events()) == before


def test_seven_on_a_d6_is_refused_in_place(tmp_path, qtbot) -> None:
    """UFO rules, cannon: one d6 for the hits; a 7 is refused in its field, nothing written."""
    s = GameSession.create(tmp_path / "u.airboss", "ufo_interception", "Dice")
    s.add_aircraft("NATO", "tornado", "Tornado 1", reaction=1)
    s.add_aircraft("Visitors", "small_ufo", "Saucer")
    window = open_desk(qtbot, tmp_path, s)
    combat = window.panels["combat"]
    combat.select_procedure("cannon")
    combat.set_aircraft("tornado-1", "saucer")
    qtbot.keyClicks(combat.form.editor("range_inches"), "2")  # the range: the umpire's to type
    assert [f.spec.die_name for f in combat.dice_fields] == ["d6"]
    die = combat.dice_fields[0]
    qtbot.keyClicks(die.edit, "7")
    assert "7 is not a face of a d6" in die.error.text()
    before = len(s.events())
    combat.resolve()
    assert len(s.events()) == before
    window.model.set_session(None)


def typed(combat: Any) -> list[str]:
    return [f.edit.text() for f in combat.dice_fields]


def type_dice(qtbot: Any, combat: Any, *faces: str) -> None:
    for f, face in zip(combat.dice_fields, faces, strict=False):
        f.edit.setText(face)


@pytest.mark.parametrize("leave", ["line", "escape", "attacker", "target", "procedure", "refusal"])
def test_dice_belong_to_one_prepared_action(desk, qtbot, leave: str) -> None:
    """Issue 28: dice typed for one action never resolve another. Opening another line,
    Escape, another attacker or target, another procedure and a refusal each clear them, and
    the panel says so."""
    window, session = desk
    combat = gun_line(qtbot, window)
    type_dice(qtbot, combat, "6", "5")
    assert typed(combat) == ["6", "5"]
    if leave == "line":
        open_line(qtbot, window, "Olds 2 — may fire guns")
        assert combat.attacker.currentText().startswith("Olds 2")
    elif leave == "escape":
        qtbot.keyClick(combat.dice_fields[1].edit, Qt.Key.Key_Escape)
    elif leave == "attacker":
        combat.attacker.setFocus()
        qtbot.keyClick(combat.attacker, Qt.Key.Key_Down)
    elif leave == "target":
        combat.target.setFocus()
        qtbot.keyClick(combat.target, Qt.Key.Key_Down)
    elif leave == "procedure":
        combat.procedure.setFocus()
        qtbot.keyClick(combat.procedure, Qt.Key.Key_Down)
    elif leave == "refusal":
        olds = session.engagement.aircraft[combat.attacker.currentData()]
        left = olds.ledgers["gun_ammunition"].value
        session.roster.adjust_ledger(olds.id, "gun_ammunition", -left, "all spent")
        before = len(session.events())
        qtbot.keyClick(combat.dice_fields[1].edit, Qt.Key.Key_Return)
        assert len(session.events()) == before
    assert all(t == "" for t in typed(combat)), typed(combat)
    assert "cleared" in combat.notice.message


def test_the_first_start_asks_once_with_players_rolling_as_default(tmp_path, qtbot) -> None:
    """Issue 28: the first start asks how the dice are rolled, players rolling by default
    (the box is ticked before any answer, so typed digits are never dropped); the answer is
    kept, and File > New game asks again with it chosen."""
    session = create_demo_game(tmp_path / "demo.airboss")
    window = open_desk(qtbot, tmp_path, session, ask=False)
    combat = window.panels["combat"]
    assert window.dice_question is not None and window.dice_question.isVisible()
    assert combat.players_roll.isChecked()  # the default, before the answer
    qtbot.mouseClick(window.dice_question.airboss, Qt.MouseButton.LeftButton)
    assert not window.dice_question.isVisible()
    assert not combat.players_roll.isChecked() and combat.players_roll.isVisible()
    again = MainWindow(EngagementModel(), window.settings)
    qtbot.addWidget(again)
    assert again.dice_question is None and not again.model.dice_mode.players_roll
    from app.ui.dialogs.new_game import NewGameDialog

    dialog = NewGameDialog(window, players_roll=False)
    assert not dialog.players_roll()
    dialog.dice_box.setCurrentIndex(0)
    assert dialog.players_roll()
    window.model.set_session(None)


def test_nth_fleet_air_combat_from_its_line_shows_exact_odds(tmp_path, qtbot) -> None:
    """Nth Fleet 2.9-2.12: the air combat line opens on the attacking counter and the enemy's,
    and the Combat panel shows the exact odds of the combat of counters (never a what-if
    refused)."""
    save_override(
        "nth_fleet",
        "air_to_air_attack",
        {
            "lower_columns": [10, 20, 30],
            "cells": {
                str(c): {str(r): c // 10 * r // 2 for r in range(11)} for c in (10, 20, 30, 40, 50)
            },
        },
    )
    save_override("nth_fleet", "defence_values", {"values": {"tu95rt": 5, "f14a": 5}})
    s = GameSession.create(tmp_path / "n.airboss", "nth_fleet", "Strike")
    r = s.add_aircraft("Red", "tu95rt", "Bears", base="Olenya", air_points=2)
    b = s.add_aircraft("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    s.perform("launch_mission", {"aircraft": r, "points": 2, "mission": "rcn"})
    s.perform("launch_mission", {"aircraft": b, "points": 4, "mission": "cap"})
    s.clock.next_step()
    window = open_desk(qtbot, tmp_path, s)
    open_line(qtbot, window, "air combat")
    combat = window.panels["combat"]
    assert (combat.attacker.currentData(), combat.target.currentData()) == (r, b)
    odds = combat.odds
    assert odds and sum(odds.values()) == 1
    assert odds == s.odds.odds(combat.prepared)
    assert combat.odds_table.rowCount() == len(odds)
    window.model.set_session(None)


def test_two_windows_say_whose_action_undo_undoes(tmp_path, qtbot) -> None:
    """Issue 28: with two windows on one game, Ctrl+Z names an action the other window made
    ("another window's action") instead of silently undoing it."""
    path = tmp_path / "demo.airboss"
    create_demo_game(path).close()
    one = open_desk(qtbot, tmp_path, GameSession.open(path))
    other = GameSession.open(path)
    other.perform("afterburner", {"aircraft": next(iter(other.engagement.aircraft))})
    one.model.follow()
    assert "another window's action" in one.undo_action.text()
    assert "another window's or station's action" in one.model.session.undoing.undo_text
    one.model.session.clock.next_step()
    assert "another window" not in one.undo_action.text()  # its own action now
    other.close()
    one.model.set_session(None)
