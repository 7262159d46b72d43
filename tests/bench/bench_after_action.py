"""Benchmark: the After-action panel's first plot on a game of 200 aircraft and 20,000 events.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_after_action.py``
(figures go into the README). Target (issue 35): the first plot under 1 s.

Each run is a fresh process (pyqtgraph and numpy not yet imported, as at the table): the game
is opened and the panel made (not timed: the desk has done both), then timed from the panel
first shown to its first plot painted -- pyqtgraph imported, the log read, the series drawn --
and on to the Luck tab (every roll's odds worked out again by replaying the game) and the
Dice tab.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_session import AIRCRAFT, build_file, fresh_env  # noqa: E402

EVENTS = 20_000
RUNS = 5

CHILD = """
import json, sys, time
sys.path.insert(0, {site!r})
from app.session import GameSession
from app.ui.shell.qt_app import application
from app.ui.model import EngagementModel
from app.ui.docks.after_action import AfterActionDock
app = application()
s = GameSession.open({game!r})
panel = AfterActionDock(EngagementModel(s))
panel.resize(1000, 700)
t0 = time.perf_counter()
panel.show()
app.processEvents()
panel.view.fight_plot.grab()  # painted
t1 = time.perf_counter()
panel.view.tabs.setCurrentIndex(1)
app.processEvents()
panel.view.luck_plot.grab()
t2 = time.perf_counter()
panel.view.tabs.setCurrentIndex(2)
app.processEvents()
panel.view.dice_plot.grab()
t3 = time.perf_counter()
v = panel.view
print(json.dumps({{"first_plot": t1 - t0, "luck": t2 - t1, "dice": t3 - t2,
    "points": sum(len(d.points()) for _s, _c, d in v.fight_items),
    "rolls": len(v.reading.rolls), "events": s.engagement.seq}}))
s.close()
"""


def main() -> None:
    site = str(Path(__file__).resolve().parents[1] / "fixtures" / "site")
    with tempfile.TemporaryDirectory() as d:
        game = Path(d) / "bench.airboss"
        build_file(game, EVENTS)
        runs = []
        for _ in range(RUNS):
            done = subprocess.run(
                [sys.executable, "-c", CHILD.format(site=site, game=str(game))],
                capture_output=True,
                text=True,
                env=fresh_env(d),
                check=True,
            )
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    first = [r["first_plot"] * 1000 for r in runs]
    luck = [r["luck"] * 1000 for r in runs]
    dice = [r["dice"] * 1000 for r in runs]
    r = runs[0]
    print(
        f"{AIRCRAFT} aircraft, {r['events']} events, {r['rolls']} rolls, "
        f"{r['points']} points in the first plot; {RUNS} fresh processes"
    )
    print(
        f"first plot (pyqtgraph imported, log read, drawn, painted): median "
        f"{statistics.median(first):.0f} ms, worst {max(first):.0f} ms"
    )
    print(f"luck tab (the game replayed, odds of every roll): {statistics.median(luck):.0f} ms")
    print(f"dice tab: median {statistics.median(dice):.0f} ms")


if __name__ == "__main__":
    main()
