"""Scroll areas' frames drawn from their last picture while they look the same (issue 48).

Qt's Fusion style draws a scroll area's frame (a list's, the Combat form's) as a rectangle
stroked around the whole area: about 450,000 instructions each time for a panel's list or form,
though only its one-pixel edge shows, and the desk's visible docks are painted whole at every
step. A kept frame is drawn by Qt (``QFrame.drawFrame``, what the area's own paint does) into a
transparent picture once; while the area's size, frame, state, palette and style are those it
was drawn with, its edges are put back from the picture: the frame's band only, the rest of the
picture being empty (checked when it is drawn; a style that draws inside its frame is drawn by
Qt as always). An area showing both scroll bars (the corner between them is painted with the
frame), or styled by a style sheet, is drawn by Qt as always.

A filter on the areas Qt made, not areas of our own: the panels keep their widgets.
"""

from __future__ import annotations

from collections.abc import Hashable

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QFrame,
    QStyleOptionFrame,
    QWidget,
)

from app.ui.widgets.kept_pictures import recall, the_keeper, watch


def one_colour(piece: QPixmap) -> QColor | None:
    """The one opaque colour of every pixel of ``piece``, if it has one: filled, not copied
    (Qt copies a picture onto a clipped widget row by row, about 0.3 microseconds a row, and a
    frame's edge is a colour; filled, it is the same pixels)."""
    image = piece.toImage()
    if image.isNull():
        return None
    colour = image.pixelColor(0, 0)
    if colour.alpha() != 255:
        return None
    same = QImage(image.size(), image.format())
    same.setDevicePixelRatio(image.devicePixelRatio())
    same.fill(colour)
    return colour if same == image else None


def band(frame: QRect, width: int) -> list[QRect]:
    """The four strips of ``frame``'s edge ``width`` wide: top, bottom, left, right."""
    x, y, w, h = frame.x(), frame.y(), frame.width(), frame.height()
    inner = max(0, h - 2 * width)
    return [
        QRect(x, y, w, width),
        QRect(x, y + h - width, w, width),
        QRect(x, y + width, width, inner),
        QRect(x + w - width, y + width, width, inner),
    ]


#: a look of an area's frame: whether it is put back, and its band's strips with their pieces
Look = tuple[bool, list[tuple[QRect, QPixmap | QColor]]]


class KeptFrames(QObject):
    """The event filter on kept frames: see the module docstring."""

    #: pictures drawn (tests count them: an area repainted unchanged draws none)
    drawn = 0

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        #: each kept area's last looks (``recall``), each with whether its picture can be put
        #: back (False: Qt draws it, for that look) and its band's strips, each with its piece
        #: of the picture (or its one colour)
        self.pictures: dict[QAbstractScrollArea, dict[Hashable, Look] | None] = {}

    def keep(self, area: QAbstractScrollArea) -> None:
        watch(self, self.pictures, area)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Paint or not isinstance(watched, QAbstractScrollArea):
            return False
        area = watched
        if area.frameShape() == QFrame.Shape.NoFrame:
            return False  # Qt draws nothing
        if area.horizontalScrollBar().isVisible() and area.verticalScrollBar().isVisible():
            return False  # the corner between the bars: Qt paints it with the frame
        style = area.style()
        if style.metaObject().className() == "QStyleSheetStyle":
            return False
        opt = QStyleOptionFrame()
        area.initStyleOption(opt)
        ratio = area.devicePixelRatioF()
        key = (
            area.width(),
            area.height(),
            ratio,
            opt.rect.x(),
            opt.rect.y(),
            opt.rect.width(),
            opt.rect.height(),
            opt.state,
            opt.frameShape,
            opt.lineWidth,
            opt.midLineWidth,
            opt.features,
            opt.direction,
            opt.palette.cacheKey(),
            id(style),
            area.frameWidth(),
        )

        def draw() -> Look:
            KeptFrames.drawn += 1
            return self._draw(area, opt.rect, ratio)

        kept = recall(self.pictures, area, key, draw)
        if kept is None or not kept[0]:
            return False  # (the style draws inside the frame's band: Qt draws it)
        painter = QPainter(area)
        for strip, piece in kept[1]:
            if isinstance(piece, QColor):
                painter.fillRect(strip, piece)
            else:
                painter.drawPixmap(strip.topLeft(), piece)
        painter.end()
        return True

    @staticmethod
    def _draw(area: QAbstractScrollArea, frame: QRect, ratio: float) -> Look:
        """The area's frame as Qt draws it, on nothing: whether it can be put back (False if
        the style drew inside the frame's band), and its band's strips cut from it."""
        picture = QPixmap(area.size() * ratio)
        picture.setDevicePixelRatio(ratio)
        picture.fill(Qt.GlobalColor.transparent)
        painter = QPainter(picture)
        area.drawFrame(painter)
        painter.end()
        strips = band(frame, area.frameWidth())
        pieces: list[tuple[QRect, QPixmap | QColor]] = []
        for strip in strips:
            source = QRect(
                round(strip.x() * ratio),
                round(strip.y() * ratio),
                round(strip.width() * ratio),
                round(strip.height() * ratio),
            )
            piece = picture.copy(source)
            piece.setDevicePixelRatio(ratio)
            # (filled only at a whole device pixel ratio: a fractional one would blur its edge)
            colour = one_colour(piece) if ratio == int(ratio) else None
            pieces.append((strip, colour or piece))
        inside = picture.toImage()
        clear = QPainter(inside)
        clear.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
        for strip in strips:
            clear.fillRect(strip, Qt.GlobalColor.transparent)
        clear.end()
        empty = QImage(inside.size(), inside.format())
        empty.setDevicePixelRatio(inside.devicePixelRatio())
        empty.fill(Qt.GlobalColor.transparent)
        return inside == empty, pieces


def keep_frames_under(root: QWidget) -> None:
    """Keep the pictures of the frames of every scroll area inside ``root`` (a panel, once it
    is built)."""
    keeper = the_keeper(KeptFrames)
    if keeper is None:
        return
    areas = root.findChildren(QAbstractScrollArea)
    if isinstance(root, QAbstractScrollArea):
        areas.append(root)
    for area in areas:
        keeper.keep(area)
