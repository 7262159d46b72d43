"""Calls into a ruleset off the GUI thread (issues 31 and 44): the desk keeps turning while a
guest thinks, with no nested event loop, and a guest that never answers is given up after its
time limit (``app.core.guest.TIME_LIMIT``) with "the ruleset ... did not answer in N s".

Two ways, one for each kind of call:

- ``GuestWorker`` runs a call wholly off the GUI thread and hands its answer back as a signal
  (the Combat panel's odds, the one call that is slow by nature: a big pool of dice). The panel
  stays live meanwhile, the umpire types on, and a newer question supersedes the older one.
  Nothing Qt crosses threads: the call's thread only fills a ``Future``, which a timer of the
  GUI thread reads.
- Every other guarded call made in the GUI thread (steps, who acts now, preparing a form, a
  line's dry run, resolve, on_clock: the desk needs their answer before it can go on) is made
  inside one of the desk's actions (``patient``: a button's, a key's, a panel's redraw). The
  call runs in the ruleset's worker thread and is waited for ``ANSWER_LATER_AFTER`` at most
  (almost every call answers by then, and the action goes through at once). A call still
  thinking then raises ``GuestPending``: the action stops where it stood, before it wrote
  anything, and the desk goes back to its event loop, so the window repaints, timers fire and
  odds arrive. ``Patience`` watches the call from a timer; when it has answered, the action is
  done again from its start, its calls answered from the record of the first run
  (``app.core.guest.replaying``), and goes through. Meanwhile the umpire's clicks and keys are
  held back from the desk (and the game takes in other stations' actions only after it:
  ``waiting``); after ``DIALOG_AFTER_MS`` a small application-modal ``WaitingDialog`` says
  "Waiting for the ruleset X (call)… N s" with **Stop waiting** (Esc), and his input goes to
  it. Stop waiting, or the time limit, gives the call up (``app.core.guest.Call.give_up``): the
  action done again meets "did not answer", names the ruleset and the call, and writes
  nothing. The busy cursor shows meanwhile.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, ParamSpec

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
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

if TYPE_CHECKING:
    from app.core import guest

P = ParamSpec("P")

#: how long a guarded call made in the GUI thread is waited for before the desk goes back to
#: its event loop and does the action again once the ruleset has answered (s): a few frames
ANSWER_LATER_AFTER = 0.1
#: how often the worker looks for its answer (ms)
POLL_MS = 15
#: after this long without an answer the worker says it is waiting (ms)
WAITING_AFTER_MS = 300
#: after this long without an answer the desk's action shows the ``WaitingDialog`` (ms):
#: longer than a slow but honest call (the UFO damage table's odds stamped at resolve take
#: 0.3 s here), short enough to give up a hang within a second
DIALOG_AFTER_MS = 600
#: True while one of the desk's actions waits for a ruleset: the game must not change under
#: the call meanwhile (the model takes in other stations' actions after it)
waiting = False
#: the ``WaitingDialog`` shown now, if any
shown: WaitingDialog | None = None
#: what shows the game afresh when an action that wrote met a call that had to be waited
#: for after it (set by the desk's model: its panels redraw from the game as it is)
redraw_all: Callable[[], None] | None = None
#: how far the game has gone (its last sequence number), as the desk's model says: an action
#: that wrote before it had to wait is not done again (``redraw_all`` instead)
game_seq: Callable[[], int] = int  # (no game: 0)


class WaitingDialog(QDialog):
    """The dialog "Waiting for the ruleset X (call)… N s", with **Stop waiting** (Esc, or
    closing it): application-modal, so while it is up the umpire's clicks and keys reach it
    and nothing else. ``since``: when the wait began (``time.monotonic``); ``stopped`` is set
    once he gave up (``Patience.stop_waiting``)."""

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
        if self.stopped:
            return
        self.stopped = True
        self.stop_button.setEnabled(False)
        self.stop_button.setText("Stopping…")
        patience().stop_waiting()

    def waiting_for(self, ruleset: str, call: str) -> None:
        """Say the call now waited for (an action done again may wait for another)."""
        self._what = f"Waiting for the ruleset {ruleset} ({call})…"
        self.tick()


class Task:
    """One of the desk's actions (``patient``): ``body`` run, and run again from its start
    when a ruleset call it made had to be waited for, its calls answered from ``record``."""

    __slots__ = ("body", "record", "waiting_on")

    def __init__(self, body: Callable[[], object]) -> None:
        self.body = body
        self.record: guest.Record | None = None
        self.waiting_on: guest.Call | None = None

    def run(self) -> None:
        # (app.core.guest, and pydantic with it, come with the first game's rules, never
        # before the first paint: until then no ruleset call can be left to answer later)
        guest = sys.modules.get("app.core.guest")
        if guest is None:
            self.body()
            return
        if self.record is None:
            self.record = guest.Record()
        seq = game_seq()
        try:
            with guest.replaying(self.record):
                self.body()
        except guest.GuestPending as e:
            self.waiting_on = e.call
            if game_seq() != seq and redraw_all is not None:
                # it wrote before it had to wait: not done again (it would write twice); the
                # desk is drawn afresh from the game as it is once the ruleset has answered
                self.body, self.record = redraw_all, None
            patience().wait_for(self)


def patient(handler: Callable[P, object]) -> Callable[P, None]:
    """``handler`` as one of the desk's actions (a slot: a click, a key, a panel's redraw):
    when a ruleset call it makes has to be waited for, the desk goes back to its event loop
    and does it again once the call has answered (``Task``). Only for slots and handlers the
    event loop calls: a method another one calls directly stays as it is (its caller is the
    action)."""

    @functools.wraps(handler)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        Task(functools.partial(handler, *args, **kwargs)).run()

    return run


def when_answered(call: guest.Call, then: Callable[[], object]) -> None:
    """Do ``then`` (one of the desk's actions) once ``call`` has answered, the event loop
    turning meanwhile: a draft's prepare that waits, or a call that reached the event loop
    outside any ``patient`` action (``then``: ``redraw_all``)."""
    task = Task(then)
    task.waiting_on = call
    patience().wait_for(task)


class _HoldInput(QObject):
    """Holds the umpire's clicks and keys back from the desk while an action waits (they
    reach the ``WaitingDialog`` once it is up, and nothing else)."""

    HELD = frozenset(
        {
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseButtonRelease,
            QEvent.Type.MouseButtonDblClick,
            QEvent.Type.KeyPress,
            QEvent.Type.KeyRelease,
            QEvent.Type.ShortcutOverride,
            QEvent.Type.Wheel,
            QEvent.Type.ContextMenu,
        }
    )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() not in self.HELD:
            return False
        dialog = shown
        if dialog is not None and isinstance(watched, QWidget) and isValid(dialog):
            return watched.window() is not dialog
        return True


class Patience(QObject):
    """The desk's actions waiting for a ruleset (``Task``), first come first done: watches
    the first one's call from a timer, shows the ``WaitingDialog`` after
    ``DIALOG_AFTER_MS``, gives the call up at its time limit or when the umpire stops
    waiting, and does the action again once the call has answered."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks: list[Task] = []
        #: from the first action that waits until every one is done
        self._active = False
        self._polling = False
        self._since = 0.0
        self._stopping = False
        self._came_from: tuple[QWidget | None, QWidget | None] = (None, None)
        self._hold = _HoldInput(self)
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def wait_for(self, task: Task) -> None:
        """Do ``task`` again once the call it waits for has answered."""
        global waiting
        app = QCoreApplication.instance()
        if not self._active:  # (an action done again that waits anew: the same wait)
            self._active = True
            self._since = time.monotonic()
            self._stopping = False
            waiting = True
            if isinstance(app, QApplication):
                self._came_from = (QApplication.activeWindow(), QApplication.focusWidget())
            if isinstance(app, QGuiApplication):
                QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
            if app is not None:
                app.installEventFilter(self._hold)
            self._timer.start()
        if task in self.tasks:  # done again and waiting again: still first in line
            self.tasks.remove(task)
            self.tasks.insert(0, task)
        else:
            self.tasks.append(task)
        call = task.waiting_on
        if self._stopping and call is not None:  # the umpire wants his desk back
            call.give_up(time.monotonic() - call.started)
        if shown is not None and call is not None and task is self.tasks[0]:
            shown.waiting_for(call.ruleset, call.call)

    def stop_waiting(self) -> None:
        """The umpire stopped waiting: the call waited for is given up now, and so is every
        call the actions waiting meet until they are done."""
        self._stopping = True
        now = time.monotonic()
        for task in self.tasks:
            if task.waiting_on is not None:
                task.waiting_on.give_up(now - task.waiting_on.started)
        self._timer.start(0)

    def _poll(self) -> None:
        if self._polling:  # (an action done again that opened a dialog of its own)
            return
        self._polling = True
        try:
            self._turn()
        finally:
            self._polling = False

    def _turn(self) -> None:
        global shown
        self._timer.setInterval(POLL_MS)
        while self.tasks:
            task = self.tasks[0]
            call = task.waiting_on
            if call is not None and not call.answered:
                now = time.monotonic()
                if now - call.started >= call.time_limit:
                    call.give_up()
                    continue
                app = QCoreApplication.instance()
                if shown is None and isinstance(app, QApplication):
                    if now - self._since >= DIALOG_AFTER_MS / 1000:
                        if self._came_from[0] is None:
                            # no window was active when the wait began (the activation of
                            # the last wait's window, or a window just shown, had not taken
                            # effect yet): the dialog takes the keyboard from the window
                            # active now, and gives it back to that one
                            self._came_from = (
                                QApplication.activeWindow(),
                                QApplication.focusWidget(),
                            )
                        shown = _show_dialog(call.ruleset, call.call, call.time_limit, self._since)
                elif shown is not None:
                    shown.tick()
                return
            task.waiting_on = None
            try:
                task.run()  # done, or waiting again (first in line)
            except Exception:  # noqa: BLE001 - a bug in the action: said, and the desk goes on
                sys.excepthook(*sys.exc_info())
            if task.waiting_on is None and task in self.tasks:
                self.tasks.remove(task)
        self._done()

    def _done(self) -> None:
        global waiting, shown
        self._active = False
        self._timer.stop()
        waiting = False
        app = QCoreApplication.instance()
        if app is not None:
            app.removeEventFilter(self._hold)
        if isinstance(app, QGuiApplication):
            QGuiApplication.restoreOverrideCursor()
        dialog, shown = shown, None
        if dialog is not None:
            dialog.hide()
            dialog.deleteLater()
        _give_back_focus(*self._came_from)


_patience: Patience | None = None


def forget() -> None:
    """Drop every action still waiting (another game is shown, or none): none of them is
    done again, and the desk takes the umpire's input at once."""
    if _patience is not None and isValid(_patience) and _patience.tasks:
        _patience.tasks.clear()
        _patience._done()


def patience() -> Patience:
    """The desk's one ``Patience``."""
    global _patience
    if _patience is None or not isValid(_patience):
        _patience = Patience(QCoreApplication.instance())
    return _patience


def _show_dialog(ruleset: str, call: str, time_limit: float, since: float) -> WaitingDialog:
    # no parent: the window it shows over may go (a dialog closed by a timer) while it is up;
    # application-modal, it blocks every window all the same
    dialog = WaitingDialog(ruleset or "(unnamed)", call or "a call", time_limit, since)
    over = QApplication.activeModalWidget() or QApplication.activeWindow()
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
    """Guarded calls made in the GUI thread are waited for ``ANSWER_LATER_AFTER`` at most;
    then the desk's action waits for them with its event loop turning (idempotent)."""
    from app.core import guest

    if threading.current_thread() is threading.main_thread():
        guest.answer_later(ANSWER_LATER_AFTER)


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


def _give_back_focus(window: QWidget | None, focus: QWidget | None) -> None:
    """The window the umpire was on when the action began to wait (or, when none was active
    then, the one the waiting dialog took the keyboard from) gets the keyboard back, on the
    widget it gives the focus to now (the action may have moved it: the next form's first
    field), else the one he was on, else the window itself."""
    if window is None or not isValid(window) or not window.isVisible():
        return
    window.activateWindow()
    for widget in (window.focusWidget(), focus, window):
        if widget is not None and isValid(widget) and widget.isVisible() and widget.isEnabled():
            widget.setFocus(Qt.FocusReason.ActiveWindowFocusReason)
            return
