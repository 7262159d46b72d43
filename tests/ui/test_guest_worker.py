"""Issue 31: ``app.ui.shell.guest_worker``. A question to a ruleset off the GUI thread comes back as
a signal in the GUI thread (answer or error), says when it is slow, and a newer question drops
the older one's answer; a guarded call made in the GUI thread waits with the event loop
turning, and plain ``join`` elsewhere."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import QTimer

from app.core import guest
from app.core.guest import GuestTimeout, call_guest
from app.ui.shell import guest_worker
from app.ui.shell.guest_worker import GuestWorker


def test_an_answer_comes_back_in_the_gui_thread(qtbot) -> None:
    worker = GuestWorker()
    got: list[tuple[object, object, bool]] = []
    worker.answered.connect(
        lambda tag, result: got.append(
            (tag, result, threading.current_thread() is threading.main_thread())
        )
    )
    worker.ask("a", lambda x: x * 2, 21)
    assert worker.pending
    qtbot.waitUntil(lambda: bool(got), timeout=3000)
    assert got == [("a", 42, True)] and not worker.pending


def test_an_error_comes_back_as_failed(qtbot) -> None:
    worker = GuestWorker()
    failed: list[tuple[object, BaseException]] = []
    worker.failed.connect(lambda tag, e: failed.append((tag, e)))

    def broken() -> None:
        raise SystemExit("bye")

    worker.ask("b", broken)
    qtbot.waitUntil(lambda: bool(failed), timeout=3000)
    [(tag, error)] = failed
    assert tag == "b" and isinstance(error, SystemExit)


def test_a_slow_answer_is_said_and_a_newer_question_drops_it(qtbot) -> None:
    worker = GuestWorker()
    waiting: list[object] = []
    answers: list[object] = []
    worker.waiting.connect(waiting.append)
    worker.answered.connect(lambda tag, result: answers.append(tag))
    release = threading.Event()
    worker.ask("slow", lambda: release.wait(10))
    qtbot.waitUntil(lambda: waiting == ["slow"], timeout=3000)
    worker.ask("quick", lambda: 1)
    release.set()
    qtbot.waitUntil(lambda: bool(answers), timeout=3000)
    qtbot.wait(100)
    assert answers == ["quick"]
    worker.ask("cancelled", lambda: 1)
    worker.cancel()
    qtbot.wait(100)
    assert answers == ["quick"] and not worker.pending


def test_a_guarded_call_in_the_gui_thread_waits_with_the_event_loop_turning(qtbot) -> None:
    old = guest.set_waiter(guest_worker.wait_turning)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    release = threading.Event()
    try:
        start = time.monotonic()
        with pytest.raises(GuestTimeout) as e:
            call_guest("Slow rules", "odds", release.wait, 10, time_limit=0.4)
        assert str(e.value) == (
            "the ruleset Slow rules did not answer in 0.4 s (odds); nothing was recorded"
        )
        took = time.monotonic() - start
        assert 0.4 <= took < 3
        assert len([t for t in ticks if t >= start]) >= 5  # the timer fired meanwhile
        # in another thread the waiter just joins: no event loop outside the GUI thread
        seen: list[object] = []
        other = threading.Thread(
            target=lambda: seen.append(call_guest("Slow rules", "sum", sum, [1, 2], time_limit=2))
        )
        other.start()
        other.join(5)
        assert seen == [3]
    finally:
        timer.stop()
        release.set()
        guest.set_waiter(old)
        assert guest.settle()
