"""Benchmark: GameSession.perform and opening, on a game with 200 aircraft and 20,000 events.

Run: ``.venv/bin/python tests/bench/bench_session.py`` (figures go into the README).
Targets (issue 2): perform p95 under 2 ms (resolve + durable append + apply); open under 300 ms.
"""

from __future__ import annotations

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


def build(path: Path) -> GameSession:
    s = GameSession.create(path, ruleset="skirmish", title="Benchmark")
    ids = [
        s.add_aircraft(side="Blue" if i % 2 else "Red", type_id="jet", name=f"Jet {i}")
        for i in range(AIRCRAFT)
    ]
    rng = random.Random(1)
    while s.engagement.seq < EVENTS:
        a, b = rng.sample(ids, 2)
        if s.engagement.aircraft[a].ledgers["ammunition"].value >= 1:
            s.perform(
                "gun_attack",
                {"attacker": a, "target": b, "hit_number": 2},
                SeededDice(rng.randrange(1 << 30)),
            )
        else:
            s.next_step()
    return s


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
