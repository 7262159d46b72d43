"""Accessible names and descriptions (issue 47): what a screen reader says for a panel's main
widgets (its lists, tables, trees, fields and painted charts), one call per widget."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def named(widget: QWidget, name: str, description: str = "") -> QWidget:
    """``widget`` with its accessible name (what it is) and description (what it shows or
    what the keys do there); the widget, for use where it is made."""
    widget.setAccessibleName(name)
    if description:
        widget.setAccessibleDescription(description)
    return widget
