"""Game log: every action's narrative line, newest last; undone actions struck through.

The lines live in a list model, so a 20,000-line log opens quickly and each new action is
one appended row. They are made from the summaries the model's log keeps (``LogEntry``), never
from envelopes: a 100,000-event log is not held in memory as events (issue 20).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.log_index import LogEntry
from app.core.reckoning import rule_cited
from app.ui.dialogs.ruling import RulingWindow, open_ruling
from app.ui.model import EngagementModel
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.accessible import named
from app.ui.widgets.log_progress import LogProgress
from app.ui.widgets.message_bar import muted
from app.ui.widgets.tab_leaves import let_tab_leave


class Line:
    """One line of the log, over the log's summaries (``LogEntry``); its text is made when
    first shown (a long log opens quickly).

    Steps of one turn taken one after another, with no action between, share one compact line
    (issue 13): it names the step now and how many were passed through."""

    __slots__ = ("_text", "entry", "steps")

    def __init__(self, entry: LogEntry) -> None:
        self.entry = entry
        self.steps: list[LogEntry] | None = [entry] if entry.clock_turn is not None else None
        self._text: str | None = None

    @property
    def meta(self) -> bool:
        return self.entry.meta

    @property
    def actions(self) -> set[int]:
        if self.steps:
            return {e.action for e in self.steps}
        return {self.entry.seq if self.entry.meta else self.entry.action}

    def takes(self, entry: LogEntry) -> bool:
        """Whether ``entry`` is a step of the same turn, to fold into this step line."""
        return bool(self.steps) and entry.clock_turn == self.entry.clock_turn

    def take_step(self, entry: LogEntry) -> None:
        """Fold the next step into this line (both are step changes)."""
        assert self.steps is not None
        self.steps.append(entry)
        self.entry, self._text = entry, None

    @property
    def text(self) -> str:
        if self._text is None:
            e = self.entry
            text = f"{e.when.astimezone():%H:%M:%S}  {e.narrative}"
            if e.rule and e.rule not in e.narrative:
                text += f"  [{e.rule}]"
            if self.steps and len(self.steps) > 1:
                text += f"  ({len(self.steps)} steps from {self.steps[0].narrative})"
            self._text = text
        return self._text

    @property
    def tip(self) -> str:
        if self.steps and len(self.steps) > 1:
            return "\n".join(f"#{e.seq} {e.narrative}" for e in self.steps)
        e = self.entry
        cited = f", {rule_cited(e.rule)}" if e.rule else ""
        return f"{e.narrative}\n#{e.seq} by {e.actor}{cited}"


class LogLines(QAbstractListModel):
    """The log's lines, the undone actions, and an optional filter (all words must appear)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.lines: list[Line] = []
        self.undone: set[int] = set()
        self.shown: list[int] | None = None
        self.words: list[str] = []
        self._muted = muted(parent)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        return len(self.lines) if self.shown is None else len(self.shown)

    def line(self, row: int) -> Line:
        return self.lines[row if self.shown is None else self.shown[row]]

    def struck(self, line: Line) -> bool:
        return not line.meta and line.actions <= self.undone

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> Any:
        if not index.isValid():
            return None
        line = self.line(index.row())
        if role == Qt.ItemDataRole.DisplayRole:
            return line.text
        if role == Qt.ItemDataRole.ToolTipRole:
            return line.tip + (" (undone)" if self.struck(line) else "")
        if role == Qt.ItemDataRole.FontRole and (line.meta or self.struck(line)):
            font = QFont()
            font.setStrikeOut(self.struck(line))
            font.setItalic(line.meta)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and self.struck(line):
            return QBrush(QColor(self._muted))
        return None

    def _matches(self, line: Line) -> bool:
        text = line.text.lower()
        return all(w in text for w in self.words)

    def set_lines(self, lines: list[Line], undone: set[int]) -> None:
        self.beginResetModel()
        self.lines, self.undone = lines, undone
        self._refilter()
        self.endResetModel()

    def add(self, lines: list[Line], undone: set[int], touched: set[int]) -> None:
        self.undone = undone
        last = self.lines[-1] if self.lines else None
        if lines and last is not None and last.takes(lines[0].entry):
            # every step the first new line folds (a slice of the first read brings several)
            for entry in lines.pop(0).steps or ():
                last.take_step(entry)
            shown = self.shown is None or (self.shown and self.shown[-1] == len(self.lines) - 1)
            if shown:
                i = self.index(self.rowCount() - 1)
                self.dataChanged.emit(i, i)
        new = [
            len(self.lines) + i
            for i, ln in enumerate(lines)
            if self.shown is None or self._matches(ln)
        ]
        if new:
            first = self.rowCount()
            self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
        self.lines.extend(lines)
        if self.shown is not None:
            self.shown.extend(new)
        if new:
            self.endInsertRows()
        if touched:
            # lines are in log order and a line's entry is its newest: scan back from the end
            # only as far as the oldest action touched (an undo is of a recent action; a
            # 100,000-event log has tens of thousands of lines)
            oldest = min(touched)
            for r in range(self.rowCount() - 1, -1, -1):
                line = self.line(r)
                if line.entry.seq < oldest:
                    break
                if line.actions & touched:
                    i = self.index(r)
                    self.dataChanged.emit(i, i)

    def set_filter(self, text: str) -> None:
        self.beginResetModel()
        self.words = text.lower().split()
        self._refilter()
        self.endResetModel()

    def _refilter(self) -> None:
        self.shown = (
            [i for i, ln in enumerate(self.lines) if self._matches(ln)] if self.words else None
        )


def to_lines(entries: Iterable[LogEntry]) -> list[Line]:
    lines: list[Line] = []
    for entry in entries:
        if not entry.narrative:
            continue
        if lines and lines[-1].takes(entry):
            lines[-1].take_step(entry)
        else:
            lines.append(Line(entry))
    return lines


class GameLogDock(QWidget):
    """The log as the umpire reads it; a filter narrows it to lines containing some words."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.lines_model = LogLines(self)
        #: how many of the model's log entries the lines cover
        self._read = 0

        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter the log…")
        self.filter.setClearButtonEnabled(True)
        named(self.filter, "Filter the game log", "Only the lines holding this text are shown")
        self.filter.textChanged.connect(self._filter)
        self.count = QLabel()
        #: the first read of a long log, a slice at a time (issue 20); beside the filter, so
        #: showing and hiding it changes no panel's height
        self.progress = LogProgress(model)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.progress)
        top.addWidget(self.count)

        # a table of fixed-height rows scrolls to the end in constant time; list and tree views
        # ask the model for a row count once per row on every scrollToBottom (20,000 lines)
        self.list = QTableView()
        named(
            self.list,
            "Game log",
            "Every action, oldest first, with its turn and rule; undone ones struck through. "
            "Enter or a double-click opens the action's ruling.",
        )
        self.list.setModel(self.lines_model)
        let_tab_leave(self.list)
        self.list.horizontalHeader().hide()
        self.list.horizontalHeader().setStretchLastSection(True)
        self.list.verticalHeader().hide()
        self.list.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.list.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.list.setShowGrid(False)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setWordWrap(False)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.list)
        #: the view follows the newest line, unless the umpire has scrolled back to read (a
        #: panel made smaller, which leaves the end out of view, still follows)
        self._following = True
        bar = self.list.verticalScrollBar()
        bar.valueChanged.connect(lambda v: setattr(self, "_following", v >= bar.maximum()))
        bar.rangeChanged.connect(self._follow_end)

        #: hidden or tabbed away: no work until shown (issue 20)
        self.when_shown = WhenShown(self, self.rebuild)
        model.reset.connect(self.when_shown.wrap(self.rebuild))
        model.log_read.connect(self.when_shown.wrap(self.add_entries))
        model.log_line_requested.connect(self.show_action)
        # a double-click or Enter on a line opens its ruling (issue 34)
        self.list.activated.connect(lambda index: self.open_ruling(index.row()))
        self.ruling_window: RulingWindow | None = None
        self.rebuild()

    def _follow_end(self, *_: int) -> None:
        """The list grew or shrank: back at its end, unless the umpire scrolled back."""
        if self._following:
            self.list.scrollToBottom()

    # -- rendering ----------------------------------------------------------------------------

    def rebuild(self) -> None:
        log = self.model.log
        self._read = len(log.entries)
        self.lines_model.set_lines(to_lines(log.entries), log.undone)
        self.progress.follow()
        self._following = True
        self._finish()

    def add_entries(self, toggled: Sequence[int]) -> None:
        """The lines of the entries the model's log took in since the last call (a slice of
        its first read, or an append); ``toggled``: the actions undone or redone in them."""
        log = self.model.log
        new = log.entries[self._read :]
        self._read = len(log.entries)
        self.lines_model.add(to_lines(new), log.undone, set(toggled))
        self.progress.follow()
        self._finish()

    def _finish(self) -> None:
        n = len(self.lines_model.lines)
        self.count.setText(f"{n} line{'s' if n != 1 else ''}")
        if self._following:
            self.list.scrollToBottom()

    def _filter(self, text: str) -> None:
        self.lines_model.set_filter(text)
        self.list.scrollToBottom()

    def show_action(self, action: int) -> None:
        """Select and show the line of this action (a plot point clicked in After-action);
        a filter that hides it is cleared first."""
        self.when_shown.fresh()
        m = self.lines_model

        def row() -> int | None:
            return next((r for r in range(m.rowCount()) if action in m.line(r).actions), None)

        found = row()
        if found is None and self.filter.text():
            self.filter.clear()
            found = row()
        if found is None:
            return
        self.list.selectRow(found)
        self.list.scrollTo(m.index(found, 0))

    def open_ruling(self, row: int) -> RulingWindow | None:
        """The ruling of the action shown line ``row`` belongs to (issue 34)."""
        m = self.lines_model
        if not 0 <= row < m.rowCount():
            return None
        self.ruling_window = open_ruling(self.model, m.line(row).entry.seq, self)
        return self.ruling_window

    # -- reading ------------------------------------------------------------------------------

    def is_struck(self, row: int) -> bool:
        """Whether shown line ``row`` is struck through (its action is undone)."""
        return self.lines_model.struck(self.lines_model.line(row))

    def lines(self) -> list[str]:
        """The lines shown, oldest first."""
        m = self.lines_model
        return [m.line(r).text for r in range(m.rowCount())]


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(GameLogDock))
