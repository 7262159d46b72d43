"""The After-action plots, drawn with pyqtgraph (imported with this module: only when a plot is
first shown, never for the desk's first paint).

Three drawings, each into a ``pg.PlotWidget`` it is given, so the panel, the PDF report and
the exports draw the same thing:
- ``draw_series``: a quantity over game time, one stepped line per aircraft or side, a point
  at every change (hover: the value and the log line; click: the log line), losses as crosses
  and kills as stars (on the line of the enemy whose attack came last);
- ``draw_luck``: a side's cumulative hits (or kills) against the expected, inside the band the
  middle 90% of fair games fall in;
- ``draw_die``: a die's typed faces against the fair count.
Each point carries the action it came from (``spot.data()``); ``on_click(action)`` is called
when one is clicked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from app.core.after_action import AfterAction, Loss, Series
from app.core.dice_check import DieCheck
from app.core.luck import RollOdds, band

pg.setConfigOptions(antialias=True, background="w", foreground="k")

Click = Callable[[int], None]

#: colours of the sides, in the order they joined (then round the wheel)
SIDE_COLOURS = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a589")


def side_colour(i: int) -> QColor:
    if i < len(SIDE_COLOURS):
        return QColor(SIDE_COLOURS[i])
    colour: QColor = pg.intColor(i, hues=12)  # (pyqtgraph is untyped: its result is a QColor)
    return colour


def plot_widget() -> pg.PlotWidget:
    """An empty plot as the panel shows them: grid, zoom and pan as pyqtgraph gives them."""
    w = pg.PlotWidget()
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMinimumHeight(60)
    return w


def _reset(w: pg.PlotWidget, legend: bool = True) -> pg.LegendItem | None:
    """An empty plot again: no items, an empty legend (if it has one), the axes' own ticks."""
    w.clear()
    w.getAxis("bottom").setTicks(None)
    if w.plotItem.legend is not None:
        w.plotItem.legend.clear()
    if not legend:
        return None
    return w.plotItem.legend or w.addLegend(offset=(-10, 10))


#: an array of floats, as the plots draw them
Floats = npt.NDArray[np.float64]


def step_xy(xs: Sequence[float] | Floats, ys: Sequence[float] | Floats) -> tuple[Floats, Floats]:
    """A stepped line through the points: a value holds until the next change."""
    n = len(xs)
    if n == 0:
        return np.zeros(0), np.zeros(0)
    sx, sy = np.empty(2 * n - 1), np.empty(2 * n - 1)
    sx[0::2], sy[0::2] = xs, ys
    sx[1::2], sy[1::2] = xs[1:], ys[:-1]
    return sx, sy


def _clicks(scatter: pg.ScatterPlotItem, on_click: Click | None) -> None:
    if on_click is None:
        return

    def clicked(_item: Any, points: Any, _ev: Any) -> None:
        if len(points):
            on_click(points[0].data()[0])

    scatter.sigClicked.connect(clicked)


def _tip(x: float, y: float, data: Any) -> str:
    return str(data[1]) if isinstance(data, tuple) else ""


def _value(v: Any) -> str:
    """An exact value as the umpire reads it: 4, or 9/2 (4.50)."""
    if getattr(v, "denominator", 1) == 1:
        return str(int(v))
    return f"{v} ({float(v):.2f})"


def draw_series(
    w: pg.PlotWidget,
    reading: AfterAction,
    quantity: str,
    per: str = "aircraft",
    on_click: Click | None = None,
) -> list[tuple[Series, pg.PlotCurveItem, pg.ScatterPlotItem]]:
    """``quantity`` over the game, one line per aircraft (``per="aircraft"``) or per side;
    returns each series with its line and its points."""
    _reset(w)
    title = reading.title(quantity)
    w.setTitle(f"{title}, per {'aircraft' if per == 'aircraft' else 'side'}")
    w.setLabel("bottom", "game time (turns)")
    w.setLabel("left", title)
    series = reading.of_aircraft(quantity) if per == "aircraft" else reading.of_sides(quantity)
    sides = reading.sides
    shade: dict[str, int] = {}
    drawn = []
    for s in series:
        colour = side_colour(sides.index(s.side) if s.side in sides else len(sides))
        if per == "aircraft":  # the side's colour, lighter for each further aircraft of it
            n = shade[s.side] = shade.get(s.side, -1) + 1
            colour = colour.lighter(100 + 25 * (n % 4))
        xs = np.array(s.xs, dtype=float)
        ys = np.array([float(v) for v in s.values])
        curve = pg.PlotCurveItem(*step_xy(xs, ys), pen=pg.mkPen(colour, width=2), name=s.name)
        data = [
            (p.action, f"{s.name}: {title} {_value(p.value)}\n{reading.line(p.action)}")
            for p in s.points
        ]
        dots = pg.ScatterPlotItem(
            xs, ys, data=data, size=7, brush=pg.mkBrush(colour), pen=pg.mkPen(colour),
            hoverable=True, hoverSize=11, tip=_tip,
        )  # fmt: skip
        _clicks(dots, on_click)
        w.addItem(curve)
        w.addItem(dots)
        drawn.append((s, curve, dots))
    _losses(w, reading, series, per, on_click)
    _frame(w, [x for s in series for x in s.xs], [float(v) for s in series for v in s.values])
    return drawn


def _frame(w: pg.PlotWidget, xs: Sequence[float], ys: Sequence[float]) -> None:
    """The view on the data: from 0 up (values here are never negative) and at least one
    turn wide, so a game just begun is not a blown-up dot."""
    if not len(xs):
        return
    top = max(max(ys), 0.0)
    w.setYRange(min(min(ys), 0.0), top if top > 0 else 1.0, padding=0.08)
    start = min(xs)
    w.setXRange(start, max(max(xs), start + 1.0), padding=0.03)


def _losses(
    w: pg.PlotWidget,
    reading: AfterAction,
    series: Sequence[Series],
    per: str,
    on_click: Click | None,
) -> pg.ScatterPlotItem | None:
    """A cross on the line of each aircraft lost (or its side's) where it was lost."""
    if not reading.losses:
        return None
    by_who = {s.who: s for s in series}
    xs, ys, data = [], [], []
    for loss in reading.losses:
        s = by_who.get(loss.aircraft if per == "aircraft" else loss.side)
        xs.append(loss.x)
        ys.append(_at(s, loss.seq) if s else 0.0)
        data.append((loss.action, loss_text(loss) + "\n" + reading.line(loss.action)))
    marks = pg.ScatterPlotItem(
        xs, ys, data=data, symbol="x", size=16, brush=pg.mkBrush("k"), pen=pg.mkPen("k", width=2),
        hoverable=True, tip=_tip, name="lost",
    )  # fmt: skip
    marks.setObjectName("losses")
    _clicks(marks, on_click)
    w.addItem(marks)
    _kills(w, reading, by_who, per, on_click)
    return marks


def _kills(
    w: pg.PlotWidget,
    reading: AfterAction,
    by_who: dict[str, Series],
    per: str,
    on_click: Click | None,
) -> pg.ScatterPlotItem | None:
    """A star on the line of the enemy (or its side's) whose attack came last before each
    loss: the kill, where its target was lost."""
    xs, ys, data = [], [], []
    for loss in reading.losses:
        if not loss.by:
            continue
        s = by_who.get(loss.by if per == "aircraft" else loss.by_side or "")
        xs.append(loss.x)
        ys.append(_at(s, loss.seq) if s else 0.0)
        data.append((loss.action, kill_text(loss) + "\n" + reading.line(loss.action)))
    if not xs:
        return None
    stars = pg.ScatterPlotItem(
        xs, ys, data=data, symbol="star", size=16, brush=pg.mkBrush("#f1c40f"),
        pen=pg.mkPen("k", width=1), hoverable=True, tip=_tip, name="kill",
    )  # fmt: skip
    stars.setObjectName("kills")
    _clicks(stars, on_click)
    w.addItem(stars)
    return stars


def kill_text(loss: Loss) -> str:
    """ "Eagle 1 (USAF) kill: Red 3 (VPAF), ejected"."""
    return f"{loss.by_name} ({loss.by_side}) kill: {loss.name} ({loss.side}), {loss.how}"


def loss_text(loss: Loss) -> str:
    """ "Red 3 (VPAF) lost: ejected; last attacked by Eagle 1 (USAF)"."""
    by = f"; last attacked by {loss.by_name} ({loss.by_side})" if loss.by_name else ""
    return f"{loss.name} ({loss.side}) lost: {loss.how}{by}"


def _at(s: Series, seq: int) -> float:
    value = 0.0
    for p in s.points:
        if p.seq > seq:
            break
        value = float(p.value)
    return value


def roll_text(r: RollOdds) -> str:
    """A roll as a tip: who rolled what, what came, and the odds before the roll."""
    odds = ", ".join(f"{label} {float(p):.0%}" for label, p in r.odds.items())
    on = f" on {r.target_name}" if r.target_name else ""
    return (
        f"{r.name or 'the table'}: {r.title}{on}: {r.outcome} "
        f"(chance before the roll {float(r.chance):.0%})\nodds: {odds}"
    )


def draw_luck(
    w: pg.PlotWidget,
    rolls: Sequence[RollOdds],
    side: str,
    steps_per_turn: int,
    kills: bool = False,
    line: Callable[[int], str] | None = None,
    on_click: Click | None = None,
    side_index: int = 0,
) -> dict[str, Any]:
    """One side's attacks over the game: actual (stepped, a point per roll, in the side's
    colour: ``side_index``), expected (dashed) and the band of the middle 90% of fair games;
    the items by name."""
    legend = _reset(w)
    assert legend is not None
    what = "kills" if kills else "hits"
    w.setTitle(f"{side}: {what}, actual against a fair game")
    w.setLabel("bottom", "game time (turns)")
    w.setLabel("left", f"{what} (cumulative)")
    points = band(rolls, kills=kills)
    xs = np.array([r.turn + r.step / steps_per_turn for r in rolls], dtype=float)
    items: dict[str, Any] = {}
    if not len(xs):
        return items
    low = pg.PlotCurveItem(*step_xy(xs, [p.low for p in points]), pen=pg.mkPen("#999999"))
    high = pg.PlotCurveItem(*step_xy(xs, [p.high for p in points]), pen=pg.mkPen("#999999"))
    fill = pg.FillBetweenItem(low, high, brush=pg.mkBrush(150, 150, 150, 70))
    expected = pg.PlotCurveItem(
        *step_xy(xs, [float(p.expected) for p in points]),
        pen=pg.mkPen("#444444", width=2, style=Qt.PenStyle.DashLine),
        name="expected",
    )
    actual_y = np.array([p.actual for p in points], dtype=float)
    colour = side_colour(side_index)
    actual = pg.PlotCurveItem(
        *step_xy(xs, actual_y), pen=pg.mkPen(colour, width=2), name=f"{side}'s {what}"
    )
    data = [(r.action, roll_text(r) + (f"\n{line(r.action)}" if line else "")) for r in rolls]
    dots = pg.ScatterPlotItem(
        xs, actual_y, data=data, size=7, brush=pg.mkBrush(colour), hoverable=True, tip=_tip
    )
    _clicks(dots, on_click)
    for item in (low, high, fill, expected, actual, dots):
        w.addItem(item)
    _frame(w, list(xs), [float(p.high) for p in points] + [float(p.actual) for p in points])
    # (the legend draws samples of plot items only: a fill of its own stands for the band)
    sample = pg.PlotDataItem(
        [0, 1], [1, 1], pen=pg.mkPen("#999999"), fillLevel=0, fillBrush=fill.brush()
    )
    legend.addItem(sample, "middle 90% of fair games")
    items.update(low=low, high=high, band=fill, expected=expected, actual=actual, points=dots)
    return items


def draw_die(w: pg.PlotWidget, check: DieCheck) -> dict[str, Any]:
    """A die's typed faces (bars) against the fair count (dashed line)."""
    _reset(w, legend=False)
    w.setTitle(
        f"{check.label}: {check.rolls} typed against a fair die"
        + (" (looks unfair)" if check.flagged else "")
    )
    w.setLabel("bottom", f"face of the {check.die}")
    w.setLabel("left", "times typed")
    faces = np.array(check.faces, dtype=float)
    bars = pg.BarGraphItem(
        x=faces, height=np.array(check.counts, dtype=float), width=0.7,
        brush=pg.mkBrush("#1f5fbf" if not check.flagged else "#c0392b"),
    )  # fmt: skip
    fair = pg.InfiniteLine(
        pos=float(check.expected),
        angle=0,
        pen=pg.mkPen("#444444", width=2, style=Qt.PenStyle.DashLine),
        label="fair",
        labelOpts={"position": 0.95, "color": "#222222"},
    )
    w.addItem(bars)
    w.addItem(fair)
    w.getAxis("bottom").setTicks([[(float(f), str(f)) for f in check.faces]])
    w.setXRange(min(check.faces) - 0.6, max(check.faces) + 0.6, padding=0)
    w.setYRange(0, max(max(check.counts), float(check.expected), 1) * 1.1, padding=0.02)
    return {"bars": bars, "fair": fair}
