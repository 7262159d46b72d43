"""Issue 29, the umpire's pace: dice pools typed as one string, the extra die a result asks for
in the same form, Enter resolving every form, one key to pick a target, lines that cannot act
saying so, the wheel changing nothing the umpire did not pick, printed names. Keys and clicks
through the real desk at 1366x768."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit

from app.core.errors import MissingTableValue
from app.core.events import ProcedureResolved
from app.core.procedure import Decision, Procedure
from app.core.ruleset import ProcedureInputs
from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow


def desk(qtbot: Any, tmp_path: Path, session: GameSession) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("dice/players_roll", True)
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.show_session(session)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.build_panels()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def ufo_game(path: Path, step: int = 0) -> GameSession:
    """A Tornado and a Small UFO (the one card that prints its ray gun), initiative rolled,
    at ``step`` of turn 1."""
    from app.core.dice import TableDice

    s = GameSession.create(path, "ufo_interception", "Pace")
    s.add_aircraft("NATO", "tornado", "Tornado 1", reaction=1)
    s.add_aircraft("Visitors", "small_ufo", "Saucer")
    s.perform("initiative", {"planes": ["tornado-1"], "reactions": [1]}, TableDice([3]))
    while s.engagement.step != step:
        s.clock.next_step()
    return s


def records(s: GameSession, before: int) -> list[ProcedureResolved]:
    return [e.event for e in s.events()[before:] if isinstance(e.event, ProcedureResolved)]


def test_a_pool_of_dice_is_typed_as_one_string(tmp_path, qtbot) -> None:
    """UFO rules, the ray gun: its d6 are one field, "345612" or "3 4 5 6 1 2", each digit
    checked against the die (a 7 is refused in place), and the roll records each die."""
    from rulesets.ufo_interception.sequence import MISSILES
    from tests.ui.test_dice_entry import open_line

    s = ufo_game(tmp_path / "u.airboss", MISSILES)
    window = desk(qtbot, tmp_path, s)
    combat = window.panels["combat"]
    open_line(qtbot, window, "Saucer — fires its ray gun")
    assert combat.form is not None and combat.prepared is not None
    assert combat.prepared.procedure == "ray_gun"
    assert combat.prepared.roles == {"attacker": "saucer", "target": "tornado-1"}
    assert QApplication.focusWidget() is combat.form.editor("range_inches")
    qtbot.keyClicks(QApplication.focusWidget(), "3")  # charge 9 at 3": six dice
    dice = [f for f in combat.dice_fields if f.count > 1]
    assert dice, [(f.purpose, f.count) for f in combat.dice_fields]
    pool = dice[0]
    faces = "345612"[: pool.count]
    qtbot.keyClicks(pool.edit, faces[:-1] + "7")
    assert "7 is not a face of a d6" in pool.error.text()
    pool.edit.clear()
    qtbot.keyClicks(pool.edit, " ".join(faces))
    assert pool.error.text() == ""
    before = len(s.events())
    combat.resolve()
    rec = records(s, before)
    assert rec and [d for r in rec[0].rolls for d in r["dice"]][: pool.count] == [
        int(c) for c in faces
    ]
    window.model.set_session(None)


def test_a_damage_result_that_rolls_more_asks_for_it_in_the_same_form(tmp_path, qtbot) -> None:
    """UFO rules, Damage: a table result that rolls another die (a roll of 2) asks for it in
    the same form, the dice typed kept; a typed-dice game never switches to Airboss's dice."""
    s = ufo_game(tmp_path / "u.airboss")
    window = desk(qtbot, tmp_path, s)
    combat = window.panels["combat"]
    combat.select_procedure("damage_roll")
    combat.set_aircraft(None, "saucer")
    assert [f.count for f in combat.dice_fields] == [2]
    before = len(s.events())
    qtbot.keyClicks(combat.dice_fields[0].edit, "11")  # 2d6 = 2: the table rolls more
    # asked for at once, in the same form, the dice typed kept; each die the result rolls
    # next is asked for as the one before is typed (damage points, then speed lost)
    assert len(combat.dice_fields) == 2
    assert "rolls more: damage points" in combat.notice.message
    assert combat.dice_fields[0].edit.text() == "11"
    while (focus := QApplication.focusWidget()) is combat.dice_fields[-1].edit and not focus.text():
        qtbot.keyClicks(focus, "4")
    assert len(combat.dice_fields) == 3 and len(s.events()) == before  # nothing yet written
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    rec = records(s, before)
    assert rec and all(r["typed"] for r in rec[0].rolls)
    window.model.set_session(None)


def test_enter_resolves_a_form_with_nothing_to_type(tmp_path, qtbot) -> None:
    """Phantoms 6.5: an afterburner line has nothing to type and rolls no die: opened, the
    cursor is on Resolve and Enter resolves it (two actions)."""
    from app.startup.demo import create_demo_game
    from tests.ui.test_dice_entry import open_line

    s = create_demo_game(tmp_path / "d.airboss")
    window = desk(qtbot, tmp_path, s)
    while not any(
        "afterburner" in line for line in window.panels["turn"].acting_lines()
    ):  # to segment c) Afterburner
        s.clock.next_step()
    combat = window.panels["combat"]
    open_line(qtbot, window, "may use its afterburner")
    assert QApplication.focusWidget() is combat.resolve_button
    before = len(s.events())
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert records(s, before)[0].procedure == "afterburner"
    window.model.set_session(None)


def test_a_number_picks_the_target_and_enter_in_target_goes_on(tmp_path, qtbot) -> None:
    """Picking is one key: "2" in Target picks the second enemy listed; Enter there goes on to
    the first die to type (then resolves, once every die is typed)."""
    from app.startup.demo import create_demo_game

    s = create_demo_game(tmp_path / "d.airboss")
    window = desk(qtbot, tmp_path, s)
    combat = window.panels["combat"]
    combat.select_procedure("gun_attack")
    combat.set_aircraft("olds-1")
    qtbot.keyClicks(combat.form.editor("position_modifier"), "1")  # the umpire's to judge
    combat.target.setFocus()
    qtbot.keyClick(combat.target, Qt.Key.Key_2)
    assert combat.target.currentText() == combat.target.itemText(2)
    assert combat.prepared is not None and combat.prepared.roles[
        "target"
    ] == combat.target.itemData(2)
    qtbot.keyClick(combat.target, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is combat.dice_fields[0].edit
    window.model.set_session(None)


def test_a_line_that_cannot_act_says_so(tmp_path, qtbot) -> None:
    """A gun line of an aircraft with no ammunition left says so on the line (7.2), not
    after the dice are typed; opening it explains in the odds."""
    from app.core.dice import TableDice
    from app.startup.demo import create_demo_game
    from rulesets.phantoms.clock import step_of
    from tests.ui.test_dice_entry import open_line

    s = create_demo_game(tmp_path / "d.airboss")
    init = s.ruleset.procedures["initiative"].prefill(s.engagement, None, None)
    s.perform("initiative", init, TableDice([4, 9]))
    olds = s.engagement.aircraft["olds-1"]
    s.roster.adjust_ledger(
        "olds-1", "gun_ammunition", -olds.ledgers["gun_ammunition"].value, "spent"
    )
    while (s.engagement.turn, s.engagement.step) != (1, step_of(1, "f")):
        s.clock.next_step()
    window = desk(qtbot, tmp_path, s)
    line = next(t for t in window.panels["turn"].acting_lines() if "Olds 1" in t)
    assert "cannot:" in line and "ammunition" in line
    open_line(qtbot, window, "Olds 1 — may fire guns")
    combat = window.panels["combat"]
    assert combat.odds == {} and "ammunition" in combat.odds_message.text()
    window.model.set_session(None)


def wheel(widget: Any, delta: int = -120) -> None:
    event = QWheelEvent(
        QPointF(5, 5),
        QPointF(widget.mapToGlobal(QPoint(5, 5))),
        QPoint(0, 0),
        QPoint(0, delta),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_the_wheel_over_dialog_boxes_changes_nothing_not_picked(tmp_path, qtbot) -> None:
    """The Add-aircraft dialog's type, side and pilot boxes and the New-game ruleset and dice
    boxes do not change under the wheel unless the umpire picked them."""
    from app.startup.demo import create_demo_game
    from app.ui.dialogs.new_game import NewGameDialog
    from app.ui.docks.roster import AddAircraftDialog

    s = create_demo_game(tmp_path / "d.airboss")
    model = EngagementModel(s)
    add = AddAircraftDialog(model)
    qtbot.addWidget(add)
    add.show()
    add.name_edit.setFocus()
    for box in (add.type_box, add.side_box, add.pilot_box):
        before = box.currentIndex()
        wheel(box)
        assert box.currentIndex() == before
    new = NewGameDialog()
    qtbot.addWidget(new)
    new.show()
    new.title_edit.setFocus()
    for box in (new.ruleset_box, new.dice_box):
        before = box.currentIndex()
        wheel(box)
        assert box.currentIndex() == before
    model.set_session(None)


def test_the_roster_shows_the_cards_printed_names(tmp_path, qtbot) -> None:
    """The Roster's type column shows the card's printed name (the catalogue id is the
    tooltip), and dice are labelled with the aircraft's printed names."""
    from app.startup.demo import create_demo_game

    s = create_demo_game(tmp_path / "d.airboss")
    window = desk(qtbot, tmp_path, s)
    roster = window.panels["roster"]
    olds = roster.tree.topLevelItem(0).child(0)
    card = s.engagement.aircraft["olds-1"].card
    assert olds.text(1) == card["name"] and olds.toolTip(1) == "f4e"
    combat = window.panels["combat"]
    combat.select_procedure("gun_attack")
    combat.set_aircraft("olds-1", "red-1")
    qtbot.keyClicks(combat.form.editor("position_modifier"), "1")  # the dice, once it is typed
    assert [f.purpose for f in combat.dice_fields] == ["gun attack: Olds 1", "gun attack: Red 1"]
    window.model.set_session(None)


def test_the_tables_editor_refuses_a_cell_the_tables_model_refuses(qtbot) -> None:
    """Nth Fleet 2.9: the column headings below 40 are a list; "30" typed there is refused
    with the table model's reason (never saved, which would break every air combat), and a
    list is taken."""
    from app.core.data import override_path
    from app.plugins import load_ruleset
    from app.ui.editors.tables_editor import TablesEditor
    from rulesets.nth_fleet.tables import attack_table
    from tests.ui.test_tables_every_table import type_cell

    attack_table()  # the game has read the table (its model is known)
    ed = TablesEditor(load_ruleset("nth_fleet"), select=("Air-to-air attack table", ""))
    qtbot.addWidget(ed)
    ed.show()
    type_cell(qtbot, ed, "lower_columns", "30")
    assert "Lower columns" in ed.error.text() and "a list belongs here" in ed.error.text()
    qtbot.keyClick(ed, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "Not saved" in ed.message.message
    assert not override_path("nth_fleet", "air_to_air_attack").exists()
    type_cell(qtbot, ed, "lower_columns", "[10, 20, 30]")
    assert not ed.errors, ed.error.text()
    qtbot.keyClick(ed, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "Saved to" in ed.status.text()
    assert attack_table().lower_columns == [10, 20, 30]


class _HitTableModel(BaseModel):
    title: str
    cells: dict[str, int | Literal["missing"]]


class _LookupInputs(ProcedureInputs):
    column: int = Field(40, ge=10, le=50)


class _Lookup(Procedure):
    """Skirmish 9: a hit table the rules text does not print, read after the roll."""

    id = "lookup"
    title = "Table lookup"
    rule = "Skirmish 9"
    Inputs = _LookupInputs
    dice = (("d6", "table roll"),)
    table = Path()

    def decide(self, inputs: Any, dice: Any, draft: Any) -> Decision:
        from app.core.data import load_table

        roll = dice.roll("d6", "table roll").total
        value = load_table("skirmish", self.table, _HitTableModel).cells[str(inputs.column)]
        if value == "missing":
            raise MissingTableValue("Hit table", f"column {inputs.column}", self.rule)
        return Decision(f"{value} hits", f"d6 = {roll}: {value} hits")


def test_a_missing_cell_is_filled_in_the_forms_flow(tmp_path, qtbot) -> None:
    """Typed dice, Enter: the cell the roll needs is not printed. Enter opens the Tables editor
    on exactly that cell, the value typed, Ctrl+S saves, and the same form resolves with the
    dice typed; the editor closes. Five keys past the dice."""
    from app.ui.docks.combat import CombatDock

    table = tmp_path / "hits.toml"
    table.write_text('title = "Hit table"\n[cells]\n"40" = "missing"\n', encoding="utf-8")
    s = GameSession.create(tmp_path / "g.airboss", "skirmish", "Tables")
    lookup = _Lookup()
    lookup.table = table
    s.ruleset.procedures = {**s.ruleset.procedures, "lookup": lookup}
    s.ruleset.table_files = lambda: {"hits": table}  # type: ignore[method-assign]
    d = CombatDock(EngagementModel(s))
    qtbot.addWidget(d)
    d.resize(900, 700)
    d.show()
    d.activateWindow()
    qtbot.waitUntil(d.isActiveWindow)
    d.select_procedure("lookup")
    d.players_roll.setChecked(True)
    qtbot.keyClicks(d.dice_fields[0].edit, "4")
    before = len(s.events())
    qtbot.keyClick(d.dice_fields[0].edit, Qt.Key.Key_Return)  # 1: resolve
    assert len(s.events()) == before and d.open_tables.hasFocus()
    qtbot.keyClick(d.open_tables, Qt.Key.Key_Return)  # 2: the editor, on the cell
    editor = d.tables_editor
    qtbot.addWidget(editor)
    t = editor.table
    qtbot.waitUntil(editor.isActiveWindow)
    assert t.hasFocus() and t.verticalHeaderItem(t.currentRow()).text() == "40"
    assert t.item(t.currentRow(), t.currentColumn()).text() == "missing"
    qtbot.keyClick(t, Qt.Key.Key_3)  # 3: typing starts the edit
    qtbot.waitUntil(lambda: t.state() == QAbstractItemView.State.EditingState)
    line = t.viewport().findChild(QLineEdit)
    assert line is not None and line.text() == "3"
    qtbot.keyClick(line, Qt.Key.Key_Return)  # 4: the cell
    qtbot.waitUntil(lambda: t.state() != QAbstractItemView.State.EditingState)
    qtbot.keyClick(t, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # 5: save
    rec = records(s, before)
    assert rec and rec[0].outcome == "3 hits" and rec[0].rolls[0]["dice"] == [4]
    assert not editor.isVisible()
    s.close()


def test_ufo_initiative_ticks_its_lines_and_gives_the_turn_back(tmp_path, qtbot) -> None:
    """UFO rules, Roll Initiative: Enter on a roll line puts the cursor on the first die
    (labelled with the plane's printed name), the roll button in view at 1366x768; the dice
    typed and Enter, both roll lines are ticked off and the Turn panel is back in front, the
    cursor on its list."""
    s = GameSession.create(tmp_path / "u.airboss", "ufo_interception", "Initiative")
    s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
    s.add_aircraft("NATO", "tornado", "Blue 2", reaction=1)
    s.add_aircraft("Visitors", "small_ufo", "Saucer")
    window = desk(qtbot, tmp_path, s)
    turn, ini = window.panels["turn"], window.panels["initiative"]
    turn.acting.setCurrentRow(0)
    turn.acting.setFocus()
    qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    assert [f.purpose for f in ini.dice_fields] == [
        "initiative for Blue 1",
        "initiative for Blue 2",
    ]
    assert QApplication.focusWidget() is ini.dice_fields[0].edit
    assert ini.roll_button.isVisible() and not ini.roll_button.visibleRegion().isEmpty()
    qtbot.keyClicks(ini.dice_fields[0].edit, "3")  # a d6's face: on to the next die
    qtbot.keyClicks(QApplication.focusWidget(), "6")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert s.engagement.initiative_scores == {"blue-1": 5, "blue-2": 7}
    assert all(line.startswith("✓ ") for line in turn.acting_lines()), turn.acting_lines()
    assert not turn.visibleRegion().isEmpty() and turn.acting.hasFocus()
    window.model.set_session(None)


def test_the_tables_editor_names_aircraft_rows_by_their_printed_names(qtbot) -> None:
    """Nth Fleet 2.8, the Defence Value Table: a row per aircraft type, headed by the card's
    printed name ("A-6E", "F/A-18C"), the catalogue id its tooltip."""
    from app.plugins import load_ruleset
    from app.ui.editors.tables_editor import TablesEditor

    ed = TablesEditor(load_ruleset("nth_fleet"), select=("Defence Value Table", ""))
    qtbot.addWidget(ed)
    t = ed.table
    heads = [t.verticalHeaderItem(r) for r in range(t.rowCount())]
    assert [h.text() for h in heads][:6] == ["A-6E", "E-2C", "EA-6B", "F-14A", "F-15C", "F/A-18C"]
    assert heads[0].toolTip() == "a6e"


def test_tab_goes_through_what_the_umpire_judges_only(tmp_path, qtbot) -> None:
    """Phantoms 7.2, a gun line: Tab from the first field never stops on a value read off the
    cards, nor on its override button ("Read from the card")."""
    from app.core.dice import TableDice
    from app.startup.demo import create_demo_game
    from rulesets.phantoms.clock import step_of
    from tests.ui.test_dice_entry import open_line

    s = create_demo_game(tmp_path / "d.airboss")
    init = s.ruleset.procedures["initiative"].prefill(s.engagement, None, None)
    s.perform("initiative", init, TableDice([4, 9]))
    while (s.engagement.turn, s.engagement.step) != (1, step_of(1, "f")):
        s.clock.next_step()
    window = desk(qtbot, tmp_path, s)
    open_line(qtbot, window, "Olds 1 — may fire guns")
    combat = window.panels["combat"]
    form = combat.form
    assert form is not None and QApplication.focusWidget() is form.editor("position_modifier")
    locked = [form.editor(n) for n in form.names if form.is_locked(n)]
    assert locked  # the card's values are there, read-only
    for _ in range(12):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        w = QApplication.focusWidget()
        assert w not in locked and w.accessibleName() != "Override", w
    window.model.set_session(None)


def locked_on(path: Path) -> GameSession:
    """Phantoms: Blue 1 (F-15C) locked on Red 2 (7.1.1b, 9+6 against 1+3), not on Red 1; at
    the missile launch segment of the next impulse (7.1.2)."""
    from app.core.dice import TableDice
    from rulesets.phantoms.clock import step_of

    s = GameSession.create(path, "phantoms", "Lock-on")
    s.add_aircraft("Blue", "f15c", "Blue 1")
    s.add_aircraft("Red", "f4e", "Red 1")
    s.add_aircraft("Red", "f4e", "Red 2")
    while (s.engagement.turn, s.engagement.step) != (1, step_of(1, "h")):
        s.clock.next_step()
    s.perform(
        "radar_lock", {"attacker": "blue-1", "target": "red-2", "range_hexes": 3}, TableDice([9, 1])
    )
    while (s.engagement.turn, s.engagement.step) != (1, step_of(2, "g")):
        s.clock.next_step()
    return s


def test_a_refusal_is_said_in_the_form_as_soon_as_its_values_are_in(tmp_path, qtbot) -> None:
    """Phantoms 7.1.1b/7.1.2: a radar-guided missile at a target its launcher has no lock-on
    on is refused in the form the moment the missile and the target are picked (keys only),
    before the range is typed, with Resolve not offered and nothing written; one key in
    Target picks the locked target, the refusal goes, and the launch resolves."""
    from tests.ui.test_dice_entry import open_line

    s = locked_on(tmp_path / "l.airboss")
    before = len(s.events())
    window = desk(qtbot, tmp_path, s)
    combat = window.panels["combat"]
    open_line(qtbot, window, "Blue 1 — may break lock or launch a missile")
    form = combat.form
    assert form is not None and combat.prepared is not None
    assert combat.prepared.roles == {"attacker": "blue-1", "target": "red-1"}
    missile = form.editor("missile")
    assert QApplication.focusWidget() is missile
    assert not combat.refusal.message  # a heat-seeker needs no lock-on: nothing refused yet
    qtbot.keyClick(missile, Qt.Key.Key_Down)  # the AIM-7M Sparrow, radar-guided
    assert combat.prepared.value("missile").value == "aim7m"
    assert form.editor("range_hexes").text() == ""  # the range not typed yet
    said = combat.refusal.message
    assert "Blue 1 has no radar lock-on on Red 1 (7.1.1b)" in said, said
    assert combat.refusal.isVisible() and not combat.resolve_button.isEnabled()
    assert combat.odds == {} and "no radar lock-on" in combat.odds_message.text()
    ctrl = Qt.KeyboardModifier.ControlModifier
    qtbot.keyClick(missile, Qt.Key.Key_Return, ctrl)  # Ctrl+Return: refused again, unwritten
    assert len(s.events()) == before and "no radar lock-on" in combat.refusal.message

    combat.target.setFocus()
    qtbot.keyClick(combat.target, Qt.Key.Key_2)  # Red 2: locked on
    assert combat.prepared.roles["target"] == "red-2"
    assert not combat.refusal.message and combat.resolve_button.isEnabled()
    qtbot.keyClick(combat.target, Qt.Key.Key_1)  # back to Red 1: said at once again
    assert "no radar lock-on on Red 1" in combat.refusal.message
    assert not combat.resolve_button.isEnabled()
    qtbot.keyClick(combat.target, Qt.Key.Key_2)
    assert not combat.refusal.message
    assert len(s.events()) == before  # nothing was written while it stood

    range_box = form.editor("range_hexes")
    range_box.setFocus(Qt.FocusReason.TabFocusReason)  # as Tab brings it: all selected
    range_box.selectAll()
    qtbot.keyClicks(range_box, "1")  # typed: a range the Sparrow cannot reach is said at once
    assert "range 1 is outside its minimum 2" in combat.refusal.message
    assert not combat.resolve_button.isEnabled()
    range_box.selectAll()
    qtbot.keyClicks(range_box, "3")
    assert not combat.refusal.message and combat.resolve_button.isEnabled()
    qtbot.keyClick(range_box, Qt.Key.Key_Return)
    done = records(s, before)
    assert [r.procedure for r in done] == ["missile_launch"], combat.refusal.message
    window.model.set_session(None)
