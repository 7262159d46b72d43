"""The umpire's walk (issue 48), View > Players' screens at 1366x768, keys and clicks: each
side's link is shown from its start. A link is longer than its field (the host, the port and a
256-bit token), and the field showed its end: the umpire reading it out, or checking that it
is on the club's network, saw a piece of the token and neither the address nor the port."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from app.startup.demo import create_demo_game
from tests.players_desk import open_desk


@pytest.mark.qt_log_ignore("does not support grabbing the keyboard")  # the View menu, offscreen
def test_each_sides_link_shows_its_address_first(tmp_path: Path, qtbot: Any) -> None:
    window = open_desk(tmp_path, qtbot, create_demo_game(tmp_path / "demo.airboss"))
    try:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
        menu = QApplication.activePopupWidget()
        assert menu is not None
        qtbot.keyClick(menu, Qt.Key.Key_Y)  # Pla&yers' screens…
        dialog = window.players_dialog
        port = dialog.port
        # a click at the end of the port, as a person clicks into it, and the port rubbed out
        qtbot.mouseClick(
            port, Qt.MouseButton.LeftButton, pos=QPoint(port.width() - 4, port.height() // 2)
        )
        for _ in port.displayText():
            qtbot.keyClick(port, Qt.Key.Key_Backspace)
        qtbot.keyClicks(port, "0")  # any free port: tests run side by side
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        assert window.players_bridge.running, dialog.message.text()
        base = f"http://127.0.0.1:{window.players_bridge.server.port}/s/"
        for side in ("USAF", "VPAF"):
            field = dialog.findChild(QLineEdit, f"link-{side}")
            qtbot.waitUntil(lambda f=field: f.isVisible() and f.width() < dialog.width() // 2)
            field.grab()  # painted: the field scrolls its text as it paints
            link = field.displayText()
            assert link.startswith(base)
            # too long for its field: what is painted is its start (the cursor there, at the
            # field's left edge), and the whole link is in its tooltip
            assert field.fontMetrics().horizontalAdvance(link) > field.width()
            assert field.cursorPosition() == 0
            assert field.cursorRect().left() < field.fontMetrics().averageCharWidth() * 2
            assert field.toolTip() == link
    finally:
        if window.players_bridge is not None:
            window.players_bridge.stop()
        window.model.set_session(None)
