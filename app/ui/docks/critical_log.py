"""The critical-hit log: every damage and critical-hit event with turn, aircraft, roll, result and
rule; filtered by side, aircraft and turn; undone entries struck through; exported as CSV.

The rows are read from the log itself, through the model's log index (``Hit``: the rows it
keeps as it reads the log, so no envelope is held), so an undone hit stays in the list, struck
through, as DESIGN.md asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core import csv_cells
from app.core.log_index import Hit
from app.ui.dialogs.ruling import RulingWindow, open_ruling
from app.ui.model import EngagementModel
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.accessible import named
from app.ui.widgets.log_progress import LogProgress
from app.ui.widgets.message_bar import MessageBar
from app.ui.widgets.tab_leaves import let_tab_leave

COLUMNS = ("Turn", "Side", "Aircraft", "Roll", "Result", "Rule")
#: the filter combo boxes' "all" entry: a string, never None. Under PySide6 6.12 on Python 3.11
#: every None that crosses into Qt costs a reference to None (see the bench's report), so the
#: rows live in a QTableWidget rather than in a Python item model whose data() would answer
#: None for most roles on every paint.
ALL = ""
UNDONE_BRUSH = QBrush(QColor("#888888"))


def cells(e: Hit) -> tuple[str, ...]:
    return (str(e.turn), e.side, e.name, e.roll, e.result, e.rule)


class CriticalLogDock(QWidget):
    """Damage and critical hits, filterable, with undone ones struck through; CSV export."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CriticalLogDock")
        self.model = model
        self.rows: list[Hit] = []
        self._rows_of: dict[int, list[int]] = {}
        self._shown = 0

        layout = QVBoxLayout(self)
        filters = QHBoxLayout()
        self.side = QComboBox()
        self.side.setObjectName("side_filter")
        self.aircraft = QComboBox()
        self.aircraft.setObjectName("aircraft_filter")
        self.turn = QComboBox()
        self.turn.setObjectName("turn_filter")
        for label, combo in (
            ("&Side", self.side),
            ("&Aircraft", self.aircraft),
            ("T&urn", self.turn),
        ):
            lab = QLabel(label)
            lab.setBuddy(combo)
            filters.addWidget(lab)
            filters.addWidget(combo, 1)
        self.export_button = QPushButton("Export &CSV…")
        self.export_button.setObjectName("export_csv")
        #: the first read of a long log, a slice at a time (issue 20); in the filters' row, so
        #: showing and hiding it changes no panel's height
        self.progress = LogProgress(model)
        filters.addWidget(self.progress)
        filters.addWidget(self.export_button)
        layout.addLayout(filters)

        self.view = QTableWidget(0, len(COLUMNS))
        self.view.setObjectName("critical_table")
        let_tab_leave(self.view)
        named(
            self.view,
            "Critical hits and damage",
            "Every hit with its turn, aircraft, side and rule, as the filters above choose; "
            "Enter or a double-click opens its ruling.",
        )
        self.view.setHorizontalHeaderLabels(list(COLUMNS))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.setWordWrap(False)
        # sized once per reset, not per row: ResizeToContents would measure up to a thousand
        # rows on every append of a long game
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.view, 1)
        self.empty = QLabel("No damage or critical hits yet.")
        self.empty.setObjectName("empty")
        layout.addWidget(self.empty)
        self.message = MessageBar()
        layout.addWidget(self.message)
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.hide()
        layout.addWidget(self.status)

        for combo in (self.side, self.aircraft, self.turn):
            combo.currentIndexChanged.connect(self._filter)
        self.export_button.clicked.connect(self.export)
        sc = QShortcut(QKeySequence("Ctrl+Shift+E"), self)
        sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        sc.activated.connect(self.export)
        #: hidden or tabbed away: no work until shown (issue 20)
        self.when_shown = WhenShown(self, self._reset)
        model.reset.connect(self.when_shown.wrap(self._reset))
        model.log_read.connect(self.when_shown.wrap(self._log_read))
        # a double-click or Enter on a row opens its ruling (issue 34)
        self.view.activated.connect(lambda index: self.open_ruling(index.row()))
        self.view.setToolTip("Double-click or Enter: the ruling of this entry")
        self.ruling_window: RulingWindow | None = None
        self._reset()

    # -- reading the log ---------------------------------------------------------------------

    def _reset(self) -> None:
        self.rows, self._rows_of, self._shown = [], {}, 0
        self.view.setRowCount(0)
        self._add(self.model.log.hits)
        self.progress.follow()
        self._fill_filters()
        self.view.resizeColumnsToContents()

    def _log_read(self, toggled: Sequence[int]) -> None:
        """The rows the model's log took in since the last call (a slice of its first read, or
        an append); ``toggled``: the actions undone or redone in them."""
        rows = self.model.log.hits[len(self.rows) :]
        self._add(rows)
        self.progress.follow()
        for action in toggled:
            for r in self._rows_of.get(action, ()):
                self._style(r)
        if rows and self._new_choices(rows):
            self._fill_filters()
        elif rows:
            self._update_empty()

    def _add(self, rows: list[Hit]) -> None:
        if not rows:
            return
        first = len(self.rows)
        self.rows.extend(rows)
        self.view.setUpdatesEnabled(False)
        self.view.setRowCount(len(self.rows))
        for r, e in enumerate(rows, start=first):
            self._rows_of.setdefault(e.action, []).append(r)
            for c, text in enumerate(cells(e)):
                item = QTableWidgetItem(text)
                item.setToolTip(e.narrative)
                self.view.setItem(r, c, item)
            if e.action in self.model.log.undone:
                self._style(r)
            hide = not self._accepts(e)
            self.view.setRowHidden(r, hide)
            self._shown += not hide
        self.view.setUpdatesEnabled(True)

    def _style(self, row: int) -> None:
        e = self.rows[row]
        undone = e.action in self.model.log.undone
        for c in range(len(COLUMNS)):
            item = self.view.item(row, c)
            if item is None:  # a cell not filled yet: nothing to style
                continue
            font = item.font()
            font.setStrikeOut(undone)
            item.setFont(font)
            item.setForeground(UNDONE_BRUSH if undone else QBrush())
            item.setToolTip(("Undone: " if undone else "") + e.narrative)

    def open_ruling(self, row: int) -> RulingWindow | None:
        """The ruling of the action the entry in ``row`` belongs to (issue 34)."""
        if not 0 <= row < len(self.rows):
            return None
        self.ruling_window = open_ruling(self.model, self.rows[row].seq, self)
        return self.ruling_window

    def is_undone(self, row: int) -> bool:
        return self.rows[row].action in self.model.log.undone

    # -- filters -----------------------------------------------------------------------------

    def _choices(self) -> tuple[list[str], dict[str, str], list[int]]:
        sides = sorted({e.side for e in self.rows if e.side})
        aircraft = {e.aircraft: self.model.log.names.get(e.aircraft, e.aircraft) for e in self.rows}
        return sides, aircraft, sorted({e.turn for e in self.rows})

    def _new_choices(self, rows: list[Hit]) -> bool:
        known_sides = {self.side.itemData(i) for i in range(self.side.count())}
        known_aircraft = {self.aircraft.itemData(i) for i in range(self.aircraft.count())}
        known_turns = {self.turn.itemData(i) for i in range(self.turn.count())}
        return any(
            (e.side and e.side not in known_sides)
            or e.aircraft not in known_aircraft
            or str(e.turn) not in known_turns
            for e in rows
        )

    def _fill_filters(self) -> None:
        sides, aircraft, turns = self._choices()
        choices: tuple[tuple[QComboBox, str, list[tuple[str, str]]], ...] = (
            (self.side, "All sides", [(s, s) for s in sides]),
            (self.aircraft, "All aircraft", [(name, a) for a, name in aircraft.items()]),
            (self.turn, "All turns", [(f"Turn {t}", str(t)) for t in turns]),
        )
        for combo, all_text, items in choices:
            keep = combo.currentData() if combo.count() else ALL
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(all_text, ALL)
            for text, data in items:
                combo.addItem(text, data)
            i = combo.findData(keep)
            combo.setCurrentIndex(i if i >= 0 else 0)
            combo.blockSignals(False)
        self._filter()

    def _accepts(self, e: Hit) -> bool:
        side = self.side.currentData() if self.side.count() else ALL
        aircraft = self.aircraft.currentData() if self.aircraft.count() else ALL
        turn = self.turn.currentData() if self.turn.count() else ALL
        return (
            (side == ALL or e.side == side)
            and (aircraft == ALL or e.aircraft == aircraft)
            and (turn == ALL or str(e.turn) == turn)
        )

    def _filter(self, *_: object) -> None:
        self._shown = 0
        self.view.setUpdatesEnabled(False)
        for r, e in enumerate(self.rows):
            hide = not self._accepts(e)
            self.view.setRowHidden(r, hide)
            self._shown += not hide
        self.view.setUpdatesEnabled(True)
        self._update_empty()

    def _update_empty(self) -> None:
        self.empty.setVisible(self._shown == 0)
        if self.rows and self._shown == 0:
            self.empty.setText("No entries match these filters.")
        else:
            self.empty.setText("No damage or critical hits yet.")

    def visible_rows(self) -> list[tuple[Hit, bool]]:
        """The rows the filters let through, each with whether it is undone."""
        return [
            (e, e.action in self.model.log.undone)
            for r, e in enumerate(self.rows)
            if not self.view.isRowHidden(r)
        ]

    # -- export ------------------------------------------------------------------------------

    def export(self) -> None:
        """Ask where, then write the visible rows as CSV."""
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the critical-hit log", "critical-hits.csv", "CSV files (*.csv)"
        )
        if path:
            self.export_csv(Path(path))

    def export_csv(self, path: Path) -> None:
        """The visible rows as CSV; a read of the log under way is finished first, so every
        entry is there."""
        self.model.whole_log()  # its last slice reaches this panel through ``log_read``
        self.when_shown.fresh()
        rows = self.visible_rows()
        try:
            with path.open("w", newline="", encoding="utf-8") as f:
                w = csv_cells.writer(f)  # no cell a spreadsheet would run (issue 46)
                w.writerow([*COLUMNS, "Undone", "Log entry"])
                for e, undone in rows:
                    w.writerow([*cells(e), "yes" if undone else "", e.seq])
        except OSError as e:
            self.status.hide()
            self.message.show_refusal(f"Could not write {path}: {e.strerror}")
            return
        self.message.clear_refusal()
        self.status.setText(f"Exported {len(rows)} entries to {path}")
        self.status.show()


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(CriticalLogDock))
