"""Reference cycles are collected in the GUI thread only (app/ui/shell/collector.py): a collection
run by a worker thread that frees a dead widget destroys its Qt timers in the wrong thread."""

from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtCore import QTimer

from app.ui.shell import collector


class Cycle:
    """An object in a reference cycle, holding a Qt timer as a dead widget does."""

    def __init__(self) -> None:
        self.me = self
        self.timer = QTimer()


def test_cycles_are_collected_by_the_gui_thread_timer_and_no_other(qtbot, qapp) -> None:
    installed = collector.install()
    assert collector.install() is installed  # one per application
    assert not gc.isenabled()
    collected_in: list[str] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            collected_in.append(threading.current_thread().name)

    threshold = gc.get_threshold()
    gc.callbacks.append(note)
    try:
        dead = Cycle()
        gone = weakref.ref(dead)
        del dead
        # a worker thread that allocates far past the threshold collects nothing
        worker = threading.Thread(target=lambda: [[] for _ in range(50_000)], name="worker")
        worker.start()
        worker.join()
        assert gone() is not None and "worker" not in collected_in
        # a collection due by Python's thresholds: the GUI thread's timer makes it
        gc.set_threshold(1, 1, 1)
        qtbot.waitUntil(lambda: gone() is None, timeout=5 * collector.INTERVAL_MS)
        assert set(collected_in) == {threading.main_thread().name}
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(note)
