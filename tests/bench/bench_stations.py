"""Benchmark: live stations on one PostgreSQL server (issue 17).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_stations.py`` (figures go
into the README). A private server is started in a temporary folder (``club_server.start`` on a
Unix socket, durable commits as at a club) and removed afterwards.

Fixed workloads:

- **one busy game**: 8 stations x 500 actions on one game, as fast as each can; a station
  that loses a race takes in the other's action and acts again (``ConcurrentAppend``);
- **a convention**: 20 games x 2 stations on one server, 100 actions per station.

Each game is also open at one desk (an ``EngagementModel`` in the Qt thread, following as the
desk does). Figures: *append p95*, a station's action from call to durable and applied (one
transaction; refused races not counted, their number is printed); *notify-to-redraw p95*, from
the append's commit on one station to the desk's model having applied it (``appended``).
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "site"))

from app import club_server  # noqa: E402
from app.session import GameSession  # noqa: E402
from app.store import ConcurrentAppend  # noqa: E402

PORT = 54361
BUSY_STATIONS, BUSY_ACTIONS = 8, 500
GAMES, PER_GAME, GAME_ACTIONS = 20, 2, 100


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


class Figures:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.append_ms: list[float] = []
        self.races = 0
        #: (game, seq) -> when its append returned (committed)
        self.committed: dict[tuple[str, int], float] = {}
        self.redraw_ms: list[float] = []


def station(url: str, game_id: str, actions: int, n: int, figures: Figures) -> None:
    """One station: ``actions`` moves of its own aircraft, each retried after a lost race."""
    s = GameSession.open(url, game=game_id, actor=f"station {n}")
    mine = next(a.id for a in s.engagement.aircraft.values() if a.name == f"Station {n}")
    done = 0
    while done < actions:
        t = time.perf_counter()
        try:
            s.place(mine, float(done % 20), float(n), facing=0, altitude=done % 7)
        except ConcurrentAppend:
            with figures.lock:
                figures.races += 1
            continue
        end = time.perf_counter()
        with figures.lock:
            figures.append_ms.append((end - t) * 1000)
            figures.committed[(game_id, s.engagement.seq)] = end
        done += 1
    s.close()


def new_game(url: str, title: str, stations: int) -> str:
    with GameSession.create(url, ruleset="skirmish", title=title) as s:
        for n in range(stations):
            s.add_aircraft(side="Blue" if n % 2 else "Red", type_id="jet", name=f"Station {n}")
        return s.game_id


def run(url: str, games: list[str], per_game: int, actions: int, label: str) -> None:
    from PySide6.QtWidgets import QApplication

    from app.ui.model import EngagementModel

    app = QApplication.instance() or QApplication([])
    figures = Figures()
    desks = []
    for gid in games:
        model = EngagementModel(GameSession.open(url, game=gid, actor="desk"))

        def applied(envs: list, gid: str = gid) -> None:
            now = time.perf_counter()
            with figures.lock:
                for env in envs:
                    t = figures.committed.get((gid, env.seq))
                    if t is not None:
                        figures.redraw_ms.append((now - t) * 1000)

        model.appended.connect(applied)
        model.follow()  # listening before the stations start
        desks.append(model)
    threads = [
        threading.Thread(target=station, args=(url, gid, actions, n, figures))
        for gid in games
        for n in range(per_game)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        app.processEvents()
        time.sleep(0.002)
    elapsed = time.perf_counter() - t0
    deadline = time.perf_counter() + 3
    want = {gid: max(s for g, s in figures.committed if g == gid) for gid in games}
    while time.perf_counter() < deadline and any(
        d.engagement.seq < want[g] for d, g in zip(desks, games, strict=True)
    ):
        app.processEvents()
        time.sleep(0.002)
    for d in desks:
        d.set_session(None)
    a, r = figures.append_ms, figures.redraw_ms
    print(
        f"{label}: {len(a)} actions in {elapsed:.1f} s ({len(a) / elapsed:.0f}/s), "
        f"{figures.races} lost races retried"
    )
    print(
        f"  append p50 {statistics.median(a):.1f} ms, p95 {percentile(a, 95):.1f} ms, "
        f"max {max(a):.1f} ms"
    )
    print(
        f"  notify-to-redraw p50 {statistics.median(r):.0f} ms, p95 {percentile(r, 95):.0f} ms, "
        f"max {max(r):.0f} ms ({len(r)} appends seen by the desks)"
    )


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="airboss-bench-"))
    try:
        club_server.start(root=root, port=PORT, listen="")
        url = club_server.local_url(root=root, port=PORT)
        busy = new_game(url, "Busy table", BUSY_STATIONS)
        run(url, [busy], BUSY_STATIONS, BUSY_ACTIONS, f"{BUSY_STATIONS} stations x 1 game")
        games = [new_game(url, f"Table {i + 1}", PER_GAME) for i in range(GAMES)]
        run(url, games, PER_GAME, GAME_ACTIONS, f"{PER_GAME} stations x {GAMES} games")
    finally:
        club_server.stop(root)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
