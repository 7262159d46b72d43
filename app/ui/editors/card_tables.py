"""A card field that is a table on the printed card (speeds, manoeuvres, missiles, guns, hard
points) edited as a grid of cells, laid out from the field's pydantic annotation.

Shapes (``shape_of``):

* ``items``: a list of records (missiles, guns): one row each, a column per leaf; rows are added
  and removed;
* ``keyed``: a mapping from a fixed set of keys to records (the manoeuvres chart): one row per
  key, an empty row leaves the key out;
* ``map``: a mapping from names to numbers (hit boxes): a name column and a value column;
* ``record``: one record (the speed chart, a gunsight): one row per field; a field that is
  itself a record spreads over the columns (``normal``: adjust, max level...).

Each cell has a path inside the field; a validation error of the whole card is mapped back to
its cell, which is marked and named (``CardTable.mark``).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
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

from app.ui.table_cells import cell_text

Path = tuple[str | int, ...]
ERROR_BRUSH = QBrush(QColor(229, 57, 53, 120))
#: a value the rules text does not print, as the Tables editor marks its cell (issue 43)
MISSING_CSS = "rgba(255, 213, 79, 150)"
NOT_PRINTED = "Not printed in the rules text: type the value from your copy of the game"
BLANK_BRUSH = QBrush(QColor(120, 120, 120, 40))
ROLE_PATH = Qt.ItemDataRole.UserRole
#: a fixed-length list of at most this many numbers gets a column per number (a chart row)
SPREAD = 12


def _strip_optional(annotation: Any) -> Any:
    """``X | None`` and ``X | Literal["missing"]`` -> ``X``."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [
            a
            for a in typing.get_args(annotation)
            if a is not type(None) and typing.get_origin(a) is not typing.Literal
        ]
        if len(args) == 1:
            return args[0]
    return annotation


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def shape_of(annotation: Any) -> str | None:
    """How a card field is shown as a table, or ``None`` (a plain form field)."""
    ann = _strip_optional(annotation)
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if _is_model(ann):
        return "record"
    if origin in (list, tuple) and args and _is_model(args[0]):
        return "items"
    if origin is dict and len(args) == 2:
        if _is_model(args[1]) and typing.get_origin(args[0]) is typing.Literal:
            return "keyed"
        if args[1] in (int, float, str):
            return "map"
    return None


def _fixed_length(info: FieldInfo) -> int | None:
    low = high = None
    for m in info.metadata:
        if isinstance(m, annotated_types.MinLen):
            low = m.min_length
        if isinstance(m, annotated_types.MaxLen):
            high = m.max_length
    return low if low is not None and low == high and low <= SPREAD else None


def _title(name: str, info: FieldInfo | None = None) -> str:
    if info is not None and info.title:
        return info.title
    return name if name.isupper() else name.replace("_", " ").capitalize()


class Column(typing.NamedTuple):
    """One column: its heading, its path inside a record and the leaf's annotation."""

    title: str
    path: Path
    annotation: Any


def columns_of(model: type[BaseModel]) -> list[Column]:
    out: list[Column] = []
    for name, info in model.model_fields.items():
        ann = _strip_optional(info.annotation)
        n = _fixed_length(info)
        if typing.get_origin(ann) is list and n is not None:
            inner = typing.get_args(ann)[0] if typing.get_args(ann) else Any
            out += [Column(f"{_title(name, info)} {i + 1}", (name, i), inner) for i in range(n)]
        else:
            out.append(Column(_title(name, info), (name,), info.annotation))
    return out


# -- cell text ---------------------------------------------------------------------------------


def show(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(show(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={show(v)}" for k, v in value.items())
    return str(value)


def _wants_text(annotation: Any) -> bool:
    ann = _strip_optional(annotation)
    if ann is str:
        return True
    if typing.get_origin(ann) is typing.Literal:
        return all(isinstance(a, str) for a in typing.get_args(ann))
    return False


def parse(text: str, annotation: Any) -> Any:
    """A cell's text as pydantic should see it: numbers as numbers (strict fields accept
    them), ``yes``/``no`` for a tick, ``a, b`` for a list, ``k=v, ...`` for a mapping."""
    text = text.strip()
    ann = _strip_optional(annotation)
    origin = typing.get_origin(ann)
    if origin in (list, tuple):
        inner = typing.get_args(ann)[0] if typing.get_args(ann) else Any
        return [parse(p, inner) for p in text.split(",") if p.strip()]
    if origin is dict:
        k_ann, v_ann = (*typing.get_args(ann), Any, Any)[:2]
        out = {}
        for part in text.split(","):
            if part.strip():
                k, _, v = part.partition("=")
                out[parse(k, k_ann)] = parse(v, v_ann)
        return out
    if _wants_text(ann):
        return text
    if ann is bool:
        low = text.lower()
        return {"yes": True, "true": True, "no": False, "false": False}.get(low, text)
    if text.lstrip("+-").isdigit():
        return int(text)
    if "/" not in text:
        try:
            return float(text)
        except ValueError:
            pass
    return text


# -- the widget --------------------------------------------------------------------------------


class Row(typing.NamedTuple):
    title: str
    #: the row's path inside the field (an index, a key, a field name)
    path: Path
    #: columns this row fills (a scalar row of a record fills the first column only)
    columns: list[Column]


class CardTable(QWidget):
    """One card field as a grid; ``changed`` after every typed cell."""

    changed = Signal()

    def __init__(self, name: str, info: FieldInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.info = info
        self.annotation = _strip_optional(info.annotation)
        self.optional = self.annotation is not info.annotation
        shape = shape_of(info.annotation)
        assert shape is not None, name
        self.shape = shape
        self.setObjectName(f"table_{name}")
        self._filling = False
        self.errors: dict[tuple[int, int], str] = {}
        args = typing.get_args(self.annotation)
        self.columns: list[Column]
        self.item_model: type[BaseModel] | None = None
        self.keys: list[str] = []
        if shape == "items":
            self.item_model = args[0]
            self.columns = columns_of(args[0])
        elif shape == "keyed":
            self.item_model = args[1]
            self.keys = [str(k) for k in typing.get_args(args[0])]
            self.columns = columns_of(args[1])
        elif shape == "map":
            self.columns = [Column("Name", (), str), Column("Value", (), args[1])]
        else:
            self.columns = self._record_columns()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, len(self.columns))
        self.table.setObjectName(f"cells_{name}")
        self.table.setHorizontalHeaderLabels([c.title for c in self.columns])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        layout.addWidget(self.table)
        if shape in ("items", "map"):
            buttons = QHBoxLayout()
            self.add_button = QPushButton("Add a row")
            self.add_button.setObjectName(f"add_{name}")
            self.remove_button = QPushButton("Remove the row")
            self.remove_button.setObjectName(f"remove_{name}")
            buttons.addWidget(self.add_button)
            buttons.addWidget(self.remove_button)
            buttons.addStretch(1)
            layout.addLayout(buttons)
            self.add_button.clicked.connect(self.add_row)
            self.remove_button.clicked.connect(self.remove_row)
        self.error = QLabel()
        self.error.setObjectName(f"error_{name}")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        self.error.hide()
        layout.addWidget(self.error)
        self.missing = QLabel(f"{NOT_PRINTED} (add its rows).")
        self.missing.setObjectName(f"missing_{name}")
        self.missing.setWordWrap(True)
        self.missing.setStyleSheet(f"background: {MISSING_CSS}; padding: 2px;")
        self.missing.hide()
        layout.addWidget(self.missing)
        self.rows: list[Row] = []
        self.table.itemChanged.connect(self._edited)
        self.set_value(None)

    def _record_columns(self) -> list[Column]:
        """A record's columns: the leaves of its sub-records (one row each); a record without
        sub-records has one Value column."""
        assert _is_model(self.annotation)
        cols: list[Column] = []
        for info in self.annotation.model_fields.values():
            sub = _strip_optional(info.annotation)
            if _is_model(sub):
                for c in columns_of(sub):
                    if c.title not in [x.title for x in cols]:
                        cols.append(c)
        return cols or [Column("Value", (), Any)]

    def _record_rows(self) -> list[Row]:
        assert _is_model(self.annotation)
        rows = []
        for fname, info in self.annotation.model_fields.items():
            sub = _strip_optional(info.annotation)
            if _is_model(sub):
                rows.append(Row(_title(fname, info), (fname,), columns_of(sub)))
            else:
                rows.append(Row(_title(fname, info), (fname,), [Column("", (), info.annotation)]))
        return rows

    # -- value in and out -----------------------------------------------------------------

    def set_value(self, value: Any) -> None:
        """Show ``value`` (the field as the card holds it, JSON-like)."""
        if hasattr(value, "model_dump"):
            value = value.model_dump(mode="json")
        #: a field the rules text does not print ("missing"): kept until a row is typed
        self.placeholder = value if isinstance(value, str) else None
        if isinstance(value, str):
            value = None
        if self.shape == "items":
            items = list(value or [])
            self.rows = [Row(str(i + 1), (i,), self.columns) for i in range(len(items))]
            data: list[Any] = items
        elif self.shape == "keyed":
            self.rows = [Row(k.replace("_", " "), (k,), self.columns) for k in self.keys]
            data = [(value or {}).get(k) for k in self.keys]
        elif self.shape == "map":
            pairs = list((value or {}).items())
            self.rows = [Row(str(i + 1), (i,), self.columns) for i in range(len(pairs))]
            data = [list(p) for p in pairs]
        else:
            self.rows = self._record_rows()
            data = [(value or {}).get(str(r.path[0])) for r in self.rows]
        self._filling = True
        self.table.setRowCount(len(self.rows))
        self.table.setVerticalHeaderLabels([r.title for r in self.rows])
        for r, (row, d) in enumerate(zip(self.rows, data, strict=True)):
            self._fill_row(r, row, d)
        self._filling = False
        self.errors = {}
        self._restyle()
        self._fit()

    def _fit(self) -> None:
        """As tall as its rows (and one more), so the page scrolls rather than the grid."""
        t = self.table
        rows = (
            sum(t.rowHeight(r) for r in range(t.rowCount()))
            or t.verticalHeader().defaultSectionSize()
        )
        t.setFixedHeight(rows + t.horizontalHeader().sizeHint().height() + 2 * t.frameWidth() + 4)

    def _fill_row(self, r: int, row: Row, data: Any) -> None:
        for c in range(len(self.columns)):
            if self.shape == "map":
                text = show(data[c]) if data is not None else ""
                live = True
            elif self.shape == "record" and row.columns[0].title == "":
                live = c == 0
                text = show(data) if live else ""
            else:
                col = self.columns[c]
                live = col in row.columns
                text = show(_get(data, col.path)) if live and data is not None else ""
            item = QTableWidgetItem(text)
            item.setData(ROLE_PATH, c)
            if not live:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                item.setBackground(BLANK_BRUSH)
            self.table.setItem(r, c, item)

    def value(self) -> Any:
        """The field as pydantic should see it (``None`` for an optional left empty)."""
        cells = [
            [cell_text(self.table, r, c).strip() for c in range(len(self.columns))]
            for r in range(len(self.rows))
        ]
        if self.shape == "map":
            return {t[0]: parse(t[1], self.columns[1].annotation) for t in cells if t[0] or t[1]}
        if self.shape == "record":
            if self.optional and not any(any(t) for t in cells):
                return None
            out: dict[str, Any] = {}
            for row, texts in zip(self.rows, cells, strict=True):
                if row.columns[0].title == "":
                    if texts[0]:
                        out[str(row.path[0])] = parse(texts[0], row.columns[0].annotation)
                else:
                    out[str(row.path[0])] = self._record(row.columns, texts)
            return out
        if self.shape == "items" and not cells and self.placeholder is not None:
            return self.placeholder
        records = [self._record(self.columns, texts) for texts in cells]
        if self.shape == "keyed":
            return {
                k: rec
                for k, rec, texts in zip(self.keys, records, cells, strict=True)
                if any(texts)
            }
        return records

    def _record(self, columns: Sequence[Column], texts: Sequence[str]) -> dict[str, Any]:
        rec: dict[str, Any] = {}
        for col in columns:
            text = texts[self.columns.index(col)]
            if len(col.path) == 2:  # a spread list: every cell kept, so a gap is named
                lst = rec.setdefault(str(col.path[0]), [])
                lst.append(parse(text, col.annotation) if text else "")
            elif text:
                rec[str(col.path[0])] = parse(text, col.annotation)
        return rec

    # -- rows ------------------------------------------------------------------------------

    def add_row(self) -> None:
        r = len(self.rows)
        self.rows.append(Row(str(r + 1), (r,), self.columns))
        self._filling = True
        self.table.setRowCount(r + 1)
        self.table.setVerticalHeaderLabels([row.title for row in self.rows])
        self._fill_row(r, self.rows[-1], None)
        self._filling = False
        self._fit()
        self.table.setCurrentCell(r, 0)
        self.changed.emit()

    def remove_row(self) -> None:
        r = self.table.currentRow()
        if r < 0 or not self.rows:
            return
        self.table.removeRow(r)
        self.rows = [Row(str(i + 1), (i,), self.columns) for i in range(len(self.rows) - 1)]
        self.table.setVerticalHeaderLabels([row.title for row in self.rows])
        self._fit()
        self.changed.emit()

    def _edited(self, _item: QTableWidgetItem) -> None:
        if not self._filling:
            self.changed.emit()

    def mark_missing(self, missing: bool) -> bool:
        """Mark the table as a value the rules text does not print (a card's ``"missing"``,
        kept until a row is typed); says whether it is marked."""
        missing = missing and not self.rows
        self.missing.setVisible(missing)
        self.table.setStyleSheet(
            f"QTableWidget {{ background: {MISSING_CSS}; }}" if missing else ""
        )
        return missing

    # -- errors ----------------------------------------------------------------------------

    def cell_name(self, r: int, c: int) -> str:
        """How the umpire finds a cell: "Missiles, row 2 (AIM-7E), Hit"."""
        row = self.rows[r]
        what = _title(self.name, self.info)
        label = f"row {row.title}" if self.shape in ("items", "map") else row.title
        # a row of records is named by its name column, else its first one ("aim7e", "nose")
        named = [i for i, x in enumerate(self.columns) if x.path == ("name",)] or [0]
        name = cell_text(self.table, r, named[0]) if self.shape == "items" else ""
        col = self.columns[c].title or "value"
        return f"{what}, {label}{f' ({name})' if name else ''}, {col}"

    def locate(self, loc: Sequence[str | int]) -> tuple[int, int] | None:
        """The cell a pydantic error location (inside this field) points at."""
        loc = [p for p in loc if not (isinstance(p, str) and "[" in p)]  # union branch tags
        if not loc:
            return None
        head, rest = loc[0], loc[1:]
        if self.shape in ("items", "map"):
            r = head if isinstance(head, int) and head < len(self.rows) else None
            if r is None:
                return None
            if self.shape == "map":
                return (r, 1)
            return (r, self._column(self.columns, rest))
        if self.shape == "keyed":
            if str(head) not in self.keys:
                return None
            return (self.keys.index(str(head)), self._column(self.columns, rest))
        for r, row in enumerate(self.rows):
            if row.path[0] == head:
                if row.columns[0].title == "":
                    return (r, 0)
                return (r, self._column(row.columns, rest))
        return None

    def _column(self, columns: Sequence[Column], rest: Sequence[str | int]) -> int:
        best = columns[0]
        for col in columns:
            if tuple(rest[: len(col.path)]) == col.path:
                best = col
                break
            if rest and col.path[0] == rest[0] and best.path[0] != rest[0]:
                best = col
        return self.columns.index(best)

    def mark(self, errors: Mapping[tuple[int, int], str], general: str = "") -> None:
        """Mark these cells (row, column) as wrong with their messages; clear the others."""
        self.errors = dict(errors)
        self._restyle()
        lines = [f"{self.cell_name(r, c)}: {m}" for (r, c), m in self.errors.items()]
        if general:
            lines.append(general)
        self.error.setText("; ".join(lines))
        self.error.setVisible(bool(lines))

    def _restyle(self) -> None:
        self._filling = True
        for r in range(self.table.rowCount()):
            for c in range(self.table.columnCount()):
                item = self.table.item(r, c)
                if item is None or not item.flags() & Qt.ItemFlag.ItemIsEditable:
                    continue
                bad = self.errors.get((r, c))
                item.setBackground(ERROR_BRUSH if bad else QBrush())
                item.setToolTip(bad or "")
        self._filling = False


def _get(data: Any, path: Path) -> Any:
    for p in path:
        if isinstance(data, Mapping):
            data = data.get(str(p))
        elif isinstance(data, list | tuple) and isinstance(p, int) and p < len(data):
            data = data[p]
        else:
            return None
    return data


__all__ = ["CardTable", "parse", "shape_of", "show"]
