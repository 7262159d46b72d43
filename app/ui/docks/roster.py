"""Roster: the sides and their aircraft, with type, pilot, status badges and damage.

Add an aircraft from the ruleset's catalogue (Insert), rename (F2), change pilot, remove
(Delete); every change is an event, undoable. The selection is a signal other panels use.

The panel draws the model's rows (``EngagementModel.roster_rows``, ``app.startup.summary``): plain
data per side and aircraft, from the live game, or at start-up from the summary kept in the
game file, before the game's models, pydantic and the ruleset are imported (issue 36). This
module imports none of them: the Add-aircraft dialog loads them when it is opened.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QFont, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolBar,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.status import PILOT_QUALITIES, Status
from app.startup.summary import STATUS_ORDER, AircraftRow, SideRow, ordered_status
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.accessible import named
from app.ui.widgets.message_bar import MessageBar, attempt_here
from app.ui.widgets.wheel_guard import guard_wheel

if TYPE_CHECKING:
    from app.core.ruleset import Ruleset

NAME, TYPE, PILOT, STATUS, DAMAGE = range(5)
HEADERS = ("Aircraft", "Type", "Pilot", "Status", "Damage")
ID_ROLE = Qt.ItemDataRole.UserRole
STATUS_ROLE = Qt.ItemDataRole.UserRole + 1

#: badge text and colour for each status flag the desk knows; others get a grey badge
BADGES: dict[str, tuple[str, str]] = {
    Status.ON_FIRE: ("FIRE", "#d84315"),
    Status.OUT_OF_CONTROL: ("OOC", "#8e24aa"),
    Status.WOUNDED: ("WND", "#f9a825"),
    Status.DESTROYED: ("DEST", "#212121"),
    Status.EJECTED: ("EJ", "#1565c0"),
    Status.BROKEN_OFF: ("OFF", "#607d8b"),
    Status.CRASHED: ("CRSH", "#4e342e"),
    Status.PILOT_KILLED: ("KIA", "#000000"),
    Status.ENGINE_DAMAGED: ("ENG", "#ef6c00"),
    Status.LOADED: ("LOAD", "#2e7d32"),
}
#: the order badges are drawn in (most serious first: the rows' order)
BADGE_ORDER = list(STATUS_ORDER)

#: columns sized to their contents (see ``RosterDock.__init__``)
FITTED = (TYPE, PILOT, DAMAGE)


def status_words(status: Iterable[str]) -> str:
    """The status flags as words, most serious first: ``on fire, wounded``."""
    return ", ".join(s.replace("_", " ") for s in ordered_status(status))


def badge(flag: str) -> tuple[str, str]:
    return BADGES.get(flag, (flag.replace("_", " ")[:5].upper(), "#757575"))


def badge_flags(index: QModelIndex | QPersistentModelIndex) -> list[str]:
    """The status flags stored on a roster cell (a comma-joined string)."""
    return [f for f in str(index.data(STATUS_ROLE) or "").split(",") if f]


class StatusBadges(QStyledItemDelegate):
    """Paints the status column as small coloured badges (FIRE, OOC, WND, DEST, EJ, OFF)."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """The cell as any other (background, selection, focus) but without its words: the
        badges say them."""
        super().initStyleOption(option, index)
        option.text = ""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        super().paint(painter, option, index)
        flags = badge_flags(index)
        if not flags:
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont(opt.font)
        font.setBold(True)
        font.setPointSizeF(max(6.0, opt.font.pointSizeF() * 0.8))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        x = opt.rect.x() + 3
        h = min(opt.rect.height() - 4, metrics.height() + 2)
        y = opt.rect.y() + (opt.rect.height() - h) // 2
        for flag in flags:
            text, colour = badge(flag)
            w = metrics.horizontalAdvance(text) + 8
            rect = QRect(x, y, w, h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colour))
            painter.drawRoundedRect(rect, 3, 3)
            painter.setPen(QColor("white"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
            x += w + 3
        painter.restore()

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        base = super().sizeHint(option, index)
        flags = badge_flags(index)
        metrics = option.fontMetrics
        width = sum(metrics.horizontalAdvance(badge(f)[0]) + 11 for f in flags) + 6
        return QSize(max(base.width(), width), base.height())


class RosterDock(QWidget):
    """Sides and aircraft; the umpire's selection is ``selection_changed(list of ids)``.

    Its widgets: a tree of sides and aircraft (``tree``), the toolbar (``add_action``,
    ``rename_action``, ``pilot_button`` with ``pilot_menu`` and its ``pilot_actions``,
    ``remove_action``) and the refusal bar (``message``); drawn from the model's rows.
    """

    selection_changed = Signal(list)

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._build()
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

    def _build(self) -> None:
        self.tree = QTreeWidget()
        self.tree.setColumnCount(len(HEADERS))
        self.tree.setHeaderLabels(HEADERS)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setItemDelegateForColumn(STATUS, StatusBadges(self.tree))
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        named(
            self.tree,
            "Roster: sides and aircraft",
            "Each side with how many of its aircraft are in play, then each aircraft: name, "
            "printed type, pilot, status and damage. Insert adds, F2 renames, Delete removes.",
        )
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        # sized to their contents when the roster is built and when a changed row needs more:
        # ResizeToContents would measure all 200 rows on every change (issue 20)
        for col in FITTED:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        # a fixed width for three badges: sizing this column to its contents would measure every
        # row's badges on every change (200 aircraft); the full list is in the tooltip
        header.setSectionResizeMode(STATUS, QHeaderView.ResizeMode.Interactive)
        self._size_status()

        self.add_action = self._action("Add…", "Insert")
        self.add_action.setToolTip("Add an aircraft from the ruleset's catalogue (Insert)")
        self.rename_action = self._action("Rename", "F2")
        self.remove_action = self._action("Remove", "Delete")
        self.remove_action.setToolTip("Remove the selected aircraft (undoable) (Delete)")
        self.pilot_menu = QMenu("Pilot", self)
        self.pilot_actions: dict[str, QAction] = {}
        for quality in PILOT_QUALITIES:
            self.pilot_actions[quality] = self.pilot_menu.addAction(quality)
        self.pilot_button = QToolButton()
        self.pilot_button.setText("Pilot")
        self.pilot_button.setMenu(self.pilot_menu)
        self.pilot_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.pilot_button.setToolTip("Change the pilot quality of the selected aircraft")

        bar = QToolBar()
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addAction(self.add_action)
        bar.addAction(self.rename_action)
        bar.addWidget(self.pilot_button)
        bar.addAction(self.remove_action)

        self.message = MessageBar()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(bar)
        layout.addWidget(self.tree)
        layout.addWidget(self.message)

    def _action(self, text: str, key: str) -> QAction:
        act = QAction(text, self)
        act.setShortcut(QKeySequence(key))
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.addAction(act)
        return act

    # -- rendering ----------------------------------------------------------------------------

    def rebuild(self) -> None:
        """Redraw the whole roster from the model's rows, keeping the selection, the current
        aircraft and the scroll position (the live game taking over from the rows read at
        start-up changes none of them)."""
        keep = set(self.selected_ids())
        current = self.tree.currentItem()
        current_id = None
        if current is not None:  # an aircraft by its id, a side by its name
            current_id = current.data(NAME, ID_ROLE) or ("side", current.text(NAME))
        scroll = self.tree.verticalScrollBar().value()
        rows = self.model.roster_rows()
        self._filling = True
        self.tree.blockSignals(True)
        try:
            self.tree.clear()
            self._items.clear()
            self._sides.clear()
            for side in rows["sides"]:
                self._side_item(side["side"])
            for a in rows["aircraft"]:
                item = QTreeWidgetItem()
                self._sides[a["side"]].addChild(item)
                self._items[a["id"]] = item
                self._fill(item, a)
                item.setSelected(a["id"] in keep)
            for side in rows["sides"]:
                self._update_side(side)
            self.tree.expandAll()
            self._fit_all()
            now = (
                self._sides.get(current_id[1])
                if isinstance(current_id, tuple)
                else self._items.get(current_id or "")
            )
            if now is not None:
                self.tree.setCurrentItem(
                    now, NAME, self.tree.selectionModel().SelectionFlag.NoUpdate
                )
            self.tree.verticalScrollBar().setValue(scroll)
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

    def _update_side(self, row: SideRow) -> None:
        item = self._sides.get(row["side"])
        if item is None:
            return
        item.setText(NAME, row["side"])
        item.setText(TYPE, f"{row['in_play']} of {row['of']} in play")

    def _fill(self, item: QTreeWidgetItem, a: AircraftRow) -> None:
        """The row of one aircraft. Only what changed is set: each setter of a tree item makes
        the view lay out again, which at 200 aircraft costs a frame (issue 20)."""
        flags = (
            Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable
        )
        if item.flags() != flags:
            item.setFlags(flags)
        if item.data(NAME, ID_ROLE) != a["id"]:
            item.setData(NAME, ID_ROLE, a["id"])
        badges = ",".join(a["status"])
        if item.data(STATUS, STATUS_ROLE) != badges:
            item.setData(STATUS, STATUS_ROLE, badges)
        words = status_words(a["status"])
        damage = str(a["damage"])
        if a["max_damage"] is not None:
            damage = f"{damage} / {a['max_damage']}"
        texts = {
            NAME: a["name"],
            # the card's printed name (issue 29); the catalogue id is its tooltip
            TYPE: a["type"] + (f" ×{a['count']}" if a["count"] != 1 else ""),
            PILOT: a["pilot"],
            STATUS: words,
            DAMAGE: damage,
        }
        for col, text in texts.items():
            if item.text(col) != text:
                item.setText(col, text)
        tips = {TYPE: a["type_id"], STATUS: words or "in play"}
        for col, tip in tips.items():
            if item.toolTip(col) != tip:
                item.setToolTip(col, tip)
        if item.textAlignment(DAMAGE) != int(Qt.AlignmentFlag.AlignCenter):
            item.setTextAlignment(DAMAGE, Qt.AlignmentFlag.AlignCenter)
        muted = self.palette().color(self.palette().ColorRole.PlaceholderText)
        brush = self.tree.palette().text() if a["in_play"] else QBrush(muted)
        for col in range(len(HEADERS)):
            if item.foreground(col).color() != brush.color():
                item.setForeground(col, brush)

    def _aircraft_changed(self, ids: list[str]) -> None:
        rows = {i: self.model.aircraft_row(i) for i in ids}
        for aircraft_id, a in rows.items():
            item = self._items.get(aircraft_id)
            if a is None or item is None or item.parent() is not self._sides.get(a["side"]):
                self.rebuild()  # added, removed or changed side: the tree's shape changes
                return
        self.tree.blockSignals(True)
        try:
            for aircraft_id, a in rows.items():
                if a is not None:
                    self._fill(self._items[aircraft_id], a)
            changed = {a["side"] for a in rows.values() if a is not None}
            for side in self.model.side_rows():
                if side["side"] in changed:
                    self._update_side(side)
            self._widen([self._items[i] for i in ids])
        finally:
            self.tree.blockSignals(False)

    def _size_status(self) -> None:
        three = sum(self.fontMetrics().horizontalAdvance(t) + 11 for t in ("FIRE", "OOC", "WND"))
        self.tree.header().resizeSection(STATUS, three + 6)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """Larger type (table mode) refits the columns: a type's printed name is never cut
        short with "…" (issue 47)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and hasattr(self, "_items"):
            self._size_status()
            self._fit_all()

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
        (a game opened read-only, or not open yet, changes nothing here)."""
        can = self.model.can_act
        chosen = can and bool(self.selected_ids())
        self.add_action.setEnabled(can)
        self.rename_action.setEnabled(chosen)
        self.remove_action.setEnabled(chosen)
        uses_pilot = can and self.model.ruleset.uses_pilot_quality
        self.pilot_button.setEnabled(chosen and uses_pilot)

    # -- actions ------------------------------------------------------------------------------

    def add_aircraft(self) -> None:
        """The Add aircraft dialog; it stays open with the reason if the ruleset refuses."""
        if not self.model.has_session:
            return
        dialog = AddAircraftDialog(self.model, self)
        dialog.exec()

    def rename_selected(self) -> None:
        if not self.model.can_act:
            return
        items = [i for i in self.tree.selectedItems() if i.data(NAME, ID_ROLE)]
        if items:
            self.tree.setCurrentItem(items[0], NAME)
            self.tree.editItem(items[0], NAME)

    def _double_clicked(self, item: QTreeWidgetItem, column: int) -> None:
        if column == NAME and item.data(NAME, ID_ROLE) and self.model.can_act:
            self.tree.editItem(item, NAME)

    def _edited(self, item: QTreeWidgetItem, column: int) -> None:
        aircraft_id = item.data(NAME, ID_ROLE)
        if self._filling or column != NAME or not aircraft_id or not self.model.has_session:
            return
        a = self.model.aircraft_row(aircraft_id)
        if a is None:
            return
        new = item.text(NAME)  # as typed: a tab is refused by the session, not stripped
        if new.strip() == a["name"]:
            return
        if not new.strip():
            self.message.show_refusal(f"{a['name']}: an aircraft needs a name; not renamed")
            self._fill_quietly(item, a)
            return
        done, _ = attempt_here(
            self.model,
            lambda: self.model.roster.change_aircraft(aircraft_id, name=new),
            self.message,
        )
        if not done:
            self._fill_quietly(item, a)

    def _fill_quietly(self, item: QTreeWidgetItem, a: AircraftRow) -> None:
        self.tree.blockSignals(True)
        try:
            self._fill(item, a)
        finally:
            self.tree.blockSignals(False)

    def set_pilot(self, quality: str) -> None:
        roster = self.model.roster
        for aircraft_id in self.selected_ids():
            a = self.model.aircraft_row(aircraft_id)
            if a is None or a["pilot"] == quality:
                continue
            done, _ = attempt_here(
                self.model,
                partial(roster.change_aircraft, aircraft_id, pilot=quality),
                self.message,
            )
            if not done:
                return

    def remove_selected(self) -> None:
        roster = self.model.roster
        for aircraft_id in self.selected_ids():
            done, _ = attempt_here(
                self.model, partial(roster.remove_aircraft, aircraft_id), self.message
            )
            if not done:
                return


class AddAircraftDialog(QDialog):
    """Type (from the catalogue), name, side, pilot quality and the ruleset's own details."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # the game's models and the forms load with the dialog, not with the roster (issue 36)
        from app.core.data import catalogue_problems
        from app.ui.editors.forms import InputForm

        self.model = model
        self.setWindowTitle("Add aircraft")
        self.setMinimumWidth(380)
        rs: Ruleset = model.ruleset
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

    @patient
    def submit(self) -> None:
        roster = self.model.roster
        if self.type_box.count() == 0:
            self.message.show_refusal(f"{self.model.ruleset.title} has no aircraft types.")
            return
        type_id = self.type_box.currentData()
        settings = self.details.value()
        if settings is None:
            self.message.show_refusal(f"Not added: {self.details.error_text()}")
            return
        details = settings.model_dump(exclude_defaults=True)
        done, result = attempt_here(
            self.model,
            lambda: roster.add_aircraft(
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
    from app.ui.docks.preview import preview

    raise SystemExit(preview(RosterDock))
