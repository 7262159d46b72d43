"""The critical-hit log: every damage and critical-hit event with turn, aircraft, roll, result and
rule; filtered by side, aircraft and turn; undone entries struck through; exported as CSV.

The rows are read from the log itself (``session.events()`` once on a reset, then only the
appended envelopes), so an undone hit stays in the list, struck through, as DESIGN.md asks.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    ClockSet,
    CriticalHit,
    DamageTaken,
    Envelope,
    ProcedureResolved,
    Restored,
    Reverted,
)
from app.ui.message_bar import MessageBar
from app.ui.model import EngagementModel

ALL = None
Index = QModelIndex | QPersistentModelIndex


class LogReader:
    """Reads a game log in order: the turn each event happened in, aircraft names and sides,
    and which actions are undone now. Fed once with the whole log, then with each append."""

    def __init__(self) -> None:
        self.undone: set[int] = set()
        self.names: dict[str, str] = {}
        self.sides: dict[str, str] = {}
        self._clock_of: dict[int, int] = {}  # action -> the turn its ClockSet set
        self._clock: dict[int, int] = {}  # the clock actions that count now
        self._rolls: dict[int, str] = {}  # action -> the dice its procedure rolled

    @property
    def turn(self) -> int:
        return self._clock[max(self._clock)] if self._clock else 1

    def rolls(self, action: int) -> str:
        return self._rolls.get(action, "")

    def feed(self, envelopes: Iterable[Envelope]) -> tuple[list[tuple[Envelope, int]], set[int]]:
        """The envelopes with the turn each happened in, and the actions undone or redone."""
        out: list[tuple[Envelope, int]] = []
        toggled: set[int] = set()
        for env in envelopes:
            ev = env.event
            if isinstance(ev, Reverted):
                self.undone.add(ev.action)
                self._clock.pop(ev.action, None)
                toggled.add(ev.action)
            elif isinstance(ev, Restored):
                self.undone.discard(ev.action)
                if ev.action in self._clock_of:
                    self._clock[ev.action] = self._clock_of[ev.action]
                toggled.add(ev.action)
            elif isinstance(ev, ClockSet):
                self._clock_of[env.action] = ev.turn
                self._clock[env.action] = ev.turn
            elif isinstance(ev, AircraftAdded):
                self.names[ev.aircraft] = ev.name
                self.sides[ev.aircraft] = ev.side
            elif isinstance(ev, AircraftChanged):
                if ev.name:
                    self.names[ev.aircraft] = ev.name
                if ev.side:
                    self.sides[ev.aircraft] = ev.side
            elif isinstance(ev, ProcedureResolved) and ev.rolls:
                self._rolls[env.action] = ", ".join(_roll_text(r) for r in ev.rolls)
            out.append((env, self.turn))
        return out, toggled


def _roll_text(roll: dict[str, Any]) -> str:
    dice = roll.get("dice") or []
    total = sum(int(d) for d in dice)
    faces = "+".join(str(d) for d in dice)
    text = f"{roll.get('spec', '')}={total}" if len(dice) == 1 else f"{roll.get('spec')}={faces}"
    return text + (" (typed)" if roll.get("typed") else "")


@dataclass(frozen=True)
class Entry:
    """One row of the critical-hit log."""

    seq: int
    action: int
    turn: int
    side: str
    aircraft: str
    name: str
    roll: str
    result: str
    rule: str
    narrative: str


COLUMNS = ("Turn", "Side", "Aircraft", "Roll", "Result", "Rule")


class CriticalLogModel(QAbstractTableModel):
    """The rows, newest last; undone ones struck through."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[Entry] = []
        self.undone: set[int] = set()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def cells(self, e: Entry) -> tuple[str, ...]:
        return (str(e.turn), e.side, e.name, e.roll, e.result, e.rule)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        e = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cells(e)[index.column()]
        if role == Qt.ItemDataRole.FontRole and e.action in self.undone:
            f = QFont()
            f.setStrikeOut(True)
            return f
        if role == Qt.ItemDataRole.ForegroundRole and e.action in self.undone:
            return QBrush(QColor("#888888"))
        if role == Qt.ItemDataRole.ToolTipRole:
            return ("Undone: " if e.action in self.undone else "") + e.narrative
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and e.action in self.undone:
            return "undone"
        return None

    def reset_rows(self, rows: list[Entry], undone: set[int]) -> None:
        self.beginResetModel()
        self.rows, self.undone = rows, set(undone)
        self.endResetModel()

    def append_rows(self, rows: Sequence[Entry]) -> None:
        if not rows:
            return
        n = len(self.rows)
        self.beginInsertRows(QModelIndex(), n, n + len(rows) - 1)
        self.rows.extend(rows)
        self.endInsertRows()

    def restyle(self, undone: set[int], actions: set[int]) -> None:
        self.undone = set(undone)
        hit = [i for i, e in enumerate(self.rows) if e.action in actions]
        if hit:
            self.dataChanged.emit(
                self.index(min(hit), 0),
                self.index(max(hit), len(COLUMNS) - 1),
                [
                    Qt.ItemDataRole.FontRole,
                    Qt.ItemDataRole.ForegroundRole,
                    Qt.ItemDataRole.ToolTipRole,
                ],
            )


class _Filter(QSortFilterProxyModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.side: str | None = ALL
        self.aircraft: str | None = ALL
        self.turn: int | None = ALL

    def set(self, side: str | None, aircraft: str | None, turn: int | None) -> None:
        self.beginFilterChange()
        self.side, self.aircraft, self.turn = side, aircraft, turn
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:  # noqa: N802
        src = self.sourceModel()
        assert isinstance(src, CriticalLogModel)
        e = src.rows[row]
        return (
            (self.side is ALL or e.side == self.side)
            and (self.aircraft is ALL or e.aircraft == self.aircraft)
            and (self.turn is ALL or e.turn == self.turn)
        )


def entries(reader: LogReader, envelopes: Iterable[Envelope]) -> tuple[list[Entry], set[int]]:
    """The log rows among ``envelopes`` (fed through ``reader``) and the actions toggled."""
    fed, toggled = reader.feed(envelopes)
    rows: list[Entry] = []
    narratives: dict[int, str] = {}
    for env, turn in fed:
        if env.narrative:
            narratives[env.action] = env.narrative
        ev = env.event
        if isinstance(ev, DamageTaken):
            result = f"{ev.points} damage" if ev.points else ""
            boxes = ", ".join(f"{box} {n:+d}" for box, n in ev.boxes.items())
            result = ", ".join(p for p in (result, boxes) if p)
            if ev.source:
                result += f" from {reader.names.get(ev.source, ev.source)}"
            roll = reader.rolls(env.action)
            rule = env.rule
        elif isinstance(ev, CriticalHit):
            result = ev.result + (f": {ev.effect}" if ev.effect else "")
            roll = str(ev.roll) if ev.roll is not None else reader.rolls(env.action)
            rule = ev.rule or env.rule
        else:
            continue
        rows.append(
            Entry(
                seq=env.seq,
                action=env.action,
                turn=turn,
                side=reader.sides.get(ev.aircraft, ""),
                aircraft=ev.aircraft,
                name=reader.names.get(ev.aircraft, ev.aircraft),
                roll=roll,
                result=result,
                rule=rule,
                narrative=narratives.get(env.action, ""),
            )
        )
    return rows, toggled


class CriticalLogDock(QDockWidget):
    """Damage and critical hits, filterable, with undone ones struck through; CSV export."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__("Critical hits", parent)
        self.setObjectName("CriticalLogDock")
        self.model = model
        self.reader = LogReader()
        self.table_model = CriticalLogModel(self)
        self.proxy = _Filter(self)
        self.proxy.setSourceModel(self.table_model)

        body = QWidget()
        layout = QVBoxLayout(body)
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
        filters.addWidget(self.export_button)
        layout.addLayout(filters)

        self.view = QTableView()
        self.view.setObjectName("critical_table")
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        for c in range(len(COLUMNS)):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.view.setWordWrap(False)
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
        self.setWidget(body)

        for combo in (self.side, self.aircraft, self.turn):
            combo.currentIndexChanged.connect(self._filter)
        self.export_button.clicked.connect(self.export)
        sc = QShortcut(QKeySequence("Ctrl+Shift+E"), body)
        sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        sc.activated.connect(self.export)
        model.reset.connect(self._reset)
        model.appended.connect(self._appended)
        self._reset()

    # -- reading the log ---------------------------------------------------------------------

    def _reset(self) -> None:
        self.reader = LogReader()
        envs = self.model.session.events() if self.model.has_session else []
        rows, _ = entries(self.reader, envs)
        self.table_model.reset_rows(rows, self.reader.undone)
        self._fill_filters()

    def _appended(self, envelopes: list[Envelope]) -> None:
        rows, toggled = entries(self.reader, envelopes)
        self.table_model.append_rows(rows)
        if toggled:
            self.table_model.restyle(self.reader.undone, toggled)
        if rows or any(isinstance(e.event, AircraftAdded | AircraftChanged) for e in envelopes):
            self._fill_filters()

    # -- filters -----------------------------------------------------------------------------

    def _fill_filters(self) -> None:
        rows = self.table_model.rows
        sides = sorted({e.side for e in rows if e.side})
        aircraft = dict.fromkeys(e.aircraft for e in rows)
        turns = sorted({e.turn for e in rows})
        choices: tuple[tuple[QComboBox, str, list[tuple[str, Any]]], ...] = (
            (self.side, "All sides", [(s, s) for s in sides]),
            (
                self.aircraft,
                "All aircraft",
                [(self.reader.names.get(a, a), a) for a in aircraft],
            ),
            (self.turn, "All turns", [(f"Turn {t}", t) for t in turns]),
        )
        for combo, all_text, items in choices:
            keep = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(all_text, ALL)
            for text, data in items:
                combo.addItem(text, data)
            i = combo.findData(keep)
            combo.setCurrentIndex(i if i >= 0 else 0)
            combo.blockSignals(False)
        self._filter()

    def _filter(self, *_: object) -> None:
        self.proxy.set(
            self.side.currentData(), self.aircraft.currentData(), self.turn.currentData()
        )
        self.empty.setVisible(self.proxy.rowCount() == 0)
        if self.table_model.rows and self.proxy.rowCount() == 0:
            self.empty.setText("No entries match these filters.")
        else:
            self.empty.setText("No damage or critical hits yet.")

    def visible_rows(self) -> list[tuple[Entry, bool]]:
        """The rows the filters let through, each with whether it is undone."""
        out = []
        for r in range(self.proxy.rowCount()):
            src = self.proxy.mapToSource(self.proxy.index(r, 0)).row()
            e = self.table_model.rows[src]
            out.append((e, e.action in self.table_model.undone))
        return out

    # -- export ------------------------------------------------------------------------------

    def export(self) -> None:
        """Ask where, then write the visible rows as CSV."""
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the critical-hit log", "critical-hits.csv", "CSV files (*.csv)"
        )
        if path:
            self.export_csv(Path(path))

    def export_csv(self, path: Path) -> None:
        rows = self.visible_rows()
        try:
            with path.open("w", newline="", encoding="utf-8") as f:
                w = csv.writer(f)
                w.writerow([*COLUMNS, "Undone", "Log entry"])
                for e, undone in rows:
                    w.writerow([*self.table_model.cells(e), "yes" if undone else "", e.seq])
        except OSError as e:
            self.status.hide()
            self.message.show_refusal(f"Could not write {path}: {e.strerror}")
            return
        self.message.clear_refusal()
        self.status.setText(f"Exported {len(rows)} entries to {path}")
        self.status.show()


if __name__ == "__main__":
    from app.ui.preview import preview

    raise SystemExit(preview(CriticalLogDock))
