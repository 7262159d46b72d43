"""Issue 43: Fill in puts the cursor on the cell the desk asked for. The Tables editor opens on
the ``MissingTableValue`` a ruleset raises (its table and cell words, as the Combat panel's
Fill in passes them); typing where the cursor sits fills that cell and no other. Read on the
painted headings of the current cell."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit

from app.core.errors import MissingTableValue
from app.plugins import load_ruleset
from app.ui.editors.tables_editor import TablesEditor
from rulesets.airpower.tables import DAMAGE_ROLLS, damage_table
from rulesets.nth_fleet.tables import attack_table


def asked(read: Any) -> MissingTableValue:
    with pytest.raises(MissingTableValue) as info:
        read()
    return info.value


def under_cursor(ed: TablesEditor) -> tuple[str, str]:
    """The painted row and column headings of the cell the cursor is on."""
    t = ed.table
    return (
        t.verticalHeaderItem(t.currentRow()).text(),
        t.horizontalHeaderItem(t.currentColumn()).text(),
    )


def test_air_power_damage_fill_in_types_into_the_cell_asked_for(qtbot: Any) -> None:
    """Air Power, Aircraft Damage Resolution: the desk asks for "attack rating 5, roll 1";
    the editor's cursor is on rating 5, roll 1 (it was on roll -1), and the value typed there
    is the one the table reads for rating 5, roll 1."""
    rs = load_ruleset("airpower")
    e = asked(lambda: damage_table().result(5, 1, "Air Power"))
    assert e.cell == "attack rating 5, roll 1"
    ed = TablesEditor(rs, select=(e.table, e.cell))
    qtbot.addWidget(ed)
    ed.show()
    ed.activateWindow()
    qtbot.waitUntil(ed.isActiveWindow)
    ed.table.setFocus()
    assert under_cursor(ed) == ("5", "roll 1")
    qtbot.keyClicks(ed.table, "K")  # typed where the cursor sits, as the umpire does
    qtbot.waitUntil(lambda: ed.table.state() == QAbstractItemView.State.EditingState)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit) and editor.text() == "K"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ed.table.state() != QAbstractItemView.State.EditingState)
    assert ed.table.currentItem().text() == "K"
    qtbot.keyClick(ed.table, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    table = damage_table()
    assert table.result(5, 1, "Air Power") == "K"
    assert table.results["5"][DAMAGE_ROLLS.index(-1)] == "missing"


def test_every_damage_cell_the_desk_asks_for_is_the_one_under_the_cursor(qtbot: Any) -> None:
    """Air Power: each of the damage table's 13 ratings x 12 modified rolls, asked for."""
    rs = load_ruleset("airpower")
    ed = TablesEditor(rs)
    qtbot.addWidget(ed)
    table = damage_table()
    for rating in table.results:
        for roll in DAMAGE_ROLLS:
            e = asked(lambda r=int(rating), d=roll: table.result(r, d, "Air Power"))
            ed.go_to(e.table, e.cell)
            assert under_cursor(ed) == (rating, f"roll {roll}"), e.cell


def test_nth_fleet_attack_cells_asked_for_are_under_the_cursor(qtbot: Any) -> None:
    """Nth Fleet 2.9: "column 40, roll 1" puts the cursor on the 40 column's roll 1 (never
    on roll 10, nor row 40), for every cell of the two printed columns not yet filled."""
    rs = load_ruleset("nth_fleet")
    ed = TablesEditor(rs)
    qtbot.addWidget(ed)
    table = attack_table()
    seen = 0
    for column in table.columns:
        for roll in table.rows:
            try:
                table.damage(column, roll)
            except MissingTableValue as e:
                ed.go_to(e.table, e.cell)
                assert under_cursor(ed) == (str(roll), str(column)), e.cell
                seen += 1
    assert seen == 2 * 11 - 2  # the text prints roll 5 of both columns (10, 11)
