"""The after-action report as a PDF (issue 35), through Qt's PDF writer: the aircraft and
how each ended, kills and losses, luck per side and per aircraft, the dice at the table, then
the plots (the panel's own pyqtgraph drawings, put in the page as pictures at 3x).

``airboss report GAME --out report.pdf`` writes it with no window (``report_command``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QImage, QPainter, QPdfWriter
from PySide6.QtWidgets import QApplication

from app.core.errors import RuleViolation, StoreError
from app.ui.after_action.data import GameReading
from app.ui.widgets.pdf_page import a4_writer

__all__ = ["report_command", "write_report"]

#: the size a plot is laid out at before it is drawn into the page (pixels)
PLOT_SIZE = (900, 420)


class _Page:
    """Text and pictures down the pages of a PDF, a new page when one is full."""

    def __init__(self, writer: QPdfWriter, painter: QPainter) -> None:
        self.writer, self.painter = writer, painter
        self.width = writer.width()
        self.height = writer.height()
        self.y = 0.0

    def need(self, height: float) -> None:
        if self.y + height > self.height and self.y > 0:
            self.writer.newPage()
            self.y = 0.0

    def text(self, text: str, size: float = 10, bold: bool = False, gap: float = 0.3) -> None:
        font = QFont("DejaVu Sans")
        font.setPointSizeF(size)
        font.setBold(bold)
        self.painter.setFont(font)
        flags = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft)
        box = self.painter.boundingRect(QRectF(0, 0, self.width, 10_000), flags, text)
        self.need(box.height())
        self.painter.drawText(QRectF(0, self.y, self.width, box.height()), flags, text)
        self.y += box.height() + gap * box.height() / max(1, text.count("\n") + 1)

    def picture(self, draw: Callable[[QPainter, QRectF], None], aspect: float) -> None:
        height = self.width * aspect
        self.need(height)
        draw(self.painter, QRectF(0, self.y, self.width, height))
        self.y += height * 1.04


def write_report(reading: GameReading, path: Path) -> Path:
    """The after-action report of ``reading``'s game to ``path`` (A4, PDF)."""
    from app.core.luck import attacks
    from app.ui.after_action.plots import (
        draw_die,
        draw_luck,
        draw_series,
        loss_text,
        plot_widget,
    )

    state, series = reading.log.engagement, reading.series
    writer = a4_writer(path, f"{state.title} - after-action report")
    painter = QPainter(writer)
    if not painter.isActive():
        raise OSError(f"{path}: cannot be written")
    try:
        page = _Page(writer, painter)
        page.text(f"After-action report: {state.title}", 16, bold=True)
        page.text(
            f"{reading.log.ruleset.title}, turn {state.turn}; {len(state.aircraft)} aircraft, "
            f"{series.last_seq} events in the log (undone actions left out)."
        )
        page.text("The aircraft", 12, bold=True)
        lost = {loss.aircraft: loss for loss in series.losses}
        for side in series.sides:
            rows = [
                f"{p.name}: damage {p.damage}"
                + (f"; lost in turn {int(lost[a].x)}: {lost[a].how}" if a in lost else "")
                for a, p in series.planes.items()
                if p.side == side
            ]
            page.text(f"{side}: " + "; ".join(rows) + ".")
        page.text("Kills and losses", 12, bold=True)
        page.text("\n".join(loss_text(loss) for loss in series.losses) or "No aircraft lost.")
        page.text("Luck", 12, bold=True)
        sentences = [t.sentence() for t in reading.sides()] or ["No attack rolls."]
        page.text("\n".join(sentences))
        rows = [
            f"{t.name}: {t.rolls} attack rolls, hits {float(t.expected_hits):.2f} expected / "
            f"{t.hits} actual, kills {float(t.expected_kills):.2f} / {t.kills}, luckier than "
            f"{t.luckier_than:.0%}"
            for t in reading.aircraft()
        ]
        if rows:
            page.text("\n".join(rows), 9)
        if reading.unknown_odds:
            page.text(
                f"{len(reading.unknown_odds)} roll(s) left out of the luck: their odds could not "
                f"be worked out again ({reading.unknown_odds[0].why}).",
                9,
            )
        page.text("Dice at the table", 12, bold=True)
        page.text("\n".join(c.verdict() for c in reading.dice) or "No typed dice.")
        named = reading.typed.said()
        if named:
            page.text("Dice named at the table (for the rolls typed after): " + "; ".join(named), 9)

        plot = plot_widget()
        # laid out and drawn as on a screen (never shown on one), then put in the page as a
        # picture at three times its size: drawn straight into a 300 dpi page, the axes'
        # text would be sized for the page's dots, not the plot's
        plot.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        plot.resize(*PLOT_SIZE)
        plot.show()
        aspect = PLOT_SIZE[1] / PLOT_SIZE[0]

        def render(painter: QPainter, target: QRectF) -> None:
            QApplication.processEvents()  # the plot's ranges and axes settle
            image = QImage(PLOT_SIZE[0] * 3, PLOT_SIZE[1] * 3, QImage.Format.Format_RGB32)
            image.setDevicePixelRatio(3)
            image.fill(Qt.GlobalColor.white)
            onto = QPainter(image)
            try:
                plot.render(onto, QRectF(0, 0, *PLOT_SIZE))
            finally:
                onto.end()
            painter.drawImage(target, image)

        page.text("Plots", 12, bold=True)
        for quantity in series.quantities():
            draw_series(plot, series, quantity, "aircraft" if quantity == "damage" else "side")
            page.picture(render, aspect)
        for i, side in enumerate(series.sides):
            mine = attacks(reading.rolls, side)
            if mine:
                draw_luck(plot, mine, side, series.steps_per_turn, side_index=i)
                page.picture(render, aspect)
        for check in reading.dice:
            draw_die(plot, check)
            page.picture(render, aspect)
        plot.hide()
        plot.deleteLater()
    finally:
        painter.end()
    return path


_app: QApplication | None = None


def _ensure_widgets() -> None:
    """The plots are widgets: a QApplication, and with no window to show no display either."""
    global _app
    if QApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _app = QApplication(["airboss"])


def report_command(game: str, out: str, game_id: str | None = None) -> int:
    """``airboss report``: the after-action report of a game to a PDF. The exit code."""
    from app.session import GameSession

    def fail(message: str) -> int:
        print(f"airboss report: {message}", file=sys.stderr)
        return 2

    target = Path(out)
    if not target.parent.is_dir():
        return fail(f"{target.parent}: no such folder for the PDF")
    try:
        session = GameSession.open(game, game=game_id)
    except (StoreError, KeyError) as e:
        return fail(str(e))
    with session:
        _ensure_widgets()
        try:
            reading = GameReading(session.log, session.clock)
            write_report(reading, target)
        except (OSError, RuleViolation) as e:
            return fail(f"{target}: {e}")
        print(
            f"{target}: after-action report of {session.title} "
            f"({len(reading.series.planes)} aircraft, {len(reading.rolls)} rolls)"
        )
    return 0
