"""A refusal shown where the umpire is looking: a red bar inside the panel that was used."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QWidget

from app.ui.model import EngagementModel


class MessageBar(QLabel):
    """Hidden until a refusal; then the message in a red bar (readable in light and dark)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("refusal")
        self.setWordWrap(True)
        self.setVisible(False)
        self.setAccessibleName("Refused")

    def show_refusal(self, text: str) -> None:
        # a fixed red with white text reads the same on light and dark palettes
        self._style(
            f"QLabel#{self.objectName()} {{ background: #b3261e; color: white; padding: 4px 6px;"
            " border-radius: 3px; font-weight: bold; }"
        )
        self.setText(text)
        self.setVisible(True)

    def show_notice(self, text: str) -> None:
        """Not a refusal: something the umpire should know changed (blue bar, same place)."""
        self._style(
            f"QLabel#{self.objectName()} {{ background: #1c4f8a; color: white; padding: 4px 6px;"
            " border-radius: 3px; }"
        )
        self.setText(text)
        self.setVisible(True)

    def _style(self, sheet: str) -> None:
        """Set only when it changes: set again, Qt polishes the bar again (each redraw)."""
        if self.styleSheet() != sheet:
            self.setStyleSheet(sheet)

    def clear_refusal(self) -> None:
        self.setText("")
        self.setVisible(False)

    @property
    def message(self) -> str:
        return "" if self.isHidden() else self.text()


def attempt_here(
    model: EngagementModel, action: Callable[[], Any], bar: MessageBar
) -> tuple[bool, Any]:
    """Run a session action through the model; a refusal is also shown in ``bar``.

    Returns ``(done, result)``; on a refusal nothing was appended and ``done`` is False.
    """
    refused: list[str] = []

    def note(text: str) -> None:
        refused.append(text)

    model.refused.connect(note)
    try:
        result = model.attempt(action)
    finally:
        model.refused.disconnect(note)
    if refused:
        bar.show_refusal(refused[-1])
        return False, None
    bar.clear_refusal()
    return True, result


def muted(widget: QWidget) -> str:
    """A colour for secondary text that follows the palette (light or dark)."""
    return widget.palette().color(QPalette.ColorRole.PlaceholderText).name()
