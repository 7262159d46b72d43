"""Reading a table widget's cells as shown: a cell never filled (``QTableWidget.item`` gives
``None``) shows nothing, so it reads as empty text."""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidget


def cell_text(table: QTableWidget, row: int, column: int) -> str:
    """The text the cell shows ("" for a cell with no item)."""
    item = table.item(row, column)
    return "" if item is None else item.text()


def row_texts(table: QTableWidget, row: int) -> tuple[str, ...]:
    """Every cell of a row, as shown."""
    return tuple(cell_text(table, row, c) for c in range(table.columnCount()))
