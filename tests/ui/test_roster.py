"""Roster panel: sides, aircraft, status badges, damage; add, rename, pilot, remove (undoable)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.roster import (
    DAMAGE,
    NAME,
    PILOT,
    STATUS,
    STATUS_ROLE,
    TYPE,
    AddAircraftDialog,
    RosterDock,
)
from app.ui.model import EngagementModel


@pytest.fixture
def session(tmp_path):
    s = GameSession.create(tmp_path / "roster.airboss", "skirmish", "Roster test")
    s.add_aircraft("Blue", "jet", "Blue 1", "ace")
    s.add_aircraft("Blue", "prop", "Blue 2")
    s.add_aircraft("Red", "jet", "Red 1", "green")
    s.add_aircraft("Red", "prop", "Red 2")
    yield s
    s.close()


@pytest.fixture
def dock(session, qtbot):
    model = EngagementModel(session)
    d = RosterDock(model)
    qtbot.addWidget(d)
    d.resize(700, 400)  # as wide as the roster stands in the window
    d.show()
    qtbot.waitExposed(d)
    d.activateWindow()
    return d


def row(dock, aircraft_id):
    return dock._items[aircraft_id]


def test_sides_and_aircraft_with_type_pilot_and_damage(dock):
    top = [dock.tree.topLevelItem(i).text(NAME) for i in range(dock.tree.topLevelItemCount())]
    assert top == ["Blue", "Red"]
    blue1 = row(dock, "blue-1")
    # the card's printed name (issue 29), the catalogue id in its tooltip
    assert (blue1.text(NAME), blue1.text(TYPE), blue1.text(PILOT)) == ("Blue 1", "Test Jet", "ace")
    assert blue1.toolTip(TYPE) == "jet"
    assert blue1.text(DAMAGE) == "0 / 4"
    assert dock.tree.topLevelItem(1).text(TYPE) == "2 of 2 in play"


def test_status_badges_and_damage_follow_the_game(dock, session):
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([1]))
    session.perform("critical_hit", {"aircraft": "red-1"}, TableDice([2]))
    session.perform("critical_hit", {"aircraft": "red-1"}, TableDice([4]))
    red1 = row(dock, "red-1")
    assert red1.text(DAMAGE) == "1 / 4"
    assert red1.text(STATUS) == "on fire, wounded"
    assert red1.data(STATUS, STATUS_ROLE) == "on_fire,wounded"
    # the badges are painted: the status cell is not blank on screen
    image = dock.tree.viewport().grab().toImage()
    rect = dock.tree.visualItemRect(red1)
    x0 = dock.tree.header().sectionViewportPosition(STATUS)
    colours = {image.pixelColor(x0 + dx, rect.center().y()).name() for dx in range(4, 30)}
    assert "#d84315" in colours  # the FIRE badge


def test_add_aircraft_from_the_catalogue(dock, session, qtbot):
    before = len(session.events())
    dialog = AddAircraftDialog(dock.model, dock)
    qtbot.addWidget(dialog)
    assert [dialog.type_box.itemData(i) for i in range(dialog.type_box.count())] == ["jet", "prop"]
    dialog.type_box.setCurrentIndex(1)
    dialog.side_box.setCurrentText("Red")
    assert dialog.name_edit.text() == "Red 3"
    dialog.pilot_box.setCurrentText("experienced")
    qtbot.mouseClick(
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    assert dialog.result() == dialog.DialogCode.Accepted
    assert len(session.events()) == before + 1
    red3 = session.engagement.aircraft[dialog.added]
    assert (red3.name, red3.type_id, red3.pilot, red3.side) == (
        "Red 3",
        "prop",
        "experienced",
        "Red",
    )
    assert row(dock, dialog.added).text(NAME) == "Red 3"


def test_add_refused_keeps_the_dialog_open_with_the_reason(dock, session, qtbot):
    before = len(session.events())
    dialog = AddAircraftDialog(dock.model, dock)
    qtbot.addWidget(dialog)
    dialog.name_edit.clear()
    qtbot.mouseClick(
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    assert "needs a name" in dialog.message.message
    assert dialog.result() != dialog.DialogCode.Accepted
    assert len(session.events()) == before


def test_rename_with_f2(dock, session, qtbot):
    dock.select(["blue-2"])
    qtbot.keyClick(dock.tree, Qt.Key.Key_F2)
    editor = dock.tree.viewport().findChild(QLineEdit)
    assert editor is not None and editor.text() == "Blue 2"
    editor.selectAll()
    qtbot.keyClicks(editor, "Wingman")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # the item view commits an edit on its next turn of the event loop
    qtbot.waitUntil(lambda: session.engagement.aircraft["blue-2"].name == "Wingman")
    assert session.engagement.aircraft["blue-2"].name == "Wingman"
    assert row(dock, "blue-2").text(NAME) == "Wingman"
    assert session.undoing.undo_text == "Blue 2: renamed Wingman"


def test_rename_to_nothing_is_refused_in_place(dock, session, qtbot):
    before = len(session.events())
    dock.select(["blue-2"])
    dock.rename_selected()
    editor = dock.tree.viewport().findChild(QLineEdit)
    editor.clear()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dock.message.message != "")
    assert "needs a name" in dock.message.message
    assert row(dock, "blue-2").text(NAME) == "Blue 2"
    assert len(session.events()) == before


def test_change_pilot(dock, session):
    dock.select(["red-2"])
    dock.pilot_actions["experienced"].trigger()
    assert session.engagement.aircraft["red-2"].pilot == "experienced"
    assert row(dock, "red-2").text(PILOT) == "experienced"


def test_remove_with_delete_and_undo(dock, session, qtbot):
    dock.select(["red-2"])
    dock.tree.setFocus()
    qtbot.keyClick(dock.tree, Qt.Key.Key_Delete)
    assert "red-2" not in session.engagement.aircraft
    assert "red-2" not in dock._items
    session.undo()
    assert row(dock, "red-2").text(NAME) == "Red 2"


def test_selection_is_a_signal(dock, qtbot):
    with qtbot.waitSignal(dock.selection_changed) as sig:
        dock.select(["blue-1", "red-1"])
    assert sorted(sig.args[0]) == ["blue-1", "red-1"]
    assert dock.remove_action.isEnabled()


def test_the_rulesets_own_settings_are_asked_for(dock, session, qtbot):
    dialog = AddAircraftDialog(dock.model, dock)
    qtbot.addWidget(dialog)
    assert dialog.details.names == ["callsign"]
    dialog.details.editor("callsign").setText("Maverick")
    qtbot.mouseClick(
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    assert session.engagement.aircraft[dialog.added].details == {"callsign": "Maverick"}


def test_add_dialog_names_the_umpires_aircraft_files_left_out(tmp_path, qtbot):
    """Issue 16: a bad aircraft file of the umpire's is named where aircraft are added."""
    from app.core.data import user_data_dir

    own = user_data_dir() / "aircraft" / "phantoms"
    own.mkdir(parents=True)
    (own / "broken_jet.toml").write_text("name = [", encoding="utf-8")
    with GameSession.create(tmp_path / "p.airboss", "phantoms", "Files") as s:
        dialog = AddAircraftDialog(EngagementModel(s))
        qtbot.addWidget(dialog)
        dialog.show()
        assert "broken_jet.toml" in dialog.message.message
        assert dialog.type_box.count() > 0  # the shipped types are all there


def test_a_column_widens_when_a_changed_row_needs_it(dock, session):
    """Issue 20: the Type, Pilot and Damage columns are fitted when the roster is built and
    grow when a changed row's text needs more room (not measured over every row on each
    action), so nothing is cut off: a pilot renamed to a longer quality shows whole."""
    header = dock.tree.header()
    before = header.sectionSize(PILOT)
    dock.select(["blue-2"])
    dock.pilot_actions["inexperienced"].trigger()
    item = row(dock, "blue-2")
    assert item.text(PILOT) == "inexperienced"
    wide = dock.tree.fontMetrics().horizontalAdvance(item.text(PILOT))
    assert header.sectionSize(PILOT) >= wide
    assert header.sectionSize(PILOT) >= before
