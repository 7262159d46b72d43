"""The tables editor: every TOML data table a ruleset ships, shown as its printed charts (rows x
columns with their headings, ``charts.charts_of``), the cells the rules text does not print
highlighted with a live count, and the umpire's values saved as an override in the user data
directory (``app.core.data.save_override``), never into the installed package.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.data import (
    MISSING,
    override_path,
    read_toml,
    save_override,
    table_model,
    table_problems,
)
from app.core.errors import DataFileError
from app.core.ruleset import Ruleset
from app.ui.editors.charts import Chart, charts_of, heading
from app.ui.message_bar import MessageBar

Path_ = tuple[str | int, ...]
#: a model's refusal as the umpire reads it
SAID = {
    "Input should be a valid list": "a list belongs here, such as [10, 20, 30]",
    "Input should be a valid integer": "a whole number belongs here",
    "Input should be a valid number": "a number belongs here",
}
MISSING_BRUSH = QBrush(QColor(255, 213, 79, 150))
EDITED_BRUSH = QBrush(QColor(129, 199, 132, 120))
ERROR_BRUSH = QBrush(QColor(229, 57, 53, 120))
BLANK_BRUSH = QBrush(QColor(120, 120, 120, 40))
ROLE_PATH = Qt.ItemDataRole.UserRole


def merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``over`` laid on top, tables merged key by key (as ``load_table`` does)."""
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = merged(out[k], v)
        else:
            out[k] = v
    return out


def cells(data: Any, prefix: Path_ = ()) -> list[tuple[Path_, Any]]:
    """Every scalar cell of a TOML document with its path (keys and list indexes)."""
    if isinstance(data, Mapping):
        return [c for k, v in data.items() for c in cells(v, (*prefix, k))]
    if isinstance(data, list):
        return [c for i, v in enumerate(data) for c in cells(v, (*prefix, i))]
    return [(prefix, data)]


def path_text(path: Path_) -> str:
    return "".join(
        f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path)
    )


def get(data: Any, path: Path_) -> Any:
    for p in path:
        data = data[p]
    return data


def put(data: Any, path: Path_, value: Any) -> None:
    for p in path[:-1]:
        data = data[p]
    data[path[-1]] = value


def parse_cell(text: str) -> Any:
    """A typed cell: a TOML value (``3``, ``-1``, ``2.5``, ``[1, 2]``, ``true``) or plain text."""
    text = text.strip()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def show_cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def override_of(
    shipped: Mapping[str, Any], data: Mapping[str, Any], edited: set[Path_]
) -> dict[str, Any]:
    """The smallest override holding the edited cells: tables key by key, an array whole (an
    override replaces arrays, it does not merge them)."""
    out: dict[str, Any] = {}
    for path in sorted(edited, key=path_text):
        cut = next((i for i, p in enumerate(path) if isinstance(p, int)), len(path))
        keys = path[:cut]
        node = out
        for k in keys[:-1]:
            node = node.setdefault(str(k), {})
        node[str(keys[-1])] = copy.deepcopy(get(data, keys))
    return out


def printed_name(name: str, path: Path) -> str:
    """A table file by its printed title (``title``, else its rule), never a raw file key."""
    try:
        doc = read_toml(path)
    except DataFileError:
        return name
    title = doc.get("title")
    if isinstance(title, str) and title:
        # Nth Fleet's names are printed titles with the rule: "... table (2.9)"
        return name if title.lower() in name.lower() and len(name) > len(title) else title
    rule = doc.get("rule")
    if isinstance(rule, str) and rule:
        return rule.split(":")[-1].strip() if ":" in rule else rule
    return heading(name)


def _tokens(text: str) -> list[str]:
    """Words and signed numbers, as a heading or a cell's name says them ("roll -1")."""
    return re.findall(r"-?\d+(?:\.\d+)?|[a-z]+", text.lower())


def _ends_with(part: list[str], heading: list[str]) -> bool:
    return bool(heading) and part[len(part) - len(heading) :] == heading


def _headings_said(parts: list[list[str]], row: str, column: str) -> int:
    """How many of a cell's two headings the parts of a missing cell's name end with, each
    heading in a part of its own: 2 names the cell exactly ("attack rating 5" and "roll 1")."""
    r, c = _tokens(row), _tokens(column)
    pairs = [
        int(_ends_with(parts[i], r)) + int(_ends_with(parts[j], c))
        for i in range(len(parts))
        for j in range(len(parts))
        if i != j
    ]
    single = [int(_ends_with(p, r) or _ends_with(p, c)) for p in parts]
    return max([*pairs, *single, 0])


class TablesEditor(QWidget):
    """A window listing the ruleset's tables; edit cells, then Save (Ctrl+S)."""

    saved = Signal(str)

    def __init__(
        self,
        ruleset: Ruleset,
        parent: QWidget | None = None,
        select: tuple[str, str] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("TablesEditor")
        self.setWindowTitle(f"Tables: {ruleset.title}")
        self.ruleset = ruleset
        self.files: dict[str, Path] = dict(ruleset.table_files())
        self.name: str | None = None
        self.shipped: dict[str, Any] = {}
        self.data: dict[str, Any] = {}
        self.edited: set[Path_] = set()
        self.errors: dict[Path_, str] = {}
        self.charts: list[Chart] = []
        self._filling = False

        layout = QVBoxLayout(self)
        self.message = MessageBar()
        layout.addWidget(self.message)
        split = QSplitter()
        self.list = QListWidget()
        self.list.setObjectName("table_list")
        for name, path in self.files.items():
            item = QListWidgetItem(printed_name(name, path))
            item.setData(ROLE_PATH, name)
            item.setToolTip(str(path))
            self.list.addItem(item)
        split.addWidget(self.list)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel()
        self.heading.setObjectName("heading")
        self.heading.setWordWrap(True)
        rl.addWidget(self.heading)
        chart_row = QHBoxLayout()
        chart_label = QLabel("&Chart")
        self.chart = QComboBox()
        self.chart.setObjectName("chart")
        chart_label.setBuddy(self.chart)
        chart_row.addWidget(chart_label)
        chart_row.addWidget(self.chart, 1)
        rl.addLayout(chart_row)
        self.only_missing = QCheckBox("Show only the rows with cells the rules text does not print")
        rl.addWidget(self.only_missing)
        self.table = QTableWidget(0, 0)
        self.table.setObjectName("cells")
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        rl.addWidget(self.table, 1)
        self.error = QLabel()
        self.error.setObjectName("cell_error")
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        self.error.hide()
        rl.addWidget(self.error)
        buttons = QHBoxLayout()
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        buttons.addWidget(self.status, 1)
        self.save_button = QPushButton("&Save my values")
        self.save_button.setObjectName("save")
        buttons.addWidget(self.save_button)
        rl.addLayout(buttons)
        split.addWidget(right)
        split.setStretchFactor(1, 3)
        split.setSizes([190, 570])
        layout.addWidget(split, 1)
        self.empty = QLabel(f"{ruleset.title} ships no editable tables.")
        self.empty.setVisible(not self.files)
        layout.addWidget(self.empty)
        self.resize(900, 560)

        self.list.currentItemChanged.connect(lambda cur, _prev: self._open(cur))
        self.table.itemChanged.connect(self._cell_edited)
        self.only_missing.toggled.connect(lambda _c: self._fill())
        self.chart.currentIndexChanged.connect(lambda _i: self._fill())
        self.save_button.clicked.connect(self.save)
        sc = QShortcut(QKeySequence.StandardKey.Save, self)
        sc.activated.connect(self.save)

        if self.files:
            self.list.setCurrentRow(0)
            if select:
                self.go_to(*select)

    def go_to(self, table: str, cell: str) -> None:
        """The cursor on the missing cell a ``MissingTableValue`` names (``table``, ``cell``),
        in whichever of the ruleset's tables holds it."""
        start = self._find(table)
        if start is not None:
            self.list.setCurrentRow(list(self.files).index(start))
        self.select_missing(cell)

    def _find(self, table: str) -> str | None:
        """The file a ``MissingTableValue`` names: by key, title or rule, else one with gaps."""
        want = table.lower()
        for name, path in self.files.items():
            try:
                doc = read_toml(path)
            except DataFileError:
                continue
            names = {
                name.lower(),
                str(doc.get("title", "")).lower(),
                str(doc.get("rule", "")).lower(),
            }
            if want in names or any(n and n in want for n in names):
                return name
        for name, path in self.files.items():
            try:
                if any(v == MISSING for _, v in cells(read_toml(path))):
                    return name
            except DataFileError:
                continue
        return None

    # -- one table ---------------------------------------------------------------------------

    def _open(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        if self.edited and self.name is not None:
            self.save()
            if self.errors:
                return
        self.name = item.data(ROLE_PATH)
        path = self.files[self.name]
        self.message.clear_refusal()
        try:
            self.shipped = read_toml(path)
            over = override_path(self.ruleset.id, path.stem)
            self.data = (
                merged(self.shipped, read_toml(over))
                if over.exists()
                else copy.deepcopy(self.shipped)
            )
        except DataFileError as e:
            self.shipped, self.data = {}, {}
            self.message.show_refusal(str(e))
        self.edited, self.errors = set(), {}
        headings = self.ruleset.table_headings().get(path.stem, {})
        self.charts = charts_of(self.data, headings)
        self._filling = True
        self.chart.clear()
        for c in self.charts:
            self.chart.addItem(c.title)
        self.chart.setVisible(len(self.charts) > 1)
        self._filling = False
        gaps = [i for i, c in enumerate(self.charts) if self._missing(c)]
        self.chart.setCurrentIndex(gaps[0] if gaps else 0)
        self._show_heading()
        self._fill()

    def _missing(self, chart: Chart) -> int:
        return sum(1 for p in chart.cells.values() if get(self.data, p) == MISSING)

    @property
    def current_chart(self) -> Chart | None:
        i = self.chart.currentIndex()
        return self.charts[i] if 0 <= i < len(self.charts) else None

    def _show_heading(self) -> None:
        """Title, rule, file and the live count of cells still missing (issue 14)."""
        assert self.name is not None
        title = printed_name(self.name, self.files[self.name])
        rule = self.data.get("rule", "")
        gaps = sum(1 for _, v in cells(self.data) if v == MISSING)
        for i, c in enumerate(self.charts):
            n = self._missing(c)
            self.chart.setItemText(i, c.title + (f" ({n} missing)" if n else ""))
        self.missing_count = gaps
        self.heading.setText(
            f"<b>{title}</b>"
            + (f" ({rule})" if rule else "")
            + f"<br>{self.files[self.name]}<br>"
            + (
                f"{gaps} cell(s) still missing: type the values from your copy of the game."
                if gaps
                else "Every cell has a value."
            )
        )

    def _fill(self) -> None:
        """The current chart as printed: its row and column headings, a cell per value."""
        chart = self.current_chart
        self._filling = True
        self.table.clear()
        if chart is None:
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            self._filling = False
            return
        self.table.setRowCount(len(chart.rows))
        self.table.setColumnCount(len(chart.columns))
        self.table.setVerticalHeaderLabels(chart.rows)
        self.table.setHorizontalHeaderLabels(chart.columns)
        for r in range(len(chart.rows)):  # a row of an aircraft type: its card's printed name
            first = next((p for (rr, _c), p in chart.cells.items() if rr == r), None)
            card = self._card_of(first) if first is not None else None
            if card is not None:
                header = QTableWidgetItem(card[1])
                header.setToolTip(card[0])
                self.table.setVerticalHeaderItem(r, header)
        for r in range(len(chart.rows)):
            for c in range(len(chart.columns)):
                p = chart.cells.get((r, c))
                if p is None:
                    blank = QTableWidgetItem("")
                    blank.setFlags(Qt.ItemFlag.NoItemFlags)
                    blank.setBackground(BLANK_BRUSH)
                    self.table.setItem(r, c, blank)
                    continue
                item = QTableWidgetItem(show_cell(get(self.data, p)))
                item.setData(ROLE_PATH, p)
                self.table.setItem(r, c, item)
                self._style(item)
        for r in range(len(chart.rows)):
            keep = any(
                get(self.data, chart.cells[(r, c)]) == MISSING or chart.cells[(r, c)] in self.edited
                for c in range(len(chart.columns))
                if (r, c) in chart.cells
            )
            self.table.setRowHidden(r, self.only_missing.isChecked() and not keep)
        self._filling = False
        self._show_errors()

    def _card_of(self, p: Path_) -> tuple[str, str] | None:
        """(type id, printed name) of the aircraft type a cell's row is keyed by (Nth Fleet's
        Defence Value Table: "A-6E", never "a6e"), or None (issue 29)."""
        try:
            catalogue = self.ruleset.aircraft
        except Exception:  # noqa: BLE001 - a catalogue that cannot be read: the keys as they are
            return None
        for key in reversed(p):
            if isinstance(key, str) and key in catalogue:
                name = getattr(catalogue[key], "name", None)
                return (key, name) if isinstance(name, str) and name else None
        return None

    def _style(self, item: QTableWidgetItem) -> None:
        p = item.data(ROLE_PATH)
        try:
            shipped = show_cell(get(self.shipped, p))
        except (KeyError, IndexError, TypeError):
            shipped = "(not shipped)"
        if p in self.errors:
            brush, tip = ERROR_BRUSH, self.errors[p]
        elif get(self.data, p) == MISSING:
            brush, tip = MISSING_BRUSH, "Not printed in the rules text: type the value"
        elif p in self.edited:
            brush, tip = EDITED_BRUSH, f"Your value (not saved yet); shipped: {shipped}"
        else:
            brush, tip = QBrush(), f"{path_text(p)}; shipped: {shipped}"
        was, self._filling = self._filling, True
        item.setBackground(brush)
        item.setToolTip(tip)
        self._filling = was

    def _restyle(self) -> None:
        for r in range(self.table.rowCount()):
            for c in range(self.table.columnCount()):
                item = self.table.item(r, c)
                if item is not None and item.data(ROLE_PATH) is not None:
                    self._style(item)

    def cell_name(self, p: Path_) -> str:
        """A cell as the umpire reads it: "Chart, row heading, column heading"."""
        for chart in self.charts:
            rc = chart.position(p)
            if rc is not None:
                return f"{chart.title}, {chart.rows[rc[0]]}, {chart.columns[rc[1]]}"
        return path_text(p)

    def _cell_edited(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        p = item.data(ROLE_PATH)
        if p is None:
            return
        value = parse_cell(item.text())
        try:
            shipped = get(self.shipped, p)
        except (KeyError, IndexError, TypeError):
            shipped = None
        if shipped == MISSING:  # the printed neighbours say what kind of value it is
            try:
                parent = get(self.shipped, p[:-1])
            except (KeyError, IndexError, TypeError):
                parent = {}
            near = [v for v in (parent.values() if isinstance(parent, Mapping) else parent)]
            known = [v for v in near if v != MISSING and not isinstance(v, Mapping | list)]
            numeric = bool(known) and all(_is_number(v) for v in known)
        else:
            numeric = _is_number(shipped)
        if numeric and not (value == MISSING or _is_number(value) or isinstance(value, list)):
            self.errors[p] = f"{self.cell_name(p)}: {item.text()!r} is not a number"
        elif isinstance(shipped, bool) and not isinstance(value, bool):
            self.errors[p] = f"{self.cell_name(p)}: type true or false"
        elif why := self._refused_by_model(p, value):
            self.errors[p] = f"{self.cell_name(p)}: {item.text()!r} does not fit the table: {why}"
        else:
            self.errors.pop(p, None)
            put(self.data, p, value)
            self.edited.add(p)
        self._style(item)
        self._show_errors()
        self._show_heading()
        self.status.setText(f"{len(self.edited)} unsaved change(s)" if self.edited else "")

    def _refused_by_model(self, p: Path_, value: Any) -> str:
        """Why the table's own model refuses ``value`` in cell ``p`` (a number where the text's
        table wants a list of column headings, say), or "" when it fits (issue 29). Only what
        this value brings is said: a table that was already short of cells stays editable."""
        model = table_model(self.files[self.name]) if self.name else None
        if model is None:
            return ""
        old = get(self.data, p)
        before = table_problems(model, self.data)
        put(self.data, p, value)
        try:
            after = table_problems(model, self.data)
        finally:
            put(self.data, p, old)
        new = [(loc, msg) for loc, msg in after if (loc, msg) not in before]
        if not new:
            return ""
        here = [msg for loc, msg in new if tuple(loc[: len(p)]) == p]
        said = [SAID.get(m, m) for m in here or [f"{path_text(loc)}: {m}" for loc, m in new]]
        kept = [m for m in said if m != "Input should be 'missing'"] or said
        return "; ".join(dict.fromkeys(kept))

    def _show_errors(self) -> None:
        text = "; ".join(self.errors.values())
        self.error.setText(text)
        self.error.setVisible(bool(text))

    # -- public ------------------------------------------------------------------------------

    def locate(self, cell: str) -> tuple[int, int] | None:
        """Show the chart holding cell ``cell`` (its dotted path) and give its (row, column)."""
        for i, chart in enumerate(self.charts):
            for rc, p in chart.cells.items():
                if path_text(p) == cell:
                    if self.chart.currentIndex() != i:
                        self.chart.setCurrentIndex(i)
                    return rc
        return None

    def select_missing(self, near: str = "") -> None:
        """Put the cursor on the missing cell that best matches ``near`` (the words of a
        ``MissingTableValue``'s cell), or on the first missing cell.

        A cell whose row and column headings are each said, whole, in a part of ``near`` of
        their own wins ("attack rating 5, roll 1": row 5, column "roll 1"; never "roll -1",
        nor row 1 of the "roll 1" column, issue 43); the words in common only break ties."""
        words = re.findall(r"\w+", near.lower())
        parts = [_tokens(part) for part in near.split(",")]
        best: tuple[int, tuple[int, int]] | None = None
        best_score = (-1, -1)
        for i, chart in enumerate(self.charts):
            for (r, c), p in chart.cells.items():
                if get(self.data, p) != MISSING:
                    continue
                name = f"{path_text(p)} {chart.rows[r]} {chart.columns[c]}".lower()
                said = _headings_said(parts, chart.rows[r], chart.columns[c])
                score = (said, sum(1 for w in words if w in name))
                if score > best_score:
                    best, best_score = (i, (r, c)), score
        if best is not None:
            self.chart.setCurrentIndex(best[0])
            self.table.setCurrentCell(*best[1])

    def save(self) -> None:
        """Write the edited cells as the umpire's override of this table."""
        if self.name is None:
            return
        if self.errors:
            self.message.show_refusal("Not saved: " + "; ".join(self.errors.values()))
            return
        if not self.edited:
            self.status.setText("Nothing to save.")
            return
        try:
            # the override is named after the shipped file, which is what load_table reads
            # (the list's name is only a label: Nth Fleet's are printed titles, issue 14)
            path = save_override(
                self.ruleset.id,
                self.files[self.name].stem,
                override_of(self.shipped, self.data, self.edited),
            )
        except (OSError, DataFileError) as e:
            self.message.show_refusal(f"Not saved: {e}")
            return
        self.message.clear_refusal()
        self.edited = set()
        self._restyle()
        self._show_heading()
        self.status.setText(f"Saved to {path}")
        self.saved.emit(self.name)


if __name__ == "__main__":
    import sys

    from app.plugins import load_ruleset
    from app.ui.qt_app import application

    app = application()
    editor = TablesEditor(load_ruleset(sys.argv[1] if len(sys.argv) > 1 else "phantoms"))
    editor.show()
    raise SystemExit(app.exec())
