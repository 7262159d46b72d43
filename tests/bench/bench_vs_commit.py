"""Benchmark: this checkout against an older commit, side by side in one run (issue 44).

Run: ``.venv/bin/python tests/bench/bench_vs_commit.py [--commit 392080a] [--rounds 3]
[--new COMMIT ...]``
(about ten minutes on two cores: each round builds two 20,000-event games, synced to disk).

The older commit is taken out of git (``git archive``) into a temporary folder and run from
there with this venv's packages (``PYTHONPATH`` names that folder first; each side's
``app`` is checked to be imported from its own folder before anything is measured). Each side
runs its *own* benchmark code, so both measure what their commit's benchmark measured:
- ``tests/bench/bench_session.py``'s ``main``: ``GameSession.perform`` p50 and p95 over 500
  actions and the median of 5 opens, on a game of 200 aircraft and 20,000 events it builds,
  one process per side per round;
- ``tests/bench/bench_open.py``'s open: each side builds its 200-aircraft, 100,000-event game
  once (with ``bench_session.build_file``), then ``GameSession.open`` is timed in a fresh
  process (imports excluded) by the side's own ``OPEN`` program, 5 times a round (its desk
  memory figure is not taken here).
The sides take turns, A B A B (the older commit first in each round), so the machine's drift
hits both; a ratio is this checkout's figure over the older commit's in the same round, and
the line printed for each figure is both sides' median and every round's ratio. ``--new``
(once or more) measures those commits, each taken out too, instead of this checkout, in
the same turns: A B C A B C.

``--callgrind`` counts instructions instead of the wall clock (``valgrind --tool=callgrind``,
collection switched on with ``callgrind_control`` around the calls measured only): the same
on a shared machine whatever its load. Each side builds its 20,000- and 100,000-event games
once (its own ``bench_session.build_file``), then per round: ``perform`` (the bench's gun
attack, 200 of them after 20 not counted) on a copy of the 20,000-event game, per call; that
game's ``GameSession.open`` in a process that opened it once already; the 100,000-event
game's in a fresh process, its imports done first and not counted. Every thread of the
process measured is counted (the ruleset's worker, the check of every page at open), not a
child it starts (a third-party ruleset's first import is tried in one, from
issue 44 on, forked: its counts are left out). One round is enough (the counts move by
well under 1%). ``--games DIR`` keeps each side's games as built (with the data folder of the
desk that built them, whose trusted snapshots an open reads) and takes them from there the
next time: a second run on the same commits builds nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
BENCH = Path("tests") / "bench"

#: the program that runs a side's ``bench_session.main`` from that side's folder
SESSION = """
import sys
sys.path.insert(0, sys.argv[1] + "/tests/bench")
import bench_session
bench_session.main()
"""

#: the program that builds a side's game of ``EVENTS`` events with its own ``build_file``
BUILD = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1] + "/tests/bench")
import bench_session
bench_session.build_file(Path(sys.argv[2]), int(sys.argv[3]))
"""

#: callgrind's programs: collection switched on around what is measured
_TOGGLE = """
import os, subprocess, sys
def toggle(state):
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True,
                   capture_output=True)
"""
#: ``perform`` per call on a copy of the side's 20,000-event game (argv: tree, game, count)
CG_PERFORM = (
    _TOGGLE
    + """
import random
sys.path.insert(0, sys.argv[1] + "/tests/fixtures/site")
from app.core.dice import SeededDice
from app.session import GameSession
s = GameSession.open(sys.argv[2])
rng = random.Random(2)
def run(n):
    for _ in range(n):
        a, b = rng.sample(list(s.engagement.aircraft), 2)
        s.perform("gun_attack", {"target": b, "hit_number": 5}, SeededDice(rng.randrange(1 << 30)))
run(20)
toggle("on")
run(int(sys.argv[3]))
toggle("off")
s.close()
"""
)
#: one open of the 20,000-event game in a process that opened it before (argv: tree, game)
CG_OPEN_WARM = (
    _TOGGLE
    + """
sys.path.insert(0, sys.argv[1] + "/tests/fixtures/site")
from app.session import GameSession
GameSession.open(sys.argv[2]).close()
toggle("on")
s = GameSession.open(sys.argv[2])
toggle("off")
s.close()
"""
)
#: the first open in a fresh process, its imports done first (argv: tree, game)
CG_OPEN_FRESH = (
    _TOGGLE
    + """
sys.path.insert(0, sys.argv[1] + "/tests/fixtures/site")
from app.session import GameSession
toggle("on")
s = GameSession.open(sys.argv[2])
toggle("off")
s.close()
"""
)
COLLECTED = re.compile(r"==(\d+)== Collected : (\d+)")
PROCESS = re.compile(r"==(\d+)== Command: ")
#: calls of ``perform`` counted
CG_PERFORMS = 200

WHERE = "import app, sys; print(app.__file__)"

PERFORM = re.compile(r"perform: p50 ([\d.]+) ms, p95 ([\d.]+) ms")
OPEN20K = re.compile(r"open: median ([\d.]+) ms")
OPEN100K = "open, 100,000 events, fresh process"


class Side:
    """One commit's checkout: its folder, the environment its processes run in."""

    def __init__(self, name: str, tree: Path, data: Path) -> None:
        self.name, self.tree = name, tree
        data.mkdir(parents=True, exist_ok=True)
        self.env = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "AIRBOSS_DATA_DIR": str(data),
            "HOME": str(data),
            "XDG_CONFIG_HOME": str(data),
            "PYTHONPATH": str(tree),
        }
        self.env.pop("AIRBOSS_SQLITE_SYNC", None)  # each benchmark chooses its own
        self.game = data / "big.airboss"

    def run(self, program: str, *args: str, timeout: float = 1800) -> str:
        done = subprocess.run(
            [sys.executable, "-c", program, *args],
            cwd=self.tree,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: failed ({done.returncode}):\n{done.stderr[-3000:]}")
        return done.stdout

    def counted(self, program: str, *args: str) -> int:
        """The instructions ``program`` ran with collection on (callgrind)."""
        out = Path(self.env["HOME"]) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                program,
                *args,
            ],
            cwd=self.tree,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=3600,
        )
        # the process started, not a child it forks (which carries the counts made before
        # the fork, and its own): the first process valgrind names
        first = PROCESS.search(done.stderr)
        found = {pid: int(n) for pid, n in COLLECTED.findall(done.stderr)}
        counted = found.get(first[1], 0) if first else 0
        if done.returncode != 0 or counted == 0:
            raise SystemExit(
                f"{self.name}: callgrind failed ({done.returncode}):\n{done.stderr[-3000:]}"
            )
        return counted

    def check_code(self) -> None:
        """Its ``app`` is imported from its own folder (not the venv's editable install)."""
        where = Path(self.run(WHERE).strip()).resolve()
        if not where.is_relative_to(self.tree.resolve()):
            raise SystemExit(f"{self.name}: app is imported from {where}, not {self.tree}")
        print(f"{self.name}: app from {where}")

    def module(self, name: str) -> ModuleType:
        """One of its benchmark modules that imports nothing of Airboss at import
        (``bench_open``), for its constants."""
        spec = importlib.util.spec_from_file_location(
            f"{name}_{self.name}", self.tree / BENCH / f"{name}.py"
        )
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod


def take_out(commit: str, into: Path) -> Path:
    """The commit's files in ``into`` (``git archive``): a checkout of its own, no worktree."""
    tar = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        capture_output=True,
        check=True,
    ).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(into, filter="data")
    return into


def session_round(side: Side) -> tuple[float, float, float]:
    """perform p50, p95 and the median open (ms) of one run of the side's bench_session."""
    out = side.run(SESSION, str(side.tree))
    perform, opened = PERFORM.search(out), OPEN20K.search(out)
    if perform is None or opened is None:
        raise SystemExit(f"{side.name}: bench_session printed no figures:\n{out}")
    return float(perform[1]), float(perform[2]), float(opened[1])


def open_once(side: Side, program: str) -> float:
    """One fresh process's ``GameSession.open`` of the side's big game (ms, imports excluded)."""
    site = str(side.tree / "tests" / "fixtures" / "site")
    return float(side.run(program, str(side.game), site).split()[1]) * 1000


def short(commit: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", commit],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def ratios(old: list[float], new: list[float]) -> list[float]:
    return [n / o for o, n in zip(old, new, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="392080a", help="the older commit (392080a)")
    parser.add_argument(
        "--new",
        action="append",
        default=None,
        help="measure this commit (again for more) instead of the checkout as it is",
    )
    parser.add_argument(
        "--rounds", type=int, default=None, help="rounds of each figure (3; 1 with --callgrind)"
    )
    parser.add_argument("--opens", type=int, default=5, help="fresh opens a round (5)")
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="count instructions (valgrind's callgrind) instead of the wall clock",
    )
    parser.add_argument(
        "--big",
        type=int,
        default=None,
        help="events of the big game (bench_open's 100,000; fewer for a quick try)",
    )
    parser.add_argument(
        "--games",
        type=Path,
        default=None,
        help="with --callgrind: keep each side's built games in this folder (one folder a "
        "side, named as printed) and take them from there when they are in it",
    )
    args = parser.parse_args()
    if args.rounds is None:
        args.rounds = 1 if args.callgrind else 3
    commit = short(args.commit)
    with tempfile.TemporaryDirectory(prefix="airboss-vs-") as d:
        old = Side(commit, take_out(commit, Path(d) / "old"), Path(d) / "old-data")
        sides = [old]
        if args.new is None:
            sides.append(Side("now", ROOT, Path(d) / "now-data"))
        for name in map(short, args.new or ()):
            sides.append(Side(name, take_out(name, Path(d) / name), Path(d) / f"{name}-data"))
        for side in sides:
            side.check_code()
        figures: dict[str, dict[str, list[float]]] = {s.name: {} for s in sides}

        def keep(side: Side, figure: str, value: float) -> None:
            figures[side.name].setdefault(figure, []).append(value)

        if args.callgrind:
            for side in sides:  # the ruleset's import probe runs under valgrind too: slowly
                side.env["AIRBOSS_RULESET_IMPORT_LIMIT"] = "900"
            counted(sides, figures, args.rounds, args.big, args.games)
            report(sides, figures, "instructions")
            return

        for r in range(args.rounds):
            for side in sides:
                p50, p95, opened = session_round(side)
                keep(side, "perform p50", p50)
                keep(side, "perform p95", p95)
                keep(side, "open, 20,000 events", opened)
                print(
                    f"round {r + 1} {side.name}: perform p50 {p50} ms, p95 {p95} ms, "
                    f"open {opened} ms",
                    flush=True,
                )
        programs = {}
        for side in sides:
            bench_open = side.module("bench_open")
            programs[side.name] = bench_open.OPEN
            side.run(BUILD, str(side.tree), str(side.game), str(bench_open.EVENTS))
        for r in range(args.rounds):
            opens: dict[str, list[float]] = {s.name: [] for s in sides}
            for _ in range(args.opens):
                for side in sides:
                    opens[side.name].append(open_once(side, programs[side.name]))
            for side in sides:
                keep(side, OPEN100K, statistics.median(opens[side.name]))
            print(
                f"round {r + 1} open 100,000 events: "
                + ", ".join(f"{s.name} {statistics.median(opens[s.name]):.0f} ms" for s in sides),
                flush=True,
            )
    report(sides, figures, "ms")


def counted(
    sides: list[Side],
    figures: dict[str, dict[str, list[float]]],
    rounds: int,
    big: int | None,
    keep: Path | None,
) -> None:
    """The callgrind figures (``--callgrind``): each side's games built once, then each round
    the three counts side after side (instructions; ``perform``'s per call)."""
    games: dict[str, tuple[Path, Path]] = {}
    for side in sides:
        small, data = side.game.with_name("20k.airboss"), side.game.parent
        kept = keep / side.name if keep is not None else None
        if kept is not None and (kept / small.name).exists() and (kept / side.game.name).exists():
            shutil.copytree(kept, data, dirs_exist_ok=True)
            print(f"{side.name}: its games as built before, from {kept}", flush=True)
        else:
            side.run(BUILD, str(side.tree), str(small), "20000")
            events = big or side.module("bench_open").EVENTS
            side.run(BUILD, str(side.tree), str(side.game), str(events))
            if kept is not None:  # the games and what the desk that built them trusts
                shutil.copytree(data, kept, dirs_exist_ok=True)
        games[side.name] = small, side.game
    for r in range(rounds):
        for side in sides:
            small, whole = games[side.name]
            work = small.with_name("perform.airboss")
            shutil.copyfile(small, work)
            tree = str(side.tree)
            now = {
                "perform (per call)": side.counted(CG_PERFORM, tree, str(work), str(CG_PERFORMS))
                / CG_PERFORMS,
                "open, 20,000 events": side.counted(CG_OPEN_WARM, tree, str(small)),
                OPEN100K: side.counted(CG_OPEN_FRESH, tree, str(whole)),
            }
            for figure, value in now.items():
                figures[side.name].setdefault(figure, []).append(value)
            print(
                f"round {r + 1} {side.name}: " + ", ".join(f"{f} {v:,.0f}" for f, v in now.items()),
                flush=True,
            )


def report(sides: list[Side], figures: dict[str, dict[str, list[float]]], unit: str) -> None:
    """Each figure of each side beside the older commit's: both medians, every round's ratio."""
    old = sides[0]
    print()
    for side in sides[1:]:
        print(
            f"{'figure':38} {old.name:>11} {side.name:>11}  ratio {side.name}/{old.name}, "
            "each round"
        )
        for figure, before in figures[old.name].items():
            after = figures[side.name][figure]
            each = ", ".join(f"{x:.2f}x" for x in ratios(before, after))
            print(
                f"{figure:38} {_amount(statistics.median(before), unit)} "
                f"{_amount(statistics.median(after), unit)}  {each}"
            )


def _amount(value: float, unit: str) -> str:
    if unit == "ms":
        return f"{value:9.2f}ms"
    return f"{value / 1e6:9.2f}M " if value >= 1e7 else f"{value / 1e3:9.0f}k "


if __name__ == "__main__":
    main()
