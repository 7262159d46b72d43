"""The angle-off board: the map's grid, the two pieces and the arcs the geometry reports,
in a QGraphicsView (click to place, drag to move, wheel or [ ] to turn)."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from app.core.board import to_map, to_physical
from app.core.ruleset import Piece

ROLES = ("target", "attacker")
COLOURS = {"target": QColor("#c62828"), "attacker": QColor("#1565c0")}
ARC_COLOURS = ("#ffb300", "#43a047", "#8e24aa", "#00897b", "#f4511e", "#3949ab")
#: board pixels per map unit (one hex across flats; one inch)
SCALE = {"hex": 46.0, "inches": 18.0}
#: how far the board reaches from the middle, in map units
EXTENT = {"hex": 7, "inches": 24}
#: a facing in one key, laid out as the numeric keypad (8 up, 9 up-right, 6 right ... 7
#: up-left): the degrees it points to, anticlockwise from east; the piece takes the nearest
#: facing it may have where it stands (issue 29: both pieces placed in four actions)
COMPASS = {"6": 0, "9": 45, "8": 90, "7": 135, "4": 180, "1": 225, "2": 270, "3": 315}
#: the arcs' radius in map units
ARC_RADIUS = {"hex": 3.2, "inches": 12.0}
#: a cone drawn around the attacker (Phantoms' radar cone)
CONE_COLOUR = "#6a1b9a"


class PieceItem(QGraphicsPathItem):
    """A piece on the board: an arrow pointing along its facing."""

    def __init__(self, role: str, board: Board) -> None:
        super().__init__()
        self.role, self.board = role, board
        s = 0.36 * board.unit
        path = QPainterPath()
        path.addPolygon(
            QPolygonF(
                [
                    QPointF(s, 0),
                    QPointF(-s * 0.7, s * 0.6),
                    QPointF(-s * 0.35, 0),
                    QPointF(-s * 0.7, -s * 0.6),
                    QPointF(s, 0),
                ]
            )
        )
        self.setPath(path)
        colour = COLOURS[role]
        self.setBrush(QBrush(colour))
        self.setPen(QPen(colour.darker(150), 1.5))
        self.setZValue(10)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setFlags(
            QGraphicsItem.GraphicsItemFlag.ItemIsMovable
            | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges
        )
        self.setToolTip(role.capitalize())
        self.label = QGraphicsSimpleTextItem(role.capitalize())
        self.label.setBrush(QBrush(colour.darker(130)))
        self.label.setZValue(11)
        self.syncing = False

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:  # noqa: N802
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and not self.syncing:
            self.board.piece_dragged.emit(self.role, self.pos(), False)
        return super().itemChange(change, value)

    def mousePressEvent(self, event: Any) -> None:  # noqa: N802
        self.board.selected = self.role
        self.board.piece_pressed.emit(self.role)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: Any) -> None:  # noqa: N802
        super().mouseReleaseEvent(event)
        self.board.piece_dragged.emit(self.role, self.pos(), True)


class Board(QGraphicsView):
    """The map: grid, arcs and two pieces. It reports clicks, drags and turns; the dock decides."""

    clicked = Signal(QPointF)
    turn = Signal(int)
    piece_pressed = Signal(str)
    piece_dragged = Signal(str, QPointF, bool)
    #: the wheel over the selected piece: (role, steps left); one gesture, many of these
    wheel_turn = Signal(str, int)
    #: a compass key (the numeric keypad's layout: 8 up, 6 right ...): (role or "", degrees)
    face = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("board")
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(260, 220)
        self.setToolTip(
            "Click to place the chosen piece (attacker, then target), drag to move; a piece "
            "clicked or placed turns with the wheel, [ and ], or faces a compass key (8 up, 6 "
            "right, keypad layout)"
        )
        self.grid = "hex"
        #: scene pixels per map unit (a hex's width, an inch)
        self.unit = SCALE["hex"]
        self.pieces: dict[str, PieceItem] = {}
        #: the piece the umpire picked (pressed, or placed with a click) while the board has
        #: the keyboard: only it turns under the wheel (issue 29), never one scrolled past
        self.selected: str | None = None
        self._wheel_delta = 0
        self._grid_items: list[QGraphicsItem] = []
        self._arc_items: list[QGraphicsItem] = []
        self._move_items: list[QGraphicsItem] = []
        self.attacker_arcs: list[str] = []
        self.cone_arcs: list[str] = []
        #: the labels of the move ends drawn (movement help)
        self.move_labels: list[str] = []
        self.draw_grid("hex")

    def scene_point(self, grid: str, x: float, y: float) -> QPointF:
        px, py = to_physical(grid, x, y)
        return QPointF(px * self.unit, -py * self.unit)

    def map_point(self, p: QPointF) -> tuple[float, float]:
        return to_map(self.grid, p.x() / self.unit, -p.y() / self.unit)

    def draw_grid(self, grid: str) -> None:
        scene = self.scene()
        for item in self._grid_items:
            scene.removeItem(item)
        for piece in self.pieces.values():
            scene.removeItem(piece)
            scene.removeItem(piece.label)
        self._grid_items = []
        self.grid, self.unit = grid, SCALE[grid]
        pen = QPen(self.palette().color(self.foregroundRole()))
        pen.setColor(QColor(128, 128, 128, 110))
        pen.setCosmetic(True)
        n = EXTENT[grid]
        path = QPainterPath()
        if grid == "hex":
            r = self.unit / math.sqrt(3)
            for col in range(-n, n + 1):
                offset = 0.0 if col % 2 == 0 else 0.5
                for row in range(-n + 2, n - 1):
                    c = self.scene_point("hex", col, row + offset)
                    corners = [
                        QPointF(
                            c.x() + r * math.cos(math.radians(a)),
                            c.y() - r * math.sin(math.radians(a)),
                        )
                        for a in range(0, 361, 60)
                    ]
                    path.addPolygon(QPolygonF(corners))
        else:
            s = self.unit
            for i in range(-n, n + 1):
                path.moveTo(i * s, -n * s)
                path.lineTo(i * s, n * s)
                path.moveTo(-n * s, i * s)
                path.lineTo(n * s, i * s)
        item = scene.addPath(path, pen)
        item.setZValue(-10)
        self._grid_items.append(item)
        self.pieces = {role: PieceItem(role, self) for role in ROLES}
        for piece in self.pieces.values():
            scene.addItem(piece)
            scene.addItem(piece.label)
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-20, -20, 20, 20))

    def place(self, role: str, piece: Piece, active: bool) -> None:
        item = self.pieces[role]
        item.syncing = True
        item.setPos(self.scene_point(self.grid, piece.x, piece.y))
        item.setRotation(-piece.facing)
        item.syncing = False
        item.setPen(
            QPen(QColor("#ffd54f") if active else COLOURS[role].darker(150), 3 if active else 1.5)
        )
        item.label.setPos(item.pos() + QPointF(0.3 * self.unit, 0.15 * self.unit))

    def draw_moves(self, ends: tuple[tuple[str, float, float, int], ...]) -> None:
        """The end positions of the selected aircraft's legal moves (movement help): a small
        outlined marker pointing along the facing after the move, with the move's name."""
        scene = self.scene()
        for item in self._move_items:
            scene.removeItem(item)
        self._move_items, self.move_labels = [], []
        colour = QColor("#6a1b9a")
        pen = QPen(colour, 1.5)
        pen.setCosmetic(True)
        size = 0.22 * self.unit
        by_place: dict[tuple[float, float], list[str]] = {}
        for label, x, y, facing in ends:
            c = self.scene_point(self.grid, x, y)
            tip = [
                QPointF(
                    c.x() + size * math.cos(math.radians(facing + a)),
                    c.y() - size * math.sin(math.radians(facing + a)),
                )
                for a in (0, 140, 220, 0)
            ]
            marker = scene.addPolygon(QPolygonF(tip), pen, QBrush(QColor(106, 27, 154, 40)))
            marker.setZValue(-4)
            marker.setToolTip(f"{label}: ends at ({x:g}, {y:g}) facing {facing}")
            self._move_items.append(marker)
            self.move_labels.append(label)
            by_place.setdefault((x, y), []).append(label)
        # one caption per hex: the moves ending there (several turns end on one marker hex)
        for (x, y), labels in by_place.items():
            text = scene.addSimpleText(", ".join(labels))
            text.setBrush(QBrush(colour))
            font = text.font()
            font.setPointSizeF(max(font.pointSizeF() * 0.75, 6.0))
            text.setFont(font)
            text.setPos(self.scene_point(self.grid, x, y) + QPointF(size, -size))
            text.setZValue(-4)
            self._move_items.append(text)

    def draw_arcs(
        self,
        target: Piece,
        arcs: tuple[tuple[str, float, float], ...],
        attacker: Piece | None = None,
        attacker_arcs: tuple[tuple[str, float, float], ...] = (),
    ) -> None:
        """The arcs around the target; the one the attacker is in is filled more strongly.
        ``attacker_arcs`` (a radar cone) are drawn around the attacker, dashed, the one the
        target is in filled more strongly."""
        scene = self.scene()
        for item in self._arc_items:
            scene.removeItem(item)
        self._arc_items = []
        self.attacker_arcs = []
        self.cone_arcs = []
        self._arcs_around(target, attacker, arcs, self.attacker_arcs, dashed=False)
        if attacker is not None and attacker_arcs:
            self._arcs_around(attacker, target, attacker_arcs, self.cone_arcs, dashed=True)

    def _arcs_around(
        self,
        centre_piece: Piece,
        other: Piece | None,
        arcs: tuple[tuple[str, float, float], ...],
        holding: list[str],
        dashed: bool,
    ) -> None:
        """Draw ``arcs`` around ``centre_piece``; the labels of those ``other`` stands in are
        added to ``holding``."""
        scene = self.scene()
        bearing = None
        if other is not None:
            tx, ty = to_physical(self.grid, centre_piece.x, centre_piece.y)
            ax, ay = to_physical(self.grid, other.x, other.y)
            if (ax, ay) != (tx, ty):
                bearing = math.degrees(math.atan2(ay - ty, ax - tx)) % 360
        centre = self.scene_point(self.grid, centre_piece.x, centre_piece.y)
        radius = ARC_RADIUS[self.grid] * self.unit
        rect = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
        for i, (label, start, end) in enumerate(arcs):
            span = (end - start) % 360 or 360.0
            colour = QColor(CONE_COLOUR if dashed else ARC_COLOURS[i % len(ARC_COLOURS)])
            path = QPainterPath(centre)
            # map degrees are counter-clockwise from +x, as Qt's arc angles are on screen
            path.arcTo(rect, start, span)
            path.closeSubpath()
            off = None if bearing is None else (bearing - start) % 360
            # a cone's edges are in it (7.1.1b); a target's sectors split at their edges
            inside = off is not None and (off <= span + 1e-6 if dashed else off < span)
            if inside:
                holding.append(label)
            fill = QColor(colour)
            fill.setAlpha((90 if inside else 30) if dashed else (120 if inside else 45))
            pen = QPen(colour, 3 if inside else 1.5)
            pen.setCosmetic(True)
            if dashed:
                pen.setStyle(Qt.PenStyle.DashLine)
            item = scene.addPath(path, pen, QBrush(fill))
            item.setZValue(-5)
            item.setToolTip(f"{label}: {start:g} to {end:g} degrees")
            middle = math.radians(start + span / 2)
            text = scene.addSimpleText(label)
            text.setBrush(QBrush(colour.darker(140)))
            br = text.boundingRect()
            text.setPos(
                centre.x() + 0.75 * radius * math.cos(middle) - br.width() / 2,
                centre.y() - 0.75 * radius * math.sin(middle) - br.height() / 2,
            )
            text.setZValue(-4)
            self._arc_items += [item, text]

    # -- input -------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton and not isinstance(
            self.itemAt(event.position().toPoint()), PieceItem
        ):
            self.clicked.emit(self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        super().mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        """The wheel turns the selected piece, one allowed facing a notch (a touchpad's small
        steps add up); with no piece selected, or the board not in use, it scrolls past."""
        if self.selected is None or not self.hasFocus():
            event.ignore()
            return
        self._wheel_delta += event.angleDelta().y()
        steps = int(self._wheel_delta / 120)
        self._wheel_delta -= steps * 120
        if steps:
            self.wheel_turn.emit(self.selected, steps)
        event.accept()

    def focusOutEvent(self, event: Any) -> None:  # noqa: N802
        self.selected = None
        self._wheel_delta = 0
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_BracketLeft:
            self.turn.emit(1)
        elif event.key() == Qt.Key.Key_BracketRight:
            self.turn.emit(-1)
        elif event.text() in COMPASS:
            self.face.emit(self.selected or "", COMPASS[event.text()])
        else:
            super().keyPressEvent(event)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
