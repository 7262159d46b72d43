"""Benchmark: GameSession.perform and opening, on a game with 200 aircraft and 20,000 events.

Run: ``.venv/bin/python tests/bench/bench_session.py`` (figures go into the README).
Targets (issue 2): perform p95 under 2 ms (resolve + durable append + apply); open under 300 ms.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "site"))

from app.core.dice import SeededDice  # noqa: E402
from app.session import GameSession  # noqa: E402

AIRCRAFT = 200
EVENTS = 20_000
MEASURED = 500


def build(path: Path, events: int | None = None) -> GameSession:
    """A skirmish game of ``AIRCRAFT`` jets and ``events`` events (``EVENTS`` if None)."""
    events = EVENTS if events is None else events
    s = GameSession.create(path, ruleset="skirmish", title="Benchmark")
    ids = [
        s.add_aircraft(side="Blue" if i % 2 else "Red", type_id="jet", name=f"Jet {i}")
        for i in range(AIRCRAFT)
    ]
    rng = random.Random(1)
    while s.engagement.seq < events:
        a, b = rng.sample(ids, 2)
        if s.engagement.aircraft[a].ledgers["ammunition"].value >= 1:
            s.perform(
                "gun_attack",
                {"attacker": a, "target": b, "hit_number": 2},
                SeededDice(rng.randrange(1 << 30)),
            )
        else:
            s.clock.next_step()
    return s


def build_file(path: Path, events: int) -> None:
    """The game built once, closed, for a bench of fresh processes (written with
    ``AIRBOSS_SQLITE_SYNC=normal``: building is not what is measured)."""
    os.environ["AIRBOSS_SQLITE_SYNC"] = "normal"
    t0 = time.perf_counter()
    s = build(path, events)
    print(
        f"built {s.engagement.seq} events, {AIRCRAFT} aircraft in {time.perf_counter() - t0:.0f} s"
    )
    s.close()


def fresh_env(data_dir: str) -> dict[str, str]:
    """The environment of a fresh desk process: no screen, its own data and settings, this
    checkout's code."""
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AIRBOSS_DATA_DIR": data_dir,
        "HOME": data_dir,
        "XDG_CONFIG_HOME": data_dir,
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bench.airboss"
        t0 = time.perf_counter()
        s = build(path)
        print(
            f"built {s.engagement.seq} events, {AIRCRAFT} aircraft in "
            f"{time.perf_counter() - t0:.1f} s"
        )
        rng = random.Random(2)
        samples = []
        for _ in range(MEASURED):
            a, b = rng.sample(list(s.engagement.aircraft), 2)
            t = time.perf_counter()
            s.perform(
                "gun_attack", {"target": b, "hit_number": 5}, SeededDice(rng.randrange(1 << 30))
            )
            samples.append((time.perf_counter() - t) * 1000)
        s.close()
        print(
            f"perform: p50 {statistics.median(samples):.2f} ms, "
            f"p95 {percentile(samples, 95):.2f} ms, max {max(samples):.2f} ms "
            f"({MEASURED} actions)"
        )
        opens = []
        for _ in range(5):
            t = time.perf_counter()
            g = GameSession.open(path)
            opens.append((time.perf_counter() - t) * 1000)
            g.close()
        print(
            f"open: median {statistics.median(opens):.0f} ms over 5 opens (first {opens[0]:.0f} ms)"
        )


if __name__ == "__main__":
    main()
