"""Benchmark: odds to the end of the chain over the whole sweep (issue 45: p95 < 50 ms, worst
< 500 ms, the UFO cannon at 0 inches against an undamaged Tornado included).

Run: ``.venv/bin/python tests/bench/bench_chain_odds.py``

The 96 chains of ``tests/chain_sweep.py`` (UFO 42, Advanced Air Force 23, Phantoms 21, Air
Power 10). Two passes, each timed call by call (wall clock):

- cold: every chain asked with nothing known from an earlier one (the ruleset's chain model
  made anew before each call), as the desk's first question of a kind;
- warm: the sweep asked again ``REPEAT`` times, as the desk asks again while the umpire types
  (a chain model keeps the answers of the states it has worked out, until its tables change).

One throwaway call first loads the rulesets' tables and the dice distributions.

Python's collector of reference cycles runs as in the desk: automatic collection off (the
desk's ``app.ui.shell.collector``: the chain is worked out in a worker thread, and the GUI
thread collects when Python's thresholds say), here a whole collection before each call,
untimed. The
processor time of each call is printed beside the wall clock: on a machine shared with other
work the wall clock counts the waits for the processor.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

DATA = tempfile.mkdtemp()
os.environ["AIRBOSS_DATA_DIR"] = DATA  # the test tables go here, never the umpire's

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project: tests.chain_sweep

from app.core.chain_odds import chain_odds  # noqa: E402
from tests.chain_sweep import Case, sweep  # noqa: E402

REPEAT = 3


#: the processor time of each call too: on a machine shared with other work the wall clock
#: counts the waits for the processor
CPU: list[float] = []


def _ask(c: Case) -> float:
    gc.collect()  # untimed: the desk collects in its GUI thread, not in the chain's worker
    t0, c0 = time.perf_counter(), time.process_time()
    got = chain_odds(c.session.ruleset, c.engagement, c.procedure, c.inputs, then=c.then)
    dt = (time.perf_counter() - t0) * 1000
    CPU.append((time.process_time() - c0) * 1000)
    assert got.exact and "out of the fight" in got.chances, (c.id, got.lines())
    return dt


def _summary(title: str, times: list[float]) -> str:
    times = sorted(times)
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    return (
        f"{title}: {len(times)} calls, p50 {statistics.median(times):.1f} ms, "
        f"p95 {p95:.1f} ms, worst {times[-1]:.1f} ms"
    )


def main() -> None:
    gc.disable()  # as the desk runs (see the module)
    cases = sweep(Path(tempfile.mkdtemp()))
    _ask(cases[0])
    cold: dict[str, float] = {}
    CPU.clear()
    for c in cases:
        c.session.ruleset._chain = None  # type: ignore[attr-defined] # noqa: SLF001 - cold
        cold[c.id] = _ask(c)
    cold_cpu = list(CPU)
    warm: list[float] = []
    for _ in range(REPEAT):
        warm += [_ask(c) for c in cases]
    by_game: dict[str, list[float]] = {}
    for c in cases:
        by_game.setdefault(c.ruleset, []).append(cold[c.id])
    for game, times in by_game.items():
        print(_summary(f"cold, {game}", times))
    print(_summary("cold, all", list(cold.values())))
    print(_summary("cold, all, processor time", cold_cpu))
    print(_summary("warm, all", warm))
    print(_summary("warm, all, processor time", CPU[len(cold_cpu) :]))
    print(f"load average while measured: {os.getloadavg()[0]:.1f} (2 cores here)")
    slow = sorted(cold.items(), key=lambda kv: -kv[1])[:3]
    print("slowest cold: " + "; ".join(f"{cid} {t:.0f} ms" for cid, t in slow))


if __name__ == "__main__":
    main()
