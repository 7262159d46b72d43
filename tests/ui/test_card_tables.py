"""Issue 14: the card editor edits a card's speeds, manoeuvres, missiles, guns and gunsight as
grids of cells, validated in place by the ruleset's card model; a bad cell is marked and named,
and saving is refused with a message naming it."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit

from app.core.data import load_catalogue
from app.plugins import load_ruleset
from app.ui.editors.card_editor import CardEditor
from app.ui.editors.card_tables import CardTable


def type_cell(qtbot, table: CardTable, row: str, column: str, text: str) -> None:
    """Put the cursor on the cell (row heading, column heading) and type over it."""
    t = table.table
    rows = [t.verticalHeaderItem(r).text() for r in range(t.rowCount())]
    cols = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    assert row in rows and column in cols, (row, rows, column, cols)
    t.setCurrentCell(rows.index(row), cols.index(column))
    t.setFocus()
    qtbot.keyClick(t, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: t.state() == QAbstractItemView.State.EditingState)
    line = t.viewport().findChild(QLineEdit)
    assert isinstance(line, QLineEdit)
    line.selectAll()
    if text:
        qtbot.keyClicks(line, text)
    else:
        qtbot.keyClick(line, Qt.Key.Key_Delete)
    qtbot.keyClick(line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: t.state() != QAbstractItemView.State.EditingState)
    qtbot.wait(1)


def cell(table: CardTable, row: str, column: str) -> str:
    t = table.table
    rows = [t.verticalHeaderItem(r).text() for r in range(t.rowCount())]
    cols = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    return t.item(rows.index(row), cols.index(column)).text()


def marked(table: CardTable, row: str, column: str) -> bool:
    t = table.table
    rows = [t.verticalHeaderItem(r).text() for r in range(t.rowCount())]
    cols = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    return t.item(rows.index(row), cols.index(column)).background().color().alpha() > 0 and bool(
        t.item(rows.index(row), cols.index(column)).toolTip()
    )


def mine(ruleset_id: str, card):
    return load_catalogue(Path(os.environ["AIRBOSS_DATA_DIR"]) / "aircraft" / ruleset_id, card)


def editor(qtbot, ruleset_id: str, type_id: str) -> CardEditor:
    ed = CardEditor(load_ruleset(ruleset_id), type_id=type_id)
    qtbot.addWidget(ed)
    ed.show()
    ed.activateWindow()
    qtbot.waitActive(ed)
    return ed


def test_phantoms_speeds_manoeuvres_and_missiles_are_grids_not_json(qtbot):
    ed = editor(qtbot, "phantoms", "f4e")
    assert set(ed.tables) == {"speeds", "maneuvers", "missiles"}
    for name in ed.tables:  # never a one-line JSON field
        assert name not in ed.form.names
    speeds, maneuvers, missiles = (ed.tables[n] for n in ("speeds", "maneuvers", "missiles"))
    assert cell(speeds, "Normal", "Max level") == "8"
    assert cell(speeds, "Damaged", "Max dive") == "8"
    assert cell(speeds, "Climb", "Adjust") == "-1"
    assert cell(maneuvers, "hard turn", "Hexes 1") == "-"
    assert cell(maneuvers, "loop", "Speed loss") == "3"
    assert cell(missiles, "2", "Name") == "AIM-7E Sparrow"
    assert cell(missiles, "2", "Max range") == "12"
    assert ed.card == ed.ruleset.aircraft["f4e"]


def test_phantoms_new_missile_and_speed_are_saved_as_a_new_type(qtbot):
    ed = editor(qtbot, "phantoms", "f4e")
    ed.type_id.clear()
    qtbot.keyClicks(ed.type_id, "f4e-late")
    name = ed.form.editor("name")
    name.clear()
    qtbot.keyClicks(name, "F-4E late")
    speeds, missiles = ed.tables["speeds"], ed.tables["missiles"]
    type_cell(qtbot, speeds, "Normal", "Max level", "9")
    qtbot.mouseClick(missiles.add_button, Qt.MouseButton.LeftButton)
    for column, text in (
        ("Id", "aim9l"),
        ("Name", "AIM-9L"),
        ("Guidance", "heat"),
        ("Aspect", "HA"),
        ("Hit", "6"),
        ("Count", "2"),
    ):
        type_cell(qtbot, missiles, "3", column, text)
    assert not ed.card_error.isVisible()
    saved = []
    ed.saved.connect(saved.append)
    qtbot.keyClick(ed, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert saved == ["f4e-late"]
    assert "(a new type)" in ed.status.text() and "shipped" not in ed.status.text()
    card = mine("phantoms", ed.ruleset.Card)["f4e-late"]
    assert card.speeds.normal.max_level == 9
    assert [m.id for m in card.missiles] == ["aim9j", "aim7e", "aim9l"]
    assert card.missiles[2].aspect == "HA" and card.missiles[2].hit == 6
    assert card.maneuvers == ed.ruleset.aircraft["f4e"].maneuvers
    # removing the row removes the missile
    missiles.table.setCurrentCell(0, 0)
    qtbot.mouseClick(missiles.remove_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert "replaces your earlier card" in ed.status.text()
    card = mine("phantoms", ed.ruleset.Card)["f4e-late"]
    assert [m.id for m in card.missiles] == ["aim7e", "aim9l"]


def test_phantoms_a_bad_cell_is_marked_named_and_saving_refused(qtbot):
    ed = editor(qtbot, "phantoms", "f4e")
    ed.type_id.clear()
    qtbot.keyClicks(ed.type_id, "f4e-bad")
    missiles, speeds = ed.tables["missiles"], ed.tables["speeds"]
    type_cell(qtbot, missiles, "2", "Aspect", "sideways")
    assert marked(missiles, "2", "Aspect")
    assert not marked(missiles, "2", "Name")
    assert "Missiles, row 2 (AIM-7E Sparrow), Aspect" in missiles.error.text()
    type_cell(qtbot, speeds, "Normal", "Adjust", "fast")
    assert marked(speeds, "Normal", "Adjust")
    assert "Speeds, Normal, Adjust" in ed.card_error.text()
    type_cell(qtbot, ed.tables["maneuvers"], "turn", "Hexes 4", "")
    assert marked(ed.tables["maneuvers"], "turn", "Hexes 4")
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    refusal = ed.message.message
    assert refusal.startswith("Not saved")
    for named in (
        "Missiles, row 2 (AIM-7E Sparrow), Aspect",
        "Speeds, Normal, Adjust",
        "Maneuvers, turn, Hexes 4",
    ):
        assert named in refusal
    assert not (Path(os.environ["AIRBOSS_DATA_DIR"]) / "aircraft" / "phantoms").exists()
    # put right, the marks go and the card saves
    type_cell(qtbot, missiles, "2", "Aspect", "radar")
    type_cell(qtbot, speeds, "Normal", "Adjust", "3")
    type_cell(qtbot, ed.tables["maneuvers"], "turn", "Hexes 4", "2")
    assert not marked(missiles, "2", "Aspect") and not ed.card_error.isVisible()
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert mine("phantoms", ed.ruleset.Card)["f4e-bad"].speeds.normal.adjust == 3


def test_air_power_gun_and_gunsight_are_grids_with_their_bounds(qtbot):
    ed = editor(qtbot, "airpower", "mig-17f")
    gun, sight = ed.tables["gun"], ed.tables["gunsight"]
    assert "gun" not in ed.form.names and "gunsight" not in ed.form.names
    assert cell(gun, "Ammunition", "Value") == "7/2"
    assert cell(sight, "TT", "Value") == "1"
    # hit numbers: two or three (the card model's bounds), named in place
    type_cell(qtbot, gun, "Hit numbers", "Value", "6")
    assert marked(gun, "Hit numbers", "Value")
    assert "Gun, Hit numbers" in gun.error.text()
    type_cell(qtbot, gun, "Hit numbers", "Value", "6, 5, 4")
    assert not marked(gun, "Hit numbers", "Value")
    type_cell(qtbot, sight, "HT", "Value", "2.5")  # a strict whole number
    assert marked(sight, "HT", "Value")
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert "Gunsight, HT" in ed.message.message
    type_cell(qtbot, sight, "HT", "Value", "4")
    type_cell(qtbot, gun, "Ammunition", "Value", "5/2")
    ed.type_id.clear()
    qtbot.keyClicks(ed.type_id, "mig-17pf")
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    assert "(a new type)" in ed.status.text() and "shipped" not in ed.status.text()
    card = mine("airpower", ed.ruleset.Card)["mig-17pf"]
    assert card.gun is not None and card.gun.hit_numbers == [6, 5, 4]
    assert card.gun.ammunition == Fraction(5, 2)
    assert card.gunsight.HT == 4


def test_every_shipped_card_reads_back_unchanged_from_its_grids(qtbot):
    """Every ruleset's every shipped type, shown in the editor, is the same card again."""
    for rid in ("phantoms", "airpower", "nth_fleet", "ufo_interception", "advanced_air_force"):
        rs = load_ruleset(rid)
        ed = CardEditor(rs)
        qtbot.addWidget(ed)
        for tid, card in rs.aircraft.items():
            ed.types.setCurrentIndex(ed.types.findData(tid))
            assert ed.card == card, (rid, tid, ed.card_error.text())
