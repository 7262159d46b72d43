"""Issue 43, the property, for every ruleset: whatever the umpire does through the real desk at
1366x768 -- open a "who acts now" line, click into a field and type without select-all, type
where the cursor arrived, Tab, paste dice, Escape, pick a target by its number, move a piece,
save a table value, undo in either of two windows on one game, resolve -- after every step the
text each field paints (``displayText``, ``currentText``, the box's tick) is the draft's value
and the prepared action's value; the odds on screen belong to the prepared action (the very
numbers its odds are); and after Resolve the event records exactly what the fields showed.

Each ruleset has its own test module (so the suite spreads them over the cores); this module
holds the steps and the checks. Hypothesis chooses the steps: at least 40 examples a ruleset
in the suite's profile ("ci"), more in "long" (``HYPOTHESIS_PROFILE=long``).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLineEdit, QMessageBox

from app.core import field_text
from app.core.data import save_override
from app.core.dice import TableDice
from app.core.events import ProcedureResolved
from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from tests.umpire_values import AIRPOWER_MODIFIERS

TEXTS = st.sampled_from(["0", "1", "2", "3", "5", "6", "9", "10", "44", "-1", "3,", "x", ""])
DICE = st.sampled_from(["1", "3", "4", "6", "0", "10", "11", "7", "3,4", "3 4", "66", "12345"])

STEP = st.one_of(
    st.tuples(st.just("line"), st.integers(0, 30)),
    st.tuples(st.just("click_type"), st.integers(0, 30), TEXTS),
    st.tuples(st.just("type"), TEXTS),
    st.tuples(st.just("tab")),
    st.tuples(st.just("paste"), st.integers(0, 5), DICE),
    st.tuples(st.just("die"), st.integers(0, 5), DICE),
    st.tuples(st.just("escape")),
    st.tuples(st.just("target"), st.integers(1, 4)),
    st.tuples(st.just("move"), st.integers(0, 7), st.integers(-3, 3), st.integers(-3, 3)),
    st.tuples(st.just("table"), st.integers(-3, 3)),
    st.tuples(st.just("undo"), st.sampled_from(["first", "second"]), st.booleans()),
    st.tuples(st.just("second_acts")),
    st.tuples(st.just("next_step")),
    st.tuples(st.just("enter")),
    st.tuples(st.just("resolve")),
)


def build(path: Path, ruleset_id: str) -> Path:
    """Two aircraft a side in play (UFO: two Tornados and a Small UFO, initiative rolled;
    Phantoms: the demo engagement, initiative rolled), on the board where it has one."""
    if ruleset_id == "phantoms":
        from app.startup.demo import create_demo_game

        s = create_demo_game(path)
        init = s.ruleset.procedures["initiative"].prefill(s.engagement, None, None)
        s.perform("initiative", init, TableDice([4, 9]))
        s.close()
        return path
    with GameSession.create(path, ruleset_id, "Shown is used") as s:
        if ruleset_id == "ufo_interception":
            s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
            s.add_aircraft("NATO", "tornado", "Blue 2", reaction=1)
            s.add_aircraft("Visitors", "small_ufo", "Saucer")
            planes = {"planes": ["blue-1", "blue-2"], "reactions": [2, 1]}
            s.perform("initiative", planes, TableDice([3, 6]))
        else:
            types = list(s.ruleset.aircraft)
            for n in (1, 2):
                for side, t in (("Blue", types[0]), ("Red", types[1 % len(types)])):
                    extra = {"base": f"{side} base"} if ruleset_id == "nth_fleet" else {}
                    s.add_aircraft(side, t, f"{side} {n}", **extra)
    return path


class Desk:
    """Two windows on one game, as two desks at one table; the first is the one checked (the
    second is not shown: it acts, and nobody looks at it). The windows are made once per
    ruleset and open a fresh copy of the game for each example."""

    def __init__(self, tmp: Path, template: Path) -> None:
        self.tmp, self.template, self.n = tmp, template, 0
        self.windows: list[MainWindow] = []
        for name in ("first", "second"):
            settings = QSettings(str(tmp / f"{name}.ini"), QSettings.Format.IniFormat)
            settings.setValue("dice/players_roll", True)
            window = MainWindow(EngagementModel(), settings)
            window.persist_layout = False
            window.resize(1366, 768)
            self.windows.append(window)
        self.window = self.windows[0]
        self.window.show()
        self.window.build_panels()
        self.combat = self.window.panels["combat"]
        self.qtbot: Any = None

    def fresh(self, qtbot: Any) -> None:
        """A fresh copy of the game in both windows."""
        self.qtbot = qtbot
        self.n += 1
        where = self.tmp / f"game-{self.n}.airboss"
        shutil.copy(self.template, where)
        for window in self.windows:
            if window.undo_question is not None:
                window.undo_question.done(QMessageBox.StandardButton.No)
            assert window.open_game(where)
            window.model._follow.stop()  # the test says when each window looks
        self.session = self.window.model.session
        self.window.activateWindow()

    def close(self) -> None:
        for w in self.windows:
            w.model.set_session(None)
            w.close()
            w.deleteLater()


@pytest.fixture(scope="module")
def desks(qapp: Any, tmp_path_factory: Any) -> Iterator[dict[str, Desk]]:
    """The two windows of each ruleset tested in a module, closed at its end."""
    made: dict[str, Desk] = {}
    yield made
    for desk in made.values():
        desk.close()


def _editable(combat: Any) -> list[QLineEdit]:
    form = combat.form
    out = []
    for name in form.names:
        w = form.editor(name)
        if isinstance(w, QLineEdit) and not w.isReadOnly() and w.isVisible():
            out.append(w)
    return out


def do(desk: Desk, move: tuple[Any, ...]) -> None:
    """One step, with keys and clicks on the first window (or the second, where it says)."""
    qtbot, window, combat, session = desk.qtbot, desk.window, desk.combat, desk.session
    kind = move[0]
    focus = QApplication.focusWidget()
    if kind == "line":
        turn = window.panels["turn"]
        rows = [
            i
            for i in range(turn.acting.count())
            if turn.acting.item(i).data(Qt.ItemDataRole.UserRole)
        ]
        if rows:
            turn.acting.setFocus()
            turn.acting.setCurrentRow(rows[move[1] % len(rows)])
            qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    elif kind == "click_type":
        fields = _editable(combat)
        if fields:
            w = fields[move[1] % len(fields)]
            # a click at the end of the field, as a person clicks into it: no select-all
            end = QPoint(w.width() - 4, w.height() // 2)
            qtbot.mouseClick(w, Qt.MouseButton.LeftButton, pos=end)
            qtbot.keyClicks(w, move[2])
    elif kind == "type":
        if isinstance(focus, QLineEdit) and combat.isAncestorOf(focus) and not focus.isReadOnly():
            qtbot.keyClicks(focus, move[1])
    elif kind == "tab":
        if focus is not None and combat.isAncestorOf(focus):
            qtbot.keyClick(focus, Qt.Key.Key_Tab)
    elif kind in ("paste", "die"):
        dice = combat.dice_fields
        if dice and combat.dice.isVisible():
            f = dice[move[1] % len(dice)]
            if f.isEnabled():
                f.edit.setFocus()
                if kind == "paste":
                    QGuiApplication.clipboard().setText(move[2])
                    qtbot.keyClick(f.edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
                else:
                    qtbot.keyClicks(f.edit, move[2])
    elif kind == "escape":
        if focus is not None and combat.isAncestorOf(focus):
            qtbot.keyClick(focus, Qt.Key.Key_Escape)
    elif kind == "target":
        if combat.target.isVisible():
            combat.target.setFocus()
            qtbot.keyClick(combat.target, Qt.Key(Qt.Key.Key_0 + move[1]))
    elif kind == "move":
        ids = list(session.engagement.aircraft)
        if ids:  # (every aircraft's joining undone: no piece to move)
            aid = ids[move[1] % len(ids)]
            window.model.attempt(lambda: session.roster.place(aid, move[2], move[3], 0))
    elif kind == "table":
        if session.ruleset.id == "airpower":
            values = {**AIRPOWER_MODIFIERS, "attacker_damage": {"damaged": 2 + move[1]}}
            save_override("airpower", "modifiers", values)
        window.model.tables_saved()  # what the Tables editor's save does
    elif kind == "undo":
        w = desk.windows[0 if move[1] == "first" else 1]
        w.activateWindow()
        target = QApplication.focusWidget() if w is window else w.panels["turn"].acting
        if target is None or target.window() is not w:
            target = w.panels["turn"].acting
        qtbot.keyClick(target, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        box = w.undo_question
        if box is not None and box.isVisible():
            yes = QMessageBox.StandardButton.Yes if move[2] else QMessageBox.StandardButton.No
            box.done(yes)
        window.model.follow()
    elif kind == "second_acts":
        other = desk.windows[1]
        other.model.follow()
        other.model.attempt(other.model.session.clock.next_step)
        window.model.follow()
    elif kind == "next_step":
        window.model.attempt(session.clock.next_step)
    elif kind in ("enter", "resolve"):
        if kind == "enter" and focus is not None and combat.isAncestorOf(focus):
            qtbot.keyClick(focus, Qt.Key.Key_Return)
        elif combat.resolve_button.isEnabled():
            qtbot.mouseClick(combat.resolve_button, Qt.MouseButton.LeftButton)


def painted(combat: Any) -> dict[str, str]:
    """What each field of the form paints."""
    return {name: combat.form.shown_text(name) for name in combat.form.names}


def check(desk: Desk) -> None:
    """After every step: painted == draft == prepared; the odds belong to the prepared action."""
    combat, session = desk.combat, desk.session
    d = combat.draft
    p = d.prepared
    if p is None:
        return
    assert combat.form.names == p.names
    for name in p.names:
        w = combat.form.editor(name)
        v = p.value(name)
        if isinstance(w, QLineEdit):
            shown = w.displayText()
            assert shown == d.text(name), (name, shown, d.text(name))
            if name in d.texts:
                kind, optional = field_text.kind_of(d.proc.Inputs.model_fields[name])
                assert field_text.parse(kind, shown, optional) == v.value, (name, shown, v)
            elif v.source == "unset":
                assert shown == "", (name, shown)
            else:
                assert shown == field_text.render(v.value), (name, shown, v)
        elif isinstance(w, QComboBox):
            labels = {field_text.render(value): label for value, label in d.options(name)}
            if v.source != "unset" and v.value is not None:
                assert w.currentText() == labels[field_text.render(v.value)], (name, v)
        elif isinstance(w, QCheckBox):
            assert w.isChecked() == bool(v.value), (name, v)
    for role, combo in (("attacker", combat.attacker), ("target", combat.target)):
        if combo.isVisible() and role in p.roles:
            assert (combo.currentData() or None) == (p.roles[role] or None), role
    for i, f in enumerate(combat.dice_fields):
        want = "" if i in d.skipped else d.die_text(i)
        assert f.edit.displayText() == want, (i, f.edit.displayText(), want)
    view = combat.odds_view
    assert view.prepared is p  # never the odds of another action
    rows = view.table.rowCount()
    if rows:
        exact = {view.table.item(r, 0).text(): view.table.item(r, 1).text() for r in range(rows)}
        assert exact == {k: str(v) for k, v in session.odds.odds(p).items()}


def run(desk: Desk, moves: list[tuple[Any, ...]]) -> None:
    """The steps, each checked; every Resolve that records compared with what was painted."""
    session = desk.session
    for move in [*moves, ("resolve",)]:
        p = desk.combat.draft.prepared
        seen = painted(desk.combat) if p is not None else {}
        typed = set(desk.combat.draft.texts)
        roles = dict(p.roles) if p is not None else {}
        before = session.engagement.seq
        do(desk, move)
        QApplication.processEvents()
        check(desk)
        if move[0] not in ("enter", "resolve") or p is None:
            continue
        mine = [
            env.event
            for env in session.log.iter_events(after=before)
            if isinstance(env.event, ProcedureResolved)
        ]
        if not mine:
            continue
        rec = mine[0]
        assert rec.procedure == p.procedure
        proc = session.ruleset.procedures[rec.procedure]
        values = {}
        for name in p.names:
            kind, optional = field_text.kind_of(proc.Inputs.model_fields[name])
            w_value = p.value(name).value
            if name in typed:
                values[name] = field_text.parse(kind, seen[name], optional)
            else:  # a pick, or a value read (its painted text checked before the step)
                values[name] = w_value
        expected = proc.parse({**{r: a for r, a in roles.items() if a}, **values})
        assert rec.inputs == expected.model_dump(mode="json"), (rec.inputs, seen)
        first = roles.get("attacker") or roles.get("aircraft")
        assert (rec.attacker, rec.target) == (first or None, roles.get("target") or None)


def property_test(
    ruleset_id: str, desks: dict[str, Desk], qtbot: Any, tmp_path_factory: Any, moves: list[Any]
) -> None:
    """One example: a fresh copy of the ruleset's game in the two windows, the steps, the
    checks."""
    if ruleset_id == "airpower":
        save_override("airpower", "modifiers", AIRPOWER_MODIFIERS)
    desk = desks.get(ruleset_id)
    if desk is None:
        tmp = tmp_path_factory.mktemp(ruleset_id)
        desk = desks[ruleset_id] = Desk(tmp, build(tmp / "template.airboss", ruleset_id))
    desk.fresh(qtbot)
    run(desk, moves)
