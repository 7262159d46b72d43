"""A list whose lines keep their size (issue 48, "Fast").

A ``QListView`` lays out every line again whenever one line is added, taken or changed, and
asks its delegate the size of every line that has none of its own: the delegate measures the
line's text (shaping it), about 80,000 instructions a line, so a hundred-line sequence of play
was measured whole at every step on. A line given the size its delegate gives it is laid out
with no measuring: only the lines that changed are measured, and every line again when the
list's type or style changes (table mode's larger type), as Qt would.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QListWidget


class SizedLines(QListWidget):
    """A ``QListWidget`` whose lines are measured once: call ``keep_sizes`` on the lines
    added or changed."""

    def keep_sizes(self, rows: Iterable[int]) -> None:
        """Each of these lines keeps the size the delegate gives it now (measured with the
        size it kept before set aside: the size the list would lay it out with)."""
        role, model = Qt.ItemDataRole.SizeHintRole, self.model()
        for i in rows:
            item = self.item(i)
            item.setData(role, None)
            item.setSizeHint(self.sizeHintForIndex(model.index(i, 0)))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.keep_sizes(range(self.count()))
