"""What a panel shows as plain data, and back: its items, labels and scroll bars (issue 20).

A "glance" is what a panel showed when the desk closed, as JSON-able dictionaries, lists,
strings, numbers and booleans, so that the next start can paint a light view of the panel
before the game's models are imported. These helpers capture and restore the parts the
panels share: the items of a ``QTreeWidget`` or a ``QListWidget`` (text, tooltip, font
weight and slant, colours, alignment, flags, chosen data roles, selection, expanded state),
the current item, the scroll position, a header's labels and widths, a label's text and
style sheet.

Restoring checks the shape of the data only, cheaply: anything malformed raises
``ValueError`` saying where, and the caller falls back to building the live panel. Icons and
check boxes are not captured (neither panel shows any). Qt only: nothing here needs a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollBar,
    QTreeWidget,
    QTreeWidgetItem,
)

Glance = dict[str, Any]
#: the roles whose values a cell may carry in a glance: plain data only
PLAIN = (str, int, float, bool)

Role = Qt.ItemDataRole
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


# -- checking the shape of a glance ------------------------------------------------------------


def need(data: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``data[key]``, which must be a ``kind``; else ``ValueError`` naming ``where.key``."""
    if not isinstance(data, Mapping):
        raise ValueError(f"glance: {where} is not a mapping")
    if key not in data:
        raise ValueError(f"glance: {where}.{key} is missing")
    value = data[key]
    if not _is(value, kind):
        raise ValueError(f"glance: {where}.{key} is {type(value).__name__}, not {_names(kind)}")
    return value


def maybe(data: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``data[key]`` if present (then it must be a ``kind``), else None."""
    if not isinstance(data, Mapping):
        raise ValueError(f"glance: {where} is not a mapping")
    if key not in data or data[key] is None:
        return None
    return need(data, key, kind, where)


def _is(value: object, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        return False  # JSON's true is not a row number
    if isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX:
        return False  # Qt's widths, rows and flags are 32-bit
    return isinstance(value, kinds)


def _names(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


@contextmanager
def malformed_as_value_error(kind: str) -> Iterator[None]:
    """Whatever a glance makes Qt or Python raise on its way in (a number too large for Qt, a
    type the checks above missed) is a malformed glance: ``ValueError``."""
    try:
        yield
    except ValueError:
        raise
    except (TypeError, OverflowError, KeyError, IndexError, AttributeError) as error:
        raise ValueError(f"glance: malformed {kind} glance ({error})") from error


def check_kind(data: object, kind: str, version: int) -> Mapping[str, Any]:
    """The glance of a ``kind`` of panel, written by this ``version`` of its view."""
    if not isinstance(data, Mapping):
        raise ValueError(f"glance: not a mapping but {type(data).__name__}")
    if data.get("kind") != kind:
        raise ValueError(f"glance: of a {data.get('kind')!r} panel, not of a {kind!r} panel")
    if data.get("version") != version:
        raise ValueError(f"glance: version {data.get('version')!r}, this desk reads {version}")
    return data


# -- colours and fonts -------------------------------------------------------------------------


def colour_glance(value: object) -> str | None:
    """A brush or colour as ``#aarrggbb``; None when unset."""
    if isinstance(value, QBrush):
        if value.style() == Qt.BrushStyle.NoBrush:
            return None
        value = value.color()
    if isinstance(value, QColor):
        return value.name(QColor.NameFormat.HexArgb)
    return None


def colour(text: str, where: str) -> QBrush:
    c = QColor(text)
    if not c.isValid():
        raise ValueError(f"glance: {where} is not a colour: {text!r}")
    return QBrush(c)


def font_glance(font: QFont) -> dict[str, bool]:
    """The weight and slant of an item's font (its family and size follow the view's)."""
    return {
        "bold": font.bold(),
        "italic": font.italic(),
        "underline": font.underline(),
        "strikeout": font.strikeOut(),
    }


def font(data: object, where: str) -> QFont:
    f = QFont()
    f.setBold(bool(need(data, "bold", bool, where)))
    f.setItalic(bool(need(data, "italic", bool, where)))
    f.setUnderline(bool(maybe(data, "underline", bool, where)))
    f.setStrikeOut(bool(maybe(data, "strikeout", bool, where)))
    return f


def _int(value: object) -> int | None:
    """An enum or flag (or an int) as an int; None when unset."""
    if value is None:
        return None
    if isinstance(value, int):
        return int(value)
    inner = getattr(value, "value", None)
    return int(inner) if isinstance(inner, int) else None


# -- one cell (a column of a tree item, or a list item) -----------------------------------------


def cell_glance(data: Any, roles: Iterable[int]) -> Glance:
    """What one cell shows: ``data(role)`` is its reader (``item.data`` or a column of it)."""
    out: Glance = {"text": str(data(Role.DisplayRole) or "")}
    tip = data(Role.ToolTipRole)
    if tip:
        out["tip"] = str(tip)
    f = data(Role.FontRole)
    if isinstance(f, QFont):
        out["font"] = font_glance(f)
    for key, role in (("fg", Role.ForegroundRole), ("bg", Role.BackgroundRole)):
        c = colour_glance(data(role))
        if c is not None:
            out[key] = c
    align = _int(data(Role.TextAlignmentRole))
    if align is not None:
        out["align"] = align
    kept = {}
    for wanted in roles:
        value = data(wanted)
        if isinstance(value, PLAIN):
            kept[str(int(wanted))] = value
    if kept:
        out["roles"] = kept
    return out


def show_cell(set_data: Any, cell: object, roles: Iterable[int], where: str) -> None:
    """Set what ``cell_glance`` captured through ``set_data(role, value)``."""
    text = need(cell, "text", str, where)
    assert isinstance(cell, Mapping)
    set_data(Role.DisplayRole, text)
    tip = maybe(cell, "tip", str, where)
    if tip:
        set_data(Role.ToolTipRole, tip)
    f = maybe(cell, "font", Mapping, where)
    if f is not None:
        set_data(Role.FontRole, font(f, f"{where}.font"))
    for key, role in (("fg", Role.ForegroundRole), ("bg", Role.BackgroundRole)):
        c = maybe(cell, key, str, where)
        if c is not None:
            set_data(role, colour(c, f"{where}.{key}"))
    align = maybe(cell, "align", int, where)
    if align is not None:
        set_data(Role.TextAlignmentRole, align)
    allowed = {str(int(r)): r for r in roles}
    kept = maybe(cell, "roles", Mapping, where) or {}
    for key, value in kept.items():
        if key not in allowed:
            raise ValueError(f"glance: {where}.roles has an unknown role {key!r}")
        if not _is(value, PLAIN):
            raise ValueError(f"glance: {where}.roles.{key} is not plain data")
        set_data(allowed[key], value)


def _flags(value: int, where: str) -> Qt.ItemFlag:
    try:
        return Qt.ItemFlag(value)
    except ValueError as error:
        raise ValueError(f"glance: {where}.flags is not a set of item flags: {value}") from error


# -- tree widgets --------------------------------------------------------------------------------


def tree_item_glance(item: QTreeWidgetItem, columns: int, roles: Iterable[int]) -> Glance:
    roles = tuple(roles)
    out: Glance = {
        "cells": [cell_glance(lambda r, c=c: item.data(c, r), roles) for c in range(columns)],
        "flags": _int(item.flags()),
    }
    if item.isExpanded():
        out["expanded"] = True
    if item.isSelected():
        out["selected"] = True
    if item.isHidden():
        out["hidden"] = True
    if item.childCount():
        out["children"] = [
            tree_item_glance(child, columns, roles)
            for child in (item.child(i) for i in range(item.childCount()))
            if child is not None
        ]
    return out


def tree_glance(tree: QTreeWidget, roles: Iterable[int] = ()) -> Glance:
    """Every item of ``tree`` (and its header, current item and scroll position)."""
    columns = tree.columnCount()
    header = tree.header()
    heading = tree.headerItem()
    current = tree.currentItem()
    return {
        "header": {
            "labels": [heading.text(c) for c in range(columns)],
            "widths": [header.sectionSize(c) for c in range(columns)],
        },
        "items": [
            tree_item_glance(item, columns, roles)
            for item in (tree.topLevelItem(i) for i in range(tree.topLevelItemCount()))
            if item is not None
        ],
        "current": None if current is None else _tree_path(tree, current),
        "current_column": tree.currentColumn(),
        "scroll": scroll_glance(tree),
    }


def _tree_path(tree: QTreeWidget, item: QTreeWidgetItem) -> list[int]:
    path: list[int] = []
    at: QTreeWidgetItem | None = item
    while at is not None:
        parent = at.parent()
        path.append(parent.indexOfChild(at) if parent else tree.indexOfTopLevelItem(at))
        at = parent
    return path[::-1]


def show_tree(tree: QTreeWidget, data: object, roles: Iterable[int] = (), where: str = "") -> None:
    """Fill an empty ``tree`` with what ``tree_glance`` captured."""
    where = where or "tree"
    roles = tuple(roles)
    header = need(data, "header", Mapping, where)
    labels = need(header, "labels", list, f"{where}.header")
    widths = need(header, "widths", list, f"{where}.header")
    if not all(isinstance(t, str) for t in labels):
        raise ValueError(f"glance: {where}.header.labels are not all text")
    if not all(_is(w, int) and w >= 0 for w in widths) or len(widths) != len(labels):
        raise ValueError(f"glance: {where}.header.widths are not one width per label")
    items = need(data, "items", list, where)
    columns = len(labels)
    built = [_tree_item(it, columns, roles, f"{where}.items[{i}]") for i, it in enumerate(items)]
    current = maybe(data, "current", list, where)
    column = maybe(data, "current_column", int, where) or 0

    tree.clear()
    tree.setColumnCount(columns)
    tree.setHeaderLabels(labels)
    tree.addTopLevelItems([item for item, _ in built])
    for item, extra in built:
        _after_insert(item, extra)
    for c, width in enumerate(widths):
        tree.header().resizeSection(c, width)
    if current is not None:
        item = _tree_at(tree, current, where)
        index = tree.indexFromItem(item, column)
        tree.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
    show_scroll(tree, maybe(data, "scroll", Mapping, where), f"{where}.scroll")


def carry_tree(source: QTreeWidget, target: QTreeWidget) -> None:
    """The live ``target`` taking the place of the glance ``source`` keeps what the umpire
    left: the selected items, the current item and the scroll position. Items are matched by
    their place and first column's text (the live tree shows the same game)."""

    def match(item: QTreeWidgetItem) -> QTreeWidgetItem | None:
        at: QTreeWidgetItem | None = None
        for i in _tree_path(source, item):
            at = target.topLevelItem(i) if at is None else at.child(i)
            if at is None:
                return None
        return at if at is not None and at.text(0) == item.text(0) else None

    for item in source.selectedItems():
        live = match(item)
        if live is not None:
            live.setSelected(True)
    current = source.currentItem()
    live = match(current) if current is not None else None
    if live is not None:
        index = target.indexFromItem(live, max(source.currentColumn(), 0))
        target.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
    show_scroll(target, scroll_glance(source), "scroll")


def _tree_item(
    data: object, columns: int, roles: tuple[int, ...], where: str
) -> tuple[QTreeWidgetItem, Glance]:
    """A new item from its glance, and what can only be set once it is in a tree."""
    cells = need(data, "cells", list, where)
    assert isinstance(data, Mapping)
    if len(cells) != columns:
        raise ValueError(f"glance: {where} has {len(cells)} cells for {columns} columns")
    item = QTreeWidgetItem()
    flags = maybe(data, "flags", int, where)
    if flags is not None:
        item.setFlags(_flags(flags, where))
    for c, cell in enumerate(cells):
        show_cell(lambda r, v, c=c: item.setData(c, r, v), cell, roles, f"{where}.cells[{c}]")
    children = maybe(data, "children", list, where) or []
    built = [
        _tree_item(child, columns, roles, f"{where}.children[{i}]")
        for i, child in enumerate(children)
    ]
    item.addChildren([child for child, _ in built])
    extra: Glance = {
        "expanded": bool(maybe(data, "expanded", bool, where)),
        "selected": bool(maybe(data, "selected", bool, where)),
        "hidden": bool(maybe(data, "hidden", bool, where)),
        "children": built,
    }
    return item, extra


def _after_insert(item: QTreeWidgetItem, extra: Glance) -> None:
    """Expanded, selected and hidden are kept by the tree, not the item: set once inserted."""
    for child, more in extra["children"]:
        _after_insert(child, more)
    if extra["hidden"]:
        item.setHidden(True)
    if extra["expanded"]:
        item.setExpanded(True)
    if extra["selected"]:
        item.setSelected(True)


def _tree_at(tree: QTreeWidget, path: list[Any], where: str) -> QTreeWidgetItem:
    item: QTreeWidgetItem | None = None
    for n in path:
        count = tree.topLevelItemCount() if item is None else item.childCount()
        if not _is(n, int) or not 0 <= n < count:
            raise ValueError(f"glance: {where}.current {path} names no item")
        item = tree.topLevelItem(n) if item is None else item.child(n)
    if item is None:
        raise ValueError(f"glance: {where}.current is empty")
    return item


# -- list widgets --------------------------------------------------------------------------------


def list_glance(view: QListWidget, roles: Iterable[int] = ()) -> Glance:
    """Every item of ``view``, its current row and its scroll position."""
    roles = tuple(roles)
    items = []
    for i in range(view.count()):
        item = view.item(i)
        one = cell_glance(item.data, roles)
        one["flags"] = _int(item.flags())
        if item.isSelected():
            one["selected"] = True
        if item.isHidden():
            one["hidden"] = True
        items.append(one)
    return {"items": items, "current": view.currentRow(), "scroll": scroll_glance(view)}


def show_list(view: QListWidget, data: object, roles: Iterable[int] = (), where: str = "") -> None:
    """Fill ``view`` with what ``list_glance`` captured."""
    where = where or "list"
    roles = tuple(roles)
    items = need(data, "items", list, where)
    current = need(data, "current", int, where)
    assert isinstance(data, Mapping)
    if not -1 <= current < len(items):
        raise ValueError(f"glance: {where}.current {current} names no item")
    built = []
    for i, one in enumerate(items):
        at = f"{where}.items[{i}]"
        item = QListWidgetItem()
        show_cell(item.setData, one, roles, at)
        flags = maybe(one, "flags", int, at)
        if flags is not None:
            item.setFlags(_flags(flags, at))
        built.append((item, bool(maybe(one, "selected", bool, at)), maybe(one, "hidden", bool, at)))
    view.clear()
    for item, _, _ in built:
        view.addItem(item)
    for item, selected, hidden in built:
        if hidden:
            item.setHidden(True)
        if selected:
            item.setSelected(True)
    if current >= 0:
        view.selectionModel().setCurrentIndex(
            view.model().index(current, 0), QItemSelectionModel.SelectionFlag.NoUpdate
        )
    show_scroll(view, maybe(data, "scroll", Mapping, where), f"{where}.scroll")


# -- scroll bars and labels ----------------------------------------------------------------------


def scroll_glance(view: QAbstractScrollArea) -> dict[str, int]:
    return {
        "v": view.verticalScrollBar().value(),
        "h": view.horizontalScrollBar().value(),
    }


def show_scroll(view: QAbstractScrollArea, data: Mapping[str, Any] | None, where: str) -> None:
    """Scroll ``view`` as captured. A view not yet laid out has no range to scroll in: the
    position is set once its range allows it (the first layout after it is shown)."""
    if data is None:
        return
    for key, bar in (("v", view.verticalScrollBar()), ("h", view.horizontalScrollBar())):
        value = maybe(data, key, int, where)
        if value:
            _scroll_when_possible(view, bar, value)


class _Scroll(QObject):
    """Holds a scroll bar at a value through the range changes of the view's first layouts
    (each may clamp it) and whatever else moves it as the view is first shown (a tree view
    scrolls back to the top then), until the view has painted once."""

    def __init__(self, view: QAbstractScrollArea, bar: QScrollBar, value: int) -> None:
        super().__init__(bar)
        self.view, self.bar, self.value = view, bar, value
        self.ending = False
        bar.rangeChanged.connect(self.apply)
        bar.valueChanged.connect(self.apply)
        view.viewport().installEventFilter(self)
        self.apply()

    def apply(self, *_: int) -> None:
        self.bar.setValue(self.value)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self.ending:
            self.ending = True
            # after this paint (which may lay the items out first), leave the bar to the umpire
            QTimer.singleShot(0, self, self.done)  # not after the view is gone
        return False

    def done(self) -> None:
        self.view.viewport().removeEventFilter(self)
        self.bar.rangeChanged.disconnect(self.apply)
        self.bar.valueChanged.disconnect(self.apply)
        self.deleteLater()


def _scroll_when_possible(view: QAbstractScrollArea, bar: QScrollBar, value: int) -> None:
    _Scroll(view, bar, value)


def label_glance(label: QLabel) -> dict[str, Any]:
    """A label's text, style sheet and whether it was hidden."""
    return {"text": label.text(), "style": label.styleSheet(), "hidden": label.isHidden()}


def show_label(label: QLabel, data: object, where: str) -> None:
    text = need(data, "text", str, where)
    style = need(data, "style", str, where)
    hidden = need(data, "hidden", bool, where)
    label.setStyleSheet(style)
    label.setText(text)
    label.setHidden(hidden)
