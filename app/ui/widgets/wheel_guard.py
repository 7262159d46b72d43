"""The mouse wheel never changes a value the umpire is not editing (issue 13).

Qt lets the wheel change any spin box or combo box under the pointer, so scrolling a panel
past a form silently changes the numbers in it. A guarded widget takes the wheel only while it
has keyboard focus (and the wheel no longer gives it focus); otherwise the wheel scrolls the
panel it sits in, as the umpire meant. The guard sits on those widgets only, never on the whole
application, so the thousands of other events of a redraw do not pass through Python.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QWidget

GUARDED = (QAbstractSpinBox, QComboBox)


class WheelGuard(QObject):
    """Event filter for spin boxes and combo boxes: see the module docstring."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.Wheel
            and isinstance(watched, QWidget)
            and not watched.hasFocus()
        ):
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


def _guard() -> WheelGuard | None:
    app = QCoreApplication.instance()
    if app is None:
        return None
    found = app.findChild(WheelGuard)
    return found if found is not None else WheelGuard(app)


def guard_wheel(*widgets: QWidget) -> None:
    """Guard these spin boxes and combo boxes (others are left alone)."""
    guard = _guard()
    if guard is None:
        return
    for w in widgets:
        if isinstance(w, GUARDED):
            if w.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.installEventFilter(guard)


def guard_wheel_under(root: QWidget) -> None:
    """Guard every spin box and combo box inside ``root`` (a panel, once it is built)."""
    guard_wheel(*root.findChildren(QAbstractSpinBox), *root.findChildren(QComboBox))
