"""The umpire's walk at 1366x768, keys only: Tab leaves every table the umpire only reads.

Qt's tables take Tab to step from cell to cell and wrap from the last to the first, so a Tab
into the Game log, the Critical hits, a ledger's history or the Board's readings never came
out again (nor did Shift+Tab): the keyboard was trapped there until the mouse freed it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication

from app.core.dice import TableDice
from tests.players_desk import open_desk
from tests.ui.test_walk_gun_step import demo_at_the_gun_step


def test_tab_and_shift_tab_leave_the_tables_the_umpire_reads(tmp_path: Path, qtbot: Any) -> None:
    session = demo_at_the_gun_step(tmp_path / "demo.airboss")
    # Red 1 guns Olds 2 (4 hits, a critical hit owed: 7, engine hit): rows in every table
    session.perform(
        "gun_attack",
        {"attacker": "red-1", "target": "olds-2", "position_modifier": 0},
        TableDice([8, 2]),
    )
    session.perform("critical_hit", {"aircraft": "olds-2"}, TableDice([7]))
    window = open_desk(tmp_path, qtbot, session)
    window.persist_layout = False
    try:
        tables: list[tuple[str, QAbstractItemView]] = [
            ("game_log", window.panel("game_log").list),
            ("critical_log", window.panel("critical_log").view),
            ("ledgers", window.panel("ledgers").history_table),
            ("angle_off", window.panel("angle_off").lines),
        ]
        for name, table in tables:
            window.docks[name].show()
            window.docks[name].raise_()
            if name == "ledgers":  # Red 1's gun ammunition: its history has rows
                window.panel("ledgers").select("red-1", "gun_ammunition")
            qtbot.waitUntil(table.isVisible)
            rows = table.model().rowCount()
            assert rows, name
            for modifier in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
                table.setFocus()
                table.setCurrentIndex(table.model().index(rows - 1, 0))  # the last line
                qtbot.keyClick(table, Qt.Key.Key_Tab, modifier)
                out = QApplication.focusWidget()
                assert out is not table and out is not None, (name, modifier)
                assert out.window() is window, (name, modifier)
    finally:
        window.model.set_session(None)
