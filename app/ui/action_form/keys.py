"""Keys a field must not keep for itself: Ctrl+Z and its kin are the desk's Undo and Redo
wherever the cursor is (issue 43: an owed die field swallowed Ctrl+Z and said nothing)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence

_DESK_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


class DeskKeys(QObject):
    """An event filter for line edits and spin boxes: their own Undo and Redo give way to the
    window's (the game's), so Ctrl+Z in a field undoes the last action, as in any panel."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            if any(event.matches(k) for k in _DESK_KEYS):
                event.ignore()  # not the field's: the window's shortcut takes it
                return True
        return False


_FILTER: DeskKeys | None = None


def desk_keys(widget: QObject) -> None:
    """Let the window's Undo and Redo through ``widget``."""
    global _FILTER
    if _FILTER is None:
        _FILTER = DeskKeys()
    widget.installEventFilter(_FILTER)
