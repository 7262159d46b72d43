"""The angle-off calculator: a small board where the umpire places a target and an attacker and
reads what the ruleset's geometry says of them, with its arcs drawn around the target.

Click the board to place the chosen piece (the attacker, then the target), drag a piece to
move it; a piece clicked or placed is selected: a compass key (the keypad's layout, 8 up, 6
right) faces it, the wheel, ``[`` (left) and ``]`` (right) turn it, one wheel gesture one
undoable action; altitude, speed and the exact position are fields below, and
either piece can follow an aircraft of the roster. The board knows nothing of any game's angle
rules: it draws the map's grid and shows whatever ``ruleset.geometry.relate`` reports.
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPdfWriter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.board import facings, nearest_facing, piece_of, snap, turned
from app.core.errors import RuleViolation
from app.core.ruleset import Geometry, MovementHelp, Piece, Relation
from app.ui.docks.angle_board import COLOURS, ROLES, Board
from app.ui.model import EngagementModel
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.accessible import named
from app.ui.widgets.tab_leaves import let_tab_leave
from app.ui.widgets.table_cells import cell_text


class PieceFields(QWidget):
    """One piece's numbers: position, facing, altitude, speed, and the aircraft it follows."""

    edited = Signal()

    def __init__(self, role: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        title = QLabel(f"<b>{role.capitalize()}</b>")
        title.setStyleSheet(f"color: {COLOURS[role].name()};")
        self.aircraft = QComboBox()
        self.aircraft.setObjectName(f"{role}_aircraft")
        self.x_box = QDoubleSpinBox()
        self.y_box = QDoubleSpinBox()
        for box in (self.x_box, self.y_box):
            box.setRange(-999, 999)
            box.setDecimals(2)
            box.setSingleStep(0.5)
        self.facing = QSpinBox()
        self.facing.setRange(0, 359)
        self.facing.setWrapping(True)
        self.facing.setSingleStep(30)
        self.facing.setSuffix("°")
        self.altitude = QSpinBox()
        self.altitude.setRange(-999, 99_999)
        self.speed = QDoubleSpinBox()
        self.speed.setRange(0, 9_999)
        self.speed.setDecimals(1)
        spins: tuple[tuple[str, QSpinBox | QDoubleSpinBox], ...] = (
            ("x", self.x_box),
            ("y", self.y_box),
            ("facing", self.facing),
            ("altitude", self.altitude),
            ("speed", self.speed),
        )
        for name, spin in spins:
            spin.setObjectName(f"{role}_{name}")
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda _v: self.edited.emit())
        self.off = QPushButton("Off the board")
        self.off.setObjectName(f"{role}_off")
        self.off.setToolTip("The aircraft leaves the board; its forms take typed values again")
        grid.addWidget(title, 0, 0)
        grid.addWidget(self.aircraft, 0, 1, 1, 4)
        grid.addWidget(self.off, 0, 5)
        labels = ("X", "Y", "Facing", "Alt", "Speed")
        for col, ((_, spin), label) in enumerate(zip(spins, labels, strict=True)):
            lab = QLabel(label)
            lab.setBuddy(spin)
            grid.addWidget(lab, 1, col)
            grid.addWidget(spin, 2, col)

    def show_piece(self, piece: Piece) -> None:
        boxes = (self.x_box, self.y_box, self.facing, self.altitude, self.speed)
        for box in boxes:
            box.blockSignals(True)
        self.x_box.setValue(piece.x)
        self.y_box.setValue(piece.y)
        self.facing.setValue(int(piece.facing) % 360)
        self.altitude.setValue(int(piece.altitude))
        self.speed.setValue(float(piece.speed))
        for box in boxes:
            box.blockSignals(False)

    def piece(self) -> Piece:
        return Piece(
            self.x_box.value(),
            self.y_box.value(),
            self.facing.value(),
            self.altitude.value(),
            self.speed.value(),
        )


#: a wheel gesture ends when the wheel has been still this long: the turn is then one action
WHEEL_GESTURE_MS = 400


class AngleOffDock(QWidget):
    """Two pieces on a board and what the ruleset's geometry says of them."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("AngleOffDock")
        self.model = model
        self.pieces: dict[str, Piece] = {
            "target": Piece(0.0, 0.0, 90, 0, 0),
            "attacker": Piece(0.0, -2.0, 90, 0, 0),
        }
        self.relation: Relation | None = None
        self.error = ""

        layout = QVBoxLayout(self)
        self.no_geometry = QLabel()
        self.no_geometry.setObjectName("no_geometry")
        self.no_geometry.setWordWrap(True)
        self.no_geometry.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.no_geometry)
        self.panel = QWidget()
        panel = QVBoxLayout(self.panel)
        panel.setContentsMargins(0, 0, 0, 0)
        place = QHBoxLayout()
        place.addWidget(QLabel("Click places the"))
        self.place_target = QRadioButton("&target")
        self.place_attacker = QRadioButton("atta&cker")
        self.place_attacker.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.place_target)
        group.addButton(self.place_attacker)
        place.addWidget(self.place_target)
        place.addWidget(self.place_attacker)
        place.addStretch(1)
        panel.addLayout(place)
        self.board = Board()
        named(self.board, "Board: the two aircraft and the sectors around the target")
        panel.addWidget(self.board, 1)
        self.fields = {role: PieceFields(role) for role in ROLES}
        for f in self.fields.values():
            panel.addWidget(f)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        panel.addWidget(self.verdict)
        self.lines = QTableWidget(0, 2)
        self.lines.setObjectName("relation")
        let_tab_leave(self.lines)
        named(
            self.lines,
            "Board readings",
            "What the ruleset's geometry reads from the two pieces: range, arc or clock, "
            "altitudes, firing position.",
        )
        self.lines.horizontalHeader().hide()
        self.lines.verticalHeader().hide()
        self.lines.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.lines.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.lines.setMaximumHeight(160)
        panel.addWidget(self.lines)
        self.to_pdf = QPushButton("Board to &PDF...")
        self.to_pdf.setObjectName("board_pdf")
        self.to_pdf.setToolTip("A page with the two aircraft, their positions and the arcs")
        self.to_pdf.clicked.connect(self._ask_pdf)
        panel.addWidget(self.to_pdf, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.panel, 1)

        self.board.clicked.connect(self._clicked)
        self.board.turn.connect(self.turn_active)
        self.board.wheel_turn.connect(self._wheel_turn)
        self.board.face.connect(self._face)
        #: a wheel gesture turns the piece at once and is one action once it stops (issue 29)
        self._turning: str | None = None
        self._turn_done = QTimer(self)
        self._turn_done.setSingleShot(True)
        self._turn_done.setInterval(WHEEL_GESTURE_MS)
        self._turn_done.timeout.connect(self._end_turn)
        self.board.piece_pressed.connect(self._activate)
        self.board.piece_dragged.connect(self._dragged)
        for role, f in self.fields.items():
            f.off.clicked.connect(lambda _c=False, r=role: self.take_off(r))
            f.edited.connect(lambda r=role: self._fields_edited(r))
            f.aircraft.currentIndexChanged.connect(lambda _i, r=role: self._follow(r))
        self.place_target.toggled.connect(lambda _c: self._redraw())
        #: out of view a new game waits until the panel is shown
        self.when_shown = WhenShown(self, self._reset)
        model.reset.connect(self.when_shown.wrap(self._reset))
        # the roster's selection is the model's (issue 43): heard here, taken again on a rebuild
        model.selection_changed.connect(self.when_shown.unless_stale(self.show_selection))
        self.when_shown.rebuilt.connect(lambda: self.show_selection(list(model.selection)))
        model.aircraft_changed.connect(self.when_shown.unless_stale(self._aircraft_changed))
        self._reset()
        if model.selection:
            self.show_selection(list(model.selection))

    # -- the ruleset's geometry --------------------------------------------------------------

    @property
    def ruleset_geometry(self) -> Geometry | None:
        return self.model.ruleset.geometry if self.model.has_session else None

    @property
    def grid(self) -> str:
        g = self.ruleset_geometry
        return g.grid if g is not None else "hex"

    @property
    def active(self) -> str:
        return "target" if self.place_target.isChecked() else "attacker"

    def _reset(self) -> None:
        g = self.ruleset_geometry
        if g is None:
            title = self.model.ruleset.title if self.model.has_session else ""
            self.no_geometry.setText(
                f"{title} has no board geometry: there is nothing for the angle-off "
                "calculator to measure in this game."
                if title
                else "No game is open."
            )
            self.no_geometry.show()
            self.panel.hide()
            return
        self.no_geometry.hide()
        self.panel.show()
        if self.board.grid != g.grid:
            self.board.draw_grid(g.grid)
            for role in ROLES:
                p = self.pieces[role]
                self.pieces[role] = self._legal(replace(p, x=p.x, y=p.y))
        self._fill_aircraft()
        self._redraw()

    def _fill_aircraft(self) -> None:
        e = self.model.engagement
        for f in self.fields.values():
            keep = f.aircraft.currentData() if f.aircraft.count() else ""
            f.aircraft.blockSignals(True)
            f.aircraft.clear()
            # "" rather than None: see critical_log.ALL
            f.aircraft.addItem("(a free piece)", "")
            for a in e.aircraft.values():
                f.aircraft.addItem(f"{a.name} ({a.side})", a.id)
            i = f.aircraft.findData(keep)
            f.aircraft.setCurrentIndex(i if i >= 0 else 0)
            f.aircraft.blockSignals(False)

    def _aircraft_changed(self, ids: list[str]) -> None:
        if self.ruleset_geometry is None:
            return
        self._fill_aircraft()
        for role, f in self.fields.items():
            if f.aircraft.count() and f.aircraft.currentData() in ids:
                self._follow(role)

    # -- changing the pieces -----------------------------------------------------------------

    def _legal(self, p: Piece) -> Piece:
        x, y = snap(self.grid, p.x, p.y)
        return replace(p, x=x, y=y, facing=nearest_facing(facings(self.grid, x, y), int(p.facing)))

    def set_piece(self, role: str, **changes: Any) -> None:
        """Move, turn or change one piece (snapped to a place it can stand) and re-measure.

        A piece that follows an aircraft puts that aircraft there: a ``PositionSet`` in the log,
        undoable like any action, which the forms then read (issue 18)."""
        self._end_turn()
        self.pieces[role] = self._legal(replace(self.pieces[role], **changes))
        self._redraw()
        self._place(role)

    def following(self, role: str) -> str:
        """The aircraft id the piece follows, or ``""`` for a free piece."""
        combo = self.fields[role].aircraft
        aid = combo.currentData() if combo.count() else ""
        return aid if aid in self.model.engagement.aircraft else ""

    def _place(self, role: str) -> None:
        aid = self.following(role)
        if not aid:
            return
        p = self.pieces[role]
        now = self.model.engagement.aircraft[aid].position
        if now is not None and (now.x, now.y, now.facing, now.altitude) == (
            p.x,
            p.y,
            int(p.facing),
            int(p.altitude),
        ):
            return
        roster = self.model.roster
        self.model.attempt(
            lambda: roster.place(aid, p.x, p.y, int(p.facing) % 360, int(p.altitude))
        )

    def take_off(self, role: str) -> None:
        """The followed aircraft leaves the board: its forms go back to typed values."""
        aid = self.following(role)
        if aid and self.model.engagement.aircraft[aid].position is not None:
            roster = self.model.roster
            self.model.attempt(lambda: roster.place(aid, None, None))

    def turn_active(self, steps: int) -> None:
        """Turn the selected piece (else the chosen one) ``steps`` allowed facings left
        (negative: right)."""
        role = self.board.selected or self.active
        p = self.pieces[role]
        self.set_piece(role, facing=turned(facings(self.grid, p.x, p.y), int(p.facing), steps))

    def _wheel_turn(self, role: str, steps: int) -> None:
        """The wheel over the selected piece: it turns now, and the gesture is put in the log
        as one action when the wheel stops (one undo undoes the whole turn)."""
        if self._turning not in (None, role):
            self._end_turn()
        p = self.pieces[role]
        self.pieces[role] = self._legal(
            replace(p, facing=turned(facings(self.grid, p.x, p.y), int(p.facing), steps))
        )
        self._turning = role
        self._redraw()
        self._turn_done.start()

    def _end_turn(self) -> None:
        """The wheel gesture is over: the turned piece's aircraft takes its new facing."""
        role, self._turning = self._turning, None
        self._turn_done.stop()
        if role is not None:
            self._place(role)

    def _face(self, role: str, degrees: int) -> None:
        """A compass key: the selected piece (else the chosen one) faces that way, or the
        nearest way it may face where it stands."""
        role = role or self.active
        p = self.pieces[role]
        self.set_piece(role, facing=nearest_facing(facings(self.grid, p.x, p.y), degrees))

    def _activate(self, role: str) -> None:
        (self.place_target if role == "target" else self.place_attacker).setChecked(True)

    def _clicked(self, scene_pos: QPointF) -> None:
        """A click places the chosen piece, which is then selected (a compass key faces it)
        and the other piece is chosen for the next click: attacker, target (issue 29)."""
        x, y = self.board.map_point(scene_pos)
        role = self.active
        self.set_piece(role, x=x, y=y)
        self.board.selected = role
        (self.place_attacker if role == "target" else self.place_target).setChecked(True)

    def _dragged(self, role: str, scene_pos: QPointF, final: bool) -> None:
        x, y = self.board.map_point(scene_pos)
        if final:
            self.set_piece(role, x=x, y=y)
        else:  # live while dragging: measure from the nearest legal place, leave the item be
            self.pieces[role] = self._legal(replace(self.pieces[role], x=x, y=y))
            self._measure()

    def _fields_edited(self, role: str) -> None:
        self.pieces[role] = self._legal(self.fields[role].piece())
        self._redraw()
        self._place(role)

    def _follow(self, role: str) -> None:
        """Take altitude, speed (and position, where the game records it) from the aircraft."""
        combo = self.fields[role].aircraft
        aid = combo.currentData() if combo.count() else ""
        if not aid or aid not in self.model.engagement.aircraft or self._turning == role:
            return  # (a piece being turned keeps its facing until the gesture is logged)
        a = self.model.engagement.aircraft[aid]
        on_board = piece_of(a)
        if on_board is not None:  # where the log puts it: no new event for following it
            self.pieces[role] = self._legal(on_board)
            self._redraw()
            return
        attrs = {**a.card, **a.attributes}
        changes: dict[str, Any] = {}
        for key in ("altitude", "speed"):
            value = attrs.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                changes[key] = int(value) if key == "altitude" else float(value)
        self.pieces[role] = self._legal(replace(self.pieces[role], **changes))
        self._redraw()

    def show_pair(self, attacker: str | None, target: str | None) -> None:
        """The pair being resolved in the Combat panel, highlighted on the board."""
        self.show_selection([aid for aid in (attacker, target) if aid])

    def show_selection(self, ids: list[str]) -> None:
        """The roster's selection: the first is the attacker, a second the target."""
        for role, aid in zip(("attacker", "target"), ids, strict=False):
            combo = self.fields[role].aircraft
            combo.setCurrentIndex(max(combo.findData(aid), 0))

    # -- showing -----------------------------------------------------------------------------

    def _redraw(self) -> None:
        if self.ruleset_geometry is None:
            return
        for role in ROLES:
            self.board.place(role, self.pieces[role], role == (self.board.selected or self.active))
            self.fields[role].show_piece(self.pieces[role])
        self._measure()

    def _measure(self) -> None:
        g = self.ruleset_geometry
        if g is None:
            return
        target, attacker = self.pieces["target"], self.pieces["attacker"]
        try:
            rel = g.relate(target, attacker)
        except (ValueError, RuleViolation) as e:
            self.relation, self.error = None, str(e)
            self.verdict.setText(f"Cannot measure: {escape(str(e))}")
            self.verdict.setStyleSheet("color: #c62828;")
            self.lines.setRowCount(0)
            self.board.draw_arcs(target, ())
            return
        self.relation, self.error = rel, ""
        if rel.attack_allowed is True:
            text, colour = "Attack allowed", "#2e7d32"
        elif rel.attack_allowed is False:
            text, colour = "No attack" + (f": {rel.why_not}" if rel.why_not else ""), "#c62828"
        else:
            text, colour = rel.why_not or "", ""
        self.verdict.setText(escape(text))
        self.verdict.setStyleSheet(f"color: {colour}; font-weight: bold;" if colour else "")
        moving = self._movement_help()
        rows = [*rel.lines, *(moving.lines if moving else ())]
        self.lines.setRowCount(len(rows))
        for r, (label, value) in enumerate(rows):
            self.lines.setItem(r, 0, QTableWidgetItem(label))
            self.lines.setItem(r, 1, QTableWidgetItem(value))
        self.board.draw_arcs(target, rel.arcs, attacker, rel.attacker_arcs)
        self.board.draw_moves(moving.ends if moving else ())

    def _movement_help(self) -> MovementHelp | None:
        """What the ruleset says of the chosen piece's move (the one placed by clicks), when it
        is an aircraft of the game standing on the board (issue 18: movement help)."""
        if not self.model.has_session:
            return None
        aid = self.fields[self.active].aircraft.currentData()
        e = self.model.engagement
        if not aid or aid not in e.aircraft or e.aircraft[aid].position is None:
            return None
        try:
            return self.model.ruleset.movement_help(e, aid)
        except (RuleViolation, ValueError, KeyError) as err:
            return MovementHelp(lines=(("Movement", f"cannot work it out: {err}"),))

    def _ask_pdf(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Board to PDF", "board.pdf", "PDF (*.pdf)")
        if path:
            self.board_pdf(path)

    def board_pdf(self, path: str) -> None:
        """The board as a printed page: the grid, both pieces, the arcs, and the readings."""
        self.when_shown.fresh()  # File > Print board with the panel tabbed away
        writer = QPdfWriter(path)
        writer.setTitle("Airboss board")
        writer.setResolution(150)
        painter = QPainter(writer)
        page = QRectF(writer.pageLayout().paintRectPixels(writer.resolution()))
        page.moveTo(0, 0)
        head = page.height() * 0.08
        lines = [f"{label}: {value}" for label, value in self.relation_lines().items()]
        names = [
            f"{role}: {self.fields[role].aircraft.currentText()} at "
            f"({self.pieces[role].x:g}, {self.pieces[role].y:g}) facing {self.pieces[role].facing}"
            for role in ROLES
        ]
        painter.drawText(
            QRectF(0, 0, page.width(), head), Qt.AlignmentFlag.AlignLeft, "\n".join(names)
        )
        scene = self.board.scene()
        body = QRectF(0, head, page.width(), page.height() * 0.7)
        scene.render(painter, body, scene.itemsBoundingRect())
        painter.drawText(
            QRectF(0, head + body.height() + 10, page.width(), page.height() - body.bottom()),
            Qt.AlignmentFlag.AlignLeft,
            "\n".join([self.verdict.text(), *lines]),
        )
        painter.end()

    def relation_lines(self) -> dict[str, str]:
        """What the geometry reported, as shown."""
        return {
            cell_text(self.lines, r, 0): cell_text(self.lines, r, 1)
            for r in range(self.lines.rowCount())
        }


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(AngleOffDock))
