"""The combat panel: procedure, aircraft, generated form, live exact odds, typed or rolled dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import Field
from PySide6.QtCore import Qt

from app.core.errors import MissingTableValue
from app.core.events import ProcedureResolved
from app.core.procedure import Procedure
from app.core.ruleset import ProcedureInputs
from app.session import GameSession
from app.ui.docks.combat import CombatDock
from app.ui.model import EngagementModel


@pytest.fixture
def game(tmp_path):
    s = GameSession.create(tmp_path / "g.airboss", "skirmish", "Combat test")
    s.add_aircraft("Blue", "jet", "Blue 1")
    s.add_aircraft("Red", "prop", "Red 1")
    yield s
    s.close()


@pytest.fixture
def dock(qtbot, game):
    model = EngagementModel(game)
    model.dice_mode.set_players_roll(False)  # these start with Airboss rolling; some tick it
    d = CombatDock(model)
    qtbot.addWidget(d)
    d.show()
    return d


def choose(combo, text):
    i = combo.findText(text)
    assert i >= 0, f"{text!r} not in {[combo.itemText(j) for j in range(combo.count())]}"
    combo.setCurrentIndex(i)


def odds_rows(dock):
    assert dock.odds is not None  # the odds wait for a pause in the typing: work them out now
    t = dock.odds_table
    return [tuple(t.item(r, c).text() for c in range(3)) for r in range(t.rowCount())]


def test_lists_procedures_and_prefills_from_the_attacker(dock):
    names = [dock.procedure.itemText(i) for i in range(dock.procedure.count())]
    assert names == [
        "Gun attack (Skirmish 1)",
        "Critical hit (Skirmish 2)",
        "Afterburner (Skirmish 3)",
    ]  # the initiative roll is the Initiative panel's: no second form here (issue 14)
    choose(dock.attacker, "Red 1 (Red)")
    assert dock.form.editor("hit_number").text() == "5"  # the prop's card
    assert odds_rows(dock) == [("hit", "1/2", "50%"), ("miss", "1/2", "50%")]
    choose(dock.attacker, "Blue 1 (Blue)")
    assert dock.form.editor("hit_number").text() == "6"
    assert odds_rows(dock) == [("hit", "3/5", "60%"), ("miss", "2/5", "40%")]
    assert dock.chart.labels == ["hit", "miss"]
    assert dock.chart.heights == [60.0, 40.0]


def test_odds_update_live_as_the_umpire_types(qtbot, dock):
    spin = dock.form.editor("modifier")
    spin.selectAll()
    qtbot.keyClicks(spin, "2")
    # hit number 6 (default) and +2: rolls 1-4 hit
    assert odds_rows(dock) == [("hit", "2/5", "40%"), ("miss", "3/5", "60%")]
    chart = dock.chart
    assert chart.heights == [40.0, 60.0]
    assert "hit: 40.0%" in chart.toolTip()


def test_resolve_with_typed_dice_appends_and_shows_the_narrative(qtbot, dock, game):
    choose(dock.attacker, "Blue 1 (Blue)")
    choose(dock.target, "Red 1 (Red)")
    qtbot.mouseClick(dock.players_roll, Qt.MouseButton.LeftButton)
    assert len(dock.dice_fields) == 1
    assert dock.dice_fields[0].isVisible()
    qtbot.keyClicks(dock.dice_fields[0].edit, "3")
    before = len(game.events())
    qtbot.mouseClick(dock.resolve_button, Qt.MouseButton.LeftButton)
    events = game.events()
    assert len(events) > before
    rec = next(e.event for e in events[before:] if isinstance(e.event, ProcedureResolved))
    assert rec.outcome == "hit" and rec.rolls[0]["dice"] == [3] and rec.rolls[0]["typed"]
    assert "gun roll 3: hit (Skirmish 1)" in dock.result.text()
    assert game.engagement.aircraft["red-1"].damage == 1
    assert game.engagement.aircraft["blue-1"].ledger("ammunition") == Fraction(2)
    assert dock.refusal.message == ""


def test_a_die_typed_out_of_range_is_refused_in_place_and_nothing_is_appended(qtbot, dock, game):
    choose(dock.attacker, "Blue 1 (Blue)")
    dock.players_roll.setChecked(True)
    field = dock.dice_fields[0]
    qtbot.keyClicks(field.edit, "11")
    assert "11 is not a face of a d10" in field.error.text()
    assert field.error.isVisible()
    before = len(game.events())
    qtbot.keyClick(field.edit, Qt.Key.Key_Return)
    assert len(game.events()) == before
    assert "11 is not a face of a d10" in dock.refusal.message
    field.edit.clear()
    qtbot.keyClicks(field.edit, "0")  # a d10's 0 reads as 10
    assert field.error.text() == ""
    qtbot.keyClick(field.edit, Qt.Key.Key_Return)
    assert len(game.events()) > before
    assert "gun roll 10: miss" in dock.result.text()


def test_an_empty_die_is_asked_for_and_nothing_is_appended(qtbot, dock, game):
    dock.players_roll.setChecked(True)
    before = len(game.events())
    qtbot.mouseClick(dock.resolve_button, Qt.MouseButton.LeftButton)
    assert dock.dice_fields[0].error.text() == "type the number rolled"
    assert len(game.events()) == before


def test_airboss_rolls_with_ctrl_return(qtbot, dock, game):
    dock.activateWindow()
    qtbot.waitActive(dock)
    dock.form.editor("modifier").setFocus()
    before = len(game.events())
    qtbot.keyClick(
        dock.form.editor("modifier"), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier
    )
    new = [e.event for e in game.events()[before:]]
    rec = new[0]
    assert isinstance(rec, ProcedureResolved) and not rec.rolls[0]["typed"]
    assert (rec.attacker, rec.target) == ("blue-1", "red-1")
    assert rec.outcome in dock.result.text()


def test_a_fresh_dock_pits_the_first_aircraft_against_another_side(dock):
    assert dock.attacker.currentText() == "Blue 1 (Blue)"
    assert dock.target.currentText() == "Red 1 (Red)"
    assert dock.form.editor("hit_number").text() == "6"  # prefilled from Blue 1's card


def test_a_ledger_that_cannot_pay_is_refused_in_the_dock(qtbot, dock, game):
    for _ in range(2):  # the prop carries no afterburner, the jet two uses
        game.perform("afterburner", {"aircraft": "blue-1"})
    choose(dock.procedure, "Afterburner (Skirmish 3)")
    assert dock.aircraft.isVisible() and not dock.attacker.isVisible()
    choose(dock.aircraft, "Blue 1 (Blue)")
    # the odds are those of the action in the game as it is (issue 28): it cannot act, and the
    # panel says why before anything is resolved
    assert odds_rows(dock) == []
    assert "cannot pay 1 afterburner: only 0 left" in dock.odds_message.text()
    assert not dock.players_roll.isChecked() or dock.no_dice.isVisible()
    before = len(game.events())
    qtbot.mouseClick(dock.resolve_button, Qt.MouseButton.LeftButton)
    assert len(game.events()) == before
    assert "cannot pay 1 afterburner: only 0 left" in dock.refusal.message
    assert dock.refusal.isVisible()


def offer_initiative(monkeypatch, dock, game):
    """A ruleset whose initiative roll has no panel of its own: Combat offers it."""
    monkeypatch.setattr(type(game.ruleset), "initiative", None)
    dock.model.reset.emit()
    choose(dock.procedure, "Initiative (Skirmish 4)")


def test_dice_fields_follow_dice_needed(qtbot, dock, game, monkeypatch):
    offer_initiative(monkeypatch, dock, game)
    dock.players_roll.setChecked(True)
    assert [f.purpose for f in dock.dice_fields] == ["initiative for Blue", "initiative for Red"]
    sides = dock.form.editor("sides")
    sides.clear()
    qtbot.keyClicks(sides, "Blue, Red, Green")
    assert len(dock.dice_fields) == 3
    # Skirmish 4, three sides: Blue holds the marker when no one beats it: sum of (b/6)^2 / 6
    assert odds_rows(dock)[0] == ("Blue holds the marker", "91/216", "42.1%")
    for f, v in zip(dock.dice_fields, ("2", "7", "5"), strict=True):
        qtbot.keyClicks(f.edit, v)
    before = len(game.events())
    qtbot.mouseClick(dock.resolve_button, Qt.MouseButton.LeftButton)
    assert "7 is not a face of a d6" in dock.refusal.message
    assert len(game.events()) == before
    dock.dice_fields[1].edit.clear()
    qtbot.keyClicks(dock.dice_fields[1].edit, "6")
    qtbot.mouseClick(dock.resolve_button, Qt.MouseButton.LeftButton)
    assert game.engagement.initiative_order == ("Red", "Green", "Blue")
    assert not dock.refusal.isVisible()


def test_new_aircraft_appear_in_the_pickers_and_undo_keeps_the_dock_consistent(qtbot, dock, game):
    game.add_aircraft("Red", "jet", "Red 2")
    assert dock.target.findText("Red 2 (Red)") >= 0
    choose(dock.attacker, "Blue 1 (Blue)")
    game.roster.remove_aircraft("blue-1")
    assert dock.attacker.findText("Blue 1 (Blue)") < 0
    assert dock.attacker.currentText() == "(none: what-if)"
    game.undo()
    assert dock.attacker.findText("Blue 1 (Blue)") >= 0


def test_a_ruleset_error_is_refused_not_raised(qtbot, dock, game, monkeypatch):
    def broken(inputs, dice, draft):
        raise IndexError("tuple index out of range")

    offer_initiative(monkeypatch, dock, game)
    monkeypatch.setattr(game.ruleset.procedures["initiative"], "decide", broken)
    before = len(game.events())
    qtbot.mouseClick(dock.resolve_button, Qt.MouseButton.LeftButton)
    assert len(game.events()) == before
    # the ruleset's failure is named as such (issue 31: a ruleset is a guest)
    assert dock.refusal.message == (
        "the ruleset Skirmish (test ruleset) (skirmish) failed in resolve Initiative: "
        "IndexError: tuple index out of range; nothing was recorded"
    )


def test_screenshot(qtbot, dock, tmp_path):
    choose(dock.attacker, "Blue 1 (Blue)")
    choose(dock.target, "Red 1 (Red)")
    dock.players_roll.setChecked(True)
    dock.resize(420, 900)
    assert not dock.grab().isNull()
    dock.grab().save(str(tmp_path.parent / "combat.png"))


class _LookupInputs(ProcedureInputs):
    column: int = Field(40, ge=10, le=50)


class _Lookup(Procedure):
    """Skirmish 9: a table the rules text does not print."""

    id = "lookup"
    title = "Table lookup"
    rule = "Skirmish 9"
    Inputs = _LookupInputs
    dice = (("d6", "table roll"),)

    def decide(self, inputs, dice, draft):
        dice.roll("d6", "table roll")
        raise MissingTableValue("Hit table", f"column {inputs.column}", self.rule)


def test_a_missing_table_value_offers_the_tables_editor(qtbot, game, tmp_path):
    table = tmp_path / "hits.toml"
    table.write_text('title = "Hit table"\n[cells]\n"40" = "missing"\n', encoding="utf-8")
    game.ruleset.procedures = {**game.ruleset.procedures, "lookup": _Lookup()}
    game.ruleset.table_files = lambda: {"hits": table}
    d = CombatDock(EngagementModel(game))
    qtbot.addWidget(d)
    d.show()
    choose(d.procedure, "Table lookup (Skirmish 9)")
    assert d.odds == {}
    assert "the value for column 40 is not printed" in d.odds_message.text()
    assert d.odds_table.rowCount() == 0
    assert d.open_tables.isVisible()
    d.players_roll.setChecked(True)
    qtbot.keyClicks(d.dice_fields[0].edit, "4")
    before = len(game.events())
    qtbot.mouseClick(d.resolve_button, Qt.MouseButton.LeftButton)
    assert len(game.events()) == before
    assert "Tables editor" in d.refusal.message
    qtbot.mouseClick(d.open_tables, Qt.MouseButton.LeftButton)
    editor = d.tables_editor
    qtbot.addWidget(editor)
    assert editor.isVisible() and editor.name == "hits"
    # the cursor is on the missing cell, in its printed chart (row "40")
    t = editor.table
    assert t.item(t.currentRow(), t.currentColumn()).text() == "missing"
    assert t.verticalHeaderItem(t.currentRow()).text() == "40"
    assert editor.locate("cells.40") == (t.currentRow(), t.currentColumn())


def test_the_roster_selection_picks_attacker_and_target(dock, game):
    game.add_aircraft("Red", "jet", "Red 2")
    dock.model.select(["red-2", "blue-1"])  # the Roster's selection, through the model
    assert dock.attacker.currentText() == "Red 2 (Red)"
    assert dock.target.currentText() == "Blue 1 (Blue)"
    assert dock.form.editor("hit_number").text() == "6"
    choose(dock.procedure, "Critical hit (Skirmish 2)")
    assert dock.aircraft.currentText() == "Red 2 (Red)"


def test_odds_wait_for_a_pause_in_the_typing(dock, qtbot):
    """Issue 20: a keystroke never waits for the odds; they follow once the typing pauses."""
    choose(dock.attacker, "Blue 1 (Blue)")
    choose(dock.target, "Red 1 (Red)")
    before = dock.odds
    spin = dock.form.editor("modifier")
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert dock.odds_view._timer.isActive()  # the keystroke returned before the calculation
    qtbot.waitUntil(lambda: not dock.odds_view._timer.isActive(), timeout=2000)
    assert odds_rows(dock) and dock.odds != before


def test_a_refusal_of_earlier_inputs_goes_as_soon_as_they_are_good(qtbot, tmp_path):
    """Issue 20: while the odds wait for a pause in the typing, the "fix the inputs" message
    of inputs that were incomplete a moment ago is not left standing over good ones: a new
    procedure's form passes through empty fields as it fills from the cards."""
    from app.startup.demo import create_demo_game

    s = create_demo_game(tmp_path / "phantoms.airboss")  # Phantoms: the gun attack first
    dock = CombatDock(EngagementModel(s))
    qtbot.addWidget(dock)
    # the firing position is the umpire's to type (never a 0 shown and used, issue 43): until
    # it is, the panel says what to fix, not odds
    assert "Gun Firing Position Diagram" in dock.odds_message.text()
    qtbot.keyClicks(dock.form.editor("position_modifier"), "1")
    qtbot.waitUntil(lambda: not dock.odds_view._timer.isActive(), timeout=2000)
    assert odds_rows(dock)
    dock.procedure.setFocus()
    qtbot.keyClick(dock.procedure, Qt.Key.Key_Down)
    qtbot.keyClick(dock.procedure, Qt.Key.Key_Up)  # the gun attack's form again, refilled
    assert dock.procedure.currentIndex() == 0
    qtbot.keyClicks(dock.form.editor("position_modifier"), "1")
    assert dock.odds_view._timer.isActive()  # the odds are still to come
    # no refusal of the inputs of a moment ago meanwhile, and no odds of another action:
    # only that they are being worked out (issue 43)
    assert dock.odds_message.text() == "Working out the odds…"
    qtbot.waitUntil(lambda: not dock.odds_view._timer.isActive(), timeout=2000)
    assert odds_rows(dock)
    s.close()
