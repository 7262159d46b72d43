"""The desk with the players' pages on (issue 48), for the desk's and the browser's tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow


def open_desk(
    tmp_path: Path, qtbot: Any, session: GameSession, *, answer_dice: bool = True
) -> MainWindow:
    """The desk at 1366x768 on ``session``, active; the first start's question of who rolls
    the dice answered (the players roll) unless ``answer_dice`` is False."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(EngagementModel(), settings, panels_later=True)
    qtbot.addWidget(window)
    window.show_session(session)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.build_panels()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    if answer_dice and window.dice_question is not None:
        window.dice_question.players.click()  # the players roll
    return window


def start_pages(window: MainWindow, qtbot: Any) -> None:
    """View > Players' screens, Start (on localhost), and back to the desk."""
    dialog = window.open_players_screens()
    dialog.port.setText("0")  # any free port: tests run side by side
    dialog.start_button.click()
    assert window.players_bridge.running, dialog.message.text()
    dialog.hide()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
