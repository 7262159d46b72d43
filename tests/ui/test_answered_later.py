"""Issue 44, no nested event loop, at the real desk: a whole turn of every game walked with
keys only (the walk of ``test_umpire_pace_turns``), once with every ruleset call the desk makes
in its GUI thread answered at once, and once with every one of them answered later: the desk's
wait set to nothing, so each call goes on in the ruleset's worker, the action that made it
returns to the event loop and is done again when the call has answered
(``app.ui.shell.guest_worker``). After each key the walk waits, as the umpire would, until the
desk has done what the key asked. Both walks write the same game log, and nothing reaches the
event loop as an uncaught "still working out" (pytest-qt fails a test on any exception a slot
lets out)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import pytest

from app.core import guest
from app.ui.shell import guest_worker
from tests.ui.test_umpire_pace_turns import Walk, open_desk, walk_turn


class PatientWalk(Walk):
    """The walk, waiting after each key until no action of the desk waits for the ruleset."""

    waited: int = 0

    def settle(self) -> None:
        if guest_worker.waiting:
            self.waited += 1
        self.qtbot.waitUntil(lambda: not guest_worker.waiting, timeout=30_000)


@contextmanager
def every_call_later() -> Iterator[None]:
    """The desk does not wait for any call, and finds none answered when it looks: a call
    whose worker was quick enough to be done by then (on an idle machine, or as the threads
    happened to take turns) is left to answer later all the same, so every call is."""
    real = guest._Done.wait  # noqa: SLF001

    def not_yet(done: Any, timeout: float | None = None) -> bool:
        if timeout == 0 and threading.current_thread() is threading.main_thread():
            return False
        return real(done, timeout)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(guest._Done, "wait", not_yet)  # noqa: SLF001
        guest.answer_later(0.0)
        try:
            yield
        finally:
            guest.answer_later(None)


def walked(qtbot: Any, tmp_path: Any, ruleset_id: str, later: bool) -> tuple[list[str], int]:
    """The narratives of the events a whole turn's walk wrote, and how often it waited."""
    where = tmp_path / ("later" if later else "at_once")
    where.mkdir()
    window = open_desk(qtbot, where, ruleset_id)
    # every call of a step made as it is taken, none worked out ahead (``app.session.ahead``)
    window.model.looks_ahead = not later
    walk = PatientWalk(qtbot, window)
    with every_call_later() if later else nullcontext():
        walk.settle()
        walk_turn(qtbot, window, ruleset_id, walk)
    s = window.model.session
    assert s.engagement.turn == 2  # the whole turn was walked
    said = [env.narrative for env in s.events()]
    window.model.set_session(None)
    return said, walk.waited


@pytest.mark.parametrize(
    "ruleset_id", ["phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception"]
)
def test_a_whole_turn_with_every_ruleset_call_answered_later(qtbot, tmp_path, ruleset_id) -> None:
    at_once, waited_at_once = walked(qtbot, tmp_path, ruleset_id, later=False)
    later, waited_later = walked(qtbot, tmp_path, ruleset_id, later=True)
    assert waited_at_once == 0
    assert waited_later > 10  # the desk went back to its event loop again and again
    assert later == at_once
