"""Benchmark: odds to the end of the chain (issue 34: p95 < 50 ms, or off the GUI thread).

Run: ``.venv/bin/python tests/bench/bench_chain_odds.py``

The four chains of the issue, each over a fixed sweep of inputs, every call timed (the first
call of each chain warms the dice distributions up and is not counted):

- Phantoms gun attack -> critical hits -> fire check -> ejection: the Gun Firing Position
  Diagram's number 0 to 9 with the F-4E's card against a MiG-21;
- UFO Interception cannon -> damage table: ranges 6 and 5 inches (5 inches owes up to two
  damage rolls, each with the dice its results roll);
- Air Power gun -> damage roll: the tables the text does not print filled with test values;
- Advanced Air Force gunfire -> hit effects: the game's first aircraft type on the second.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

DATA = tempfile.mkdtemp()
os.environ["AIRBOSS_DATA_DIR"] = DATA  # the test tables below go here, never the umpire's

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project: tests.umpire_values
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "core"))

from test_chain_odds import AP_DAMAGE, AP_MODIFIERS  # noqa: E402

from app.core.data import save_override  # noqa: E402
from app.session import GameSession  # noqa: E402

REPEAT = 3


def _prepared(s: GameSession, pid: str, typed: dict[str, object]) -> object:
    a, t = list(s.engagement.aircraft)[:2]
    roles = {"attacker": a, "target": t}
    p = s.prepare(pid, roles, typed)
    if p.inputs is None:
        p = s.prepare(pid, roles, {**typed, **{v.name: 1 for v in p.values if v.source == "unset"}})
    assert p.inputs is not None, (pid, p.error)
    return p


def main() -> None:
    save_override("airpower", "modifiers", AP_MODIFIERS)
    save_override("airpower", "aircraft_damage", AP_DAMAGE)
    folder = Path(tempfile.mkdtemp())
    cases: list[tuple[str, GameSession, str, list[dict[str, object]]]] = []

    s = GameSession.create(folder / "p.airboss", "phantoms", "bench")
    s.add_aircraft("USAF", "f4e", "Olds 1")
    s.add_aircraft("VPAF", "mig21", "Red 1")
    cases.append(("Phantoms gun", s, "gun_attack", [{"position_modifier": n} for n in range(10)]))

    s = GameSession.create(folder / "u.airboss", "ufo_interception", "bench")
    s.add_aircraft("RAF", "tornado", "T1")
    s.add_aircraft("UFO", "small_ufo", "Saucer")
    for _ in range(3):
        s.next_step()
    cases.append(("UFO cannon", s, "cannon", [{"range_inches": 6}, {"range_inches": 5}]))

    s = GameSession.create(folder / "a.airboss", "airpower", "bench")
    s.add_aircraft("Blue", "f-4e", "Blue 1")
    s.add_aircraft("Red", "mig-17f", "Red 1")
    cases.append(("Air Power gun", s, "gun_attack", [{}]))

    s = GameSession.create(folder / "f.airboss", "advanced_air_force", "bench")
    types = list(s.ruleset.aircraft)
    s.add_aircraft("Blue", types[0], "Blue 1")
    s.add_aircraft("Red", types[1], "Red 1")
    cases.append(("Advanced Air Force gunfire", s, "gun_fire", [{}]))

    every: list[float] = []
    for title, session, pid, sweep in cases:
        times: list[float] = []
        for n, typed in enumerate(sweep):
            p = _prepared(session, pid, typed)
            for r in range(REPEAT + (1 if n == 0 else 0)):
                t0 = time.perf_counter()
                session.chain_odds(p)  # type: ignore[arg-type]
                dt = (time.perf_counter() - t0) * 1000
                if n == 0 and r == 0:
                    continue  # the first call builds the dice distributions
                times.append(dt)
        every += times
        times.sort()
        p95 = times[max(0, round(0.95 * len(times)) - 1)]
        print(
            f"{title}: {len(times)} calls, p50 {statistics.median(times):.1f} ms, "
            f"p95 {p95:.1f} ms, worst {times[-1]:.1f} ms"
        )
        session.close()
    every.sort()
    p95 = every[max(0, round(0.95 * len(every)) - 1)]
    print(
        f"all: {len(every)} calls, p50 {statistics.median(every):.1f} ms, p95 {p95:.1f} ms, "
        f"worst {every[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
