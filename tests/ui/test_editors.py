"""The tables editor (missing cells, override saved outside the package) and the card editor."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest
from airboss_test_rulesets.skirmish import Card, Skirmish
from pydantic import BaseModel
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit

from app.core.data import load_catalogue, load_table, override_path
from app.ui.editors.card_editor import CardEditor
from app.ui.editors.tables_editor import (
    ERROR_BRUSH,
    TablesEditor,
    override_of,
    parse_cell,
    path_text,
)

HITS = """\
title = "Hit table"
rule = "Skirmish 9"
columns = [1, 2, "missing"]

[cells."1"]
low = 3
high = "missing"

[cells."2"]
low = "missing"
high = 7
"""


class HitTable(BaseModel):
    title: str
    rule: str
    columns: list[int]
    cells: dict[str, dict[str, int]]


@pytest.fixture
def shipped(tmp_path):
    d = tmp_path / "package" / "tables"
    d.mkdir(parents=True)
    (d / "hits.toml").write_text(HITS, encoding="utf-8")
    (d / "other.toml").write_text('title = "Other"\nvalue = 1\n', encoding="utf-8")
    return d


@pytest.fixture
def ruleset(shipped):
    class Tabled(Skirmish):
        def table_files(self):
            return {"other": shipped / "other.toml", "hits": shipped / "hits.toml"}

    return Tabled()


def values(editor):
    """Every cell of every chart of the open table: dotted path -> text as shown."""
    out = {}
    for i in range(editor.chart.count()):
        editor.chart.setCurrentIndex(i)
        t = editor.table
        for r in range(t.rowCount()):
            for c in range(t.columnCount()):
                item = t.item(r, c)
                p = item.data(Qt.ItemDataRole.UserRole)
                if p is not None and not t.isRowHidden(r):
                    out[path_text(p)] = item.text()
    return out


def item_of(editor, cell):
    rc = editor.locate(cell)
    assert rc is not None, cell
    return editor.table.item(*rc)


def type_into(qtbot, editor, cell, text):
    rc = editor.locate(cell)
    assert rc is not None, cell
    editor.activateWindow()
    qtbot.waitActive(editor)
    editor.table.setCurrentCell(*rc)
    editor.table.setFocus()
    qtbot.keyClick(editor.table, Qt.Key.Key_F2)  # edit the cell, as the umpire would
    qtbot.waitUntil(lambda: editor.table.state() == QAbstractItemView.State.EditingState)
    line = editor.table.viewport().findChild(QLineEdit)
    assert isinstance(line, QLineEdit)
    line.selectAll()
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)
    # the delegate commits a Return through a queued call
    qtbot.waitUntil(lambda: editor.table.state() != QAbstractItemView.State.EditingState)
    qtbot.wait(1)


def test_lists_tables_and_highlights_missing_cells(qtbot, ruleset):
    ed = TablesEditor(ruleset)
    qtbot.addWidget(ed)
    # the tables by their printed titles
    assert [ed.list.item(i).text() for i in range(ed.list.count())] == ["Other", "Hit table"]
    ed.list.setCurrentRow(1)
    # the printed chart: rows and columns with their headings, the missing cells yellow
    assert [ed.chart.itemText(i) for i in range(ed.chart.count())] == [
        "Hit table (1 missing)",
        "Hit table: Cells (2 missing)",
    ]
    assert ed.chart.currentIndex() == 0
    ed.chart.setCurrentIndex(1)
    t = ed.table
    # the document's ``columns`` are the chart's columns (as Nth Fleet's 2.9 table prints them)
    assert [t.verticalHeaderItem(r).text() for r in range(t.rowCount())] == ["Low", "High"]
    assert [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())] == ["1", "2"]
    assert [[t.item(r, c).text() for c in range(2)] for r in range(2)] == [
        ["3", "missing"],
        ["missing", "7"],
    ]
    assert values(ed) == {
        "columns[0]": "1",
        "columns[1]": "2",
        "columns[2]": "missing",
        "cells.1.low": "3",
        "cells.1.high": "missing",
        "cells.2.low": "missing",
        "cells.2.high": "7",
    }
    assert "3 cell(s) still missing" in ed.heading.text()
    missing = item_of(ed, "cells.1.high")
    assert missing.background().color().alpha() > 0
    assert item_of(ed, "cells.1.low").background().style() == Qt.BrushStyle.NoBrush
    ed.only_missing.setChecked(True)  # the rows with a gap stay, the others are hidden
    assert {"columns[2]", "cells.1.high", "cells.2.low"} <= set(values(ed))
    ed.list.setCurrentRow(0)
    assert values(ed) == {}
    ed.only_missing.setChecked(False)
    assert values(ed) == {"value": "1"}


def test_typed_values_are_saved_as_an_override_never_into_the_package(qtbot, ruleset, shipped):
    ed = TablesEditor(ruleset, select=("Hit table", "column 1, high"))
    qtbot.addWidget(ed)
    ed.show()
    assert ed.name == "hits"
    # the cell the refusal named
    assert (ed.table.currentRow(), ed.table.currentColumn()) == ed.locate("cells.1.high")
    assert "3 cell(s) still missing" in ed.heading.text()
    type_into(qtbot, ed, "cells.1.high", "8")
    assert "2 cell(s) still missing" in ed.heading.text()  # the count follows the typing
    type_into(qtbot, ed, "cells.2.low", "4")
    type_into(qtbot, ed, "columns[2]", "3")
    assert "3 unsaved change(s)" in ed.status.text()
    saved = []
    ed.saved.connect(saved.append)
    qtbot.keyClick(ed, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert saved == ["hits"]
    assert "Every cell has a value." in ed.heading.text()
    assert (shipped / "hits.toml").read_text(encoding="utf-8") == HITS
    over = override_path("skirmish", "hits")
    assert over.exists() and Path(os.environ["AIRBOSS_DATA_DIR"]) in over.parents
    table = load_table("skirmish", shipped / "hits.toml", HitTable)
    assert table.columns == [1, 2, 3]
    assert table.cells == {"1": {"low": 3, "high": 8}, "2": {"low": 4, "high": 7}}
    again = TablesEditor(ruleset, select=("hits", ""))
    qtbot.addWidget(again)
    assert values(again)["cells.1.high"] == "8"
    assert "Every cell has a value." in again.heading.text()


def test_a_word_in_a_number_cell_is_refused_in_place_and_not_saved(qtbot, ruleset):
    ed = TablesEditor(ruleset)
    qtbot.addWidget(ed)
    ed.show()
    ed.list.setCurrentRow(1)
    type_into(qtbot, ed, "cells.1.high", "eight")
    assert "Hit table: Cells, High, 1: 'eight' is not a number" in ed.error.text()
    assert item_of(ed, "cells.1.high").background().color() == ERROR_BRUSH.color()
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert "Not saved" in ed.message.message
    assert not override_path("skirmish", "hits").exists()


def test_override_keeps_tables_sparse_and_arrays_whole():
    shipped = {"a": {"x": 1, "y": "missing"}, "b": [1, "missing"]}
    data = {"a": {"x": 1, "y": 5}, "b": [1, 2]}
    assert override_of(shipped, data, {("a", "y"), ("b", 1)}) == {"a": {"y": 5}, "b": [1, 2]}
    assert [parse_cell(t) for t in ("3", "-2", "2.5", "[1, 2]", "true", "missing")] == [
        3,
        -2,
        2.5,
        [1, 2],
        True,
        "missing",
    ]


def test_a_ruleset_without_tables_says_so(qtbot):
    ed = TablesEditor(Skirmish())
    qtbot.addWidget(ed)
    assert ed.empty.text() == "Skirmish (test ruleset) ships no editable tables."
    assert ed.list.count() == 0


def test_card_editor_saves_an_edited_type_into_the_umpires_catalogue(qtbot):
    ed = CardEditor(Skirmish(), type_id="jet")
    qtbot.addWidget(ed)
    ed.show()
    assert ed.type_id.text() == "jet"
    assert ed.form.editor("name").text() == "Test Jet"
    assert ed.form.editor("ammunition").text() == "3"
    ed.type_id.clear()
    qtbot.keyClicks(ed.type_id, "jet-b")
    name = ed.form.editor("name")
    name.clear()
    qtbot.keyClicks(name, "Test Jet B")
    ammo = ed.form.editor("ammunition")
    ammo.clear()
    qtbot.keyClicks(ammo, "5/2")
    saved = []
    ed.saved.connect(saved.append)
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert saved == ["jet-b"]
    mine = Path(os.environ["AIRBOSS_DATA_DIR"]) / "aircraft" / "skirmish"
    cat = load_catalogue(mine, Card)
    assert cat["jet-b"].name == "Test Jet B"
    assert cat["jet-b"].ammunition == Fraction(5, 2)
    assert cat["jet-b"].afterburner == 2
    assert "Saved jet-b" in ed.status.text() and "(a new type)" in ed.status.text()
    # the new type is at once offered to start the next card from, once
    assert ed.types.findData("jet-b") >= 0
    # saved again, the new type is never said to replace a shipped card (issue 14)
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert "replaces your earlier card" in ed.status.text()
    assert "shipped" not in ed.status.text()
    assert [ed.types.itemData(i) for i in range(ed.types.count())].count("jet-b") == 1


def test_card_editor_refuses_a_bad_card_or_id_in_place(qtbot):
    ed = CardEditor(Skirmish())
    qtbot.addWidget(ed)
    ed.show()
    qtbot.keyClicks(ed.type_id, "Bad Id")
    assert "lower-case" in ed.type_error.text()
    ed.type_id.clear()
    qtbot.keyClicks(ed.type_id, "new")
    ammo = ed.form.editor("ammunition")
    qtbot.keyClicks(ammo, "lots")
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert "Not saved" in ed.message.message
    assert ed.form.error_text("ammunition") != ""
    assert not (Path(os.environ["AIRBOSS_DATA_DIR"]) / "aircraft" / "skirmish").exists()


def test_nth_fleet_attack_value_typed_in_the_editor_changes_the_next_air_combat(qtbot, tmp_path):
    """Issue 14: the Nth Fleet Tables editor saved under a name the ruleset never read. A 2.9
    cell typed in the editor is used by the very next air combat, through GameSession."""
    from app.core.data import save_override
    from app.core.dice import TableDice
    from app.session import GameSession

    columns = {str(c): {str(r): c // 10 * r // 2 for r in range(11)} for c in (10, 20, 30)}
    columns |= {
        "40": {str(r): 2 * r for r in range(11)},
        "50": {str(r): 2 * r + 1 for r in range(11)},
    }
    save_override(
        "nth_fleet", "air_to_air_attack", {"lower_columns": [10, 20, 30], "cells": columns}
    )
    save_override("nth_fleet", "defence_values", {"values": {"a6e": 4, "f14a": 5, "mig29": 4}})
    s = GameSession.create(tmp_path / "ns.airboss", ruleset="nth_fleet", title="NS")
    s.add_aircraft(side="Blue", type_id="a6e", name="VA-35", base="Nimitz")
    s.add_aircraft(side="Blue", type_id="f14a", name="VF-1", base="Nimitz", unit_sides=2, units=2)
    s.add_aircraft(
        side="Red", type_id="mig29", name="Fulcrums", base="Olenya", units=2, unit_sides=2
    )
    for aid, mission in (("va-35", "strike"), ("vf-1", "escort")):
        s.perform("launch_mission", {"aircraft": aid, "points": 4, "mission": mission, "name": "A"})
    s.perform("launch_mission", {"aircraft": "fulcrums", "points": 4, "mission": "cap"})
    strike = {
        "first": ["va-35", "vf-1"],
        "second": ["fulcrums"],
        "cap": "second",
        "phase": "activation",
        "first_picks": ["fulcrums"],
        "second_picks": ["vf-1", "va-35"],
    }
    # Blue's 52 points on the 50 column, 2d5 = 6, CAP -2: row 4, which the umpire typed as 9
    ed = TablesEditor(s.ruleset, select=("Air-to-air attack table", ""))
    qtbot.addWidget(ed)
    ed.show()
    assert ed.name == "Air-to-air attack table (2.9)"
    type_into(qtbot, ed, "cells.50.4", "12")
    qtbot.keyClick(ed, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "Saved to" in ed.status.text()
    res = s.perform("air_combat", strike, TableDice([3, 3, 2, 2]))
    assert res.outcome.startswith("first force 12,")
    s.close()


def test_tab_in_the_card_editor_stops_only_on_controls(qtbot):
    """Tab round the aircraft card editor, from its type id: every stop is a control painted
    in it, never the scroll area that holds the card's fields (a stop there showed the cursor
    nowhere; the umpire's walk found the same in the Combat and Initiative panels)."""
    from PySide6.QtWidgets import QApplication, QScrollArea

    ed = CardEditor(Skirmish(), type_id="jet")
    qtbot.addWidget(ed)
    ed.show()
    qtbot.waitExposed(ed)
    ed.activateWindow()
    qtbot.waitUntil(ed.isActiveWindow)
    ed.type_id.setFocus(Qt.FocusReason.TabFocusReason)
    went = []
    for _ in range(60):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        went.append(QApplication.focusWidget())
        if went[-1] is ed.type_id:
            break
    assert went[-1] is ed.type_id  # round the editor and back
    assert not [w for w in went if isinstance(w, QScrollArea)]
    assert ed.form.editor("name") in went  # the fields inside the area are reached
