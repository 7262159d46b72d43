"""Issue 31: ``app.ui.shell.guest_worker``. A question to a ruleset off the GUI thread comes back as
a signal in the GUI thread (answer or error), says when it is slow, and a newer question drops
the older one's answer; a guarded call made in the GUI thread inside one of the desk's actions
(``patient``) leaves the event loop turning and the action is done again when it answered
(issue 44: no nested event loop)."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt, QTimer

from app.core import guest
from app.core.guest import GuestTimeout, call_guest
from app.ui.shell import guest_worker
from app.ui.shell.guest_worker import GuestWorker
from tests.ui.loop_clock import LoopClock

#: how long a test waits for what happens at the desk's pace (an answer, a signal): generous,
#: the pace is not what is tested
WITHIN_MS = 30_000


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
    qtbot.waitUntil(lambda: bool(got), timeout=WITHIN_MS)
    assert got == [("a", 42, True)] and not worker.pending


def test_an_error_comes_back_as_failed(qtbot) -> None:
    worker = GuestWorker()
    failed: list[tuple[object, BaseException]] = []
    worker.failed.connect(lambda tag, e: failed.append((tag, e)))

    def broken() -> None:
        raise SystemExit("bye")

    worker.ask("b", broken)
    qtbot.waitUntil(lambda: bool(failed), timeout=WITHIN_MS)
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
    qtbot.waitUntil(lambda: waiting == ["slow"], timeout=WITHIN_MS)
    worker.ask("quick", lambda: 1)
    release.set()
    qtbot.waitUntil(lambda: bool(answers), timeout=WITHIN_MS)
    qtbot.wait(100)
    assert answers == ["quick"]
    worker.ask("cancelled", lambda: 1)
    worker.cancel()
    qtbot.wait(100)
    assert answers == ["quick"] and not worker.pending


@pytest.fixture
def answered_later(monkeypatch: pytest.MonkeyPatch):
    """The desk's own wait in the GUI thread before an action is left to be done again."""
    monkeypatch.setattr(guest_worker, "ANSWER_LATER_AFTER", 0.1)
    guest_worker.install()
    yield
    guest.answer_later(None)


def test_an_action_that_waits_for_a_ruleset_leaves_the_event_loop_turning(
    qtbot, answered_later
) -> None:
    """Issue 44, no nested event loop: a ``patient`` action whose ruleset call does not answer
    at once returns to the event loop (it is not running when the timer ticks); the umpire's
    keys are held back meanwhile; once the call answers, the action is done again from its
    start and goes through, the ruleset asked once."""
    from PySide6.QtWidgets import QLineEdit

    release = threading.Event()
    asked: list[str] = []
    done: list[int] = []
    running = [False]

    def think() -> int:
        asked.append("think")
        release.wait(60)
        return 42

    @guest_worker.patient
    def action() -> None:
        running[0] = True
        try:
            done.append(call_guest("Slow rules", "think", think, time_limit=60))
        finally:
            running[0] = False

    field = QLineEdit()
    qtbot.addWidget(field)
    field.show()
    qtbot.waitExposed(field)
    field.setFocus()
    ticks: list[bool] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(running[0]))
    timer.start()
    try:
        action()
        # back before the ruleset answered (it waits for ``release``), still waiting for it
        assert done == [] and guest_worker.waiting
        qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=WITHIN_MS)
        assert not any(ticks)  # the loop turned, and not inside the action
        qtbot.keyClicks(field, "12")  # held back from the desk while the action waits
        assert field.text() == ""
        release.set()
        qtbot.waitUntil(lambda: done == [42], timeout=WITHIN_MS)
        assert asked == ["think"] and not guest_worker.waiting
        qtbot.keyClicks(field, "12")
        assert field.text() == "12"
    finally:
        timer.stop()
        release.set()


def test_an_action_given_up_at_its_time_limit_meets_did_not_answer(
    qtbot, answered_later, monkeypatch
) -> None:
    """The time limit on a clock only the event loop moves (``LoopClock``): given up once the
    loop has turned that long, and soon after, on a loaded machine as on an idle one."""
    clock = LoopClock().install(monkeypatch)
    release = threading.Event()
    said: list[str] = []

    @guest_worker.patient
    def action() -> None:
        try:
            call_guest("Slow rules", "odds", release.wait, 10, time_limit=0.4)
        except GuestTimeout as e:
            said.append(str(e))

    try:
        start = clock.monotonic()
        action()
        qtbot.waitUntil(lambda: bool(said), timeout=WITHIN_MS)
        assert 0.4 <= clock.monotonic() - start < 3
        assert said == [
            "the ruleset Slow rules did not answer in 0.4 s (odds); nothing was recorded"
        ]
        assert not guest_worker.waiting and guest_worker.shown is None
    finally:
        clock.stop()
        release.set()
        assert guest.settle()


def test_the_keyboard_comes_back_after_two_waits_in_a_row(
    qtbot, answered_later, monkeypatch
) -> None:
    """Two of the desk's actions wait for the ruleset one after the other, each long enough
    to show the waiting dialog, the second begun before the window system has given the
    keyboard back to the form after the first (``activateWindow`` takes effect in an event of
    its own: here when the test lets it). No window is active when the second wait begins;
    the form is once its activation arrives, and the dialog takes the keyboard from it.
    Once the second call has answered, the umpire's next key, sent where the window system
    sends keys (the focused window, when it is shown), reaches the form's field."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget

    clock = LoopClock().install(monkeypatch)
    form = QWidget()
    form.setWindowTitle("Gun attack")
    field = QLineEdit(form)
    QVBoxLayout(form).addWidget(field)
    qtbot.addWidget(form)
    form.show()
    qtbot.waitExposed(form)
    form.activateWindow()
    field.setFocus()
    qtbot.waitUntil(
        lambda: QApplication.activeWindow() is form and QApplication.focusWidget() is field,
        timeout=WITHIN_MS,
    )
    # the window system activates the form when the test lets it (a slow window manager)
    activate = form.activateWindow
    held: list[str] = []
    holding = [True]

    def requested() -> None:
        if holding[0]:
            held.append("activate")
        else:
            activate()

    monkeypatch.setattr(form, "activateWindow", requested)
    releases = [threading.Event(), threading.Event()]
    done: list[bool] = []

    @guest_worker.patient
    def action(n: int) -> None:
        done.append(call_guest("Slow rules", f"think {n}", releases[n].wait, 60, time_limit=60))

    def dialog_has_the_keyboard() -> bool:
        shown = guest_worker.shown
        return shown is not None and shown.isVisible() and QApplication.activeWindow() is shown

    try:
        action(0)
        qtbot.waitUntil(dialog_has_the_keyboard, timeout=WITHIN_MS)
        releases[0].set()
        qtbot.waitUntil(lambda: not guest_worker.waiting, timeout=WITHIN_MS)
        assert done == [True] and held == ["activate"]  # given back: not yet taken effect
        assert QApplication.activeWindow() is None
        action(1)  # the second wait begins now, no window active
        assert guest_worker.waiting and done == [True]
        holding[0] = False
        activate()  # the first wait's activation takes effect
        qtbot.waitUntil(lambda: QApplication.activeWindow() is form, timeout=WITHIN_MS)
        qtbot.waitUntil(dialog_has_the_keyboard, timeout=WITHIN_MS)
        releases[1].set()
        qtbot.waitUntil(lambda: not guest_worker.waiting, timeout=WITHIN_MS)
        assert done == [True, True]
        # the window system delivers the activation asked for (when one is asked for); until
        # then the focus window may still be the dialog's, hidden: keys go to no window
        try:
            qtbot.waitUntil(
                lambda: QGuiApplication.focusWindow() is form.windowHandle(), timeout=5000
            )
        except qtbot.TimeoutError:
            pass
        focused = QGuiApplication.focusWindow()
        if focused is not None and focused.isVisible():  # where the window system sends keys
            QTest.keyClick(focused, Qt.Key.Key_7)
        assert field.displayText() == "7", f"the key went to {focused}, not the form's field"
    finally:
        clock.stop()
        for release in releases:
            release.set()
        assert guest.settle()
