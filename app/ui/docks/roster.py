"""Roster: the sides and their aircraft, with type, pilot, status badges and damage.

Add an aircraft from the ruleset's catalogue (Insert), rename (F2), change pilot, remove
(Delete); every change is an event, undoable. The selection is a signal other panels use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.data import catalogue_problems
from app.core.engagement import PILOT_QUALITIES, AircraftState, Engagement
from app.core.ruleset import Ruleset
from app.ui.docks.roster_view import (
    BADGE_ORDER,
    BADGES,
    DAMAGE,
    FITTED,
    HEADERS,
    ID_ROLE,
    NAME,
    PILOT,
    STATUS,
    STATUS_ROLE,
    TYPE,
    RosterView,
    StatusBadges,
    badge,
    badge_flags,
    status_words,
)
from app.ui.forms import InputForm
from app.ui.message_bar import MessageBar, attempt_here
from app.ui.model import EngagementModel
from app.ui.wheel_guard import guard_wheel
from app.ui.when_shown import WhenShown

#: the names this module has always offered (the look of the roster is in ``roster_view``)
__all__ = [
    "BADGE_ORDER",
    "BADGES",
    "DAMAGE",
    "FITTED",
    "HEADERS",
    "ID_ROLE",
    "NAME",
    "PILOT",
    "STATUS",
    "STATUS_ROLE",
    "TYPE",
    "AddAircraftDialog",
    "RosterDock",
    "RosterView",
    "StatusBadges",
    "badge",
    "badge_flags",
    "status_words",
]


class RosterDock(RosterView):
    """Sides and aircraft; the umpire's selection is ``selection_changed(list of ids)``.

    The live Roster: ``RosterView`` (its widgets, ``glance`` and ``show_glance``) filled from
    the engagement, with its actions connected.
    """

    selection_changed = Signal(list)

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.selection_changed.connect(model.select)  # the panels follow the model
        self._items: dict[str, QTreeWidgetItem] = {}
        #: per fitted column, its width less its widest text (``_fit_all``)
        self._padding: dict[int, int] = {}
        self._sides: dict[str, QTreeWidgetItem] = {}
        self._filling = False

        self.tree.itemSelectionChanged.connect(self._selection)
        self.tree.itemChanged.connect(self._edited)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.add_action.triggered.connect(self.add_aircraft)
        self.rename_action.triggered.connect(self.rename_selected)
        self.remove_action.triggered.connect(self.remove_selected)
        for quality, act in self.pilot_actions.items():
            act.triggered.connect(lambda _=False, q=quality: self.set_pilot(q))

        # hidden or tabbed away, the roster does no work until shown (issue 20)
        self.when_shown = WhenShown(self, self.rebuild)
        model.reset.connect(self.when_shown.wrap(self.rebuild))
        model.aircraft_changed.connect(self.when_shown.wrap(self._aircraft_changed))
        self.rebuild()

    # -- rendering ----------------------------------------------------------------------------

    @property
    def engagement(self) -> Engagement:
        return self.model.engagement

    def rebuild(self) -> None:
        """Redraw the whole roster, keeping the selection."""
        keep = set(self.selected_ids())
        self._filling = True
        self.tree.blockSignals(True)
        try:
            self.tree.clear()
            self._items.clear()
            self._sides.clear()
            e = self.engagement
            for side in e.sides:
                self._side_item(side)
            for a in e.aircraft.values():
                item = QTreeWidgetItem()
                self._sides[a.side].addChild(item)
                self._items[a.id] = item
                self._fill(item, a)
                item.setSelected(a.id in keep)
            for side in e.sides:
                self._update_side(side)
            self.tree.expandAll()
            self._fit_all()
        finally:
            self.tree.blockSignals(False)
            self._filling = False
        self._enable()
        if keep != set(self.selected_ids()):
            self._selection()

    def _side_item(self, side: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(self.tree, [side])
        font = item.font(NAME)
        font.setBold(True)
        item.setFont(NAME, font)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        # every row carries every role this panel reads: no invalid QVariant comes back
        item.setData(NAME, ID_ROLE, "")
        item.setData(STATUS, STATUS_ROLE, "")
        self._sides[side] = item
        return item

    def _update_side(self, side: str) -> None:
        item = self._sides[side]
        members = self.engagement.on_side(side)
        in_play = sum(1 for a in members if a.in_play)
        item.setText(NAME, side)
        item.setText(TYPE, f"{in_play} of {len(members)} in play")

    def _fill(self, item: QTreeWidgetItem, a: AircraftState) -> None:
        """The row of one aircraft. Only what changed is set: each setter of a tree item makes
        the view lay out again, which at 200 aircraft costs a frame (issue 20)."""
        flags = (
            Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable
        )
        if item.flags() != flags:
            item.setFlags(flags)
        if item.data(NAME, ID_ROLE) != a.id:
            item.setData(NAME, ID_ROLE, a.id)
        card_name = a.card.get("name") if isinstance(a.card, Mapping) else None
        badges = sorted(a.status, key=lambda s: (BADGE_ORDER.index(s) if s in BADGES else 99, s))
        if item.data(STATUS, STATUS_ROLE) != ",".join(badges):
            item.setData(STATUS, STATUS_ROLE, ",".join(badges))
        words = status_words(a.status)
        damage = f"{a.damage} / {a.max_damage}" if a.max_damage is not None else str(a.damage)
        texts = {
            NAME: a.name,
            # the card's printed name (issue 29); the catalogue id is its tooltip
            TYPE: str(card_name or a.type_id) + (f" ×{a.count}" if a.count != 1 else ""),
            PILOT: a.pilot or "",
            STATUS: words,
            DAMAGE: damage,
        }
        for col, text in texts.items():
            if item.text(col) != text:
                item.setText(col, text)
        tips = {TYPE: a.type_id, STATUS: words or "in play"}
        for col, tip in tips.items():
            if item.toolTip(col) != tip:
                item.setToolTip(col, tip)
        if item.textAlignment(DAMAGE) != int(Qt.AlignmentFlag.AlignCenter):
            item.setTextAlignment(DAMAGE, Qt.AlignmentFlag.AlignCenter)
        muted = self.palette().color(self.palette().ColorRole.PlaceholderText)
        brush = self.tree.palette().text() if a.in_play else QBrush(muted)
        for col in range(len(HEADERS)):
            if item.foreground(col).color() != brush.color():
                item.setForeground(col, brush)

    def _aircraft_changed(self, ids: list[str]) -> None:
        e = self.engagement
        for aircraft_id in ids:
            a = e.aircraft.get(aircraft_id)
            item = self._items.get(aircraft_id)
            if a is None or item is None or item.parent() is not self._sides.get(a.side):
                self.rebuild()  # added, removed or changed side: the tree's shape changes
                return
        self.tree.blockSignals(True)
        try:
            for aircraft_id in ids:
                self._fill(self._items[aircraft_id], e.aircraft[aircraft_id])
            for side in {e.aircraft[i].side for i in ids}:
                self._update_side(side)
            self._widen([self._items[i] for i in ids])
        finally:
            self.tree.blockSignals(False)

    def _fit_all(self) -> None:
        """Size the fitted columns to every row, and remember each column's padding (its width
        less its widest text) for ``_widen``."""
        metrics = self.tree.fontMetrics()
        rows = list(self._items.values())
        self._padding = {}
        for col in FITTED:
            self.tree.resizeColumnToContents(col)
            widest = max((metrics.horizontalAdvance(i.text(col)) for i in rows), default=0)
            self._padding[col] = max(self.tree.header().sectionSize(col) - widest, 0)

    def _widen(self, items: list[QTreeWidgetItem]) -> None:
        """A fitted column grows when a changed row's text needs more room (never shrinks
        between rebuilds: a width that jumps back and forth is worse at the table)."""
        header = self.tree.header()
        metrics = self.tree.fontMetrics()
        for col in FITTED:
            widest = max((metrics.horizontalAdvance(i.text(col)) for i in items), default=0)
            if widest + self._padding.get(col, 8) > header.sectionSize(col):
                self.tree.resizeColumnToContents(col)

    # -- selection ----------------------------------------------------------------------------

    def selected_ids(self) -> list[str]:
        """The aircraft selected (of the game as it is: a roster out of date rebuilds first)."""
        self.when_shown.fresh()
        return [i.data(NAME, ID_ROLE) for i in self.tree.selectedItems() if i.data(NAME, ID_ROLE)]

    def select(self, ids: Iterable[str]) -> None:
        """Select these aircraft (one ``selection_changed``)."""
        self.when_shown.fresh()
        wanted = set(ids)
        self.tree.blockSignals(True)
        try:
            for aircraft_id, item in self._items.items():
                item.setSelected(aircraft_id in wanted)
        finally:
            self.tree.blockSignals(False)
        self._selection()

    def _selection(self) -> None:
        self._enable()
        self.selection_changed.emit(self.selected_ids())

    def _enable(self) -> None:
        """Add with a game this desk may change; rename, remove and pilot on a selection too
        (a game opened read-only changes nothing here)."""
        can = self.model.can_act
        chosen = can and bool(self.selected_ids())
        self.add_action.setEnabled(can)
        self.rename_action.setEnabled(chosen)
        self.remove_action.setEnabled(chosen)
        uses_pilot = can and self.model.session.ruleset.uses_pilot_quality
        self.pilot_button.setEnabled(chosen and uses_pilot)

    # -- actions ------------------------------------------------------------------------------

    def add_aircraft(self) -> None:
        """The Add aircraft dialog; it stays open with the reason if the ruleset refuses."""
        if not self.model.has_session:
            return
        dialog = AddAircraftDialog(self.model, self)
        dialog.exec()

    def rename_selected(self) -> None:
        items = [i for i in self.tree.selectedItems() if i.data(NAME, ID_ROLE)]
        if items:
            self.tree.setCurrentItem(items[0], NAME)
            self.tree.editItem(items[0], NAME)

    def _double_clicked(self, item: QTreeWidgetItem, column: int) -> None:
        if column == NAME and item.data(NAME, ID_ROLE) and self.model.can_act:
            self.tree.editItem(item, NAME)

    def _edited(self, item: QTreeWidgetItem, column: int) -> None:
        aircraft_id = item.data(NAME, ID_ROLE)
        if self._filling or column != NAME or not aircraft_id:
            return
        a = self.engagement.aircraft.get(aircraft_id)
        if a is None:
            return
        new = item.text(NAME).strip()
        if new == a.name:
            return
        if not new:
            self.message.show_refusal(f"{a.name}: an aircraft needs a name; not renamed")
            self._fill_quietly(item, a)
            return
        done, _ = attempt_here(
            self.model,
            lambda: self.model.session.change_aircraft(aircraft_id, name=new),
            self.message,
        )
        if not done:
            self._fill_quietly(item, a)

    def _fill_quietly(self, item: QTreeWidgetItem, a: AircraftState) -> None:
        self.tree.blockSignals(True)
        try:
            self._fill(item, a)
        finally:
            self.tree.blockSignals(False)

    def set_pilot(self, quality: str) -> None:
        session = self.model.session
        for aircraft_id in self.selected_ids():
            a = self.engagement.aircraft.get(aircraft_id)
            if a is None or a.pilot == quality:
                continue
            done, _ = attempt_here(
                self.model,
                lambda i=aircraft_id: session.change_aircraft(i, pilot=quality),
                self.message,
            )
            if not done:
                return

    def remove_selected(self) -> None:
        session = self.model.session
        for aircraft_id in self.selected_ids():
            done, _ = attempt_here(
                self.model, lambda i=aircraft_id: session.remove_aircraft(i), self.message
            )
            if not done:
                return


class AddAircraftDialog(QDialog):
    """Type (from the catalogue), name, side, pilot quality and the ruleset's own details."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setWindowTitle("Add aircraft")
        self.setMinimumWidth(380)
        rs: Ruleset = model.session.ruleset
        e = model.engagement

        self.type_box = QComboBox()
        for type_id, card in rs.aircraft.items():
            title = getattr(card, "name", None)
            self.type_box.addItem(f"{title} ({type_id})" if title else type_id, type_id)
        self.side_box = QComboBox()
        self.side_box.setEditable(True)
        self.side_box.addItems(list(e.sides) or ["Blue", "Red"])
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("e.g. Blue 3")
        self.pilot_box = QComboBox()
        self.pilot_box.addItems(list(PILOT_QUALITIES))
        self.pilot_box.setCurrentText("average")
        self.pilot_box.setEnabled(rs.uses_pilot_quality)

        # the wheel scrolls past these boxes; it changes one only once it is picked (issue 29)
        guard_wheel(self.type_box, self.side_box, self.pilot_box)
        form = QFormLayout()
        form.addRow("&Type", self.type_box)
        form.addRow("&Name", self.name_edit)
        form.addRow("&Side", self.side_box)
        form.addRow("&Pilot", self.pilot_box)
        # the ruleset's own per-aircraft settings (pilot reaction, air points, gun pods ...)
        self.details = InputForm(rs.Details)
        self.details.setVisible(bool(self.details.names))

        self.message = MessageBar()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Add")
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.details)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.side_box.currentTextChanged.connect(self._suggest_name)
        self._suggest_name(self.side_box.currentText())
        self.added: str | None = None
        left_out = catalogue_problems(rs.id)
        if left_out:  # the umpire's own files the catalogue could not read (issue 16)
            self.message.show_refusal(
                f"{len(left_out)} of your aircraft files left out:\n" + "\n".join(left_out)
            )

    def _suggest_name(self, side: str) -> None:
        n = len(self.model.engagement.on_side(side)) + 1
        self.name_edit.setText(f"{side} {n}" if side.strip() else "")

    def submit(self) -> None:
        session = self.model.session
        if self.type_box.count() == 0:
            self.message.show_refusal(f"{self.model.session.ruleset.title} has no aircraft types.")
            return
        type_id = self.type_box.currentData()
        settings = self.details.value()
        if settings is None:
            self.message.show_refusal(f"Not added: {self.details.error_text()}")
            return
        details = settings.model_dump(exclude_defaults=True)
        done, result = attempt_here(
            self.model,
            lambda: session.add_aircraft(
                side=self.side_box.currentText(),
                type_id=type_id,
                name=self.name_edit.text(),
                pilot=self.pilot_box.currentText(),
                **details,
            ),
            self.message,
        )
        if done:
            self.added = result
            self.accept()


if __name__ == "__main__":
    from app.ui.preview import preview

    raise SystemExit(preview(RosterDock))
