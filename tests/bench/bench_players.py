"""Load test of the players' screens (issue 48): 20 pages open on one desk, at a table's pace.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_players.py`` (one minute;
``--minutes 10`` for the ten-minute run the README reports).

The desk is the main window at 1366x768 in its default layout with the Phantoms demo (8
aircraft, two sides) and the players' server on localhost. A second process holds 20 pages
(10 per side), each a live connection to its side's events as a browser's EventSource keeps
it, recording when each view arrives; one page per side sends the dice its side's lines ask
for, as players do. The desk acts every ``--pace`` seconds (a step on, or the umpire taking a
page's dice into the form and resolving them), and reports:

- the desk's redraw: from the action to every visible dock repainted (as
  ``bench_redraw.py``), p50/p95, with the 20 pages connected (also in the desk process's
  processor time, steadier on a shared machine); and the desk's publish of every
  side's view (the GUI thread's own work for the pages), p50/p95: each under 16 ms;
- the page update: from the action at the desk to each page holding the view it made, p50/p95
  over every page and action: under a second.

Both processes read the same clock (``time.monotonic``, the system's monotonic clock).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAGES = 20


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


# -- the pages (the second process) -----------------------------------------------------------


async def page(client, link: str, sends: bool, until: float, seen: list, counts: dict) -> None:
    """One page: its side's live view (reconnecting as a browser does), and, for the page that
    sends, the dice its lines ask for (one send per line, a few seconds after it shows)."""
    sent: set[str] = set()
    while time.monotonic() < until:
        try:
            async with client.stream("GET", link + "/events", timeout=None) as r:
                event, data = "", ""
                async for line in r.aiter_lines():
                    if time.monotonic() >= until:
                        return
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif line == "" and event == "view":
                        view = json.loads(data)
                        seen.append((time.monotonic(), view["version"]))
                        if sends:
                            asyncio.ensure_future(send_dice(client, link, view, sent, counts))
                        event, data = "", ""
        except Exception:  # noqa: BLE001 - a dropped connection: reconnect, as a browser does
            counts["reconnects"] += 1
            await asyncio.sleep(1)


async def send_dice(client, link: str, view: dict, sent: set, counts: dict) -> None:
    for line in view["acting"]:
        ask = line.get("ask")
        if not line["mine"] or not ask or ask["kind"] != "dice" or line["key"] in sent:
            continue
        sent.add(line["key"])
        await asyncio.sleep(random.uniform(1, 3))  # the player rolls and types
        dice = [str(random.randint(1, 9)) for _ in ask["slots"]]
        r = await client.post(link + "/send", json={"line": line["key"], "dice": dice})
        counts["sent" if r.status_code == 202 else "refused"] += 1
        return


async def pages_main(links: list[str], seconds: float, count: int = PAGES) -> None:
    import httpx2

    until = time.monotonic() + seconds
    seen: list[list] = [[] for _ in range(count)]
    counts = {"sent": 0, "refused": 0, "reconnects": 0}
    limits = httpx2.Limits(max_connections=count * 2 + 10)
    async with httpx2.AsyncClient(limits=limits) as client:
        tasks = [
            page(client, links[i % len(links)], i < len(links), until, seen[i], counts)
            for i in range(count)
        ]
        await asyncio.gather(*tasks)
    print(json.dumps({"seen": seen, **counts}))


# -- the desk ---------------------------------------------------------------------------------


def desk_main(args: argparse.Namespace) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("AIRBOSS_DATA_DIR", tempfile.mkdtemp(prefix="airboss-bench-"))
    from desk import demo_desk
    from PySide6.QtWidgets import QApplication, QDockWidget

    from app.ui.players.bridge import PlayersBridge

    app = QApplication.instance() or QApplication([])
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as d:
        session, model, window = demo_desk(app, Path(d))
        bridge = PlayersBridge(model)
        publishes: list[float] = []
        publish = bridge.publish

        def timed_publish() -> None:
            t = time.perf_counter()
            publish()
            publishes.append((time.perf_counter() - t) * 1000)

        bridge._soon.timeout.disconnect()  # noqa: SLF001 - the same publish, timed
        bridge._soon.timeout.connect(timed_publish)  # noqa: SLF001
        seconds = args.minutes * 60
        pages = None
        if not args.no_pages:
            bridge.start()
            links = list(bridge.links().values())
            pages = subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--pages",
                    ",".join(links),
                    "--seconds",
                    str(seconds + 5),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )

        def pump(s: float) -> None:
            end = time.monotonic() + s
            while time.monotonic() < end:
                app.processEvents()
                time.sleep(0.002)

        pump(3)  # the pages connect
        shown = [w for w in window.findChildren(QDockWidget) if not w.visibleRegion().isEmpty()]
        frames: list[float] = []
        #: the same frames in the desk process's processor time (every thread: the ruleset's
        #: worker, and with pages the server's thread too): steadier than the wall clock on a
        #: shared machine
        frames_cpu: list[float] = []
        actions: list[tuple[float, int]] = []  # (when, the first version that shows it)
        until = time.monotonic() + seconds
        taken = 0
        while time.monotonic() < until:
            pending = model.pending.pending()
            t_mono, t, t_cpu = time.monotonic(), time.perf_counter(), time.process_time()
            if pending and rng.random() < 0.7:  # the umpire takes a page's dice and resolves
                model.accept_pending(pending[0])
                model.draft.resolve()
                taken += 1
            else:
                session.clock.next_step()
            app.processEvents()
            for w in shown:
                w.repaint()
            frames.append((time.perf_counter() - t) * 1000)
            frames_cpu.append((time.process_time() - t_cpu) * 1000)
            before = bridge.version
            deadline = time.monotonic() + (2 if pages is not None else 0)
            while bridge.version == before and time.monotonic() < deadline:
                app.processEvents()
                time.sleep(0.001)
            actions.append((t_mono, bridge.version))
            pump(max(0.0, args.pace * rng.uniform(0.5, 1.5)))
        got: dict = {"seen": [], "sent": 0, "refused": 0, "reconnects": 0}
        if pages is not None:
            out, _ = pages.communicate(timeout=60)
            got = json.loads(out)
        bridge.stop()
        window.close()
        model.set_session(None)
    updates: list[float] = []
    missed = 0
    for seen in got["seen"]:
        for when, version in actions:
            later = [t for t, v in seen if v >= version]
            if later:
                updates.append((min(later) - when) * 1000)
            else:
                missed += 1
    print(
        f"{PAGES} pages for {args.minutes:g} min, an action every ~{args.pace:g} s: "
        f"{len(actions)} actions ({taken} of them a page's dice taken and resolved), "
        f"{got['sent']} dice sent by pages ({got['refused']} refused), "
        f"{got['reconnects']} reconnects"
    )
    print(
        f"desk redraw (action -> every visible dock repainted), "
        f"{'no pages (the players screens off)' if args.no_pages else '20 pages connected'}: "
        f"p50 {statistics.median(frames):.1f} ms, p95 {percentile(frames, 95):.1f} ms; "
        f"in processor time p50 {statistics.median(frames_cpu):.1f} ms, "
        f"p95 {percentile(frames_cpu, 95):.1f} ms"
    )
    if args.no_pages:
        return
    print(
        f"desk publish (every side's view, GUI thread): p50 {statistics.median(publishes):.1f} "
        f"ms, p95 {percentile(publishes, 95):.1f} ms ({len(publishes)} publishes)"
    )
    print(
        f"page update (action at the desk -> view on the page): p50 "
        f"{statistics.median(updates):.0f} ms, p95 {percentile(updates, 95):.0f} ms "
        f"({len(updates)} page-actions, {missed} never shown)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="how long (10 for the full)")
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between desk actions")
    parser.add_argument(
        "--no-pages", action="store_true", help="the same desk with the players' screens off"
    )
    parser.add_argument("--pages", help=argparse.SUPPRESS)  # the pages' own process
    parser.add_argument("--seconds", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=PAGES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pages:
        asyncio.run(pages_main(args.pages.split(","), args.seconds, args.count))
    else:
        desk_main(args)


if __name__ == "__main__":
    main()
