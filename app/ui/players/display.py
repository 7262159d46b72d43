"""The player display: a second window for a screen the players can see.

Turn, step, initiative order and each aircraft's status, in large type. It shows nothing the
players should not see: no odds, no typed dice, no umpire notes, no log -- except a ruling the
umpire chose to show them (issue 34), and of that only its public parts (``Ruling.public``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import RuleViolation
from app.core.ruling import Ruling
from app.ui.docks.roster import status_words
from app.ui.docks.turn import step_label, who_name
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient


class PlayerView(QWidget):
    """What the players may see, redrawn from the model. F11 toggles full screen."""

    closed = Signal()

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.model = model
        self.setWindowTitle("Airboss — player display")
        self.setObjectName("player-display")

        self.turn = QLabel()
        big = QFont(self.turn.font())
        big.setPointSizeF(big.pointSizeF() * 2.6)
        big.setBold(True)
        self.turn.setFont(big)
        self.step = QLabel()
        mid = QFont(self.step.font())
        mid.setPointSizeF(mid.pointSizeF() * 1.8)
        self.step.setFont(mid)
        self.step.setWordWrap(True)

        self.order_title = QLabel("Initiative")
        heading = QFont(mid)
        heading.setBold(True)
        self.order_title.setFont(heading)
        self.order = QListWidget()
        self.order.setFont(mid)
        self.order.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.order.setSelectionMode(QListWidget.SelectionMode.NoSelection)

        self.sides_row = QHBoxLayout()
        self.side_lists: dict[str, QListWidget] = {}

        layout = QVBoxLayout(self)
        layout.addWidget(self.turn)
        layout.addWidget(self.step)
        layout.addWidget(self.order_title)
        layout.addWidget(self.order)
        layout.addLayout(self.sides_row, 3)
        self._mid = mid
        self._ruling_part(layout)

        full = QShortcut(QKeySequence(Qt.Key.Key_F11), self)
        full.activated.connect(self.toggle_full_screen)
        leave = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        leave.activated.connect(self.showNormal)

        model.reset.connect(self.refresh)
        model.clock_changed.connect(self.refresh)
        model.initiative_changed.connect(self.refresh)
        model.aircraft_changed.connect(self.refresh)
        self.refresh()
        self.resize(1000, 700)

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    @patient
    def refresh(self, *_: object) -> None:
        if not self.model.has_session:
            self.turn.setText("Airboss")
            self.step.setText("No game in progress")
            self.order.clear()
            self._sides({})
            return
        e = self.model.engagement
        try:
            steps = self.model.clock.steps()
        except RuleViolation:
            steps = []  # the desk says why
        step = steps[e.step] if 0 <= e.step < len(steps) else None
        self.turn.setText(f"Turn {e.turn}")
        self.step.setText(step_label(step) if step else "")
        self.order.clear()
        for n, who in enumerate(e.initiative_order, 1):
            marker = "   ★ initiative marker" if e.initiative_marker == who else ""
            self.order.addItem(f"{n}. {who_name(e, who)}{marker}")
        if not e.initiative_order:
            self.order.addItem("not rolled yet this game")
        self.order.setMaximumHeight(self.order.sizeHintForRow(0) * max(1, self.order.count()) + 8)
        rows: dict[str, list[tuple[str, bool]]] = {}
        for side in e.sides:
            rows[side] = []
            for a in e.on_side(side):
                status = status_words(a.status)
                damage = f"  damage {a.damage}/{a.max_damage}" if a.max_damage else ""
                count = f" ×{a.count}" if a.count != 1 else ""
                kind = str(a.card.get("name") or a.type_id)  # the printed name, not an id
                text = f"{a.name} ({kind}{count}){damage}" + (f" — {status}" if status else "")
                rows[side].append((text, a.in_play))
        self._sides(rows)

    def _sides(self, rows: dict[str, list[tuple[str, bool]]]) -> None:
        for side in list(self.side_lists):
            if side not in rows:
                holder = self.side_lists.pop(side).parentWidget()
                if holder is not None:
                    self.sides_row.removeWidget(holder)
                    holder.setParent(None)
        for side, lines in rows.items():
            box = self.side_lists.get(side)
            if box is None:
                holder = QWidget()
                col = QVBoxLayout(holder)
                col.setContentsMargins(0, 0, 0, 0)
                title = QLabel(side)
                bold = QFont(self._mid)
                bold.setBold(True)
                title.setFont(bold)
                col.addWidget(title)
                box = QListWidget()
                box.setFont(self._mid)
                box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                box.setSelectionMode(QListWidget.SelectionMode.NoSelection)
                # a long status wraps onto the next line, whole, never cut at the column's
                # edge or hidden past a scroll bar (issue 29)
                box.setWordWrap(True)
                box.setTextElideMode(Qt.TextElideMode.ElideNone)
                box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
                box.setResizeMode(QListWidget.ResizeMode.Adjust)
                col.addWidget(box)
                self.sides_row.addWidget(holder)
                self.side_lists[side] = box
            box.clear()
            for text, in_play in lines:
                item = QListWidgetItem(text)
                if not in_play:
                    item.setForeground(self.palette().placeholderText())
                box.addItem(item)

    def texts(self) -> list[str]:
        """Every line the players can read (for checking what is public)."""
        out = [self.turn.text(), self.step.text()]
        out += [self.order.item(i).text() for i in range(self.order.count())]
        for side, box in self.side_lists.items():
            out.append(side)
            out += [box.item(i).text() for i in range(box.count())]
        if not self.ruling.isHidden():
            out += self.ruling.toPlainText().splitlines()
        return out

    # -- a ruling shown to the players (issue 34) ----------------------------------------------

    def _ruling_part(self, layout: QVBoxLayout) -> None:
        self.ruling = QTextBrowser()
        self.ruling.setObjectName("player_ruling")
        self.ruling.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.ruling.setFont(self._mid)
        self.ruling.hide()
        layout.addWidget(self.ruling, 3)
        self.model.ruling_shown.connect(self.show_ruling)
        self.model.reset.connect(self._ruling_of_another_game)
        self.show_ruling(self.model.shown_ruling)

    def show_ruling(self, ruling: Ruling | None) -> None:
        """Show the public ruling (``None``: take it off)."""
        if ruling is None:
            self.ruling.clear()
            self.ruling.hide()
            return
        if not ruling.is_public:
            ruling = ruling.public()  # never the umpire's version, whoever sends it
        from app.ui.dialogs.ruling import ruling_html

        self.ruling.setHtml(ruling_html(ruling))
        self.ruling.show()

    def _ruling_of_another_game(self) -> None:
        r = self.model.shown_ruling
        if r is not None and (not self.model.has_session or r.game != self.model.session.game_id):
            self.show_ruling(None)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit()
        super().closeEvent(event)


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(PlayerView))
