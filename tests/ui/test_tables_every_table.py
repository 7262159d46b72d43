"""Issue 14: every ruleset's every editable table, one cell typed in the Tables editor's printed
chart and saved (Ctrl+S), is what the ruleset reads next: through the same loader its procedures
call, and for one table of each ruleset through the very next procedure of the game's ruleset
(Nth Fleet's attack table: tests/ui/test_editors.py).
The "cells missing" count follows the typing and the save."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit

from app.core.dice import TableDice
from app.plugins import load_ruleset
from app.session import GameSession
from app.ui.editors.tables_editor import TablesEditor


def _loader(ruleset_id: str, stem: str) -> Any:
    """The loader the ruleset's procedures call for this table file."""
    if ruleset_id == "phantoms":
        from rulesets.phantoms import tables as t

        return {"tables": t.tables, "positions": t.positions}[stem]
    if ruleset_id == "airpower":
        from rulesets.airpower import tables as t

        return {
            "aircraft_damage": t.damage_table,
            "fields": t.fields,
            "genie": t.genie_table,
            "gun_pods": t.gun_pods,
            "modifiers": t.modifiers,
            "rockets": t.rocket_table,
            "ssgt_conversion": t.ssgt_conversion,
        }[stem]
    if ruleset_id == "nth_fleet":
        from rulesets.nth_fleet import tables as t

        return {
            "air_to_air_attack": t.attack_table,
            "defence_values": t.defence_table,
            "attack_values": t.attack_exceptions,
        }[stem]
    if ruleset_id == "ufo_interception":
        from rulesets.ufo_interception.tables import arcs, damage_table

        return {"damage_table": damage_table, "arcs": arcs}[stem]
    from rulesets.advanced_air_force.tables import load_fire_tables

    return load_fire_tables


#: (ruleset, table file stem, cell as a dotted path, text typed, the value the loader reads)
CELLS = [
    ("phantoms", "tables", "ejection.safe_at_least", "4", 4),
    ("phantoms", "positions", "gun.cells.adjacent, dead astern", "2", 2),
    ("airpower", "aircraft_damage", "results.3[4]", "2", "2"),
    ("airpower", "fields", "gun_field_of_fire", "60-", "60-"),
    ("airpower", "genie", "launch_number", "7", 7),
    ("airpower", "gun_pods", "pods.SUU-16/A.attack_rating", "3", 3),
    ("airpower", "modifiers", "snap_shot", "2", 2),
    ("airpower", "rockets", "rows[1].attack_rating", "4", 4),
    ("airpower", "ssgt_conversion", "fps.1[0]", "1", 1),
    ("nth_fleet", "air_to_air_attack", "cells.40.6", "12", 12),
    ("nth_fleet", "defence_values", "values.f14a", "5", 5),
    ("nth_fleet", "attack_values", "exceptions.F15c", "15", 15),
    ("ufo_interception", "damage_table", "rows[5].fighter.dp", "3", 3),
    ("ufo_interception", "arcs", "cannon_forward_arc_degrees", "90", 90),
    ("advanced_air_force", "fire_tables", "result_table.columns.0[0]", "3F", "3F"),
]


def test_every_editable_table_is_covered():
    shipped = {
        (rid, p.stem)
        for rid in ("phantoms", "airpower", "nth_fleet", "ufo_interception", "advanced_air_force")
        for p in load_ruleset(rid).table_files().values()
    }
    assert shipped == {(rid, stem) for rid, stem, *_ in CELLS}


def _dig(data: Any, cell: str) -> Any:
    """The value at a dotted path ("rows[1].hit", "pods.SUU-16/A.attack_rating") in a dump."""
    parts: list[str | int] = []
    for piece in cell.split("."):
        m = re.fullmatch(r"([^\[]+)((?:\[\d+\])*)", piece)
        assert m, piece
        parts.append(m.group(1))
        parts += [int(i) for i in re.findall(r"\[(\d+)\]", m.group(2))]
    for p in parts:
        if isinstance(data, dict) and p not in data and str(p).lstrip("-").isdigit():
            p = int(p)
        data = data[p]
    return data


def type_cell(qtbot, ed: TablesEditor, cell: str, text: str) -> None:
    rc = ed.locate(cell)
    assert rc is not None, cell
    ed.table.setCurrentCell(*rc)
    ed.table.setFocus()
    qtbot.keyClick(ed.table, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: ed.table.state() == QAbstractItemView.State.EditingState)
    line = ed.table.viewport().findChild(QLineEdit)
    assert isinstance(line, QLineEdit)
    line.selectAll()
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ed.table.state() != QAbstractItemView.State.EditingState)
    qtbot.wait(1)


def save_in_editor(qtbot, ruleset_id: str, stem: str, cell: str, text: str) -> TablesEditor:
    rs = load_ruleset(ruleset_id)
    ed = TablesEditor(rs)
    qtbot.addWidget(ed)
    ed.show()
    ed.activateWindow()
    qtbot.waitActive(ed)
    (row,) = [i for i, p in enumerate(ed.files.values()) if p.stem == stem]
    ed.list.setCurrentRow(row)
    before = ed.missing_count
    was_missing = ed.table.item(*ed.locate(cell)).text() == "missing"
    type_cell(qtbot, ed, cell, text)
    assert not ed.errors, ed.error.text()
    assert ed.missing_count == before - (1 if was_missing else 0)  # the live count
    qtbot.keyClick(ed, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "Saved to" in ed.status.text(), ed.message.message
    assert ed.missing_count == before - (1 if was_missing else 0)
    assert f"{ed.missing_count} cell(s) still missing" in ed.heading.text() or (
        ed.missing_count == 0 and "Every cell has a value." in ed.heading.text()
    )
    return ed


@pytest.mark.parametrize(("ruleset_id", "stem", "cell", "text", "value"), CELLS)
def test_a_value_saved_in_the_editor_is_what_the_ruleset_reads_next(
    qtbot, ruleset_id, stem, cell, text, value
):
    load = _loader(ruleset_id, stem)
    load()  # loaded (and cached) before the umpire's edit
    save_in_editor(qtbot, ruleset_id, stem, cell, text)
    assert _dig(load().model_dump(mode="python"), cell) == value


# -- the very next procedure, through GameSession ----------------------------------------------


def test_phantoms_ejection_odds_read_the_saved_table(qtbot, tmp_path: Path):
    """8.2: ejection is safe on a d10 of at least the table's number (3 as printed); typed 4,
    the game's ejection procedure gives one chance in ten less."""
    s = GameSession.create(tmp_path / "p.airboss", "phantoms", "Eject")
    s.add_aircraft("Blue", "f4e", "Blue 1")
    proc = s.ruleset.procedures["ejection"]
    inputs = proc.parse({"aircraft": "blue-1"})
    before = proc.odds(inputs)
    save_in_editor(qtbot, "phantoms", "tables", "ejection.safe_at_least", "4")
    after = proc.odds(inputs)
    assert before["ejected"] == Fraction(8, 10)  # a d10 of 3 or more
    assert after["ejected"] == Fraction(7, 10)  # 4 or more
    s.close()


def test_ufo_damage_roll_reads_the_saved_table(qtbot, tmp_path: Path):
    """UFO rules, Damage: 2d6 = 7 on a fighter is "1 DP" as printed; the umpire's 3 is used by
    the very next damage roll."""
    s = GameSession.create(tmp_path / "u.airboss", "ufo_interception", "Damage")
    s.add_aircraft("NATO", "tornado", "Blue 1", reaction=1)
    inputs = {"target": "blue-1", "target_type": "fighter"}
    s.perform("damage_roll", inputs, TableDice([3, 4]))
    assert s.engagement.aircraft["blue-1"].damage == 1
    save_in_editor(qtbot, "ufo_interception", "damage_table", "rows[5].fighter.dp", "3")
    s.perform("damage_roll", inputs, TableDice([3, 4]))
    assert s.engagement.aircraft["blue-1"].damage == 1 + 3
    s.close()


def test_aaf_gunfire_reads_the_saved_range_table(qtbot, tmp_path: Path):
    """Advanced Air Force fire table: 9 gun factors at 1 hex fire on column 8 as printed; the
    umpire's 0 in that cell is the column of the very next gunfire, and its odds follow."""
    s = GameSession.create(tmp_path / "a.airboss", "advanced_air_force", "Fire")
    proc = s.ruleset.procedures["gun_fire"]
    inputs = proc.parse({"total_gun_factors": 9, "range_hexes": 1})
    assert proc.column(inputs) == 8
    before = proc.odds(inputs)
    save_in_editor(
        qtbot, "advanced_air_force", "fire_tables", "range_table.bands[4].columns[0]", "0"
    )
    assert proc.column(inputs) == 0
    assert proc.odds(inputs) != before
    s.close()


def test_air_power_genie_launch_reads_the_saved_launch_number(qtbot, tmp_path: Path):
    """Air Power, Genie Launch: the launch number is not printed (the launch stops and asks for
    it); typed 7 in the editor, the very next launch's odds are 7 in 10."""
    from app.core.errors import MissingTableValue

    s = GameSession.create(tmp_path / "g.airboss", "airpower", "Genie")
    proc = s.ruleset.procedures["genie_launch"]
    inputs = proc.parse({})
    with pytest.raises(MissingTableValue):
        proc.odds(inputs)
    save_in_editor(qtbot, "airpower", "genie", "launch_number", "7")
    odds = proc.odds(inputs)
    assert odds == {"launched": Fraction(7, 10), "miss": Fraction(3, 10)}
    s.close()


def test_list_positions_carry_the_printed_headings(qtbot):
    """Air Power's damage results are for modified rolls -1 to 10, the rockets' hit numbers for
    ranges 1 to 4 hexes (``Ruleset.table_headings``); a table without them numbers from 1."""
    ed = TablesEditor(load_ruleset("airpower"))
    qtbot.addWidget(ed)
    (row,) = [i for i, p in enumerate(ed.files.values()) if p.stem == "aircraft_damage"]
    ed.list.setCurrentRow(row)
    t = ed.table
    heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    assert heads[0] == "roll -1" and heads[-1] == "roll 10" and len(heads) == 12
    assert ed.locate("results.3[0]") == (3, 0)
    (row,) = [i for i, p in enumerate(ed.files.values()) if p.stem == "rockets"]
    ed.list.setCurrentRow(row)
    heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    assert heads == [
        "Factors",
        "Hit at 1 hex",
        "Hit at 2 hexes",
        "Hit at 3 hexes",
        "Hit at 4 hexes",
        "Attack rating",
    ]


def test_aaf_fire_tables_carry_the_printed_headings(qtbot):
    """Advanced Air Force's fire tables as printed: the range columns 1 to 6 hexes and the
    result table's die rolls 1 to 6 (``Ruleset.table_headings``)."""
    ed = TablesEditor(load_ruleset("advanced_air_force"))
    qtbot.addWidget(ed)
    t = ed.table
    seen: set[str] = set()
    for i in range(ed.chart.count()):
        ed.chart.setCurrentIndex(i)
        seen |= {t.horizontalHeaderItem(c).text() for c in range(t.columnCount())}
    assert {"1 hex", "6 hexes", "roll 1", "roll 6"} <= seen
