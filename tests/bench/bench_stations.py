"""Benchmark: live stations on one PostgreSQL server (issue 17).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_stations.py`` (figures go
into the README). A private server is started in a temporary folder (``club_server.start`` on a
Unix socket, durable commits as at a club) and removed afterwards.

Fixed workloads:

- **one busy game**: 8 stations x 500 actions on one game, as fast as each can; a station
  that loses a race takes in the other's action and acts again (``ConcurrentAppend``);
- **a convention**: 20 games x 2 stations on one server, 100 actions per station.

Every station and every desk is a process of its own, as at a club where each is a laptop (all
on this one machine here): a station acts; a desk is an ``EngagementModel`` following the game
as the desk does (LISTEN, woken by the socket). Figures: *append p95*, a station's action from
call to durable and applied (one transaction; lost races are retried and counted, not timed);
*notify-to-redraw p95*, from the append's commit on a station to the desk's model having
applied it (``appended``; ``time.perf_counter`` is the machine's monotonic clock, the same in
every process).
"""

from __future__ import annotations

import multiprocessing as mp
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fixtures" / "site")]

from app import club_server  # noqa: E402
from app.session import GameSession  # noqa: E402
from app.store import ConcurrentAppend  # noqa: E402

PORT = 54381
BUSY_STATIONS, BUSY_ACTIONS = 8, 500
GAMES, PER_GAME, GAME_ACTIONS = 20, 2, 100
#: after the last station's last action, how long the desks may take to show it
GRACE_S = 3.0


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def station(url: str, game_id: str, actions: int, n: int, ready: Any, go: Any, out: Any) -> None:
    """One station: ``actions`` moves of its own aircraft, each retried after a lost race."""
    s = GameSession.open(url, game=game_id, actor=f"station {n}")
    mine = next(a.id for a in s.engagement.aircraft.values() if a.name == f"Station {n}")
    ready.put(1)
    go.wait()
    append_ms: list[float] = []
    committed: dict[int, float] = {}
    races = done = 0
    while done < actions:
        t = time.perf_counter()
        try:
            s.roster.place(mine, float(done % 20), float(n), facing=0, altitude=done % 7)
        except ConcurrentAppend:
            races += 1
            continue
        end = time.perf_counter()
        append_ms.append((end - t) * 1000)
        committed[s.engagement.seq] = end
        done += 1
    s.close()
    out.put(("station", game_id, append_ms, committed, races))


def desk(url: str, game_id: str, ready: Any, stop: Any, out: Any) -> None:
    """One desk following the game until told to stop: when it applied each seq."""
    from PySide6.QtCore import QCoreApplication, QTimer

    from app.ui.model import EngagementModel

    app = QCoreApplication([])
    model = EngagementModel(GameSession.open(url, game=game_id, actor="desk"))
    seen: dict[int, float] = {}

    def applied(envs: list[Any]) -> None:
        now = time.perf_counter()
        seen.update((e.seq, now) for e in envs)

    model.appended.connect(applied)
    model.follow()  # listening before the stations start
    check = QTimer()
    check.timeout.connect(lambda: app.quit() if stop.is_set() else None)
    check.start(50)
    ready.put(1)
    app.exec()
    model.set_session(None)
    out.put(("desk", game_id, seen))


def new_game(url: str, title: str, stations: int) -> str:
    with GameSession.create(url, ruleset="skirmish", title=title) as s:
        for n in range(stations):
            s.add_aircraft(side="Blue" if n % 2 else "Red", type_id="jet", name=f"Station {n}")
        return s.game_id


def run(urls: Iterator[str], games: list[str], per_game: int, actions: int, label: str) -> None:
    """Each desk and station a process of its own, as a machine of its own: its own login
    role (issue 46: a role per machine, each with its own connection limit)."""
    ctx = mp.get_context("spawn")
    ready, out = ctx.Queue(), ctx.Queue()
    go, stop = ctx.Event(), ctx.Event()
    desks = [ctx.Process(target=desk, args=(next(urls), gid, ready, stop, out)) for gid in games]
    stations = [
        ctx.Process(target=station, args=(next(urls), gid, actions, n, ready, go, out))
        for gid in games
        for n in range(per_game)
    ]
    for p in (*desks, *stations):
        p.start()
    for _ in range(len(desks) + len(stations)):
        ready.get(timeout=120)
    t0 = time.perf_counter()
    go.set()
    results = [out.get() for _ in stations]
    elapsed = time.perf_counter() - t0
    time.sleep(GRACE_S)
    stop.set()
    results += [out.get() for _ in desks]
    for p in (*desks, *stations):
        p.join()
    append_ms = [x for r in results if r[0] == "station" for x in r[2]]
    races = sum(r[4] for r in results if r[0] == "station")
    committed = {(r[1], seq): t for r in results if r[0] == "station" for seq, t in r[3].items()}
    redraw = [
        (seen[seq] - t) * 1000
        for r in results
        if r[0] == "desk"
        for seen in [r[2]]
        for (gid, seq), t in committed.items()
        if gid == r[1] and seq in seen
    ]
    missed = len(committed) - len(redraw)
    print(
        f"{label}: {len(append_ms)} actions in {elapsed:.1f} s "
        f"({len(append_ms) / elapsed:.0f}/s), {races} lost races retried"
    )
    print(
        f"  append p50 {statistics.median(append_ms):.1f} ms, "
        f"p95 {percentile(append_ms, 95):.1f} ms, max {max(append_ms):.1f} ms"
    )
    print(
        f"  notify-to-redraw p50 {statistics.median(redraw):.1f} ms, "
        f"p95 {percentile(redraw, 95):.1f} ms, max {max(redraw):.0f} ms "
        f"({len(redraw)} appends seen by the desks, {missed} not seen within {GRACE_S:g} s)"
    )


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="airboss-bench-"))
    try:
        machines = GAMES * (PER_GAME + 1)
        started = club_server.start(root=root, port=PORT, listen="", stations=machines)
        # every station and desk is a process of its own, with no keyring here: each is
        # given its own role's password in its URL (never printed)

        def url(n: int) -> str:
            role = club_server.login(club_server.STATION, n)
            local = club_server.local_url(root=root, port=PORT, role=role)
            return local.replace("@", f":{started.passwords[role]}@", 1)

        busy = new_game(url(1), "Busy table", BUSY_STATIONS)
        busy_urls = (url(n) for n in range(1, machines + 1))
        run(busy_urls, [busy], BUSY_STATIONS, BUSY_ACTIONS, f"{BUSY_STATIONS} stations x 1 game")
        games = [new_game(url(1), f"Table {i + 1}", PER_GAME) for i in range(GAMES)]
        game_urls = (url(n) for n in range(1, machines + 1))
        run(game_urls, games, PER_GAME, GAME_ACTIONS, f"{PER_GAME} stations x {GAMES} games")
    finally:
        club_server.stop(root)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
