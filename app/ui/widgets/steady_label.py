"""Word-wrapped labels whose new words do not lay out their panel again (issue 48, "Fast").

A ``QLabel`` in a layout asks the layout to lay its panel out again at every ``setText``, and
when that layout is done it asks the same of the panel's dock and of the main window (Qt always
passes it up): the Turn panel's heading and step words change at every step on, and laying out
the panel, the dock and the window cost about 2.5 million instructions a step, for words that
mostly take the same height as those before.

A ``SteadyLabel`` holds its label in a frame of its own, with no layout: the label fills the
frame, and the frame stands in the panel's layout with the label's own measures (its height
for the width it is given, its size policy). When the label's words change, Qt asks the frame
to lay it out; the frame asks the panel only if the new words need another height at the width
they have, or a minimum width wider than any of the label's words before it. So the words
always show whole, and are painted by the label as Qt paints them.

What the panel is not told at once: the width Qt would like for the words (a wrapped label's
golden-ratio ``sizeHint``), which moves nothing of a dock already placed; it is read again
whenever the panel is laid out.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget

#: how many measures a label keeps (the heading's words name the turn: new ones every turn)
KEPT_MEASURES = 500


class SteadyLabel(QWidget):
    """The frame that stands in a layout for ``label`` (which it takes as its child): see
    the module docstring. Hide or show the frame, not the label."""

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        label.move(0, 0)
        #: the widest minimum width of the label's words since its type last changed
        self._widest = 0
        #: the label's minimum width and height for its words at a width (``_measures``)
        self._measured: dict[tuple[object, ...], tuple[int, int]] = {}
        self.setSizePolicy(label.sizePolicy())

    # -- what the layout reads: the label's own measures --------------------------------------

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self.label.sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = self.label.minimumSizeHint()
        self._widest = max(self._widest, hint.width())
        return QSize(self._widest, hint.height())

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return self.label.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self.label.heightForWidth(width)

    # -- what changes --------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.label.resize(event.size())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._widest = 0  # widths in another type mean nothing in this one
            self.updateGeometry()

    def event(self, event: QEvent) -> bool:
        # the label, with no layout above it, asks its frame: the words, type or wrapping
        # changed. The panel is asked only for what it would lay out differently.
        if event.type() == QEvent.Type.LayoutRequest and self._moved():
            self.updateGeometry()
            # laid out now, as Qt lays out a label's panel before it paints the label's words
            # (what the panel is asked now waits for the next turn of the event loop)
            panel = self.parentWidget()
            layout = panel.layout() if panel is not None and panel.isVisible() else None
            if layout is not None:
                layout.activate()
        return super().event(event)

    def _moved(self) -> bool:
        """The label's words need another height than the frame's, or a wider minimum."""
        label = self.label
        self.setSizePolicy(label.sizePolicy())  # (wrapping on or off: the same, or laid out)
        if not label.hasHeightForWidth():
            return True  # laid out by its size hint: every change passed on, as Qt does
        width = self.width()
        widest, needed = self._measures(width)
        if widest > self._widest:
            return True
        needed = max(self.minimumHeight(), min(needed, self.maximumHeight()))
        return needed != self.height()

    def _measures(self, width: int) -> tuple[int, int]:
        """The label's minimum width and its height at ``width``, as Qt measures them, each
        measured once for the same words in the same type, style and margins: Qt lays the
        words out three to five times to measure them (about 400,000 instructions), and a
        game's steps come back every turn."""
        label = self.label
        margins = label.contentsMargins()
        look = (
            label.text(),
            width,
            label.font().key(),
            label.style().name(),
            label.styleSheet(),
            label.textFormat(),
            label.alignment(),
            label.margin(),
            label.indent(),
            label.frameWidth(),
            margins.left(),
            margins.top(),
            margins.right(),
            margins.bottom(),
        )
        measured = self._measured.get(look)
        if measured is None:
            if len(self._measured) > KEPT_MEASURES:
                self._measured.clear()
            measured = (label.minimumSizeHint().width(), label.heightForWidth(width))
            self._measured[look] = measured
        return measured
