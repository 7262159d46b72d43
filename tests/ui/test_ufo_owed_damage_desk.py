"""The umpire walk's finding, the UFO game: after a hit, the damage rolls it owes stay in the
Turn panel's "who acts now" in every step until they are rolled (UFO rules, Hitting: "this is
number of hits on Damage Table"); the first opens by itself after the shot and each roll opens
the next, also with every ruleset call the desk makes answered later (the deferred desk of
``test_answered_later``). Keys and clicks only, read on what is painted."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.shell import guest_worker
from tests.ui.test_answered_later import PatientWalk, every_call_later
from tests.ui.test_dice_entry import open_desk
from tests.ui.test_umpire_pace_turns import play_form, resolved

DUE = "Saucer — {} roll(s) on the damage table due"
OWED = "Owed now: Damage table for Saucer. Resolve it next."
#: the steps after the hit at the half way point, into the next turn (UFO rules, Turn Order)
LATER_STEPS = [
    "Turn 1 — Move second half",
    "Turn 1 — Cannon firing, at the end of the move",
    "Turn 1 — Missile Firing",
    "Turn 2 — Roll Initiative",
    "Turn 2 — UFO Moves",
]


def painted_lines(window: Any) -> list[str]:
    acting = window.panels["turn"].acting
    return [acting.item(r).text() for r in range(acting.count())]


def due_line(window: Any, n: int) -> str | None:
    """The painted line of the Saucer's damage rolls due (its number stripped), or None."""
    return next((t.split(". ", 1)[1] for t in painted_lines(window) if DUE.format(n) in t), None)


def enter_on(walk: PatientWalk, text: str) -> None:
    """Enter on the "who acts now" line that contains ``text``."""
    acting = walk.window.panels["turn"].acting
    row = next(i for i in range(acting.count()) if text in acting.item(i).text())
    acting.setFocus()
    acting.setCurrentRow(row)
    walk.key(acting, Qt.Key.Key_Return)


@pytest.mark.parametrize("later", [False, True], ids=["answered_at_once", "answered_later"])
def test_a_hits_damage_rolls_stay_in_who_acts_now_until_rolled(
    qtbot: Any, tmp_path: Path, later: bool
) -> None:
    s = GameSession.create(tmp_path / "u.airboss", "ufo_interception", "Owed")
    s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
    s.add_aircraft("NATO", "tornado", "Blue 2", reaction=1)
    s.add_aircraft("Visitors", "small_ufo", "Saucer")
    s.perform(
        "initiative", {"planes": ["blue-1", "blue-2"], "reactions": [2, 1]}, TableDice([6, 2])
    )
    for _ in range(3):  # to the Cannon firing at the half way point
        s.clock.next_step()
    window = open_desk(qtbot, tmp_path, s)
    walk = PatientWalk(qtbot, window)
    turn, combat = window.panels["turn"], window.panels["combat"]
    with every_call_later() if later else nullcontext():
        walk.settle()
        assert turn.heading.text().startswith("Turn 1 — Cannon firing, at the half way point")
        assert due_line(window, 3) is None
        enter_on(walk, "Blue 1 — may fire its cannon")
        before = len(s.events())
        walk.start("cannon")
        # range 2 typed, the d6 a 4: 4 + 1 - 2 = 3 hits on the Damage Table
        assert play_form(walk, "ufo_interception", before) == ""
        walk.settle()
        assert [r.outcome for r in resolved(window, before)] == ["3 hits"]
        # the first roll opens by itself, said in the form's notice
        assert combat.notice.text() == OWED
        assert combat.prepared is not None and combat.prepared.procedure == "damage_roll"
        assert due_line(window, 3) == DUE.format(3)  # painted, not ticked off
        # the umpire steps on without rolling: the rolls are still owed in every step
        for heading in LATER_STEPS:
            qtbot.mouseClick(turn.next_button, Qt.MouseButton.LeftButton)
            walk.settle()
            assert turn.heading.text().startswith(heading)
            assert due_line(window, 3) == DUE.format(3), heading
        # rolled at last, from the line: each roll opens the next by itself, the line counts
        # down, and goes once all three are rolled
        enter_on(walk, DUE.format(3))
        for left in (2, 1, 0):
            before = len(s.events())
            walk.start("damage_roll")
            assert play_form(walk, "ufo_interception", before) == ""
            walk.settle()
            assert [r.procedure for r in resolved(window, before)] == ["damage_roll"]
            assert s.engagement.aircraft["saucer"].attributes["damage_rolls_due"] == left
            if left:
                assert combat.notice.text() == OWED
                assert combat.prepared is not None and combat.prepared.procedure == "damage_roll"
                assert due_line(window, left) == DUE.format(left)
        assert combat.notice.message != OWED
        assert not any("on the damage table due" in t for t in painted_lines(window))
        qtbot.mouseClick(turn.next_button, Qt.MouseButton.LeftButton)
        walk.settle()
        assert not any("on the damage table due" in t for t in painted_lines(window))
    assert not guest_worker.waiting
    assert (walk.waited > 10) is later  # the deferred desk went back to its event loop
    window.model.set_session(None)
