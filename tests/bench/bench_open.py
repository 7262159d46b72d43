"""Benchmark: a 200-aircraft / 100,000-event game opened, and the desk's memory on it (issue 20).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_open.py``
Targets: ``GameSession.open`` under 300 ms; the desk showing that game under 300 MB RSS.
The game is built once with ``AIRBOSS_SQLITE_SYNC=normal`` (building is not what is measured);
each figure is measured in a fresh process so nothing is warm.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "fixtures" / "site"))

EVENTS = 100_000

OPEN = """
import sys, time
sys.path.insert(0, sys.argv[2])
t = time.perf_counter()
from app.session import GameSession
imported = time.perf_counter()
s = GameSession.open(sys.argv[1])
print(f"{imported - t:.4f} {time.perf_counter() - imported:.4f} {s.engagement.seq}")
"""

DESK = """
import resource, sys
sys.path.insert(0, sys.argv[2])
from app.ui.shell.application import application, app_settings
from app.ui.shell.main_window import MainWindow, settle
from app.ui.model import EngagementModel
from app.session import GameSession
app = application()
window = MainWindow(EngagementModel(), app_settings(), panels_later=True)  # as airboss starts
window.persist_layout = False
window.resize(1366, 768)
window.show_session(GameSession.open(sys.argv[1]))
window.show(); settle()
window.build_panels(); settle()
while not window.model.log_whole:  # the Game log in view reads the whole log in slices
    app.processEvents()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def main() -> None:
    from bench_session import build_file, fresh_env

    site = str(HERE.parent / "fixtures" / "site")
    with tempfile.TemporaryDirectory(prefix="airboss-open-") as d:
        env = fresh_env(d)
        path = Path(d) / "big.airboss"
        # built as on the umpire's own laptop: the opening processes' data folder is the one
        # that trusts the snapshots the build wrote (issue 46, app.store.trusted_snapshots)
        os.environ["AIRBOSS_DATA_DIR"] = d
        build_file(path, EVENTS)

        def child(script: str, env: dict[str, str]) -> list[str]:
            """What a fresh process running ``script`` on the game printed."""
            return subprocess.run(
                [sys.executable, "-c", script, str(path), site],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()

        opens = [float(child(OPEN, env)[1]) for _ in range(5)]
        print(
            f"GameSession.open (fresh process, imports excluded): median "
            f"{statistics.median(opens) * 1000:.0f} ms, worst {max(opens) * 1000:.0f} ms"
        )
        # another computer's first open: its snapshot is checked against a replay (issue 46)
        first = child(OPEN, {**env, "AIRBOSS_DATA_DIR": str(Path(d) / "elsewhere")})
        print(
            "GameSession.open on another computer, the first time (the snapshot checked "
            f"against a replay): {float(first[1]) * 1000:.0f} ms"
        )
        rss = child(DESK, env)[-1]
        print(f"desk showing that game at 1366x768: peak RSS {int(rss) / 1024:.0f} MB")


if __name__ == "__main__":
    main()
