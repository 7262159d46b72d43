"""Benchmark: start-up of the desk against a bare PySide6 window, in the same run (issue 20).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_startup.py [--runs 5]``

Each figure is the wall time of a fresh process, from exec to the moment measured, the median
of ``--runs`` runs:
- bare: a PySide6 QMainWindow shown and painted once (the floor any Qt program pays);
- imports: ``import app.ui.application`` and nothing else, and the heaviest modules it pulls in
  (``-X importtime``);
- first paint: the desk on a 60-aircraft Phantoms game, window with roster and turn shown and
  painted once (goal: <= 3x bare);
- screenshot: ``airboss --screenshot`` of every panel on the same game (goal: <= 5x bare).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}

BARE = """
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
w = QMainWindow(); w.resize(1366, 768); w.show(); app.processEvents(); w.grab()
"""

FIRST_PAINT = """
import sys
from app.ui.application import application, app_settings, start_game
from app.ui.main_window import MainWindow
from app.ui.model import EngagementModel
app = application()
settings = app_settings()
session, _ = start_game(sys.argv[1], None, settings)
window = MainWindow(EngagementModel(), settings)
window.persist_layout = False
window.resize(1366, 768)
window.show_session(session)
window.show(); app.processEvents(); window.grab()
"""


def wall(args: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(args, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def heaviest_imports(py: str, env: dict[str, str], n: int = 8) -> list[tuple[float, str]]:
    out = subprocess.run(
        [py, "-X", "importtime", "-c", "import app.ui.application"],
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="airboss-startup-") as tmp:
        env = {**ENV, "AIRBOSS_DATA_DIR": tmp, "HOME": tmp, "XDG_CONFIG_HOME": tmp}
        game = Path(tmp) / "sixty.airboss"
        make_game(game, env)
        shot = str(Path(tmp) / "shot.png")
        runs = {
            "python alone": [py, "-c", "pass"],
            "bare PySide6 window": [py, "-c", BARE],
            "import app.ui.application": [py, "-c", "import app.ui.application"],
            "desk first paint (60 aircraft)": [py, "-c", FIRST_PAINT, str(game)],
            "airboss --screenshot (every panel)": [
                py,
                "-c",
                "from app.cli import main; main()",
                "--screenshot",
                shot,
                str(game),
            ],
        }
        times = {
            k: statistics.median(wall(a, env) for _ in range(args.runs)) for k, a in runs.items()
        }
        bare = times["bare PySide6 window"]
        print(f"start-up, median of {args.runs} fresh processes")
        for k, t in times.items():
            print(f"  {k:38s} {t * 1000:7.0f} ms  {t / bare:5.2f}x bare")
        print("heaviest top-level imports of app.ui.application (cumulative):")
        for seconds, name in heaviest_imports(py, env):
            print(f"  {seconds * 1000:7.0f} ms  {name}")


if __name__ == "__main__":
    main()
