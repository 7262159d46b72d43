"""The umpire's walk at 1366x768, keys only: Tab leaves every table the umpire only reads.

Qt's tables take Tab to step from cell to cell and wrap from the last to the first, so a Tab
into the Game log, the Critical hits, a ledger's history or the Board's readings never came
out again (nor did Shift+Tab): the keyboard was trapped there until the mouse freed it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication

from app.core.dice import TableDice
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from rulesets.phantoms.clock import step_of


def test_tab_and_shift_tab_leave_the_tables_the_umpire_reads(tmp_path: Path, qtbot: Any) -> None:
    session = create_demo_game(tmp_path / "demo.airboss")
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    while (session.engagement.turn, session.engagement.step) != (1, step_of(1, "f")):
        session.clock.next_step()
    # Red 1 guns Olds 2 (4 hits, a critical hit owed: 7, engine hit): rows in every table
    session.perform(
        "gun_attack",
        {"attacker": "red-1", "target": "olds-2", "position_modifier": 0},
        TableDice([8, 2]),
    )
    session.perform("critical_hit", {"aircraft": "olds-2"}, TableDice([7]))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(EngagementModel(), settings, panels_later=True)
    window.persist_layout = False
    qtbot.addWidget(window)
    window.show_session(session)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.build_panels()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
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
