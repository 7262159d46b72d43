"""Issue 30: a server game opened at the desk (``airboss --db URL``) whose password this
computer's keyring does not hold asks for it in a dialog, typed hidden, never shown; a game
file asks for nothing."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit

from app.store import passwords
from app.ui.dialogs.open_from_server import ask_password
from app.ui.shell.application import ask_for_passwords

URL = "postgresql://station:***@127.0.0.1:5433/club"


@pytest.fixture(autouse=True)
def _no_prompt_left(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passwords, "ask", None)


def answer(qtbot: Any, typed: str | None, seen: dict[str, Any]) -> None:
    """When the dialog shows: note what it shows, type ``typed`` and Enter (None: Escape)."""

    def act() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, act)
            return
        edit = dialog.findChild(QLineEdit)
        seen["echo"] = edit.echoMode()
        seen["label"] = dialog.labelText()
        if typed is None:
            qtbot.keyClick(edit, Qt.Key.Key_Escape)
            return
        qtbot.keyClicks(edit, typed)
        qtbot.keyClick(edit, Qt.Key.Key_Return)

    QTimer.singleShot(20, act)


def test_the_password_is_asked_for_hidden_and_given_to_the_connection(qtbot) -> None:
    seen: dict[str, Any] = {}
    answer(qtbot, "s3cret", seen)
    assert ask_password(URL) == "s3cret"
    assert seen["echo"] == QLineEdit.EchoMode.Password
    assert URL in seen["label"] and "s3cret" not in seen["label"]


def test_cancelled_gives_no_password(qtbot) -> None:
    answer(qtbot, None, {})
    assert ask_password(URL) is None


def test_only_a_server_game_asks(tmp_path) -> None:
    ask_for_passwords(str(tmp_path / "game.airboss"))
    assert passwords.ask is None
    ask_for_passwords(None)
    assert passwords.ask is None
    ask_for_passwords("postgresql://station@127.0.0.1:5433/club")
    assert passwords.ask is ask_password
