"""Issue 29, Show it: a whole turn of each ruleset walked through the real desk at 1366x768 with
keys only, the players rolling real dice, counting the umpire's actions (keys and clicks) from
the "who acts now" line to the result shown, and holding each kind of line to the issue's goal:

- a gun, cannon or gunfire attack: at most 4, plus one key per die;
- a missile launch: at most 5 (plus one key per die it rolls);
- a roll owed for a hit (it opens by itself after the shot): at most 1, plus one key per die;
- Nth Fleet's air combat: at most 6, plus one key per die;
- a maneuver marker or a launch with nothing to roll: at most 2.

The walk opens the first line of each procedure it meets in a step (the Turn panel has the line
to act selected: Enter opens it), types what the umpire judges at the table (a per-ruleset
value for each field the form asks for), then the dice, and Enter; it prints a table of the
actions each procedure took (the README carries it). The turn itself is moved on with Space.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QComboBox, QLineEdit, QWidget
from shiboken6 import isValid

from app.core.data import save_override
from app.core.events import ProcedureResolved
from app.session import GameSession
from app.ui.action_form.dice import DieField
from app.ui.editors.tables_editor import ROLE_PATH
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from tests.ui.test_who_acts_full_turn import build
from tests.umpire_values import AIRPOWER_MODIFIERS

#: the goal per kind of line: (keys past the dice at most, the procedures of that kind)
ATTACKS = {"gun_attack", "gun_fire", "cannon", "ray_gun"}
MISSILES = {"missile_launch"}
NOTHING_TO_ROLL = {"mark_maneuver", "launch_mission", "afterburner", "declare_advantage"}
AIR_COMBAT = {"air_combat"}

#: the kinds of line each walk resolves at least once (the others may be refused by the rules
#: as the fight stands: no lock-on yet, a fixed gun without the target dead ahead)
MUST_RESOLVE = {
    "phantoms": {
        "set_speed",
        "afterburner",
        "gun_attack",
        "radar_lock",
        "missile_launch",
        "mark_maneuver",
    },
    "airpower": {"flight", "gun_attack"},
    "advanced_air_force": {"speed_change", "declare_advantage", "gun_fire"},
    "nth_fleet": {"launch_mission", "mission_effectiveness", "air_combat", "return_to_base"},
    "ufo_interception": {
        "ufo_move",
        "aircraft_move",
        "cannon",
        "missile_launch",
        "ray_gun",
        "damage_roll",
        "vital_system",  # owed by the damage roll as the walk types it: opens ready for keys
    },
}

#: lines (by their words) each walk resolves: Advanced Air Force's fixed guns of the Advantaged
#: Bf 110, the B-17 dead ahead on the board (rules 2, 6, 7)
MUST_RESOLVE_LINES = {"advanced_air_force": {"fires at Blue 1: Advantaged"}}

#: lines the walk leaves alone: a break-off would end the fight before the turn is walked
SKIPPED = {"break_off"}

#: lines resolved every time (the walk needs both sides' launches for an air combat)
EVERY_LINE = {"nth_fleet": {"launch_mission"}, "advanced_air_force": {"gun_fire"}}

#: kinds of line tried in every step until one resolves: a radar-guided launch needs the
#: lock-on of an earlier impulse (7.1.1b, 7.1.2)
UNTIL_RESOLVED = {"phantoms": {"missile_launch"}}

#: what the umpire judges at the table, typed in the field the form asks for (per ruleset)
JUDGED: dict[str, dict[str, str]] = {
    "phantoms": {"position_modifier": "2", "speed": "8", "range_hexes": "3"},
    "airpower": {"range": "1", "speed": "4"},
    "advanced_air_force": {"range_hexes": "2", "airspeed": "5"},
    "nth_fleet": {"points": "2"},
    "ufo_interception": {"range_inches": "2", "distance": "3", "distance_inches": "3"},
}

#: where the aircraft stand on the board as the turn starts (the scenario's set-up): Advanced
#: Air Force's Bf 110 two hexes astern of the B-17, nose on it, at its altitude: its fixed
#: guns have the target directly ahead in a straight path of hexes (rule 2)
PLACED: dict[str, dict[str, tuple[float, float, int, int]]] = {
    "advanced_air_force": {"blue-1": (0, 0, 90, 9000), "red-1": (0, -2, 90, 9000)},
}

#: the value typed in a table cell the rules text does not print (the umpire's copy of the game)
CELL = "3"
#: ... and where the table wants a list: the 2.9 column headings below 40
CELLS = {"lower_columns": "[10, 20, 30]"}

#: the faces typed for each die, in turn: none of them a face a further digit could change
FACES = {"d10": "29", "d6": "4253", "d5": "3241"}
#: ... and for a procedure whose result the walk needs: the radar lock-on holds (7.1.1b: the
#: attacker's d10 first, then the target's: 9 + radar against 1 + C/M)
FACES_FOR = {"radar_lock": "91"}


@dataclass
class Row:
    """One line resolved (or refused): its actions, of them dice and table cells filled."""

    procedure: str
    line: str
    actions: int
    dice: int
    cells: int
    cell_actions: int
    refused: str

    @property
    def past_the_dice(self) -> int:
        """The actions the goal counts: all but the dice and the table cells filled."""
        return self.actions - self.dice - self.cell_actions


@dataclass
class Walk:
    """The actions counted, per procedure resolved (the first of each met in a step)."""

    qtbot: Any
    window: MainWindow
    keys: int = 0
    dice: int = 0
    #: missing table cells filled in the form's flow, and the actions that took
    cells: int = 0
    cell_keys: int = 0
    rows: list[Row] = field(default_factory=list)
    #: the procedure being walked
    procedure: str = ""
    _face: int = 0

    def start(self, procedure: str) -> None:
        self.keys = self.dice = self.cells = self.cell_keys = 0
        self.procedure = procedure
        self._face = -1

    def row(self, procedure: str, line: str, refused: str) -> None:
        self.rows.append(
            Row(procedure, line, self.keys, self.dice, self.cells, self.cell_keys, refused)
        )

    def key(self, widget: QWidget, key: Qt.Key) -> None:
        self.qtbot.keyClick(widget, key)
        self.keys += 1
        self.settle()

    def type(self, widget: QWidget, text: str) -> None:
        for ch in text:
            self.qtbot.keyClicks(widget, ch)
            self.keys += 1
            self.settle()

    def settle(self) -> None:
        """What the umpire waits for after a key before he looks (here: nothing)."""

    def face(self, die: DieField) -> str:
        faces = FACES_FOR.get(self.procedure) or FACES.get(die.spec.die_name, "1")
        self._face += 1
        return "".join(faces[(self._face + i) % len(faces)] for i in range(die.count))


def resolved(window: MainWindow, before: int) -> list[ProcedureResolved]:
    s = window.model.session
    return [e.event for e in s.events()[before:] if isinstance(e.event, ProcedureResolved)]


def fill_nth_fleet_tables() -> None:
    """The 2.9 and 2.8 tables the text does not print, as the umpire's copy gives them (the
    flow that fills a cell from the form has its own test: test_umpire_pace)."""
    save_override(
        "nth_fleet",
        "air_to_air_attack",
        {
            "lower_columns": [10, 20, 30],
            "cells": {
                str(c): {str(r): c // 10 * r // 2 for r in range(11)} for c in (10, 20, 30, 40, 50)
            },
        },
    )
    values = {t: 10 for t in ("a6e", "e2c", "ea6b", "f14a", "f15c", "fa18c", "mig29", "su24")}
    save_override(
        "nth_fleet", "defence_values", {"values": {**values, "tornado_f": 10, "tu95rt": 10}}
    )


def open_desk(qtbot: Any, tmp_path: Path, ruleset_id: str) -> MainWindow:
    if ruleset_id == "nth_fleet":
        fill_nth_fleet_tables()
    if ruleset_id == "airpower":  # the modifier cells the text leaves blank (test values)
        save_override("airpower", "modifiers", AIRPOWER_MODIFIERS)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("dice/players_roll", True)
    w = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(w)
    path = build(tmp_path / f"{ruleset_id}.airboss", ruleset_id)
    with GameSession.open(path) as s:
        for aircraft, where in PLACED.get(ruleset_id, {}).items():
            s.roster.place(aircraft, *where)
    w.open_game(path)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    return w


def fill_cell(walk: Walk, offered: bool) -> None:
    """A cell the rules text does not print, filled in the form's flow: Enter on the offer
    (the Tables editor opens on the cell), the value, Enter, Ctrl+S."""
    combat = walk.window.panels["combat"]
    keys = walk.keys
    if offered:
        walk.key(combat.open_tables, Qt.Key.Key_Return)
    editor = combat.tables_editor
    walk.qtbot.waitUntil(editor.isActiveWindow)
    table = editor.table
    path = table.currentItem().data(ROLE_PATH) if table.currentItem() else ()
    walk.type(table, CELLS.get(str(path[-1]) if path else "", CELL))
    walk.qtbot.waitUntil(lambda: table.state() == QAbstractItemView.State.EditingState)
    line = QApplication.focusWidget()  # the cell's editor (an earlier one may linger)
    assert isinstance(line, QLineEdit)
    walk.key(line, Qt.Key.Key_Return)
    walk.qtbot.waitUntil(lambda: table.state() != QAbstractItemView.State.EditingState)
    walk.qtbot.keyClick(table, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    walk.settle()
    walk.keys += 1
    walk.cells += 1
    walk.cell_keys += walk.keys - keys


def play_form(walk: Walk, ruleset_id: str, before: int) -> str:
    """Type what the open form asks for, with the cursor where the desk puts it, until the
    action is resolved (or refused: the refusal is returned)."""
    w = walk.window
    combat, ini = w.panels["combat"], w.panels.get("initiative")
    judged = JUDGED[ruleset_id]
    seen: tuple[Any, str, int] | None = None
    for _ in range(40):
        if resolved(w, before):
            return ""
        focus = QApplication.focusWidget()
        said = combat.refusal.message or (ini.message.message if ini is not None else "")
        if said and combat.prepared is not None and combat.prepared.refused:
            assert not combat.resolve_button.isEnabled()  # not offered while it stands
            return said  # the rules refuse it as it stands: said in the form at once
        if said and seen == (focus, said, walk.cells):
            return said  # refused, and nothing the walk types changes that
        seen = (focus, said, walk.cells)
        die = next(
            (
                f
                for panel in (combat, ini)
                if panel is not None
                for f in panel.dice_fields
                if f.edit is focus
            ),
            None,
        )
        if die is not None:
            if die.edit.text().strip():
                walk.key(die.edit, Qt.Key.Key_Return)
            else:
                faces = walk.face(die)
                walk.type(die.edit, faces)
                walk.dice += len(faces)
                if not isValid(die.edit):  # the form drew its dice afresh: look again
                    continue
                if QApplication.focusWidget() is die.edit:  # the last die: Enter resolves
                    walk.key(die.edit, Qt.Key.Key_Return)
            continue
        editor = combat.tables_editor
        in_editor = editor is not None and editor.isVisible() and focus is editor.table
        if focus is combat.open_tables or in_editor:
            fill_cell(walk, focus is combat.open_tables)
            continue
        if focus is combat.resolve_button or (ini is not None and focus is ini.roll_button):
            walk.key(focus, Qt.Key.Key_Return)
            if not resolved(w, before):
                return combat.refusal.message or (ini.message.message if ini else "")
            continue
        name = next(
            (
                n
                for n in (combat.form.names if combat.form else [])
                if combat.form.editor(n) is focus
            ),
            None,
        )
        if name is not None and isinstance(focus, QComboBox):
            walk.key(focus, Qt.Key.Key_Down)  # the first choice listed (a missile with rounds)
            if QApplication.focusWidget() is focus:
                walk.key(focus, Qt.Key.Key_Return)
            continue
        if name is not None:
            walk.type(focus, judged.get(name, "1"))
            if QApplication.focusWidget() is focus:  # not a value no digit could change
                walk.key(focus, Qt.Key.Key_Return)
            continue
        return f"the cursor is nowhere to type ({type(focus).__name__})"
    return "no result after 40 actions"


def walk_turn(qtbot: Any, window: MainWindow, ruleset_id: str, walk: Walk | None = None) -> Walk:
    walk = walk or Walk(qtbot, window)
    turn = window.panels["turn"]
    s = window.model.session
    combat = window.panels["combat"]
    measured: set[str] = set()
    attempts: dict[str, int] = {}
    while s.engagement.turn == 1:
        window.docks["turn"].raise_()
        QApplication.processEvents()
        tried: set[tuple[str, str]] = set()
        while True:
            lines = [
                (turn.acting.item(r).text(), turn.acting.item(r).data(Qt.ItemDataRole.UserRole))
                for r in range(turn.acting.count())
            ]
            row, text, proc = next(
                (
                    (r, t, d[0])
                    for r, (t, d) in enumerate(lines)
                    if d
                    and (d[0], d[1]) not in tried
                    and not t.startswith("✓")
                    and " — cannot: " not in t  # said on the line: not offered as if it could
                    and d[0] not in SKIPPED
                    and (d[0] not in measured or d[0] in EVERY_LINE.get(ruleset_id, ()))
                    and (
                        attempts.get(d[0], 0) < 2  # a kind refused twice is left ...
                        or d[0] in UNTIL_RESOLVED.get(ruleset_id, ())  # ... unless it waits
                    )
                ),
                (-1, "", ""),
            )
            if row < 0:
                break
            tried.add((proc, lines[row][1][1]))
            attempts[proc] = attempts.get(proc, 0) + 1
            turn.acting.setCurrentRow(row)  # the line to act (the desk selects it)
            turn.acting.setFocus()
            before = len(s.events())
            walk.start(proc)
            walk.key(turn.acting, Qt.Key.Key_Return)
            why = play_form(walk, ruleset_id, before)
            done = resolved(window, before)
            if done:
                measured.add(proc)
                attempts.pop(proc, None)
            walk.row(proc, text.split(" — ")[1] if " — " in text else text, "" if done else why)
            if combat.tables_editor is not None and combat.tables_editor.isVisible():
                combat.tables_editor.close()
                window.activateWindow()
                qtbot.waitUntil(window.isActiveWindow)
            # a roll the result owes opens by itself: counted from there
            while done and combat.prepared is not None and "Owed now" in combat.notice.message:
                owed = combat.prepared.procedure
                before = len(s.events())
                walk.start(owed)
                why = play_form(walk, ruleset_id, before)
                done = resolved(window, before)
                measured.add(owed)
                walk.row(owed, OWED, "" if done else why)
            window.docks["turn"].raise_()
            QApplication.processEvents()
        turn.next_action.trigger()
        QApplication.processEvents()
        walk.settle()
    return walk


OWED = "owed roll (opens by itself)"


def goal(proc: str, what: str, dice: int) -> int | None:
    """The issue's goal for a kind of line: actions past the dice, at most."""
    if what == OWED:
        return 1 if dice else None  # a roll owed; a flight with nothing to roll is judged
    if proc in ATTACKS:
        return 4
    if proc in MISSILES:
        return 5
    if proc in AIR_COMBAT:
        return 6
    if proc in NOTHING_TO_ROLL:
        return 2
    return None


@pytest.mark.parametrize(
    "ruleset_id", ["phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception"]
)
def test_a_whole_turn_at_the_goals_pace(qtbot, tmp_path, ruleset_id, capsys) -> None:
    window = open_desk(qtbot, tmp_path, ruleset_id)
    walk = walk_turn(qtbot, window, ruleset_id)
    with capsys.disabled():
        print(f"\n{ruleset_id}")
        print(TABLE_HEAD)
        for r in walk.rows:
            g = goal(r.procedure, r.line, r.dice)
            cells = f"{r.cells} ({r.cell_actions} actions)" if r.cells else ""
            print(
                f"| {r.procedure} | {r.line} | {r.actions} | {r.dice} | {cells} | "
                f"{r.past_the_dice} | {'-' if g is None else f'<= {g}'} | {r.refused} |"
            )
    assert window.model.session.engagement.turn == 2  # the whole turn was walked
    done = [r for r in walk.rows if not r.refused]
    assert MUST_RESOLVE[ruleset_id] <= {r.procedure for r in done}, walk.rows
    assert MUST_RESOLVE_LINES.get(ruleset_id, set()) <= {r.line for r in done}, walk.rows
    for r in done:
        g = goal(r.procedure, r.line, r.dice)
        assert g is None or r.past_the_dice <= g, (r, g)
    window.model.set_session(None)


TABLE_HEAD = (
    "| procedure | line | actions | of them dice | table cells filled | counted | goal "
    "| refused |\n"
    "|---|---|---|---|---|---|---|---|"
)
