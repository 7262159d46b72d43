"""Labels that keep the widest of their words (issue 48, "Fast").

A label whose words change (the status bar's step and segment at every step on) asks its
layout to lay it out again, and the status bar answers any such request by painting all of
itself; a label that changed width also moves the labels beside it. A label given a fixed size,
the widest its words have been, is neither: Qt lays nothing out again for a widget whose size
cannot change, so only the label is painted. Words wider than any before widen it (once); a
new type (table mode's larger type) or style measures it afresh, so its words always show whole.

Each of its words is measured once: Qt measures a label's words three times over when they
change (about 400,000 instructions for a step's segment), and a game's steps come back every
turn. The measures are kept for the type, style and margins they were taken in.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QLabel


class WidestLabel(QLabel):
    """A ``QLabel`` as wide as the widest of its words since ``forget``."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[call-overload]
        #: the size Qt gives each of its words (``sizeHint``), in its type, style and margins
        self._measured: dict[str, QSize] = {}

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._fit(self.minimumWidth())

    def forget(self) -> None:
        """Sized by its words now, the widest before forgotten (another game's)."""
        self._fit(0)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() in (
            QEvent.Type.FontChange,
            QEvent.Type.StyleChange,
            QEvent.Type.ContentsRectChange,
        ):
            self._measured.clear()  # sizes in another type mean nothing in this one
            self.forget()

    def _fit(self, widest: int) -> None:
        text = self.text()
        hint = self._measured.get(text)
        if hint is None:
            hint = self._measured[text] = self.sizeHint()
        size = QSize(max(hint.width(), widest), hint.height())
        if (self.minimumSize(), self.maximumSize()) != (size, size):
            self.setFixedSize(size)
