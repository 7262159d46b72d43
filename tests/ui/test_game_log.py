"""Game log panel: every action's narrative, newest last, undone ones struck through."""

from __future__ import annotations

import pytest

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.game_log import GameLogDock
from app.ui.model import EngagementModel

#: how the log names the skirmish test shot (issue 13: who did what to whom)
SHOT = "Blue 1 — Gun attack on Red 1: "


@pytest.fixture
def dock(session, qtbot):
    d = GameLogDock(EngagementModel(session))
    qtbot.addWidget(d)
    d.show()
    return d


def narratives(dock):
    return [line.split("  ", 1)[1] for line in dock.lines()]


def test_every_action_newest_last(dock, session):
    assert narratives(dock) == [
        "New Skirmish (test ruleset) game 'Desk test'",
        "Blue 1 (Test Jet, average pilot) joins Blue",
        "Red 1 (Test Jet, average pilot) joins Red",
    ]
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
    assert narratives(dock)[-1] == SHOT + "gun roll 3: hit (Skirmish 1)"
    assert dock.count.text() == "4 lines"


def test_undone_lines_are_struck_through_and_redo_clears_it(dock, session):
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
    session.undo()
    assert narratives(dock)[-2:] == [
        SHOT + "gun roll 3: hit (Skirmish 1)",
        "Undone: " + SHOT + "gun roll 3: hit (Skirmish 1)",
    ]
    assert dock.is_struck(3) and not dock.is_struck(4)
    session.redo()
    assert not dock.is_struck(3)
    assert narratives(dock)[-1] == "Redone: " + SHOT + "gun roll 3: hit (Skirmish 1)"


def test_reopened_game_shows_the_struck_lines(dock, session, tmp_path, qtbot):
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([9]))
    session.undo()
    where = session.store.where
    dock.model.set_session(GameSession.open(where))
    assert dock.is_struck(3)
    assert len(dock.lines()) == 5
    dock.model.set_session(None)


def test_steps_passed_one_after_another_share_one_compact_line(dock, session, tmp_path):
    """Issue 13: step changes are one line, not one per step; an action starts a new line."""
    session.clock.next_step()
    session.clock.next_step()
    assert len(dock.lines()) == 4
    assert "Turn 1: Combat  [Skirmish 1]  (2 steps from Turn 1: Movement)" in dock.lines()[-1]
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
    session.clock.next_step()  # a new turn starts a new line
    assert len(dock.lines()) == 6 and "steps from" not in dock.lines()[-1]
    # the same lines when the game is read back from the file
    dock.model.set_session(GameSession.open(session.store.where))
    assert len(dock.lines()) == 6 and "(2 steps from " in dock.lines()[3]
    dock.model.set_session(None)


def test_filter(dock, session, qtbot):
    qtbot.keyClicks(dock.filter, "red")
    assert len(dock.lines()) == 1 and "Red 1" in dock.lines()[0]
    session.add_aircraft("Red", "prop", "Red 2")
    session.add_aircraft("Blue", "prop", "Blue 2")
    assert [line.split("  ", 1)[1] for line in dock.lines()] == [
        "Red 1 (Test Jet, average pilot) joins Red",
        "Red 2 (Test Prop, average pilot) joins Red",
    ]
    dock.filter.clear()
    assert len(dock.lines()) == 5
    assert dock.count.text() == "5 lines"


def test_a_long_log_opens_with_one_step_line_per_turn(tmp_path, qtbot):
    """300 steps of a three-step turn (timing: tests/bench/bench_open.py)."""
    with GameSession.create(tmp_path / "long.airboss", "skirmish", "Long") as s:
        s.add_aircraft("Blue", "jet", "Blue 1")
        for _ in range(300):
            s.clock.next_step()
        model = EngagementModel(s)
        d = GameLogDock(model)
        qtbot.addWidget(d)
        assert len(d.lines()) == 2 + 101  # turn 1 from step 2, turns 2-100, turn 101
        assert "Turn 100: " in d.lines()[-2] and "(3 steps from Turn 100: " in d.lines()[-2]
        model.set_session(None)


def test_undo_and_redo_repaint_the_line_of_the_action(dock, session):
    """The view is told which line to strike through (found from the end of the log)."""
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
    session.clock.next_step()
    repainted: list[int] = []
    dock.lines_model.dataChanged.connect(lambda first, last: repainted.append(first.row()))
    session.undo()  # the step
    assert repainted == [4] and dock.is_struck(4)
    repainted.clear()
    session.undo()  # the shot, behind the struck step line
    assert repainted == [3] and dock.is_struck(3)
    repainted.clear()
    session.redo()
    assert repainted == [3] and not dock.is_struck(3)


def test_the_log_follows_the_newest_line_unless_the_umpire_scrolled_back(tmp_path, qtbot):
    """The newest line stays in view (the panel shown smaller than it was built, a new
    action); scrolled back to read an earlier one, the view stays where the umpire put it."""
    with GameSession.create(tmp_path / "scroll.airboss", "skirmish", "Scroll") as s:
        for n in range(40):
            s.add_aircraft("Blue", "jet", f"Blue {n}")
        model = EngagementModel(s)
        d = GameLogDock(model)
        qtbot.addWidget(d)
        d.resize(500, 200)
        d.show()
        qtbot.waitExposed(d)
        bar = d.list.verticalScrollBar()
        assert bar.maximum() > 0 and bar.value() == bar.maximum()
        s.add_aircraft("Red", "jet", "Red 1")
        assert bar.value() == bar.maximum()  # following the newest
        assert d.list.rowAt(d.list.viewport().height() - 2) == len(d.lines()) - 1
        bar.setValue(0)
        s.add_aircraft("Red", "jet", "Red 2")
        assert bar.value() == 0  # left where the umpire is reading
        assert d.count.text() == f"{len(d.lines())} lines"
        model.set_session(None)
