"""Benchmark: start-up of the desk against a bare PySide6 window, in the same run (issue 20).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_startup.py [--runs 5]``

Each figure is the median of ``--runs`` fresh processes, timed from just before the process is
started; the kinds take turns, one of each a round, and each ratio is the median of the rounds'
ratios to the bare window of the same round (paired: the machine's speed drifts from round to
round):
- bare window: a PySide6 QMainWindow shown and painted once (the floor any Qt program pays),
  to its first paint and to the end of the process;
- desk first paint: ``airboss --startup-profile`` on a 60-aircraft Phantoms game, to the moment
  the window with the roster and the turn has painted (the command prints that moment; goal:
  <= 2.5x the bare window's first paint), three ways (issue 36):
  - the desk's last game, as the desk left it (painted from the rows kept in the file);
  - nothing cached: before each run another desk (a station) plays an action on the game and
    the starting desk's settings are removed, so nothing of this desk is left anywhere (it
    paints from the rows the other desk kept in the file);
  - a script played on (before each run, ``GameSession`` with no desk played an action and
    closed the game: the session kept the rows as it closed);
  - no rows kept: the file as an Airboss before issue 36, or another program, leaves it (an
    action played and the kept rows removed before each run): a child process works the rows
    out while the window is built (``app.startup.summary_child``; its processor time is counted in
    the desk's "cpu time at first paint"), or, where it cannot, the game is opened first;
  - the very first start: no settings and no game (a data folder of its own, removed before
    each run): the demo game's rows shipped with Airboss are painted (``app.startup.demo_rows``),
    then the demo game is made and opened;
- screenshot: ``airboss --screenshot`` of every panel on the same game, the whole process
  (no goal: the 4x of issue 36 was withdrawn by issue 47, the screenshot pays for pyqtgraph by
  design); beside it, its floor: a process that only
  imports what the screenshot cannot be drawn without, Qt's widgets and pyqtgraph (the
  After-action panel's plots, issue 35), and does nothing else;
and the phases ``--startup-profile`` reports, and the heaviest imports (``-X importtime``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
#: bytecode is written (to a folder of the run's own) and used, as an installed Airboss has it:
#: a shell with PYTHONDONTWRITEBYTECODE would compile every module of ours at every start
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "QT_QPA_PLATFORM": "offscreen",
    "PYTHONPATH": str(ROOT),
}
AIRBOSS = "from app.cli import main; sys.exit(main())"
FIRST = "desk first paint (60 aircraft)"
NOTHING = "  nothing cached, a station played on"
SCRIPT = "  a script played on (GameSession)"
NO_ROWS = "  no rows kept (an older Airboss wrote)"
FIRST_START = "  the very first start (the demo made)"
SHOT = "airboss --screenshot (every panel)"
SHOT_FLOOR = "  its floor: Qt widgets, pyqtgraph imported"
#: the desk's very first start: no settings, no game; the demo game is made after the paint
FRESH = "import os, sys; os.environ['AIRBOSS_DATA_DIR'] = sys.argv.pop(1); " + AIRBOSS

BARE = """
import time
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
w = QMainWindow(); w.resize(1366, 768); w.show(); app.processEvents(); w.grab()
print(f"wall clock at first paint: {time.time():.6f}")
print(f"cpu time at first paint: {time.process_time():.6f}")
"""


class Timed(NamedTuple):
    #: seconds from before the process started to its first paint, and to its end
    paint: float
    end: float
    #: processor seconds (all threads) it had used by its first paint, and in all
    cpu_paint: float
    cpu_end: float
    out: str


def timed(args: list[str], env: dict[str, str], before: list[str] | None = None) -> Timed:
    """One fresh process, timed; ``before``: a command run (and not timed) before it starts."""
    if before is not None:
        subprocess.run(before, env=env, check=True, capture_output=True)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.time()
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    end = time.time() - t
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_end = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime

    def printed(head: str) -> float | None:
        lines = [line for line in out.splitlines() if line.startswith(head)]
        return float(lines[-1].rsplit(" ", 1)[1]) if lines else None

    wall = printed("wall clock at first paint")
    cpu = printed("cpu time at first paint")
    return Timed(
        wall - t if wall is not None else float("nan"),
        end,
        cpu if cpu is not None else float("nan"),
        cpu_end,
        out,
    )


def heaviest_imports(py: str, env: dict[str, str], n: int = 8) -> list[tuple[float, str]]:
    out = subprocess.run(
        [
            py,
            "-X",
            "importtime",
            "-c",
            "import app.ui.shell.application, app.ui.docks.roster, app.ui.docks.turn",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    rows: dict[str, float] = {}
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].strip()
            root = name.split(".")[0]
            if root != "app" or name.count(".") <= 2:  # packages, and our own modules
                key = name if root == "app" else root
                rows[key] = max(rows.get(key, 0.0), int(parts[1]) / 1e6)
    return sorted(((t, k) for k, t in rows.items()), reverse=True)[:n]


def make_game(path: Path, env: dict[str, str]) -> None:
    script = f"""
from app.session import GameSession
s = GameSession.create({str(path)!r}, ruleset="phantoms", title="Start-up benchmark")
types = list(s.ruleset.aircraft)
for i in range(60):
    s.add_aircraft(side="Blue" if i % 2 else "Red", type_id=types[i % len(types)],
                   name=f"Jet {{i}}")
s.close()
"""
    subprocess.run([sys.executable, "-c", script], env=env, check=True)


#: another desk (a station) plays one action on the game and closes, keeping its rows; the
#: starting desk's settings are removed: nothing of it is left anywhere
STATION = """
import sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication
from app.session import GameSession
from app.ui.model import EngagementModel
app = QCoreApplication([])
model = EngagementModel(GameSession.open(sys.argv[1]))
model.attempt(model.session.clock.next_step)
model.set_session(None)
Path(sys.argv[2], "settings.ini").unlink(missing_ok=True)
"""
#: a script (no desk) plays one action: the session keeps the rows as it closes
PROGRAM = """
import sys
from app.session import GameSession
with GameSession.open(sys.argv[1]) as s:
    s.clock.next_step()
"""
#: an Airboss before issue 36, or another program, played one action: no rows kept
OLDER = (
    PROGRAM
    + """
import sqlite3
from contextlib import closing
with closing(sqlite3.connect(sys.argv[1])) as db, db:
    db.execute("DELETE FROM airboss_info WHERE key LIKE 'summary:%'")
"""
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="airboss-startup-") as tmp:
        env = {**ENV, "AIRBOSS_DATA_DIR": tmp, "HOME": tmp, "XDG_CONFIG_HOME": tmp}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "bytecode")
        game = Path(tmp) / "sixty.airboss"
        make_game(game, env)
        shot = str(Path(tmp) / "shot.png")
        airboss = [py, "-c", f"import sys; {AIRBOSS}"]
        profile = [*airboss, "--startup-profile", str(game)]
        station = [py, "-c", STATION, str(game), tmp]
        program = [py, "-c", PROGRAM, str(game)]
        older = [py, "-c", OLDER, str(game)]
        fresh = str(Path(tmp) / "first-start")
        forget = [py, "-c", "import shutil, sys; shutil.rmtree(sys.argv[1], True)", fresh]
        runs = {
            "python alone": ([py, "-c", "pass"], None),
            "bare PySide6 window": ([py, "-c", BARE], None),
            FIRST: (profile, None),
            NOTHING: (profile, station),
            SCRIPT: (profile, program),
            NO_ROWS: (profile, older),
            FIRST_START: ([py, "-c", FRESH, fresh, "--startup-profile"], forget),
            SHOT: ([*airboss, "--screenshot", shot, str(game)], None),
            SHOT_FLOOR: ([py, "-c", "import PySide6.QtWidgets, pyqtgraph"], None),
        }
        timed(profile, env)  # the desk closes on the game: its rows are kept in the file
        for a, f in runs.values():  # every module compiled once, before anything is timed
            timed(a, env, f)
        # the kinds take turns, so a machine that gets busier or quieter meanwhile weighs on
        # every kind alike
        results: dict[str, list[Timed]] = {k: [] for k in runs}
        for _ in range(args.runs):
            for k, (a, f) in runs.items():
                results[k].append(timed(a, env, f))

        def median(kind: str, field: str) -> float:
            return statistics.median(getattr(r, field) for r in results[kind])

        def paired(kind: str, field: str, bare_field: str) -> float:
            """The median of the kind's ratio to the bare window of the same round: the
            machine's speed drifts between rounds (a bare window of 140 ms in one run, 213 in
            the next), and a ratio of two medians would carry that drift."""
            return statistics.median(
                getattr(k, field) / getattr(b, bare_field)
                for k, b in zip(results[kind], results[bare], strict=True)
            )

        bare = "bare PySide6 window"
        bare_paint, bare_end = median(bare, "paint"), median(bare, "end")
        bare_cpu, bare_cpu_end = median(bare, "cpu_paint"), median(bare, "cpu_end")
        print(
            f"start-up, median of {args.runs} fresh processes (wall clock; processor time); "
            "each ratio the median of the rounds' ratios to that round's bare window"
        )
        print(f"  {'python alone':38s} {median('python alone', 'end') * 1000:7.0f} ms")
        print(
            f"  {bare:38s} first paint {bare_paint * 1000:5.0f} ms ({bare_cpu * 1000:.0f} ms "
            f"cpu), process {bare_end * 1000:5.0f} ms ({bare_cpu_end * 1000:.0f} ms cpu)"
        )
        for name in (FIRST, NOTHING, SCRIPT, NO_ROWS, FIRST_START):
            first, cpu = median(name, "paint"), median(name, "cpu_paint")
            print(
                f"  {name:38s} {first * 1000:7.0f} ms  {paired(name, 'paint', 'paint'):5.2f}x "
                f"the bare window's first paint; cpu {cpu * 1000:5.0f} ms "
                f"{paired(name, 'cpu_paint', 'cpu_paint'):5.2f}x "
                "(goal <= 2.5x)"
            )
        for name in (SHOT, SHOT_FLOOR):
            whole, cpu = median(name, "end"), median(name, "cpu_end")
            print(
                f"  {name:38s} {whole * 1000:7.0f} ms  {paired(name, 'end', 'end'):5.2f}x the "
                f"bare window's process; cpu {cpu * 1000:5.0f} ms "
                f"{paired(name, 'cpu_end', 'cpu_end'):5.2f}x"
                + (" (no goal since issue 47)" if name == SHOT else "")
            )
        for name in (FIRST, NOTHING, SCRIPT, NO_ROWS, FIRST_START):
            print(f"phases of the desk's start-up, {name.strip()} (the last run):")
            for line in results[name][-1].out.splitlines():
                if line.endswith(" ms"):
                    print(f"  {line}")
        print("heaviest top-level imports of app.ui.shell.application (cumulative):")
        for seconds, name in heaviest_imports(py, env):
            print(f"  {seconds * 1000:7.0f} ms  {name}")


if __name__ == "__main__":
    main()
