"""The odds of the action on the form, before the roll: a table of exact chances, a bar chart,
the odds to the end of the chain and the what-ifs kept beside them.

The odds on screen always belong to the prepared action the form shows (issue 43): when the
action changes, the old numbers go at once ("Working out the odds…") and the new ones are
worked out off the GUI thread (``GuestWorker``, with the ruleset's time limit) once the typing
pauses; an answer for an action no longer on the form is dropped.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.draft import ActionDraft
from app.core.errors import MissingTableValue
from app.core.prepared import Prepared
from app.core.procedure import UnknownOdds
from app.ui.action_form.chain_odds import ChainOddsLine
from app.ui.action_form.compare import CompareOdds
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import GuestWorker
from app.ui.widgets.message_bar import muted
from app.ui.widgets.odds_chart import OddsChart
from app.ui.widgets.tab_leaves import let_tab_leave

#: how long the odds wait after a keystroke before they are worked out (issue 20)
ODDS_DELAY_MS = 120
WORKING = "Working out the odds…"


def percent(p: Fraction) -> str:
    """A probability as a percentage with one decimal (exact ones without)."""
    v = p * 100
    return f"{int(v)}%" if v.denominator == 1 else f"{float(v):.1f}%"


def odds_key(p: Prepared | None) -> tuple[Any, ...] | None:
    """What the odds of a prepared action depend on: the same key, the same odds."""
    if p is None or p.inputs is None:
        return None
    return (p.procedure, p.seq, tuple(sorted(p.roles.items())), p.inputs.model_dump_json())


class OddsView(QGroupBox):
    """ "Odds before the roll" of the draft's prepared action (``show_for``)."""

    def __init__(
        self, model: EngagementModel, draft: ActionDraft, parent: QWidget | None = None
    ) -> None:
        super().__init__("Odds before the roll", parent)
        self.model = model
        self.draft = draft
        self.prepared: Prepared | None = None
        self._key: tuple[Any, ...] | None = None
        self._odds: dict[str, Fraction] = {}
        #: the words shown with no odds, and their colour (``None``: odds, or nothing drawn yet)
        self._bare: tuple[str, str] | None = None
        self._due = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(ODDS_DELAY_MS)
        self._timer.timeout.connect(self._compute)
        self._worker = GuestWorker(self)
        self._worker.answered.connect(self._answered)
        self._worker.failed.connect(self._failed)
        self._worker.waiting.connect(self._waiting)

        layout = QVBoxLayout(self)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("odds_table")
        self.table.setAccessibleDescription("Each outcome and its exact chance")
        self.table.setAccessibleName("Odds before the roll")
        self.table.setHorizontalHeaderLabels(["Outcome", "Exact", "Percent"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        let_tab_leave(self.table)  # Tab goes on past the odds, never round their cells
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.message = QLabel()
        self.message.setObjectName("odds_message")
        self.message.setWordWrap(True)
        self.message.hide()
        self.chart = OddsChart()
        self.chart.setAccessibleName("Odds before the roll, as bars")
        self.chain = ChainOddsLine()  # odds to the end of the chain (issue 34)
        self.compare = CompareOdds()  # what-ifs side by side (issue 34)
        layout.addWidget(self.table)
        layout.addWidget(self.chain)
        layout.addWidget(self.message)
        layout.addWidget(self.chart)
        layout.addWidget(self.compare)
        self.chain.shown.connect(lambda p: self.compare.chain_ready(p, self.chain.result))

    # -- the action shown ------------------------------------------------------------------------

    def show_for(self, p: Prepared | None) -> None:
        """The form shows ``p`` now: its odds, or why there are none. Odds that do not belong
        to it are taken off at once."""
        if p is self.prepared:
            return
        key = odds_key(p)
        same = key is not None and key == self._key and bool(self._odds) and not self._due
        self.prepared, self._key = p, key
        if same:
            return  # the same inputs on the same game: the odds shown are still its own
        self._timer.stop()
        self._worker.cancel()
        self._due = False
        if p is None:
            self._show(None, self.draft.refusal)
            return
        if p.cannot or p.refused:  # it cannot act: opening it explains, no odds as if it could
            self._show(None, p.cannot or p.refused)
            return
        if p.inputs is None:
            self._show(None, f"Fix the inputs first: {p.error}")
            return
        self._show(None, WORKING)
        self._due = True
        self._timer.start()

    @property
    def odds(self) -> dict[str, Fraction]:
        """The odds of the prepared action as it is now (outcome label -> exact probability);
        a calculation still waiting for the typing to pause is done first."""
        if self._worker.pending:
            self._due = True  # asked off the GUI thread: worked out now instead
        if self._due:
            self._compute(now=True)
        return dict(self._odds)

    def clear(self) -> None:
        self.compare.clear()

    # -- working them out ------------------------------------------------------------------------

    def _compute(self, now: bool = False) -> None:
        self._timer.stop()
        self._worker.cancel()
        p, due, self._due = self.prepared, self._due, False
        if p is None or p.inputs is None or not due or not self.model.has_session:
            return
        part = self.model.odds
        if not now:
            self._worker.ask(p, part.odds, p)
            return
        try:
            odds = part.odds(p)
        except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
            self._failed(p, e)
        else:
            self._answered(p, odds)

    def _answered(self, p: Prepared, odds: dict[str, Fraction]) -> None:
        if isinstance(odds, UnknownOdds):  # a table the text does not print: named (issue 45)
            self._failed(p, odds.missing)
        elif p is self.prepared:  # else the action changed meanwhile: its odds are asked for
            self._show(odds)

    def _failed(self, p: Prepared, e: BaseException) -> None:
        if p is not self.prepared:
            return
        if isinstance(e, MissingTableValue):
            self.draft.note_missing(e)
            self._show(None, str(e))
        else:
            self._show(None, f"No odds for these inputs: {e}")

    def _waiting(self, p: Prepared) -> None:
        if p is self.prepared:
            self._show(None, WORKING)

    def _show(self, odds: dict[str, Fraction] | None, message: str = "") -> None:
        style = f"color: {muted(self)};"
        bare = None if odds else (message, style)
        if bare is not None and bare == self._bare:
            return  # no odds and the same words, as shown (issue 48: a step on drew them again)
        self._bare = bare
        self._odds = dict(odds or {})
        rows = list(self._odds.items())
        self.table.setRowCount(len(rows))
        for r, (label, p) in enumerate(rows):
            for c, text in enumerate((label, str(p), percent(p))):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(r, c, item)
        self.chart.show_odds(rows)
        header = self.table.horizontalHeader().height()
        self.table.setFixedHeight(
            header
            + 2 * self.table.frameWidth()
            + 2
            + sum(self.table.rowHeight(r) for r in range(len(rows)))
        )
        self.message.setText(message)
        if self.message.styleSheet() != style:  # set again, Qt polishes it again
            self.message.setStyleSheet(style)
        self.message.setVisible(bool(message))
        part = self.model.odds if odds and self.model.has_session else None
        self.chain.show_for(part, self.prepared if odds else None)
        names = {a.id: a.name for a in self.model.engagement.aircraft.values()}
        self.compare.show_now(self.prepared if odds else None, odds, names)
