"""A clock for the desk's tests of waiting for a ruleset that moves only as the desk's event
loop turns, so what they check does not depend on how fast the machine is.

The desk times a call it waits for (``app.ui.shell.guest_worker``: the ``WaitingDialog`` after
``DIALOG_AFTER_MS``, a call given up at its time limit, "working out the odds" after
``WAITING_AFTER_MS``) with ``time.monotonic`` as ``app.core.guest`` and ``guest_worker`` read
it. ``LoopClock.install`` gives both this clock instead: it moves ``STEP`` s at each tick of
a timer of the GUI thread (every ``STEP`` s of real time while the loop is free), so "the
time limit ended" means the loop turned a time limit's worth of ticks, and "answered within
the delay" means within that many ticks of the loop, on a loaded machine as on an idle one.
The ruleset's own slowness (``hold``) is counted on it too. The waits of a thread that is not
the GUI thread (odds worked out in a ``GuestWorker``'s thread: ``threading.Event.wait``) stay
on real time.
"""

from __future__ import annotations

import threading
import time
import types

import pytest
from PySide6.QtCore import QTimer

#: how far the clock moves at each tick of its timer (s), and the timer's interval
STEP = 0.01


class LoopClock:
    """``monotonic()``: the time as the desk reads it in a test; ``ticks``: how often the
    event loop turned it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.ticks = 0
        self._timer = QTimer()
        self._timer.setInterval(round(STEP * 1000))
        self._timer.timeout.connect(self._tick)

    def monotonic(self) -> float:
        return self.now

    def _tick(self) -> None:
        self.ticks += 1
        self.now += STEP

    def install(self, monkeypatch: pytest.MonkeyPatch) -> LoopClock:
        """The desk's guarded calls (``app.core.guest``) and its waiting for them
        (``guest_worker``) read this clock until the test ends."""
        from app.core import guest
        from app.ui.shell import guest_worker

        fake = types.SimpleNamespace(monotonic=self.monotonic)
        monkeypatch.setattr(guest, "time", fake)
        monkeypatch.setattr(guest_worker, "time", fake)
        self._timer.start()
        return self

    def stop(self) -> None:
        self._timer.stop()

    def hold(self, seconds: float, release: threading.Event | None = None) -> None:
        """A ruleset's call that takes ``seconds`` on this clock (called in its worker
        thread: sleeps in real time until the loop has turned that long, or ``release``)."""
        until = self.now + seconds
        while self.now < until and not (release is not None and release.is_set()):
            time.sleep(STEP / 2)
