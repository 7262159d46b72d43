"""Issue 28, the property: whatever the umpire does through the real widgets -- open a "who acts
now" line, type into a field, pick another target, move a piece on the board, another station
acting -- the values the Combat panel's form shows are, after every step, exactly the inputs
that the event Resolve appends records (and a form that shows something invalid appends
nothing). Hypothesis chooses the steps."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLineEdit, QSpinBox

from app.core.data import save_override
from app.core.events import ProcedureResolved
from app.demo import create_demo_game
from app.session import GameSession
from app.ui.main_window import MainWindow
from app.ui.model import EngagementModel
from tests.umpire_values import AIRPOWER_MODIFIERS

#: test values for Air Power's unprinted modifier cells (not the game's numbers)
MODIFIERS = AIRPOWER_MODIFIERS


def airpower_game(path: Path) -> GameSession:
    s = GameSession.create(path, "airpower", "Shown is used")
    for side, t in (("Blue", "f-4e"), ("Red", "mig-17f")):
        for n in (1, 2, 3):
            s.add_aircraft(side, t, f"{side} {n}")
    return s


GAMES = {"phantoms": create_demo_game, "airpower": airpower_game}

step = st.one_of(
    st.tuples(st.just("line"), st.integers(0, 30)),
    st.tuples(st.just("type"), st.integers(0, 30), st.integers(-3, 12)),
    st.tuples(st.just("target"), st.integers(1, 5)),
    st.tuples(st.just("move"), st.integers(0, 7), st.integers(0, 6), st.integers(0, 6)),
    st.tuples(
        st.just("next"),
    ),
    st.tuples(st.just("resolve"), st.lists(st.integers(0, 10), min_size=4, max_size=4)),
)


def shown(combat: Any) -> dict[str, Any]:
    """What the umpire sees in the form: every editor's value and the aircraft picked."""
    form = combat.form
    out = {n: form._fields[n].raw() for n in form.names}
    for role, combo in (("attacker", combat.attacker), ("target", combat.target)):
        if combo.isVisible():
            out[role] = combo.currentData() or None
    if combat.aircraft.isVisible():
        out["aircraft"] = combat.aircraft.currentData() or None
    return out


def do(qtbot: Any, window: MainWindow, session: GameSession, move: tuple[Any, ...]) -> None:
    combat, turn = window.panels["combat"], window.panels["turn"]
    kind = move[0]
    if kind == "line":
        rows = [
            i
            for i in range(turn.acting.count())
            if turn.acting.item(i).data(Qt.ItemDataRole.UserRole)
        ]
        if rows:
            turn.acting.setFocus()
            turn.acting.setCurrentRow(rows[move[1] % len(rows)])
            qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    elif kind == "type" and combat.form is not None:
        names = [
            n
            for n in combat.form.names
            if combat.form.editor(n).isEnabled()
            and not combat.form.is_locked(n)
            and combat.form.editor(n).isVisible()
        ]
        if not names:
            return
        w = combat.form.editor(names[move[1] % len(names)])
        w.setFocus()
        if isinstance(w, QSpinBox):
            w.selectAll()
            qtbot.keyClicks(w, str(move[2]))
        elif isinstance(w, QCheckBox):
            qtbot.keyClick(w, Qt.Key.Key_Space)
        elif isinstance(w, QComboBox):
            qtbot.keyClick(w, Qt.Key.Key_Down)
        elif isinstance(w, QLineEdit):
            w.selectAll()
            qtbot.keyClicks(w, str(move[2]))
    elif kind == "target" and combat.target.isVisible():
        combat.target.setFocus()
        for _ in range(move[1]):
            qtbot.keyClick(combat.target, Qt.Key.Key_Down)
    elif kind == "move":
        ids = list(session.engagement.aircraft)
        aid = ids[move[1] % len(ids)]
        window.model.attempt(lambda: session.place(aid, move[2], move[3], 0))
    elif kind == "next":
        window.model.attempt(session.next_step)
    elif kind == "resolve" and combat.form is not None:
        for f, face in zip(combat.dice_fields, move[1], strict=False):
            f.edit.setText(str(face))
        before = len(session.events())
        seen = shown(combat)
        combat.resolve_button.setFocus()
        qtbot.keyClick(combat.resolve_button, Qt.Key.Key_Return)
        new = [env.event for env in session.events()[before:]]
        records = [e for e in new if isinstance(e, ProcedureResolved)]
        if not records:
            assert not new  # refused: nothing written
            return
        rec = records[0]
        proc = session.ruleset.procedures[rec.procedure]
        expected = proc.parse({k: v for k, v in seen.items() if k in proc.Inputs.model_fields})
        assert rec.inputs == expected.model_dump(mode="json")
        first = seen.get("attacker") or seen.get("aircraft")
        assert (rec.attacker, rec.target) == (first, seen.get("target"))


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(moves=st.lists(step, min_size=4, max_size=12))
def test_the_form_shows_what_resolve_records(qtbot, ruleset_id: str, moves: list[Any]) -> None:
    save_override("airpower", "modifiers", MODIFIERS)
    with tempfile.TemporaryDirectory() as tmp:
        settings_file = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        settings_file.setValue("dice/players_roll", True)
        model = EngagementModel()
        window = MainWindow(model, settings_file)
        qtbot.addWidget(window)
        session = GAMES[ruleset_id](Path(tmp) / "g.airboss")
        window.show_session(session)
        window.resize(1366, 768)
        window.show()
        window.build_panels()
        combat = window.panels["combat"]
        try:
            for move in [*moves, ("resolve", [3, 4, 5, 6])]:
                do(qtbot, window, session, move)
                QApplication.processEvents()
                p = combat.prepared
                if p is not None and combat.form is not None:
                    # after every step: the form shows the prepared action, value for value
                    fields = session.ruleset.procedures[p.procedure].Inputs.model_fields
                    for v in p.values:
                        if v.source != "unset" and v.name in combat.form.names:
                            field = TypeAdapter(fields[v.name].annotation)
                            raw = combat.form._fields[v.name].raw()
                            assert field.validate_python(raw) == field.validate_python(v.value), v
        finally:
            model.set_session(None)
            window.close()


def test_a_piece_moved_updates_the_open_form_and_says_so(qtbot, tmp_path) -> None:
    """Issue 28: the board's readings in an open form follow the board. Move the target: the
    form shows the new range and angle-off (Air Power, Angle-Off), each saying it changed and
    what it was, and the gun attack resolved records the new readings."""
    save_override("airpower", "modifiers", MODIFIERS)
    settings_file = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings_file.setValue("dice/players_roll", False)
    window = MainWindow(EngagementModel(), settings_file)
    qtbot.addWidget(window)
    s = airpower_game(tmp_path / "g.airboss")
    window.show_session(s)
    window.show()
    window.build_panels()
    s.place("blue-1", 0, 0, 90, 0)
    s.place("red-1", 0, 3, 90, 0)
    combat = window.panels["combat"]
    combat.select_procedure("gun_attack")
    combat.set_aircraft("blue-1", "red-1")
    form = combat.form
    assert (form.editor("angle_off").currentData(), form.is_locked("angle_off")) == ("0 line", True)
    assert "Angle-off: 0 line" in combat.notice.message
    window.model.attempt(lambda: s.place("red-1", 2, 3, 30, 0))
    assert form.editor("angle_off").currentData() == "30 arc"
    assert form.editor("horizontal_range").value() == 4
    assert form.note_text("angle_off") == "Changed: now 30 arc (was 0 line)"
    assert "Angle-off: 30 arc" in combat.notice.message
    assert combat.prepared is not None and combat.prepared.value("angle_off").source == "board"
    window.model.set_session(None)
