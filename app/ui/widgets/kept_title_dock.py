"""A dock whose title bar is drawn from its last picture while it looks the same (issue 48).

Qt's Fusion style draws a dock's title bar (its words laid out and shaped, the bar filled) at
each paint of the dock: about 800,000 instructions, and the desk's visible docks are painted
whole at every step on. A kept title is drawn by the same style into a picture, on the colour
Qt paints under it, and put back while its words, size, state, type and colours are the same.
A floating dock, a style sheet's or a custom title bar are drawn by Qt as always. A paint of the
panel below alone (its words changed) draws nothing: a docked dock's own paint is its title.
"""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QApplication, QDockWidget, QStyle, QStyleOptionDockWidget

from app.ui.widgets.kept_scroll_bar import background


class KeptTitleDock(QDockWidget):
    """A ``QDockWidget`` whose title bar is kept: see the module docstring."""

    #: pictures drawn (tests count them: a title painted again unchanged draws none)
    drawn = 0

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[call-overload]
        self._kept: tuple[tuple[object, ...], QPixmap] | None = None
        #: False: the title drawn by Qt, as any dock's (tests compare the two)
        self.keeps_title = True

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        if (
            not self.keeps_title
            or self.isFloating()
            or self.titleBarWidget() is not None
            or self.styleSheet()
        ):
            super().paintEvent(event)
            return
        opt = QStyleOptionDockWidget()
        self.initStyleOption(opt)
        if not event.region().intersects(opt.rect):
            return  # only the panel below is painted (its words changed): Qt draws no title
        under = background(self)
        if under is None:
            super().paintEvent(event)
            return
        font = self.font()
        # as Qt's own paintEvent: a dock in the docks' type has its title in the titles' type
        # (PySide6 takes the class name as text: its stubs say bytes, which crash here)
        if font == QApplication.font("QDockWidget"):  # type: ignore[call-overload]
            font = QApplication.font("QDockWidgetTitle")  # type: ignore[call-overload]
            opt.fontMetrics = QFontMetrics(font)
        ratio = self.devicePixelRatioF()
        key = (
            opt.title,
            opt.rect.x(),
            opt.rect.y(),
            opt.rect.width(),
            opt.rect.height(),
            ratio,
            opt.state,
            opt.closable,
            opt.movable,
            opt.floatable,
            opt.verticalTitleBar,
            opt.direction,
            font.key(),
            opt.palette.cacheKey(),
            under.rgba(),
            id(self.style()),
        )
        kept = self._kept
        if kept is None or kept[0] != key:
            picture = QPixmap(opt.rect.size() * ratio)
            picture.setDevicePixelRatio(ratio)
            picture.fill(under)
            painter = QPainter(picture)
            painter.translate(-opt.rect.topLeft())
            painter.setFont(font)
            self.style().drawControl(QStyle.ControlElement.CE_DockWidgetTitle, opt, painter, self)
            painter.end()
            kept = self._kept = (key, picture)
            KeptTitleDock.drawn += 1
        painter = QPainter(self)
        painter.drawPixmap(opt.rect.topLeft(), kept[1])
        painter.end()
