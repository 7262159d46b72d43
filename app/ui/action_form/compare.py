"""What-ifs side by side (issue 34): the Combat panel's "Compare" keeps the odds of the action
on the form as a column; the umpire changes the position, the weapon, the range or the target
and sees the odds as they are now beside up to four kept columns. Nothing is logged: the
columns are odds of prepared actions, never resolved. Escape clears them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.chain_odds import ChainOdds
from app.core.prepared import Prepared
from app.core.ruling import odds_text
from app.ui.widgets.tab_leaves import let_tab_leave

#: the most columns kept beside the one of the form as it is now
MOST_KEPT = 4


@dataclass(frozen=True)
class Column:
    """The odds of one prepared action: its outcomes and, when known, its chain."""

    prepared: Prepared
    names: dict[str, str]
    odds: dict[str, Fraction]
    chain: ChainOdds | None = None

    def shown(self) -> dict[str, str]:
        """What the umpire set: the procedure, the aircraft and each input, as text."""
        out = {"procedure": self.prepared.title}
        for role, ref in self.prepared.roles.items():
            out[role] = self.names.get(ref, ref) if ref else "(what-if)"
        for v in self.prepared.values:
            out[v.title] = _said(v.value)
        return out

    def rows(self) -> dict[str, str]:
        out = {label: odds_text(p) for label, p in self.odds.items()}
        if self.chain is not None:
            for fact in self.chain.chances:
                out[f"chain: {fact}"] = self.chain.text_of(fact)  # "at least" when cut
        return out


def _said(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


class CompareOdds(QWidget):
    """The kept columns and the column of the form as it is now, side by side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare_odds")
        self.kept: list[Column] = []
        self.now: Column | None = None
        self.button = QPushButton("Co&mpare")
        self.button.setObjectName("compare")
        self.button.setToolTip(
            "Keep these odds as a column, then change the position, weapon, range or target "
            f"to see them side by side (up to {MOST_KEPT}; nothing is logged; Escape clears)"
        )
        self.clear_button = QPushButton("Clear")
        self.clear_button.setObjectName("compare_clear")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.table = QTableWidget(0, 0)
        self.table.setObjectName("compare_table")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        let_tab_leave(self.table)  # Tab goes on past the columns, never round their cells
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.clear_button)
        row.addWidget(self.hint, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.table)
        self.button.clicked.connect(self.keep)
        self.clear_button.clicked.connect(self.clear)
        self._redraw()

    # -- what the panel tells it --------------------------------------------------------------

    def show_now(
        self,
        prepared: Prepared | None,
        odds: dict[str, Fraction] | None,
        names: dict[str, str],
        chain: ChainOdds | None = None,
    ) -> None:
        """The form as it is now (``None``: nothing to compare)."""
        self.now = Column(prepared, dict(names), dict(odds), chain) if prepared and odds else None
        self.button.setEnabled(self.now is not None)
        self._redraw()

    def chain_ready(self, prepared: Prepared, chain: ChainOdds | None) -> None:
        """The chain of the form's action, worked out after its odds."""
        if self.now is not None and self.now.prepared is prepared:
            self.now = Column(self.now.prepared, self.now.names, self.now.odds, chain)
            self._redraw()

    # -- the umpire ---------------------------------------------------------------------------

    def keep(self) -> None:
        """Keep the form's odds as a column (the oldest goes beyond four)."""
        if self.now is None:
            return
        self.kept.append(self.now)
        del self.kept[:-MOST_KEPT]
        self._redraw()

    def clear(self) -> None:
        self.kept = []
        self._redraw()

    # -- drawing ------------------------------------------------------------------------------

    def columns(self) -> list[tuple[str, dict[str, str]]]:
        """Each column's heading and rows, kept ones first, then the form as it is now."""
        cols = [*self.kept, *([self.now] if self.now is not None else [])]
        if not cols:
            return []
        shown = [c.shown() for c in cols]
        differ = [k for k in shown[0] if any(s.get(k) != shown[0].get(k) for s in shown)]
        differ += [k for s in shown for k in s if k not in shown[0] and k not in differ]
        out = []
        for i, (c, s) in enumerate(zip(cols, shown, strict=True)):
            head = "Now" if c is self.now else f"Kept {i + 1}"
            who = " → ".join(s[r] for r in ("attacker", "aircraft", "target") if s.get(r))
            # what differs between the columns first (the position, the range, the target ...)
            rows = {k[:1].upper() + k[1:]: s.get(k, "—") for k in differ}
            out.append((f"{head}\n{who}", {**rows, **c.rows()}))
        return out

    def _redraw(self) -> None:
        cols = self.columns() if self.kept else []
        self.setVisible(self.now is not None or bool(self.kept))
        self.clear_button.setVisible(bool(self.kept))
        self.table.setVisible(bool(self.kept))
        self.hint.setText(
            f"{len(self.kept)} kept; change the position, weapon, range or target to compare "
            "(nothing is logged; Escape clears)"
            if self.kept
            else ""
        )
        labels: list[str] = []
        for _, rows in cols:
            labels += [r for r in rows if r not in labels]
        self.table.setColumnCount(len(cols))
        self.table.setRowCount(len(labels))
        self.table.setHorizontalHeaderLabels([h for h, _ in cols])
        self.table.setVerticalHeaderLabels(labels)
        for c, (_, rows) in enumerate(cols):
            for r, label in enumerate(labels):
                item = QTableWidgetItem(rows.get(label, "—"))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()
        header = self.table.horizontalHeader()
        header.setMinimumHeight(header.sizeHint().height())
        height = header.sizeHint().height() + sum(
            self.table.rowHeight(r) for r in range(len(labels))
        )
        self.table.setFixedHeight(height + 2 * self.table.frameWidth() + 4)

    def cell(self, column: int, label: str) -> str:
        """The text of one cell (for tests): ``column`` counts the kept ones first."""
        return dict(self.columns()[column][1]).get(label, "—")
