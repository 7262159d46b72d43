"""End to end at the desk: new game, add aircraft, initiative, segments, an attack with typed
dice, undo, redo, close, reopen -- and everything is as it was."""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox

from app.ui.docks.roster import DAMAGE, AddAircraftDialog
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow


def click(qtbot, widget):
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def choose(combo, text):
    i = combo.findText(text)
    assert i >= 0, f"{text!r} not in {[combo.itemText(j) for j in range(combo.count())]}"
    combo.setCurrentIndex(i)


def add(qtbot, window, type_id, name, side, pilot):
    dialog = AddAircraftDialog(window.model, window)
    qtbot.addWidget(dialog)
    dialog.type_box.setCurrentIndex(dialog.type_box.findData(type_id))
    dialog.side_box.setCurrentText(side)
    dialog.name_edit.setText(name)
    dialog.pilot_box.setCurrentText(pilot)
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))
    assert dialog.result() == dialog.DialogCode.Accepted, dialog.message.message
    return dialog.added


def what_the_umpire_sees(window):
    """Everything the panels and status bar show, to compare before and after a reopen."""
    roster = window.panels["roster"]
    return {
        "aircraft": {
            i: (it.text(0), it.text(1), it.text(2), it.text(3), it.text(DAMAGE))
            for i, it in roster._items.items()
        },
        "turn": window.panels["turn"].heading.text(),
        "initiative": window.panels["initiative"].order_lines(),
        "log": [line.split("  ", 1)[1] for line in window.panels["game_log"].lines()],
        "struck": [
            window.panels["game_log"].is_struck(r)
            for r in range(len(window.panels["game_log"].lines()))
        ],
        "status": [label.text() for label in window.status_labels.values()],
        "undo": window.undo_action.text(),
        "redo": window.redo_action.text(),
    }


def test_a_whole_evening_at_the_desk(tmp_path, qtbot):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)

    # a new game
    path = tmp_path / "evening.airboss"
    assert window.new_game(path, "skirmish", "Evening", [])
    assert window.status_labels["game"].text() == "Game: Evening"

    # aircraft from the catalogue
    add(qtbot, window, "jet", "Viper", "Blue", "ace")
    add(qtbot, window, "prop", "Mustang", "Blue", "average")
    add(qtbot, window, "jet", "Flanker", "Red", "experienced")
    add(qtbot, window, "prop", "Yak", "Red", "green")
    session = window.model.session
    assert sorted(session.engagement.aircraft) == ["flanker", "mustang", "viper", "yak"]

    # initiative with the dice rolled at the table
    initiative = window.panels["initiative"]
    window.docks["initiative"].raise_()
    # the first start asked how the dice are rolled: the players roll them
    click(qtbot, window.dice_question.players)
    for field, value in zip(initiative.dice_fields, (5, 2), strict=True):
        qtbot.keyClicks(field.edit, str(value))
    click(qtbot, initiative.roll_button)
    assert initiative.order_lines()[0] == "1. Blue   (5)   ★ holds the marker"

    # through the sequence of play to the combat step
    qtbot.keyClick(window, Qt.Key.Key_Space)
    qtbot.keyClick(window, Qt.Key.Key_Space)
    window.docks["turn"].raise_()  # the Turn tab, behind Initiative since the roll
    assert window.panels["turn"].heading.text() == "Turn 1 — Combat"
    assert window.status_labels["phase"].text() == "Combat"

    # a gun attack with the die typed from the table
    combat = window.panels["combat"]
    choose(combat.procedure, "Gun attack (Skirmish 1)")
    choose(combat.attacker, "Viper (Blue)")
    choose(combat.target, "Flanker (Red)")
    assert combat.players_roll.isChecked()  # one dice choice for the desk: ticked above
    qtbot.keyClicks(combat.dice_fields[0].edit, "3")
    click(qtbot, combat.resolve_button)
    assert session.engagement.aircraft["flanker"].damage == 1
    assert session.engagement.aircraft["viper"].ledger("ammunition") == Fraction(2)
    assert window.panels["roster"]._items["flanker"].text(DAMAGE) == "1 / 4"
    assert (
        window.undo_action.text()
        == "&Undo Viper — Gun attack on Flanker: " + "gun roll 3: hit (Skirmish 1)"
    )

    # undo, then redo, from the keyboard
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.engagement.aircraft["flanker"].damage == 0
    assert window.panels["roster"]._items["flanker"].text(DAMAGE) == "0 / 4"
    window.docks["game_log"].raise_()  # the umpire looks at the log (tabbed away, it waits)
    qtbot.wait(1)
    from PySide6.QtWidgets import QApplication

    from app.ui.action_form.dice import DieField

    # no die field of the desk left as a window of its own (it took the keyboard focus)
    assert not [
        w for w in QApplication.topLevelWidgets() if w.isVisible() and isinstance(w, DieField)
    ]
    log = window.panels["game_log"]
    assert log.is_struck(log.lines().index(next(x for x in log.lines() if "gun roll 3" in x)))
    window.activateWindow()  # the umpire's click back on the desk
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(
        window.panels["roster"].tree,  # from the roster: the log's filter keeps its own typing
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert session.engagement.aircraft["flanker"].damage == 1
    seen = what_the_umpire_sees(window)
    events = len(session.events())

    # close and reopen: everything as it was
    window.close_action.trigger()
    assert not window.model.has_session
    window._fill_recent()
    window.recent_menu.actions()[0].trigger()
    assert window.model.has_session
    assert len(window.model.session.events()) == events
    assert what_the_umpire_sees(window) == seen
    e = window.model.engagement
    assert (e.turn, e.step, e.initiative_marker) == (1, 2, "Blue")
    assert e.aircraft["viper"].ledger("ammunition") == Fraction(2)
    window.close()
    window.model.set_session(None)
