"""Scroll bars drawn from their last picture while nothing they show changed (issue 48).

Qt's Fusion style fills a scroll bar's groove and handle with gradients, pixel by pixel: a panel's
vertical bar 625 pixels tall costs about 2 ms each time it is painted, more than the whole of
the panel's text, and a dock is painted whole on every change it shows. A kept bar is drawn by
the same style into a picture once, and that picture is put on the screen while the bar's range,
position, size, palette and state are those it was drawn with. While the pointer is on the bar
or a mouse button is down (hover and press are drawn from Qt's private state), or where the
style hides its bars when idle, the bar is drawn by Qt as always.

A filter on the bars Qt made, not bars of our own: the scroll areas keep their wiring.
"""

from __future__ import annotations

from collections.abc import Hashable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QScrollBar,
    QStyle,
    QStyleOptionSlider,
    QWidget,
)

from app.ui.widgets.kept_pictures import recall, the_keeper, watch


def bar_option(bar: QScrollBar) -> QStyleOptionSlider:
    """What ``QScrollBar.paintEvent`` draws, with no hover and no press (``initStyleOption``
    is protected: the same fields, from the bar's public state)."""
    opt = QStyleOptionSlider()
    opt.initFrom(bar)
    opt.orientation = bar.orientation()
    opt.minimum, opt.maximum = bar.minimum(), bar.maximum()
    opt.sliderPosition, opt.sliderValue = bar.sliderPosition(), bar.value()
    opt.singleStep, opt.pageStep = bar.singleStep(), bar.pageStep()
    opt.upsideDown = bar.invertedAppearance()
    if bar.orientation() == Qt.Orientation.Horizontal:
        opt.state |= QStyle.StateFlag.State_Horizontal
    opt.subControls = QStyle.SubControl.SC_All
    opt.activeSubControls = QStyle.SubControl.SC_None
    return opt


def background(bar: QWidget) -> QColor | None:
    """The colour Qt paints under ``bar`` before the bar draws itself (the first widget up
    that fills its background, or the window), if that is one opaque colour; else None."""
    w: QWidget | None = bar
    while w is not None:
        if w.testAttribute(Qt.WidgetAttribute.WA_StyledBackground) or w.styleSheet():
            return None  # a style sheet's background: not known here
        if w.autoFillBackground() or w.isWindow():
            brush = w.palette().brush(w.backgroundRole())
            color = brush.color()
            if brush.style() != Qt.BrushStyle.SolidPattern or color.alpha() != 255:
                return None
            return color
        w = w.parentWidget()
    return None


def _key(bar: QScrollBar, opt: QStyleOptionSlider) -> tuple[object, ...]:
    return (
        opt.rect.width(),
        opt.rect.height(),
        bar.devicePixelRatioF(),
        opt.state,
        opt.orientation,
        opt.minimum,
        opt.maximum,
        opt.sliderPosition,
        opt.sliderValue,
        opt.singleStep,
        opt.pageStep,
        opt.upsideDown,
        opt.direction,
        opt.palette.cacheKey(),
        id(bar.style()),
    )


class KeptScrollBars(QObject):
    """The event filter on kept bars: see the module docstring."""

    #: pictures drawn (tests count them: a bar repainted unchanged draws none)
    drawn = 0

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        #: each kept bar's pictures of its last looks (``recall``), by what each was drawn from
        self.pictures: dict[QScrollBar, dict[Hashable, QPixmap] | None] = {}

    def keep(self, bar: QScrollBar) -> None:
        watch(self, self.pictures, bar)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Paint or not isinstance(watched, QScrollBar):
            return False
        bar = watched
        if (
            bar.underMouse()
            or bar.isSliderDown()
            or QApplication.mouseButtons() != Qt.MouseButton.NoButton
            or bar.style().styleHint(QStyle.StyleHint.SH_ScrollBar_Transient, None, bar)
        ):
            return False  # hover, press and transient bars: Qt's own drawing
        opt = bar_option(bar)
        key = _key(bar, opt)

        def draw() -> QPixmap | None:
            # (the colour under the bar is looked up on a change only: a palette changed up
            # the tree reaches the bar's own palette, which is in the key)
            under = background(bar)
            if under is None:
                return None
            ratio = bar.devicePixelRatioF()
            picture = QPixmap(opt.rect.size() * ratio)
            picture.setDevicePixelRatio(ratio)
            picture.fill(under)  # what Qt paints under the bar: the style draws on it
            painter = QPainter(picture)
            bar.style().drawComplexControl(QStyle.ComplexControl.CC_ScrollBar, opt, painter, bar)
            painter.end()
            KeptScrollBars.drawn += 1
            return picture

        kept = recall(self.pictures, bar, key, draw)
        if kept is None:
            return False
        painter = QPainter(bar)
        painter.drawPixmap(0, 0, kept)
        painter.end()
        return True


def keep_scroll_bars_under(root: QWidget) -> None:
    """Keep the pictures of the scroll bars of every scroll area inside ``root`` (a panel,
    once it is built)."""
    keeper = the_keeper(KeptScrollBars)
    if keeper is None:
        return
    areas = root.findChildren(QAbstractScrollArea)
    if isinstance(root, QAbstractScrollArea):
        areas.append(root)
    for area in areas:
        for bar in (area.verticalScrollBar(), area.horizontalScrollBar()):
            keeper.keep(bar)
