"""Benchmark: from ``perform`` to every visible dock redrawn, with 200 aircraft and 20,000 events.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_redraw.py``
Target (issue 20): p95 under 16 ms, one frame at 60 Hz. Prints p50/p95 of the whole path and,
per dock, of its repaint, so a slow panel is easy to find. The desk is the main window in its
default layout at 1366x768 (panels tabbed away do no work until shown); ``--all-shown`` puts
every dock (``app.ui.shell.dock_registry``) on screen at once instead; ``--pages 20`` runs it with
the players' screens on and 20 pages connected (issue 48: ``bench_players.py`` holds them).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "site"))
os.environ.setdefault("AIRBOSS_DATA_DIR", tempfile.mkdtemp(prefix="airboss-bench-"))

from desk import default_desk  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QWidget  # noqa: E402

from app.core.dice import SeededDice  # noqa: E402
from app.session import GameSession  # noqa: E402
from app.ui.model import EngagementModel  # noqa: E402
from app.ui.shell.application import started

AIRCRAFT = 200
EVENTS = 20_000
MEASURED = 300


def build(path: Path) -> GameSession:
    """A skirmish game: 200 jets, then gun attacks, critical hits and turns to 20,000 events."""
    s = GameSession.create(path, ruleset="skirmish", title="Redraw benchmark")
    ids = [
        s.add_aircraft(side="Blue" if i % 2 else "Red", type_id="jet", name=f"Jet {i}")
        for i in range(AIRCRAFT)
    ]
    rng = random.Random(1)
    n = 0
    while s.engagement.seq < EVENTS:
        n += 1
        a, b = rng.sample(ids, 2)
        dice = SeededDice(rng.randrange(1 << 30))
        if n % 40 == 0:
            s.clock.next_step()
        elif n % 3 == 0:
            s.perform("critical_hit", {"aircraft": b}, dice)
        elif s.engagement.aircraft[a].ledgers["ammunition"].value >= 1:
            s.perform("gun_attack", {"attacker": a, "target": b, "hit_number": 3}, dice)
        else:
            s.perform("gun_attack", {"target": b, "hit_number": 3}, dice)
        if n % 500 == 0:
            s.undo()
    return s


def docks(model: EngagementModel, skip: set[str]) -> list[QWidget]:
    """Every dock the window builds (``app.ui.shell.dock_registry``), less those skipped."""
    from app.ui.shell.dock_registry import PANELS

    out = []
    for panel in PANELS:
        if panel.name in skip:
            continue
        w = panel.load()(model)
        w.setWindowTitle(panel.title)
        out.append(w)
    return out


def connect_pages(app: QApplication, model: EngagementModel, n: int) -> tuple[object, object]:
    """The players' screens on, and ``n`` pages connected from another process."""
    import subprocess

    from app.ui.players.bridge import PlayersBridge

    bridge = PlayersBridge(model)
    bridge.start()
    links = ",".join(bridge.links().values())
    script = Path(__file__).with_name("bench_players.py")
    process = subprocess.Popen(
        [sys.executable, str(script), "--pages", links, "--seconds", "3600", "--count", str(n)],
        stdout=subprocess.DEVNULL,
    )
    end = time.monotonic() + 5
    while time.monotonic() < end:  # they connect and read the views
        app.processEvents()
        time.sleep(0.005)
    return bridge, process


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--skip", default="", help="comma-separated dock names (dock_registry) to leave out"
    )
    parser.add_argument(
        "--all-shown",
        action="store_true",
        help="every dock on screen side by side, instead of the desk's default layout",
    )
    parser.add_argument(
        "--pages", type=int, default=0, help="players' pages connected meanwhile (issue 48)"
    )
    args = parser.parse_args()
    skip = {n.strip() for n in args.skip.split(",") if n.strip()}
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        s = build(Path(d) / "bench.airboss")
        took = time.perf_counter() - t0
        print(f"built {s.engagement.seq} events, {AIRCRAFT} aircraft in {took:.1f} s")
        model = EngagementModel(s)
        t0 = time.perf_counter()
        if args.all_shown:  # every dock on screen at once, side by side
            window = QMainWindow()
            window.resize(1600, 1000)
            panels = docks(model, skip)
            for i, w in enumerate(panels):
                dock = QDockWidget(w.windowTitle())
                dock.setWidget(w)
                w = dock
                area = (
                    Qt.DockWidgetArea.LeftDockWidgetArea,
                    Qt.DockWidgetArea.RightDockWidgetArea,
                    Qt.DockWidgetArea.BottomDockWidgetArea,
                )[i % 3]
                window.addDockWidget(area, w)
            window.show()
        else:  # the desk as the umpire sees it: its default layout at 1366x768
            window = default_desk(app, model, Path(d))
        app.processEvents()
        started()  # the collector as the desk runs it once it has painted (gc.freeze)
        while not model.log_whole:  # the history panels' first read, in slices (issue 20)
            app.processEvents()
        shown = [w for w in window.findChildren(QDockWidget) if not w.visibleRegion().isEmpty()]
        print(
            f"{len(shown)} docks on screen, built and shown in "
            f"{(time.perf_counter() - t0) * 1000:.0f} ms"
        )
        visible = shown
        pages = connect_pages(app, model, args.pages) if args.pages else None
        rng = random.Random(2)
        ids = list(s.engagement.aircraft)
        total: list[float] = []
        signals: list[float] = []
        events: list[float] = []
        nones = sys.getrefcount(None)
        per_dock: dict[str, list[float]] = {w.windowTitle(): [] for w in visible}
        for i in range(MEASURED):
            a, b = rng.sample(ids, 2)
            dice = SeededDice(rng.randrange(1 << 30))
            t = time.perf_counter()
            if i % 2:
                action = ("critical_hit", {"aircraft": b})
            else:
                action = ("gun_attack", {"target": b, "hit_number": 3})
            model.attempt(lambda action=action, dice=dice: s.perform(*action, dice))
            t_signals = time.perf_counter()
            app.processEvents()
            events.append((time.perf_counter() - t_signals) * 1000)
            for w in visible:
                t_dock = time.perf_counter()
                w.repaint()
                per_dock[w.windowTitle()].append((time.perf_counter() - t_dock) * 1000)
            end = time.perf_counter()
            total.append((end - t) * 1000)
            signals.append((t_signals - t) * 1000)
        print(
            f"perform -> every visible dock redrawn: p50 {statistics.median(total):.1f} ms, "
            f"p95 {percentile(total, 95):.1f} ms, max {max(total):.1f} ms ({MEASURED} actions)"
        )
        print(
            f"  perform incl. the docks' signal handlers: p50 {statistics.median(signals):.1f} ms,"
            f" p95 {percentile(signals, 95):.1f} ms"
        )
        lost = nones - sys.getrefcount(None)
        print(
            f"  then the event loop (deferred updates, layout): p50 {statistics.median(events):.1f}"
            f" ms, p95 {percentile(events, 95):.1f} ms"
        )
        for title, xs in sorted(per_dock.items(), key=lambda kv: -percentile(kv[1], 95)):
            p50, p95 = statistics.median(xs), percentile(xs, 95)
            print(f"  repaint {title:<16} p50 {p50:.2f} ms, p95 {p95:.2f} ms")
        if pages is not None:
            bridge, process = pages
            process.kill()
            process.wait()
            print(f"  with the players' screens on: {args.pages} pages connected")
            bridge.stop()
        window.close()
        model.set_session(None)
        # PySide6 6.12 on Python 3.11 drops a reference to None on every call of a Qt method
        # returning void and on every None that crosses into Qt; once None's count reaches zero
        # the interpreter aborts ("deallocating None"). Python 3.12 made None immortal.
        print(f"references to None lost: {lost / MEASURED:.0f} per action ({lost} in all)")
        sys.stdout.flush()
        if lost > 0:
            os._exit(0)  # skip the interpreter's teardown, where the lost references abort it


if __name__ == "__main__":
    main()
