"""The ledgers panel: per aircraft, every consumable the ruleset declares as what is left of
what it started with (half points shown as exact fractions, ``2 1/2``), and the history of each
from the log. A refusal because a ledger cannot pay is shown here too, with its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.engagement import AircraftState
from app.core.events import Envelope
from app.core.log_index import LedgerChange
from app.core.ruleset import LedgerSpec
from app.ui.model import EngagementModel
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.accessible import named
from app.ui.widgets.log_progress import LogProgress
from app.ui.widgets.message_bar import MessageBar
from app.ui.widgets.tab_leaves import let_tab_leave
from app.ui.widgets.table_cells import row_texts

EMPTY = QColor("#c62828")
ROLE_KEY = Qt.ItemDataRole.UserRole


def exact(value: Fraction) -> str:
    """A ledger quantity exactly: ``3``, ``1/2``, ``2 1/2``, ``-1/2``."""
    if value < 0:
        return "-" + exact(-value)
    whole, rest = divmod(value.numerator, value.denominator)
    if not rest:
        return str(whole)
    part = f"{rest}/{value.denominator}"
    return f"{whole} {part}" if whole else part


def change_text(c: LedgerChange) -> str:
    """A history line's change: ``start 4``, ``-1/2``, ``+2``, ``limit 3``."""
    if c.kind == "delta":
        return f"{'+' if c.amount > 0 else ''}{exact(c.amount)}"
    return f"{c.kind} {exact(c.amount)}"


class LedgersDock(QWidget):
    """Every ledger of every aircraft, and the selected one's history."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("LedgersDock")
        self.model = model
        self._items: dict[str, QTreeWidgetItem] = {}
        self._last_refusal = ""
        #: how many changes the history on show holds (it grows as the log is read)
        self._history_size = 0

        layout = QVBoxLayout(self)
        self.message = MessageBar()
        layout.addWidget(self.message)
        split = QSplitter(Qt.Orientation.Vertical)
        self.tree = QTreeWidget()
        self.tree.setObjectName("ledger_tree")
        named(
            self.tree,
            "Ledgers",
            "Each aircraft's ammunition, missiles, afterburner uses and other consumables: "
            "what is left of what it started with.",
        )
        self.tree.setHeaderLabels(["Aircraft / ledger", "Left", "Start", "Rule"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        split.addWidget(self.tree)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        self.history_title = QLabel("Select a ledger to see its history.")
        self.history_title.setObjectName("history_title")
        correction = QHBoxLayout()
        correction.addWidget(QLabel("Umpire's correction:"))
        self.amount = QLineEdit()
        self.amount.setObjectName("correction_amount")
        named(self.amount, "Correction amount", "Negative spends, positive refills; e.g. -1/2")
        self.amount.setPlaceholderText("-1/2, 2 ...")
        self.amount.setMaximumWidth(90)
        self.amount.setToolTip("Negative spends, positive refills; exact, e.g. -1/2")
        self.reason = QLineEdit()
        self.reason.setObjectName("correction_reason")
        named(self.reason, "Why the ledger is corrected", "Goes into the log with the change")
        self.reason.setPlaceholderText("why (goes into the log)")
        self.apply_button = QPushButton("Apply")
        self.apply_button.setObjectName("correction_apply")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_correction)
        self.reason.returnPressed.connect(self.apply_correction)
        correction.addWidget(self.amount)
        correction.addWidget(self.reason, 1)
        correction.addWidget(self.apply_button)
        lower_layout.addLayout(correction)
        #: the first read of a long log, a slice at a time (issue 20), beside the history's title
        self.progress = LogProgress(model)
        title = QHBoxLayout()
        title.addWidget(self.history_title, 1)
        title.addWidget(self.progress)
        lower_layout.addLayout(title)
        self.history_table = QTableWidget(0, 5)
        self.history_table.setObjectName("ledger_history")
        let_tab_leave(self.history_table)
        named(
            self.history_table,
            "Ledger history",
            "Every change of the selected ledger: turn, change, what is left, why, log entry.",
        )
        self.history_table.setHorizontalHeaderLabels(["Turn", "Change", "Left", "Why", "Log entry"])
        self.history_table.verticalHeader().hide()
        self.history_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.history_table.setWordWrap(False)
        header = self.history_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        lower_layout.addWidget(self.history_table)
        split.addWidget(lower)
        layout.addWidget(split, 1)
        self.empty = QLabel()
        self.empty.setObjectName("empty")
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)

        self.tree.currentItemChanged.connect(lambda *_: self._show_history())
        #: hidden or tabbed away: no work until shown (issue 20)
        self.when_shown = WhenShown(self, self._reset)
        model.reset.connect(self.when_shown.wrap(self._reset))
        # the roster's selection is the model's (issue 43): heard here, taken again on a rebuild
        model.selection_changed.connect(self.when_shown.unless_stale(self.show_selection))
        self.when_shown.rebuilt.connect(lambda: self.show_selection(list(model.selection)))
        model.appended.connect(self.when_shown.wrap(self._appended))
        model.log_read.connect(self.when_shown.wrap(self._log_read))
        model.aircraft_changed.connect(self.when_shown.wrap(self._aircraft_changed))
        model.refused.connect(self._refused)
        self._reset()
        if model.selection:
            self.show_selection(list(model.selection))

    # -- the specs ---------------------------------------------------------------------------

    @property
    def specs(self) -> tuple[LedgerSpec, ...]:
        return self.model.ruleset.ledgers if self.model.has_session else ()

    def _title(self, ledger_id: str, aircraft_id: str | None = None) -> str:
        """The ledger's printed title (a missile type's by its card's name)."""
        spec = None
        if self.model.has_session:
            a = self.model.engagement.aircraft.get(aircraft_id or "")
            card = a.card if a is not None else None
            spec = self.model.ruleset.ledger_spec(ledger_id, card)
        return spec.title if spec else ledger_id.replace("_", " ")

    # -- the tree ----------------------------------------------------------------------------

    def _reset(self) -> None:
        self.message.clear_refusal()
        self.tree.clear()
        self._items = {}
        for a in self.model.engagement.aircraft.values():
            self._place(a)
        self.tree.expandAll()
        self._update_empty()
        self._show_history()

    def _place(self, a: AircraftState) -> None:
        item = QTreeWidgetItem(self.tree)
        item.setData(0, ROLE_KEY, (a.id, None))
        self._items[a.id] = item
        self._fill(item, a)
        item.setExpanded(True)

    def _fill(self, item: QTreeWidgetItem, a: AircraftState) -> None:
        count = f" ×{a.count}" if a.count != 1 else ""
        item.setText(0, f"{a.name} ({a.side}){count}")
        bold = QFont(item.font(0))
        bold.setBold(True)
        item.setFont(0, bold)
        specs = self.model.ruleset.ledgers_for(a.card)
        wanted = [(s.id, s.title, s.rule, s.unit) for s in specs if s.id in a.ledgers]
        known = {s.id for s in specs}
        wanted += [(k, k.replace("_", " "), "", Fraction(1)) for k in a.ledgers if k not in known]
        children = [kid for i in range(item.childCount()) if (kid := item.child(i)) is not None]
        for extra in reversed(children[len(wanted) :]):
            item.removeChild(extra)
        children = children[: len(wanted)]
        children += [QTreeWidgetItem(item) for _ in range(len(wanted) - len(children))]
        for child, (lid, title, rule, unit) in zip(children, wanted, strict=True):
            led = a.ledgers[lid]
            child.setData(0, ROLE_KEY, (a.id, lid))
            child.setText(0, title)
            child.setText(1, exact(led.value))
            child.setText(2, exact(led.maximum))
            child.setText(3, rule)
            tip = f"{title}: {exact(led.value)} of {exact(led.maximum)} left"
            if unit != 1:
                tip += f" (spent in steps of {exact(unit)})"
            for c in range(4):
                child.setToolTip(c, tip)
            for c in (1, 2):
                child.setTextAlignment(
                    c, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                )
            empty = led.value == 0
            child.setForeground(1, QBrush(EMPTY) if empty else QBrush())
            if empty:
                child.setText(1, "0 (empty)")
        if not wanted:
            item.setText(1, "")
            item.setToolTip(0, "This aircraft has no ledgers in this ruleset")

    def _aircraft_changed(self, ids: list[str]) -> None:
        e = self.model.engagement
        for aid in ids:
            a = e.aircraft.get(aid)
            item = self._items.get(aid)
            if a is None:
                if item is not None:
                    self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(item))
                    del self._items[aid]
            elif item is None:
                self._place(a)
            else:
                self._fill(item, a)
        self._update_empty()
        self._show_history()

    def _update_empty(self) -> None:
        if not self.specs:
            text = (
                "This ruleset keeps no ledgers." if self.model.has_session else "No game is open."
            )
        elif not self._items:
            text = "No aircraft on the roster yet."
        else:
            text = ""
        self.empty.setText(text)
        self.empty.setVisible(bool(text))

    # -- history -----------------------------------------------------------------------------

    def _appended(self, envelopes: list[Envelope]) -> None:
        self.message.clear_refusal()

    def _log_read(self, toggled: Sequence[int]) -> None:
        """The model's log took in more (a slice of its first read, or an append): the history
        on show again if it grew or an action was undone or redone."""
        key = self.current_key()
        if key is not None and (toggled or self._changes(key) != self._history_size):
            self._show_history()
        self.progress.follow()

    def _changes(self, key: tuple[str, str | None]) -> int:
        """How many changes the log holds so far for this aircraft (or one of its ledgers)."""
        aid, lid = key
        ledgers = self.model.log.ledgers
        if lid is not None:
            return len(ledgers.get((aid, lid), ()))
        return sum(len(v) for (a, _), v in ledgers.items() if a == aid)

    def current_key(self) -> tuple[str, str | None] | None:
        item = self.tree.currentItem()
        return item.data(0, ROLE_KEY) if item is not None else None

    def select(self, aircraft_id: str, ledger_id: str | None = None) -> None:
        """Show one aircraft (from the roster), or one of its ledgers."""
        item = self._items.get(aircraft_id)
        if item is None:
            return
        if ledger_id is not None:
            for i in range(item.childCount()):
                child = item.child(i)
                if child is not None and child.data(0, ROLE_KEY) == (aircraft_id, ledger_id):
                    item = child
                    break
        self.tree.setCurrentItem(item)

    def show_selection(self, ids: list[str]) -> None:
        """The roster's selection."""
        if ids:
            self.select(ids[0])

    def apply_correction(self) -> None:
        """Spend or refill the selected ledger by the typed amount, with the typed reason."""
        aid, lid = self.current_key() or ("", None)
        if lid is None:
            self.message.show_refusal("Select one ledger of one aircraft first.")
            return
        amount, reason = self.amount.text().strip(), self.reason.text()

        def adjust() -> bool:
            self.model.roster.adjust_ledger(aid, lid, amount, reason)
            return True

        done = self.model.attempt(adjust)
        if done:
            self.message.clear_refusal()
            self.amount.clear()
            self.reason.clear()
        else:
            self.message.show_refusal(self._last_refusal)

    def _show_history(self) -> None:
        key = self.current_key()
        self.apply_button.setEnabled(key is not None and key[1] is not None and self.model.can_act)
        rows: list[tuple[str, LedgerChange, str]] = []
        if key is None:
            self.history_title.setText("Select a ledger to see its history.")
        else:
            # the model's log is read when a history is first asked for
            log = self.model.log
            aid, lid = key
            a = self.model.engagement.aircraft.get(aid)
            name = a.name if a is not None else log.names.get(aid, aid)
            lids = [lid] if lid else [k for (a, k) in log.ledgers if a == aid]
            for one in lids:
                rows += self._balanced(one, log.ledgers.get((aid, one), []), aid)
            rows.sort(key=lambda r: r[1].seq)
            what = self._title(lid, aid) if lid else "every ledger"
            self.history_title.setText(f"History of {name}: {what}")
        self._history_size = len(rows)
        self.progress.follow()
        t = self.history_table
        t.setRowCount(len(rows))
        show_ledger = key is not None and key[1] is None
        for r, (title, c, left) in enumerate(rows):
            undone = c.action in self.model.log.undone
            change = f"{title}: {change_text(c)}" if show_ledger else change_text(c)
            cells = (str(c.turn), change, left, c.why, str(c.seq))
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if undone:
                    f = item.font()
                    f.setStrikeOut(True)
                    item.setFont(f)
                    item.setToolTip("Undone")
                t.setItem(r, col, item)

    def _balanced(
        self, ledger: str, changes: list[LedgerChange], aircraft_id: str
    ) -> list[tuple[str, LedgerChange, str]]:
        """Each change with what was left after it (undone changes leave it as it was)."""
        title = self._title(ledger, aircraft_id)
        value = maximum = Fraction(0)
        out = []
        undone = self.model.log.undone
        for c in changes:
            if c.action not in undone:
                if c.kind == "start":
                    value = maximum = c.amount
                elif c.kind == "limit":
                    maximum = c.amount
                    value = min(value, maximum)
                else:
                    value += c.amount
            out.append((title, c, f"{exact(value)} / {exact(maximum)}"))
        return out

    def history_rows(self) -> list[tuple[str, ...]]:
        """The history on show, as text (turn, change, left, why, log entry)."""
        t = self.history_table
        return [row_texts(t, r) for r in range(t.rowCount())]

    # -- refusals ----------------------------------------------------------------------------

    def _refused(self, text: str) -> None:
        """A refusal that names a ledger is shown here too: the umpire may be looking here."""
        self._last_refusal = text
        words = text.lower()
        for spec in self.specs:
            if spec.id.replace("_", " ") in words or spec.title.lower() in words:
                self.message.show_refusal(text)
                return


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(LedgersDock))
