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
  event loop keeps turning, so the window repaints, timers fire and odds arrive. For the first
  ``DIALOG_AFTER_MS`` the umpire's clicks and keys wait (almost every call answers by then,
  and what he did then lands on the desk as the answer left it); after that a small
  application-modal ``WaitingDialog`` says "Waiting for the ruleset X (call)… N s" with
  **Stop waiting** (Esc), and his input goes through again: to that dialog only (Qt's
  modality keeps it off the desk's windows, so nothing he does lands on a half-drawn game, and
  the game takes in other stations' actions only after the call: ``waiting``). Stop waiting
  ends the wait at once as the time limit would: the call is abandoned, the message names the
  ruleset and the call, nothing is written. The busy cursor shows meanwhile.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

#: how long a guarded call is waited for in plain ``join`` before the event loop turns (s):
#: almost every call answers within it, and then nothing else runs meanwhile
QUIET_WAIT = 0.05
#: how often the worker looks for its answer (ms)
POLL_MS = 15
#: after this long without an answer the worker says it is waiting (ms)
WAITING_AFTER_MS = 300
#: after this long without an answer a guarded call in the GUI thread shows the
#: ``WaitingDialog`` (ms): longer than a slow but honest call (the UFO damage table's odds
#: stamped at resolve take 0.3 s here), short enough to give up a hang within a second
DIALOG_AFTER_MS = 600
#: True while the GUI thread waits for a ruleset with the event loop turning: the game must
#: not change under the call meanwhile (the model takes in other stations' actions after it)
waiting = False
#: the ``WaitingDialog`` shown now, if any (the innermost wait's)
shown: WaitingDialog | None = None
#: the (ruleset, call) pairs of the waits under way in the GUI thread, innermost last (a
#: timer may ask the ruleset again while an outer wait turns the event loop)
_waits: list[tuple[str, str]] = []
#: the pairs the umpire stopped waiting for: every wait for one of them under way ends, and a
#: new one ends at once, until the outermost has ended
_stopped: set[tuple[str, str]] = set()


class WaitingDialog(QDialog):
    """The dialog "Waiting for the ruleset X (call)… N s", with **Stop waiting** (Esc, or
    closing it): application-modal, so while it is up the umpire's clicks and keys reach it
    and nothing else. ``since``: when the wait began (``time.monotonic``); ``stopped`` is set
    once he gave up (and the wait's (ruleset, call) is put in ``_stopped``)."""

    def __init__(
        self,
        ruleset: str,
        call: str,
        time_limit: float,
        since: float,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Waiting for the ruleset")
        self.setWindowModality(Qt.WindowModality.ApplicationModal)
        self.stopped = False
        self._key = (ruleset, call)
        #: the window active and the widget with the focus before it showed: given them back
        #: when it goes (it has no parent for Qt to go back to)
        self.came_from: tuple[QWidget | None, QWidget | None] = (None, None)
        self._what = f"Waiting for the ruleset {ruleset} ({call})…"
        self.since = since
        self.label = QLabel(self)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setMinimumWidth(360)
        limit = QLabel(
            f"It is given up after {time_limit:g} s. Stop waiting gives up now: "
            "nothing is recorded.",
            self,
        )
        limit.setTextFormat(Qt.TextFormat.PlainText)
        limit.setWordWrap(True)
        buttons = QDialogButtonBox(self)
        self.stop_button: QPushButton = buttons.addButton(
            "Stop waiting", QDialogButtonBox.ButtonRole.RejectRole
        )
        self.stop_button.setDefault(True)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(limit)
        layout.addWidget(buttons)
        self.tick()

    def tick(self) -> None:
        """Say the whole seconds waited so far."""
        self.label.setText(f"{self._what} {int(time.monotonic() - self.since)} s")

    def reject(self) -> None:  # Stop waiting, Esc, or the window closed
        # it stays up (and modal) until the wait has ended: nothing the umpire does next can
        # reach the desk before the call is abandoned
        self.stopped = True
        _stopped.add(self._key)
        self.stop_button.setEnabled(False)
        self.stop_button.setText("Stopping…")


def wait_turning(
    done: threading.Event, time_limit: float, ruleset: str = "", call: str = ""
) -> float | None:
    """Wait for a guest call to be done, at most ``time_limit`` s; in the GUI thread, with the
    event loop turning and the busy cursor up. User input is held back for the first
    ``DIALOG_AFTER_MS``; then the ``WaitingDialog`` takes it (application-modal). Returns the
    seconds waited when the umpire stopped waiting, ``None`` otherwise (``guest.Waiter``)."""
    app = QCoreApplication.instance()
    if app is None or threading.current_thread() is not threading.main_thread():
        done.wait(time_limit)
        return None
    start = time.monotonic()
    deadline = start + time_limit
    if done.wait(min(QUIET_WAIT, time_limit)):
        return None
    global waiting, shown
    gui = isinstance(app, QGuiApplication)
    if gui:
        QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
    outer, waiting = waiting, True
    outer_dialog = shown
    dialog: WaitingDialog | None = None
    show_at = start + DIALOG_AFTER_MS / 1000
    key = (ruleset, call)
    _waits.append(key)
    try:
        while not done.is_set() and (left := deadline - time.monotonic()) > 0:
            if key in _stopped:  # by this wait's dialog, or an outer or inner one's
                return time.monotonic() - start
            if dialog is None and isinstance(app, QApplication) and time.monotonic() >= show_at:
                dialog = shown = _show_dialog(ruleset, call, time_limit, start)
            if dialog is None:
                app.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents, 10)
            else:
                dialog.tick()
                # the umpire's input goes to the modal dialog and nowhere else
                app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
            if not done.is_set() and key in _stopped:
                return time.monotonic() - start
            done.wait(min(0.01, max(left, 0)))
        return None
    finally:
        _waits.pop()
        if key not in _waits:
            _stopped.discard(key)
        waiting = outer
        shown = outer_dialog
        if dialog is not None:
            _close(dialog)
        if gui:
            QGuiApplication.restoreOverrideCursor()


def _show_dialog(ruleset: str, call: str, time_limit: float, since: float) -> WaitingDialog:
    # no parent: the window it shows over may go (a dialog closed by a timer) while it is up;
    # application-modal, it blocks every window all the same
    dialog = WaitingDialog(ruleset or "(unnamed)", call or "a call", time_limit, since)
    over = QApplication.activeModalWidget() or QApplication.activeWindow()
    dialog.came_from = (QApplication.activeWindow(), QApplication.focusWidget())
    if over is not None and over.isVisible():
        dialog.adjustSize()
        frame = dialog.frameGeometry()
        frame.moveCenter(over.frameGeometry().center())
        dialog.move(frame.topLeft())
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    dialog.stop_button.setFocus()
    return dialog


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


def _close(dialog: WaitingDialog) -> None:
    """Hide the dialog and give the window and widget it came from back their focus."""
    window, focus = dialog.came_from
    dialog.hide()
    dialog.deleteLater()
    if window is not None and isValid(window) and window.isVisible():
        window.activateWindow()
        # the window system activates it in an event of its own: taken in now (the umpire's
        # keys and clicks still held), so that the result's next form gets the keyboard
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        if focus is None or not isValid(focus) or not focus.isVisible():
            # the widget it came from is gone (a form the call closed): the one the window
            # gave the focus to meanwhile (the next form's first field), else the window
            focus = window.focusWidget() or window
        if isValid(focus) and focus.isVisible():
            focus.setFocus(Qt.FocusReason.ActiveWindowFocusReason)
