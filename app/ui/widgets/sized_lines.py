"""A list whose lines keep their size (issue 48, "Fast").

A ``QListView`` lays out every line again whenever one line is added, taken or changed, and
asks its delegate the size of every line that has none of its own: the delegate measures the
line's text (shaping it), about 80,000 instructions a line, so a hundred-line sequence of play
was measured whole at every step on. A line given the size its delegate gives it is laid out
with no measuring: only the lines that changed are measured, and every line again when the
list's type or style changes (table mode's larger type), as Qt would.

"Who acts now" is made afresh at every step, mostly of lines it had before: a line of plain
words is measured once for its words and type, while the list's type and style are the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

#: how many measured lines a list keeps (a turn's lines are a few hundred)
KEPT_SIZES = 2000


class SizedLines(QListWidget):
    """A ``QListWidget`` whose lines are measured once: call ``keep_sizes`` on the lines
    added or changed. A line of plain words (no icon, no check box) is measured once for its
    words and type while the list's type and style are the same: "who acts now" is made
    afresh at every step, mostly of lines it had before."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        #: the size the delegate gave each line of plain words, by its words and own type
        self._sizes: dict[tuple[object, ...], QSize] = {}

    def keep_sizes(self, rows: Iterable[int]) -> None:
        """Each of these lines keeps the size the delegate gives it now (measured with the
        size it kept before set aside: the size the list would lay it out with)."""
        role, model = Qt.ItemDataRole.SizeHintRole, self.model()
        sizes = self._sizes
        wrapped = self.wordWrap()  # (wrapped words' size follows the list's width)
        for i in rows:
            item = self.item(i)
            item.setData(role, None)
            key = None if wrapped else _plain(item)
            size = sizes.get(key) if key is not None else None
            if size is None:
                size = self.sizeHintForIndex(model.index(i, 0))
                if key is not None:
                    if len(sizes) > KEPT_SIZES:
                        sizes.clear()
                    sizes[key] = size
            item.setSizeHint(size)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._sizes.clear()
            self.keep_sizes(range(self.count()))


def _plain(item: QListWidgetItem) -> tuple[object, ...] | None:
    """What a line of plain words is measured from (its words and its own type); None for a
    line with an icon or a check box, measured each time."""
    if (
        item.data(Qt.ItemDataRole.DecorationRole) is not None
        or item.data(Qt.ItemDataRole.CheckStateRole) is not None
    ):
        return None
    font = item.data(Qt.ItemDataRole.FontRole)
    return (item.text(), font.key() if isinstance(font, QFont) else None)
