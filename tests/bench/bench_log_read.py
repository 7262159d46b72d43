"""Benchmark: the Game log first shown on a 200-aircraft / 100,000-event game (issue 20).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_log_read.py``
Figures: the longest time the event loop is blocked from the moment the Game log is brought to
the front until its whole log is read and shown (and half a second more), and the time until
the whole log is read. The same is measured on a 1,000-event game, whose log is read at once:
what bringing the panel to the front costs whatever the log. The desk is started as ``airboss``
starts it (the garbage collector off until the first paint, then start-up frozen out of its
passes) at 1366x768; a timer due every millisecond ticks while it works, and the longest gap
between two ticks is the longest block. Each run is a fresh process; the games are built once
with ``AIRBOSS_SQLITE_SYNC=normal`` (building is not what is measured).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "fixtures" / "site"))

RUNS = 3

SHOW = """
import gc, sys, time
gc.disable()
sys.path.insert(0, sys.argv[2])
from PySide6.QtCore import QEventLoop, Qt, QTimer
from app.ui.shell.application import app_settings, application, started
from app.ui.shell.main_window import MainWindow, settle
from app.ui.model import EngagementModel
from app.session import GameSession
app = application()
window = MainWindow(EngagementModel(), app_settings(), panels_later=True)
window.persist_layout = False
window.resize(1366, 768)
window.show_session(GameSession.open(sys.argv[1]))
window.show()
settle()
window.build_panels()
settle()
started()
model, dock = window.model, window.docks["game_log"]
gaps = []
last = [0.0]
def tick():
    now = time.perf_counter()
    gaps.append(now - last[0])
    last[0] = now
beat = QTimer()
beat.setTimerType(Qt.TimerType.PreciseTimer)
beat.setInterval(1)
beat.timeout.connect(tick)
def bring_forward():
    dock.show()
    dock.raise_()  # builds the panel if it was not built yet
whole = None
start = last[0] = time.perf_counter()
beat.start()
QTimer.singleShot(0, bring_forward)
while time.perf_counter() - start < 60:
    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
    read = model._log is not None and getattr(model, "log_whole", True)
    panel = window.panels.get("game_log")
    if whole is None and panel is not None and panel.isVisible() and read:
        whole = time.perf_counter() - start
    if whole is not None and time.perf_counter() - start > whole + 0.5:
        break
tick()
gaps.sort()
p99 = gaps[int(0.99 * (len(gaps) - 1))]
print(f"{gaps[-1]:.4f} {p99:.4f} {whole:.4f} {len(panel.lines_model.lines)}")
"""


def main() -> None:
    from bench_session import build_file, fresh_env

    site = str(HERE.parent / "fixtures" / "site")
    with tempfile.TemporaryDirectory(prefix="airboss-log-read-") as d:
        env = fresh_env(d)
        for events in (100_000, 1_000):
            path = Path(d) / f"game-{events}.airboss"
            build_file(path, events)
            runs = []
            for _ in range(RUNS):
                out = subprocess.run(
                    [sys.executable, "-c", SHOW, str(path), site],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.split()
                runs.append((float(out[0]), float(out[1]), float(out[2]), int(out[3])))
            longest = [r[0] * 1000 for r in runs]
            p99 = [r[1] * 1000 for r in runs]
            whole = [r[2] * 1000 for r in runs]
            print(
                f"Game log brought forward on {events:,} events ({runs[0][3]:,} lines), "
                f"{RUNS} fresh processes: longest block median {statistics.median(longest):.0f} ms "
                f"(worst {max(longest):.0f}), p99 tick gap {statistics.median(p99):.0f} ms; "
                f"whole log read and shown after median {statistics.median(whole):.0f} ms "
                f"(worst {max(whole):.0f})"
            )


if __name__ == "__main__":
    main()
