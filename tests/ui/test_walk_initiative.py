"""The umpire's walk (issue 44's desk, issue 29's pace), at the Initiative panel of a desk
started as ``airboss`` starts it (the roster and the turn first, the other panels once painted)
at 1366x768, keys only.

- A ruleset that answers the desk's first prepare of the initiative roll later (a slow laptop:
  the desk waits a tenth of a second, then goes back to its event loop) left Ctrl+I and the
  Roll button disabled for the whole game: the panel enabled them only when a game was opened,
  and the roll was not prepared yet then.
- Ctrl+I with no die typed tried the roll: "Not resolved: ... type the number rolled" in red in
  the status bar, still there while the umpire typed the dice (and typed them wrong). The key
  now brings him to the dice and refuses nothing; a roll half typed is still refused.
- The cursor the desk puts in a die or on the Roll button is in view: the panel's modifiers
  scroll (Phantoms has eight), and at 1366x768 the second die and the Roll button were below
  the panel's edge, the cursor on them unseen.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QApplication, QWidget

from app.core import guest
from app.core.events import InitiativeSet
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell import guest_worker
from app.ui.shell.main_window import MainWindow


@pytest.fixture
def desk(tmp_path: Path, qtbot):
    """The demo game on a desk built as ``airboss`` builds it; ``later``: every ruleset call
    the panels built after the first paint make in the GUI thread is answered later."""
    made: list[MainWindow] = []

    def open_desk(later: bool) -> MainWindow:
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        settings.setValue("dice/players_roll", True)
        model = EngagementModel()
        window = MainWindow(model, settings, panels_later=True)
        window.persist_layout = False
        qtbot.addWidget(window)
        made.append(window)
        window.show_session(create_demo_game(tmp_path / "demo.airboss"))
        window.resize(1366, 768)
        window.show()
        qtbot.waitExposed(window)
        if later:  # the panels built once painted ask the ruleset, and it answers later
            guest.answer_later(0.0)
        window.build_panels()
        qtbot.waitUntil(lambda: not guest_worker.waiting, timeout=10_000)
        guest.answer_later(None)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        return window

    yield open_desk
    guest.answer_later(None)
    for window in made:
        window.model.set_session(None)


def test_the_roll_is_enabled_once_a_slow_ruleset_has_prepared_it(desk, qtbot) -> None:
    window = desk(later=True)
    initiative = window.panels["initiative"]
    assert initiative.procedure is not None  # the roll came, after the game was shown
    assert initiative.roll_button.isEnabled() and initiative.roll_action.isEnabled()
    focus = QApplication.focusWidget()
    assert focus is not None
    qtbot.keyClick(focus, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    # Ctrl+I brought the panel forward, the cursor in its first die, nothing refused
    assert QApplication.focusWidget() is initiative.dice_fields[0].edit
    assert not window.refusal.isVisible() and not initiative.message.isVisible()
    qtbot.keyClicks(QApplication.focusWidget(), "4")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert window.refusal.isVisible()  # half typed: refused, saying which die
    assert window.refusal.text().endswith("initiative for VPAF: type the number rolled")
    assert QApplication.focusWidget() is initiative.dice_fields[1].edit
    before = window.model.session.engagement.seq
    qtbot.keyClicks(QApplication.focusWidget(), "9")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    rolled = [
        env.event
        for env in window.model.session.log.iter_events(after=before)
        if isinstance(env.event, InitiativeSet)
    ]
    assert rolled and rolled[0].scores == {"USAF": 6, "VPAF": 9}


def _in_view(widget: QWidget, area: QWidget) -> bool:
    """Whether ``widget`` is painted whole inside ``area`` (a scroll area's viewport)."""
    top_left = widget.mapTo(area, QPoint(0, 0))
    bottom_right = widget.mapTo(area, QPoint(widget.width() - 1, widget.height() - 1))
    return area.rect().contains(top_left) and area.rect().contains(bottom_right)


def test_the_cursor_is_in_view_in_every_die_and_on_roll(desk, qtbot) -> None:
    window = desk(later=False)
    initiative = window.panels["initiative"]
    viewport = initiative.scroll_area.viewport()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    seen = []
    for die in ("4", "9"):
        field = QApplication.focusWidget()
        seen.append(field)
        qtbot.waitUntil(lambda f=field: _in_view(f, viewport), timeout=2000)
        qtbot.keyClicks(field, die)
    roll = QApplication.focusWidget()
    assert roll is initiative.roll_button
    qtbot.waitUntil(lambda: _in_view(roll, viewport), timeout=2000)
    assert seen == [f.edit for f in initiative.dice_fields]
