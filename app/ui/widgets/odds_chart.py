"""The odds as a bar chart in percent, painted with QPainter.

One chart, a handful of bars: drawing them directly costs nothing at start-up, where a plotting
library (pyqtgraph, and numpy under it) cost a third of a second of imports and 40 MB of the
desktop bundle (issue 20). Each bar is labelled with its outcome and its percentage, so the
chart reads on its own at arm's length.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.widgets.accessible import named

BAR_COLOUR = QColor("#1e88e5")


def _checked(odds: object) -> tuple[list[str], list[float]]:
    """The labels and percentages of ``odds``, or ``TypeError`` saying what is wrong."""
    if isinstance(odds, str | bytes) or not isinstance(odds, Sequence):
        raise TypeError(f"odds must be a list of (label, probability), not {type(odds).__name__}")
    labels: list[str] = []
    heights: list[float] = []
    for i, entry in enumerate(odds):
        if not isinstance(entry, tuple | list) or len(entry) != 2:
            raise TypeError(f"odds entry {i} is not a (label, probability) pair: {entry!r:.60}")
        label, p = entry
        if not isinstance(label, str):
            raise TypeError(f"odds entry {i}: the label {label!r:.40} is not text")
        if isinstance(p, bool) or not isinstance(p, Fraction | int) or not 0 <= p <= 1:
            raise TypeError(f"odds entry {i} ({label!r:.40}): {p!r:.40} is not a probability")
        labels.append(label)
        heights.append(float(p * 100))
    return labels, heights


class OddsChart(QWidget):
    """Bars of each outcome's probability in percent, on a 0-100 scale; ``show_odds`` updates
    the bars in place and repaints."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("odds_chart")
        named(self, "Odds chart", "No odds yet")
        self.setMinimumHeight(120)
        self.setMaximumHeight(220)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.labels: list[str] = []
        self.heights: list[float] = []

    def show_odds(self, odds: Sequence[tuple[str, Fraction]]) -> None:
        """Show these (label, probability) bars. Anything else (a label that is not text, a
        probability that is not an exact number from 0 to 1: a broken ruleset's data) is
        refused with ``TypeError`` before Qt sees it, and the chart is left empty (issue 31:
        a plugin's data must never reach the painter)."""
        try:
            labels, heights = _checked(odds)
        except TypeError:
            self.labels, self.heights = [], []
            self.setToolTip("")
            self.update()
            raise
        changed = (labels, heights) != (self.labels, self.heights)
        self.labels, self.heights = labels, heights
        said = "\n".join(
            f"{label}: {h:.1f}%" for label, h in zip(self.labels, self.heights, strict=True)
        )
        self.setToolTip(said)
        # a screen reader says the bars as the tooltip does
        self.setAccessibleDescription(said.replace("\n", "; ") or "No odds yet")
        if changed:  # (the same bars are not painted again: a step on shows the same odds)
            self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(320, 160)

    def paintEvent(self, event: object) -> None:  # noqa: N802 (Qt's name)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        text = pal.color(QPalette.ColorRole.WindowText)
        fm = p.fontMetrics()
        line = fm.height()
        area = QRectF(self.rect()).adjusted(4, line + 2, -4, -(line + 6))
        grid = QColor(text)
        grid.setAlpha(50)
        p.setPen(grid)
        for pct in (0, 50, 100):
            y = area.bottom() - area.height() * pct / 100
            p.drawLine(int(area.left()), int(y), int(area.right()), int(y))
        n = len(self.heights)
        if not n:
            return
        slot = area.width() / n
        width = max(4.0, slot * 0.6)
        for i, (label, h) in enumerate(zip(self.labels, self.heights, strict=True)):
            x = area.left() + slot * i + (slot - width) / 2
            top = area.bottom() - area.height() * h / 100
            p.fillRect(QRectF(x, top, width, area.bottom() - top), BAR_COLOUR)
            p.setPen(text)
            cell = QRectF(area.left() + slot * i, 0, slot, line)
            p.drawText(
                cell.translated(0, max(0.0, top - line - 2)),
                Qt.AlignmentFlag.AlignHCenter,
                f"{h:.0f}%" if h >= 1 or h == 0 else "<1%",
            )
            p.drawText(
                QRectF(area.left() + slot * i, area.bottom() + 3, slot, line),
                Qt.AlignmentFlag.AlignHCenter,
                fm.elidedText(label, Qt.TextElideMode.ElideRight, int(slot) - 2),
            )
