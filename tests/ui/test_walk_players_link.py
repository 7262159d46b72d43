"""The umpire's walk (issue 48), View > Players' screens at 1366x768, keys and clicks.

- Each side's link is shown from its start. A link is longer than its field (the host, the port
  and a 256-bit token), and the field showed its end: the umpire reading it out, or checking
  that it is on the club's network, saw a piece of the token and neither the address nor the
  port.
- Both sides' "New link" buttons had the one mnemonic, Alt+N: Qt then only moved the cursor
  between them and pressed neither. Each has its own key now, a letter of its side's name,
  underlined in its text and said in its tooltip.
- The sides' links scroll, and their scroll area took a Tab stop of its own, where nothing
  painted showed the cursor.
- A New link pressed by keys (Tab to it, Space) left the keyboard nowhere: the dialog lays the
  sides' boxes out afresh, and the button that had the cursor was deleted with it.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QScrollArea

from app.ui.players.dialog import PlayersDialog, with_mnemonic
from app.ui.shell.main_window import MainWindow
from tests.ui.test_players_dialog import desk
from tests.ui.test_walk_keys import tab_round

__all__ = ["desk"]  # the desk on the Phantoms demo (sides USAF and VPAF), pages stopped after

#: the View menu's popup, offscreen
GRAB = pytest.mark.qt_log_ignore("does not support grabbing the keyboard")


def start_by_keys(window: MainWindow, qtbot: Any) -> PlayersDialog:
    """Alt+V, Y (View > Pla&yers' screens…), the port rubbed out and 0 typed (any free port:
    tests run side by side), Start clicked: the dialog, serving."""
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
    menu = QApplication.activePopupWidget()
    assert menu is not None
    qtbot.keyClick(menu, Qt.Key.Key_Y)  # Pla&yers' screens…
    dialog = window.players_dialog
    assert dialog is not None
    dialog.activateWindow()  # as a window manager makes a window just shown (not offscreen)
    qtbot.waitUntil(dialog.isActiveWindow)
    port = dialog.port
    # a click at the end of the port, as a person clicks into it, and the port rubbed out
    qtbot.mouseClick(
        port, Qt.MouseButton.LeftButton, pos=QPoint(port.width() - 4, port.height() // 2)
    )
    for _ in port.displayText():
        qtbot.keyClick(port, Qt.Key.Key_Backspace)
    qtbot.keyClicks(port, "0")
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert window.players_bridge.running, dialog.message.text()
    settled(dialog, qtbot)
    return dialog


def settled(dialog: PlayersDialog, qtbot: Any) -> None:
    """Each side's box shown, and only those: the dialog lays them out afresh at each change
    (shown once its event loop turns, the old ones deleted then)."""
    links = dialog.bridge.links()
    qtbot.waitUntil(
        lambda: (
            sorted(
                (b.parentWidget().title(), b.isVisible())
                for b in dialog.sides_box.findChildren(QPushButton)
            )
            == [(side, True) for side in sorted(links)]
            and all(
                [f.displayText() for f in dialog.findChildren(QLineEdit, f"link-{side}")] == [link]
                for side, link in links.items()
            )
        )
    )


@GRAB
def test_each_sides_link_shows_its_address_first(desk, qtbot: Any) -> None:
    window = desk
    dialog = start_by_keys(window, qtbot)
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


def new_link_buttons(dialog: PlayersDialog) -> dict[str, QPushButton]:
    """Each side's "New link" button, by the side its box is titled with."""
    return {
        b.parentWidget().title(): b
        for b in dialog.sides_box.findChildren(QPushButton)
        if "New link" in b.text()
    }


def mnemonic(text: str) -> str:
    """The letter a button's text underlines (after a single "&")."""
    at = text.replace("&&", "").index("&")
    return text.replace("&&", "")[at + 1]


@GRAB
def test_each_sides_new_link_has_its_own_key(desk, qtbot: Any) -> None:
    """Alt and the letter underlined in a side's "New link" presses that button: the side's
    link is new, the other side's unchanged. Each button says its key in its tooltip."""
    window = desk
    dialog = start_by_keys(window, qtbot)
    bridge = window.players_bridge
    keys = {side: mnemonic(b.text()) for side, b in new_link_buttons(dialog).items()}
    assert sorted(keys) == ["USAF", "VPAF"]
    assert len(set(keys.values())) == 2, keys  # one key each
    for side, letter in keys.items():
        button = new_link_buttons(dialog)[side]
        assert f"Alt+{letter.upper()}" in button.toolTip(), button.toolTip()
        assert side in button.text().replace("&", "")
        before = bridge.links()
        focus = QApplication.focusWidget()
        assert focus is not None and focus.window() is dialog
        qtbot.keyClick(focus, Qt.Key(ord(letter.upper())), Qt.KeyboardModifier.AltModifier)
        # pressed (a mnemonic presses its button as a click shows, a moment after the key)
        qtbot.waitUntil(lambda s=side, b=before: bridge.links()[s] != b[s], timeout=2000)
        after = bridge.links()
        assert {s: v for s, v in after.items() if s != side} == {
            s: v for s, v in before.items() if s != side
        }, side  # the other side's link stands
        settled(dialog, qtbot)  # the new link shown, in a field of its own


@GRAB
def test_a_new_link_pressed_by_keys_keeps_the_cursor_on_its_button(desk, qtbot: Any) -> None:
    """Tab to USAF's New link and Space: the link is new, and the cursor is on USAF's New link
    as the dialog shows it now, so Space again makes another."""
    dialog = start_by_keys(desk, qtbot)
    bridge = desk.players_bridge
    for _ in range(2):
        button = new_link_buttons(dialog)["USAF"]
        for _ in range(30):  # Tab round the dialog to the button
            if QApplication.focusWidget() is button:
                break
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is button
        before = bridge.links()["USAF"]
        qtbot.keyClick(button, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda b=before: bridge.links()["USAF"] != b, timeout=2000)
        settled(dialog, qtbot)
        focus = QApplication.focusWidget()
        assert focus is new_link_buttons(dialog)["USAF"], focus
        assert focus.isVisible()


@GRAB
def test_tab_in_the_dialog_stops_only_on_controls(desk, qtbot: Any) -> None:
    """Tab and Shift+Tab round the dialog, serving, from Start: never on the scroll area the
    sides' links are in; both sides' link and New link are reached."""
    window = desk
    dialog = start_by_keys(window, qtbot)
    buttons = new_link_buttons(dialog)
    for key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
        went = tab_round(qtbot, dialog.start_button, key)
        assert went[-1] is dialog.start_button, key
        assert not [w for w in went if isinstance(w, QScrollArea)], key
        assert all(w is not None and w.isVisible() for w in went), key
        assert all(b in went for b in buttons.values()), key


def test_sides_named_alike_still_get_a_key_each() -> None:
    """Sides that begin alike each get a letter of their own (the next one free), "&" in a
    name is shown as itself, and a name with no letter left has no key rather than a shared
    one."""
    used = {"s"}  # &Start
    assert with_mnemonic("Blue", used) == ("&Blue", "B")
    assert with_mnemonic("Blue Navy", used) == ("B&lue Navy", "L")
    assert with_mnemonic("Sea & Air", used) == ("S&ea && Air", "E")
    assert with_mnemonic("Bl", used) == ("Bl", "")
