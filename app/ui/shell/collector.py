"""Python's collector of reference cycles runs in the GUI thread only.

Left automatic, a collection runs in whichever thread happens to allocate past its threshold:
a ruleset's worker thread (``app.core.guest``), the Combat panel's odds thread, the background
check of a game's log. A collection there that frees a dead widget's cycle destroys its Qt
objects in the wrong thread ("QObject::killTimer: Timers cannot be stopped from another
thread"), which Qt does not allow and which may crash the desk. So automatic collection is off
while the desk runs, and a timer of the GUI thread collects by the same thresholds Python
would (the pattern of pyqtgraph's ``GarbageCollector``, without importing pyqtgraph before the
first paint).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QTimer

#: how often the GUI thread looks whether a collection is due (ms)
INTERVAL_MS = 500


class GuiThreadCollector(QObject):
    """Collects reference cycles from the GUI thread, generation by generation, when Python's
    own thresholds say a collection is due; automatic collection stays off meanwhile."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.collect_due)
        self.timer.start()

    def collect_due(self) -> None:
        young, middle, old = gc.get_count()
        first, second, third = gc.get_threshold()  # Python's own, as set now
        if young <= first:
            return
        generation = 0
        if middle > second:
            generation = 2 if old > third else 1
        gc.collect(generation)


def install() -> GuiThreadCollector:
    """The application's collector (made once, owned by the QApplication); automatic
    collection is off from now on."""
    app = QCoreApplication.instance()
    assert app is not None, "a QApplication runs before the collector is installed"
    found = app.findChild(GuiThreadCollector)
    if isinstance(found, GuiThreadCollector):
        gc.disable()  # (a test may have given collection back to Python meanwhile)
        return found
    return GuiThreadCollector(app)
