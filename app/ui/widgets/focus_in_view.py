"""The cursor stays in view in a panel that scrolls.

Qt scrolls a ``QScrollArea`` to the widget the umpire tabs to, but not to a widget the desk
gives the keyboard itself (``setFocus``: the next die after one is typed, the Roll button after
the last die). In a short panel (the Initiative panel at 1366x768, its modifiers above the
dice) the cursor then sat below the panel's edge, unseen. ``keep_focus_in_view`` makes the
area follow the keyboard, however it moved, within it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget
from shiboken6 import isValid


def keep_focus_in_view(area: QScrollArea) -> None:
    """Scroll ``area`` to the widget that takes the keyboard inside it, for as long as the area
    lives."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return

    def moved(_old: QWidget | None, new: QWidget | None) -> None:
        if not isValid(area) or new is None or not isValid(new):
            return
        inner = area.widget()
        if inner is not None and inner.isAncestorOf(new):
            # once the panel is laid out again: the keystroke that moved the cursor often
            # changes what is above it (a die's error said or cleared)
            QTimer.singleShot(0, area, lambda: _show(area, new))

    app.focusChanged.connect(moved)
    owner: QObject = area
    owner.destroyed.connect(lambda *_: app.focusChanged.disconnect(moved))


def _show(area: QScrollArea, widget: QWidget) -> None:
    """The whole of ``widget`` in view (``ensureWidgetVisible`` is content with a line edit's
    text cursor in view, the field itself cut at the panel's edge)."""
    inner = area.widget()
    if not (isValid(area) and isValid(widget) and widget.hasFocus()) or inner is None:
        return
    centre = widget.mapTo(inner, widget.rect().center())
    area.ensureVisible(centre.x(), centre.y(), widget.width() // 2 + 4, widget.height() // 2 + 4)
