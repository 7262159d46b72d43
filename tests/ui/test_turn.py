"""Turn panel: the sequence of play, the current step, Next (Space) and Previous."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.core.dice import TableDice
from app.ui.docks.turn import TurnDock
from app.ui.model import EngagementModel


@pytest.fixture
def dock(session, qtbot):
    d = TurnDock(EngagementModel(session))
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    d.activateWindow()
    qtbot.waitUntil(d.isActiveWindow)
    return d


def current_row(dock):
    rows = [dock.step_list.item(i).text() for i in range(dock.step_list.count())]
    return [r for r in rows if r.startswith("▶")]


def acting(dock):
    return [dock.acting.item(i).text() for i in range(dock.acting.count())]


def test_shows_the_sequence_of_play_and_where_we_are(dock):
    assert dock.heading.text() == "Turn 1 — Initiative"
    assert dock.step_list.count() == 3
    assert current_row(dock) == ["▶ Initiative   [Skirmish 4]"]
    assert dock.what.text() == "Initiative: Each side rolls a d6. (Skirmish 4)"
    assert acting(dock) == ["1. Blue — acts", "2. Red — acts"]


def test_space_advances_and_wraps_to_the_next_turn(dock, session, qtbot):
    qtbot.keyClick(dock, Qt.Key.Key_Space)
    assert (session.engagement.turn, session.engagement.step) == (1, 1)
    assert dock.heading.text() == "Turn 1 — Movement"
    assert current_row(dock) == ["▶ Movement   [Skirmish 0]"]
    qtbot.mouseClick(dock.next_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(dock, Qt.Key.Key_Space)
    assert dock.heading.text() == "Turn 2 — Initiative"
    assert session.events()[-1].narrative == "Turn 2: Initiative"


def test_previous_goes_back_and_is_refused_at_the_start(dock, session, qtbot):
    before = len(session.events())
    qtbot.mouseClick(dock.previous_button, Qt.MouseButton.LeftButton)
    assert dock.message.message == "this is the first step of the first turn"
    assert len(session.events()) == before
    dock.next_step()
    assert dock.message.message == ""
    qtbot.keyClick(dock, Qt.Key.Key_Space, Qt.KeyboardModifier.ShiftModifier)
    assert dock.heading.text() == "Turn 1 — Initiative"


def test_who_acts_follows_the_initiative_and_names_the_marker(dock, session):
    session.perform("initiative", {"sides": ["Blue", "Red"]}, TableDice([2, 6]))
    assert acting(dock) == ["1. Red — acts  ★ marker", "2. Blue — acts"]


def test_undo_moves_the_clock_back(dock, session):
    dock.next_step()
    session.undo()
    assert dock.heading.text() == "Turn 1 — Initiative"


def test_space_in_the_turn_panel_is_always_next_step(dock, session, qtbot):
    """Issue 47: with the Turn panel's focus Space moves the turn on, whichever of its
    widgets has it (Previous too); a button of another panel is pressed by it (below)."""
    dock.previous_button.setFocus()
    qtbot.keyClick(dock.previous_button, Qt.Key.Key_Space)
    assert (session.engagement.turn, session.engagement.step) == (1, 1)
    dock.step_list.setFocus()
    qtbot.keyClick(dock.step_list, Qt.Key.Key_Space)
    assert session.engagement.step == 2


def test_space_on_another_panels_button_presses_that_button(dock, session, qtbot):
    from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

    window = QWidget()
    qtbot.addWidget(window)
    pressed: list[bool] = []
    other = QPushButton("Another panel's button")
    other.clicked.connect(lambda: pressed.append(True))
    box = QVBoxLayout(window)
    box.addWidget(dock)
    box.addWidget(other)
    window.show()
    other.setFocus()
    qtbot.keyClick(other, Qt.Key.Key_Space)
    assert pressed == [True]
    assert session.engagement.step == 0
    dock.setParent(None)  # the fixture's own to close


def test_step_labels_for_impulses_and_segments():
    from app.core.ruleset import Step
    from app.ui.docks.turn import phase_name, step_label, step_where

    gun = Step("Impulse", "Gun", "Fire guns.", "7.2", impulse=2, segment="f")
    assert (phase_name(gun), step_where(gun), step_label(gun)) == (
        "Impulse 2",
        "Impulse 2, segment f",
        "Impulse 2 · f) Gun",
    )
    move = Step("Movement", "Fast movers", impulse=1)
    assert step_label(move) == "Movement, impulse 1 · Fast movers"
    assert step_label(Step("Initiative", "Initiative")) == "Initiative"


def test_a_line_naming_a_procedure_opens_it(dock, session, qtbot):
    """Double-click (or Enter) on "who acts now" asks for that procedure for that aircraft."""
    session.clock.next_step()
    session.clock.next_step()
    assert acting(dock) == ["1. Blue 1 — may fire its guns", "2. Red 1 — may fire its guns"]
    with qtbot.waitSignal(dock.open_procedure) as opened:
        item = dock.acting.item(1)
        dock.acting.setCurrentItem(item)
        qtbot.keyClick(dock.acting, Qt.Key.Key_Return)
    assert opened.args == ["gun_attack", "red-1", ""]
    assert "open Gun attack for Red 1" in dock.acting.item(1).toolTip()
