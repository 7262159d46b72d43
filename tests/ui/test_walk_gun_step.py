"""The umpire's walk at 1366x768, keys only, on the Phantoms demo's gun step (turn 1, impulse 1,
f).

- Table mode (Ctrl+Shift+T) and Reset layout lay the panels out again, and the keyboard stayed
  nowhere: no widget had the focus, so Space (next step) and Enter (the line's roll) did
  nothing until the umpire clicked somewhere. The cursor now stays where it was (a die half
  typed keeps its field), or is put back on "who acts now".
- The log line of each action passes through the status bar, beside the game's labels (its
  title, ruleset, turn, step, initiative): Qt cut it where the labels begin, mid-word ("...
  critical hit roll 7: er"), with no sign that there was more. It is cut with "…" now, and is
  whole in the bar's tooltip while it shows.
- Enter on a line of who acts now that has nothing for the desk (a move, done at the table)
  did nothing and said nothing; it says so now, until the cursor leaves the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.core.dice import TableDice
from app.session import GameSession
from app.startup.demo import create_demo_game
from rulesets.phantoms.clock import step_of
from tests.players_desk import open_desk

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def demo_at_the_gun_step(path: Path) -> GameSession:
    """The Phantoms demo, initiative rolled (USAF 4+2, VPAF 9: VPAF holds the marker), at turn
    1, impulse 1, f) Gun."""
    session = create_demo_game(path)
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    while (session.engagement.turn, session.engagement.step) != (1, step_of(1, "f")):
        session.clock.next_step()
    return session


@pytest.fixture
def window(tmp_path: Path, qtbot: Any):
    w = open_desk(tmp_path, qtbot, demo_at_the_gun_step(tmp_path / "demo.airboss"))
    w.persist_layout = False
    yield w
    w.model.set_session(None)


def test_table_mode_and_back_keep_the_keyboard_on_who_acts_now(window, qtbot) -> None:
    turn = window.panels["turn"]
    turn.acting.setFocus()
    heading = turn.heading.text()
    qtbot.keyClick(turn.acting, Qt.Key.Key_T, CTRL_SHIFT)
    assert window.table_mode
    assert QApplication.focusWidget() is turn.acting
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)  # Next step, by key
    assert turn.heading.text() != heading
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_T, CTRL_SHIFT)
    assert not window.table_mode
    assert QApplication.focusWidget() is turn.acting
    window.reset_layout_action.trigger()  # View > Reset layout
    assert QApplication.focusWidget() is turn.acting


def test_a_die_half_typed_keeps_its_field_through_table_mode(window, qtbot) -> None:
    turn, combat = window.panels["turn"], window.panels["combat"]
    turn.acting.setFocus()
    qtbot.keyClick(turn.acting, Qt.Key.Key_Return)  # Olds 1 may fire guns
    qtbot.keyClicks(QApplication.focusWidget(), "2")  # the firing position; on to the dice
    qtbot.keyClicks(QApplication.focusWidget(), "6")
    second = combat.dice_fields[1].edit
    assert QApplication.focusWidget() is second
    qtbot.keyClick(second, Qt.Key.Key_T, CTRL_SHIFT)
    assert window.table_mode
    assert QApplication.focusWidget() is second
    qtbot.keyClicks(QApplication.focusWidget(), "5")
    assert [f.edit.displayText() for f in combat.dice_fields] == ["6", "5"]


def resolve_the_first_gun_line(window: Any, qtbot: Any) -> str:
    """Enter on the first line of who acts now (a gun attack), the firing position 2 and the
    dice 6 and 5 typed, Enter: the narrative the log wrote."""
    turn = window.panels["turn"]
    turn.acting.setFocus()
    qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    for key in ("2", "6", "5"):  # the firing position and the two dice
        qtbot.keyClicks(QApplication.focusWidget(), key)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    return [env.narrative for env in window.model.session.events() if env.narrative][-1]


def test_the_log_line_in_the_status_bar_is_cut_with_a_sign_and_whole_in_its_tip(
    window, qtbot
) -> None:
    said = resolve_the_first_gun_line(window, qtbot)
    bar = window.statusBar()
    shown = bar.currentMessage()
    labels = [w for w in window.status_labels.values() if w.isVisible() and w.width()]
    room = min(w.x() for w in labels) - 7 - 6  # where Qt paints a passing message
    assert bar.fontMetrics().horizontalAdvance(said) > room  # the demo's long title
    assert bar.fontMetrics().horizontalAdvance(shown) <= room
    assert shown.endswith("…") and said.startswith(shown[:-1])
    assert bar.toolTip() == said


def test_enter_on_a_line_done_at_the_table_says_so(window, qtbot) -> None:
    turn = window.panels["turn"]
    turn.acting.setFocus()
    for _ in range(5):  # back from f) Gun to a) Movement, by keys
        qtbot.keyClick(
            QApplication.focusWidget(), Qt.Key.Key_Space, Qt.KeyboardModifier.ShiftModifier
        )
    assert turn.heading.text() == "Turn 1 — Movement"
    assert turn.acting.currentItem().text() == "1. Red 1 — moves one hex (6.0)"  # the marker first
    assert not turn.message.isVisible()
    before = window.model.session.engagement.seq
    qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    assert turn.message.isVisible()
    assert turn.message.text().startswith("1. Red 1 — moves one hex (6.0): nothing to roll")
    assert window.model.session.engagement.seq == before  # nothing recorded
    qtbot.keyClick(turn.acting, Qt.Key.Key_Down)  # another line: the words go
    assert not turn.message.isVisible()


def _current_step_in_view(turn: Any) -> bool:
    """The marked step (▶) painted whole inside the sequence of play's list."""
    steps = turn.step_list
    item = next(steps.item(i) for i in range(steps.count()) if steps.item(i).text().startswith("▶"))
    return steps.viewport().rect().contains(steps.visualItemRect(item))


def test_the_current_step_is_whole_in_the_sequence_of_play(window, qtbot) -> None:
    turn = window.panels["turn"]
    qtbot.waitUntil(lambda: _current_step_in_view(turn), timeout=2000)  # the game as opened
    turn.acting.setFocus()
    for _ in range(2):  # table mode (the list left out) and back
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_T, CTRL_SHIFT)
    qtbot.waitUntil(lambda: _current_step_in_view(turn), timeout=2000)


def test_the_log_line_is_cut_before_the_first_starts_dice_question(tmp_path, qtbot) -> None:
    """The same gun attack on a first start, the question "Dice: Players roll / Airboss rolls"
    not yet answered (it stands left of the game's labels): the line is cut with "…" before
    the question, not painted under it and clipped there with no sign ("Red 1 —", seen at
    1366x768)."""
    window = open_desk(
        tmp_path, qtbot, demo_at_the_gun_step(tmp_path / "demo.airboss"), answer_dice=False
    )
    question = window.dice_question
    assert question is not None and question.isVisible()
    try:
        said = resolve_the_first_gun_line(window, qtbot)
        bar = window.statusBar()
        shown = bar.currentMessage()
        assert bar.fontMetrics().horizontalAdvance(shown) <= question.x() - 7 - 6
        assert shown.endswith("…") and said.startswith(shown[:-1])
        assert bar.toolTip() == said
    finally:
        window.model.set_session(None)
