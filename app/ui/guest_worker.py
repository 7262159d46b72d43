"""Calls into a ruleset off the GUI thread (issue 31): the desk keeps turning while a guest
thinks, and a guest that never answers is given up after its time limit
(``app.core.guest.TIME_LIMIT``) with "the ruleset ... did not answer in N s".

Two ways, one for each kind of call:

- ``GuestWorker`` runs a call wholly off the GUI thread and hands its answer back as a signal
  (the Combat panel's odds, the one call that is slow by nature: a big pool of dice). The panel
  stays live meanwhile, the umpire types on, and a newer question supersedes the older one.
  Nothing Qt crosses threads: the call's thread only fills a ``Future``, which a timer of the
  GUI thread reads.
- ``install()`` sets how a guarded call made *in* the GUI thread waits for the ruleset (steps,
  who acts now, preparing a form, a line's dry run, resolve, on_clock: the desk needs their
  answer before it can go on): the ruleset runs in its worker thread (``call_guest``) while the
  event loop keeps turning, so the window repaints, timers fire and odds arrive; the umpire's
  clicks and keys wait until the ruleset answers or its time limit ends the wait, so nothing he
  does lands on a half-drawn desk. The busy cursor shows meanwhile.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication

#: how long a guarded call is waited for in plain ``join`` before the event loop turns (s):
#: almost every call answers within it, and then nothing else runs meanwhile
QUIET_WAIT = 0.05
#: how often the worker looks for its answer (ms)
POLL_MS = 15
#: after this long without an answer the worker says it is waiting (ms)
WAITING_AFTER_MS = 300
#: True while the GUI thread waits for a ruleset with the event loop turning: the game must
#: not change under the call meanwhile (the model takes in other stations' actions after it)
waiting = False


def wait_turning(done: threading.Event, time_limit: float) -> None:
    """Wait for a guest call to be done, at most ``time_limit`` s; in the GUI thread, with the
    event loop turning (user input held back) and the busy cursor up while it takes long."""
    app = QCoreApplication.instance()
    if app is None or threading.current_thread() is not threading.main_thread():
        done.wait(time_limit)
        return
    deadline = time.monotonic() + time_limit
    if done.wait(min(QUIET_WAIT, time_limit)):
        return
    global waiting
    gui = isinstance(app, QGuiApplication)
    if gui:
        QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
    outer, waiting = waiting, True
    try:
        while not done.is_set() and (left := deadline - time.monotonic()) > 0:
            app.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents, 10)
            done.wait(min(0.01, max(left, 0)))
    finally:
        waiting = outer
        if gui:
            QGuiApplication.restoreOverrideCursor()


def install() -> None:
    """Guarded calls made in the GUI thread wait with the event loop turning (idempotent)."""
    from app.core import guest  # (pydantic comes with it: loaded with the first game's rules)

    guest.set_waiter(wait_turning)


class GuestWorker(QObject):
    """One question at a time to a ruleset, off the GUI thread.

    ``ask(tag, fn, *args)`` runs ``fn(*args)`` (a guarded, time-limited call such as
    ``GameSession.odds``) in a thread of its own; ``answered(tag, result)`` or ``failed(tag,
    error)`` follow in the GUI thread, and ``waiting(tag)`` when no answer came within
    ``WAITING_AFTER_MS``. A newer ``ask`` or ``cancel`` drops the answer of the older one."""

    answered = Signal(object, object)
    failed = Signal(object, object)
    waiting = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._job: tuple[object, Future[Any], float] | None = None
        self._said_waiting = False
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def pending(self) -> bool:
        """A question is out and its answer not yet handed back."""
        return self._job is not None

    def ask(self, tag: object, fn: Callable[..., Any], /, *args: Any) -> None:
        future: Future[Any] = Future()

        def run() -> None:
            try:
                future.set_result(fn(*args))
            except BaseException as e:  # noqa: BLE001 - handed to the GUI thread as failed
                future.set_exception(e)

        self._job = (tag, future, time.monotonic())
        self._said_waiting = False
        threading.Thread(target=run, name="airboss guest worker", daemon=True).start()
        self._timer.start()

    def cancel(self) -> None:
        """Forget the question out (its answer, when it comes, is dropped)."""
        self._job = None
        self._timer.stop()

    def _poll(self) -> None:
        if self._job is None:
            self._timer.stop()
            return
        tag, future, asked = self._job
        if not future.done():
            if not self._said_waiting and time.monotonic() - asked >= WAITING_AFTER_MS / 1000:
                self._said_waiting = True
                self.waiting.emit(tag)
            return
        self.cancel()
        error = future.exception()
        if error is None:
            self.answered.emit(tag, future.result())
        else:
            self.failed.emit(tag, error)
