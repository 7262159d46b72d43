"""Initiative panel: rolled or typed dice, impossible values refused in place, order, marker."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.core.dice import TableDice
from app.ui.docks.initiative import InitiativeDock
from app.ui.model import EngagementModel


@pytest.fixture
def dock(session, qtbot):
    model = EngagementModel(session)
    model.dice_mode.set_players_roll(False)  # these start with Airboss rolling; some tick it
    d = InitiativeDock(model)
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    return d


def type_dice(dock, qtbot, *values):
    qtbot.mouseClick(dock.players_roll, Qt.MouseButton.LeftButton)
    for field, value in zip(dock.dice_fields, values, strict=True):
        field.edit.clear()
        qtbot.keyClicks(field.edit, str(value))


def test_before_any_roll(dock):
    assert "Initiative" in dock.title.text() and "by side" in dock.title.text()
    assert dock.order_lines() == ["Not rolled yet"]
    assert dock.form.shown_text("sides") == "Blue, Red"


def test_one_field_per_die_from_dice_needed(dock, qtbot):
    qtbot.mouseClick(dock.players_roll, Qt.MouseButton.LeftButton)
    assert [f.purpose for f in dock.dice_fields] == ["initiative for Blue", "initiative for Red"]
    assert all(f.spec.name == "d6" for f in dock.dice_fields)


def test_typed_dice_set_the_order_and_the_marker(dock, session, qtbot):
    type_dice(dock, qtbot, 2, 5)
    qtbot.mouseClick(dock.roll_button, Qt.MouseButton.LeftButton)
    assert session.engagement.initiative_order == ("Red", "Blue")
    assert dock.order_lines() == ["1. Red   (5)   ★ holds the marker", "2. Blue   (2)"]
    rolls = session.events()[-2].event.rolls
    assert [r["dice"] for r in rolls] == [[2], [5]] and all(r["typed"] for r in rolls)
    assert [f.edit.text() for f in dock.dice_fields] == ["", ""]


def test_impossible_die_is_refused_in_place_and_nothing_is_appended(dock, session, qtbot):
    before = len(session.events())
    type_dice(dock, qtbot, 7, 3)
    field = dock.dice_fields[0]
    assert not field.error.isHidden()
    assert "7 is not a face of a d6 (1-6)" in field.error.text()
    qtbot.mouseClick(dock.roll_button, Qt.MouseButton.LeftButton)
    assert "7 is not a face of a d6" in dock.message.message
    assert len(session.events()) == before
    assert session.engagement.initiative_order == ()


def test_missing_typed_die_is_refused(dock, session, qtbot):
    before = len(session.events())
    qtbot.mouseClick(dock.players_roll, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dock.dice_fields[0].edit, "4")
    qtbot.mouseClick(dock.roll_button, Qt.MouseButton.LeftButton)
    assert dock.dice_fields[1].error.text() == "type the number rolled"
    assert "type the number rolled" in dock.message.message
    assert len(session.events()) == before


def test_airboss_rolls_with_ctrl_i(dock, session, qtbot):
    dock.activateWindow()
    qtbot.waitUntil(dock.isActiveWindow)
    qtbot.keyClick(dock, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert set(session.engagement.initiative_order) == {"Blue", "Red"}
    assert not any(r["typed"] for r in session.events()[-2].event.rolls)
    assert "★ holds the marker" in dock.order_lines()[0]


def test_no_pass_row_where_the_rules_have_no_passing(dock, session, qtbot):
    type_dice(dock, qtbot, 6, 1)
    dock.roll()
    assert not dock.pass_box.isVisible()


def test_pass_the_marker_by_the_rulesets_own_rule(qtbot, tmp_path):
    """Phantoms 4.0: the marker passes through Phantoms' own procedure, logged as such."""
    from app.startup.demo import create_demo_game

    session = create_demo_game(tmp_path / "demo.airboss")
    model = EngagementModel(session)
    model.dice_mode.set_players_roll(False)  # these start with Airboss rolling; some tick it
    d = InitiativeDock(model)
    qtbot.addWidget(d)
    d.show()
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([9, 4]))
    assert session.engagement.initiative_marker == "USAF"
    assert d.pass_box.isVisible()
    assert [d.pass_to.itemText(i) for i in range(d.pass_to.count())] == ["VPAF"]
    qtbot.mouseClick(d.pass_button, Qt.MouseButton.LeftButton)
    assert session.engagement.initiative_marker == "VPAF"
    assert d.order_lines()[0].endswith("★ holds the marker")
    assert session.undoing.undo_text.endswith("USAF passes the Initiative Marker to VPAF (4.0)")
    session.close()


def test_the_sides_follow_the_roster(dock, session):
    session.add_aircraft("Green", "prop", "Green 1")
    assert dock.form.shown_text("sides") == "Blue, Red, Green"
    dock.players_roll.setChecked(True)
    assert len(dock.dice_fields) == 3


def test_the_umpires_own_edits_survive_other_actions(dock, session):
    dock.form.editor("sides").setText("Red, Blue")  # what the umpire typed goes to the draft
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([9]))
    assert dock.form.shown_text("sides") == "Red, Blue"
    assert list(dock.prepared.inputs.sides) == ["Red", "Blue"]
