"""The mouse wheel never changes a value the umpire is not editing (issue 13).

Qt lets the wheel change any spin box or combo box under the pointer, so scrolling a panel
past a form silently changes the numbers in it. Installed once on the application, this
filter gives those widgets the wheel only while they have keyboard focus; otherwise the wheel
scrolls the panel they sit in, as the umpire meant.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QWidget

GUARDED = (QAbstractSpinBox, QComboBox)


class WheelGuard(QObject):
    """Application event filter: see the module docstring."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Polish and isinstance(watched, GUARDED):
            # the wheel must not give these widgets focus either (Qt's WheelFocus default)
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and isinstance(watched, GUARDED) and not watched.hasFocus():
            area = _scroll_area(watched)
            if area is not None:
                QCoreApplication.sendEvent(area.verticalScrollBar(), event)
            return True
        return False


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    w = widget.parentWidget()
    while w is not None:
        if isinstance(w, QAbstractScrollArea):
            return w
        w = w.parentWidget()
    return None


def install_wheel_guard(app: QCoreApplication) -> None:
    """Install the guard on ``app`` (once: a second call finds it there)."""
    if app.findChild(WheelGuard) is None:
        app.installEventFilter(WheelGuard(app))
