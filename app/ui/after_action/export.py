"""Exports of the After-action plots: a plot as PNG (pyqtgraph's image exporter) or SVG (Qt's
SVG generator: pyqtgraph 0.14's SVG exporter cannot read the path data Qt 6.8+ writes), and
the data behind the plots as CSV, exact values kept ("9/2") beside their decimals, no cell a
spreadsheet would run as a formula (``app.core.csv_cells``, issue 46).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator

from app.core import csv_cells
from app.core.after_action import AfterAction
from app.core.dice_check import DieCheck
from app.core.luck import RollOdds, band

__all__ = ["export_csv", "export_plot"]


def export_plot(w: pg.PlotWidget, path: Path) -> Path:
    """The plot to ``path``: PNG or SVG by its suffix (``ValueError`` for any other)."""
    suffix = path.suffix.lower()
    if suffix == ".png":
        exporter = pg.exporters.ImageExporter(w.plotItem)
        exporter.parameters()["width"] = max(800, int(w.width()))
        exporter.export(str(path))
    elif suffix == ".svg":
        size = w.size() if w.width() > 50 else QSize(800, 500)
        gen = QSvgGenerator()
        gen.setFileName(str(path))
        gen.setSize(size)
        gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
        gen.setTitle(w.plotItem.titleLabel.text or "Airboss plot")
        painter = QPainter(gen)
        try:
            w.render(painter, QRectF(0, 0, size.width(), size.height()))
        finally:
            painter.end()
    else:
        raise ValueError(f"{path.name}: a plot is exported as .png or .svg")
    return path


def _exact(v: Fraction | int) -> str:
    return str(v)


def export_csv(
    path: Path,
    reading: AfterAction,
    rolls: Sequence[RollOdds] = (),
    dice: Sequence[DieCheck] = (),
) -> Path:
    """Every series point, every roll with its odds, the luck band of each side and the
    typed dice's counts, as rows of one CSV (a ``table`` column says which)."""
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv_cells.writer(f)  # no cell a spreadsheet would run (issue 46)
        out.writerow(
            ["table", "quantity", "who", "name", "side", "turn", "value", "exact", "seq",
             "action", "log line"]
        )  # fmt: skip
        for quantity in reading.quantities():
            for per, series in (
                ("aircraft", reading.of_aircraft(quantity)),
                ("side", reading.of_sides(quantity)),
            ):
                for s in series:
                    for p in s.points:
                        out.writerow(
                            [f"series per {per}", quantity, s.who, s.name, s.side, f"{p.x:.4f}",
                             f"{float(p.value):g}", _exact(p.value), p.seq, p.action,
                             reading.lines.get(p.action, "")]
                        )  # fmt: skip
        for loss in reading.losses:
            out.writerow(
                ["loss", loss.how, loss.aircraft, loss.name, loss.side, f"{loss.x:.4f}", "", "",
                 loss.seq, loss.action, reading.lines.get(loss.action, "")]
            )  # fmt: skip
        for r in rolls:
            odds = "; ".join(f"{label}={p}" for label, p in r.odds.items())
            out.writerow(
                ["roll", r.procedure, r.roller or "", r.name, r.side or "", f"{r.turn}.{r.step}",
                 r.outcome, odds or r.why, r.seq, r.action, reading.lines.get(r.action, "")]
            )  # fmt: skip
        sides = list(dict.fromkeys(r.side for r in rolls if r.attack and r.known and r.side))
        for side in sides:
            mine = [r for r in rolls if r.attack and r.known and r.side == side]
            for what, kills in (("hits", False), ("kills", True)):
                for r, b in zip(mine, band(mine, kills=kills), strict=True):
                    out.writerow(
                        [f"luck {what}", f"expected {float(b.expected):.3f}, band "
                         f"{b.low}-{b.high}", side, r.name, side, f"{r.turn}.{r.step}",
                         b.actual, _exact(b.expected), b.seq, b.action, ""]
                    )  # fmt: skip
        for d in dice:
            for face, count in zip(d.faces, d.counts, strict=True):
                out.writerow(
                    ["typed die", d.label, face, "", "", "", count, _exact(d.expected), "", "",
                     d.verdict()]
                )  # fmt: skip
    return path
