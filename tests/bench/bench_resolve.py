"""Benchmark: the desk's redraw of a resolve from the Combat form (issue 48, "Fast").

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_resolve.py [--count 12]``

The desk is the main window at 1366x768 in its default layout with the Phantoms demo (8
aircraft), as in ``bench_players.py``. The desk steps on until "who acts now" has a gun attack
that can act, opens it in the Combat form (Gun Firing Position Diagram: 0; the dice typed
where that side's players roll) and lets it settle (not timed); then Resolve is timed to
every visible dock repainted, in the desk process's processor time (every thread) and the
wall clock. A resolve that makes a roll owed (a critical hit) opens it next, as the desk
does; that roll is resolved and timed too.

Printed: p50/p95 of the whole redraw and its parts (the resolve itself: the rules, the store
and the panels following the game; the form after it: the owed roll opened or the form
cleared; Qt's event-loop layout and paint; the visible docks repainted).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12, help="resolves timed")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("AIRBOSS_DATA_DIR", tempfile.mkdtemp(prefix="airboss-bench-"))
    from desk import demo_desk
    from PySide6.QtWidgets import QApplication, QDockWidget

    from app.core import draft as draft_module

    app = QApplication.instance() or QApplication([])
    parts: dict[str, float] = {}

    def timed(name: str, fn: Callable[..., object]) -> Callable[..., object]:
        def run(*a: object, **k: object) -> object:
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                parts[name] = parts.get(name, 0.0) + time.process_time() - t

        return run

    cls = draft_module.ActionDraft
    cls._resolve_own = timed("the resolve", cls._resolve_own)  # type: ignore[method-assign]
    cls._after_resolve = timed("the form after", cls._after_resolve)  # type: ignore[method-assign]

    with tempfile.TemporaryDirectory() as d:
        session, model, window = demo_desk(app, Path(d))

        def pump(s: float) -> None:
            end = time.monotonic() + s
            while time.monotonic() < end:
                app.processEvents()
                time.sleep(0.002)

        pump(1)
        shown = [w for w in window.findChildren(QDockWidget) if not w.visibleRegion().isEmpty()]
        draft = model.draft
        rng = random.Random(1)
        rows: list[dict[str, float]] = []
        kinds: list[str] = []

        def resolve_timed() -> None:
            for k, slot in enumerate(draft.slots):  # a side whose players roll: typed
                draft.type_die(k, str(rng.choice(slot.typeable)))
            pump(0.3)
            parts.clear()
            kind = draft.procedure or ""
            t_cpu, t = time.process_time(), time.perf_counter()
            ok = draft.resolve()
            t1 = time.process_time()
            app.processEvents()
            t2 = time.process_time()
            for w in shown:
                w.repaint()
            t3 = time.process_time()
            if not ok:
                raise SystemExit(f"the resolve was refused: {draft.refusal}")
            rows.append(
                {
                    **parts,
                    "Qt's layout and paint": t2 - t1,
                    "docks repainted": t3 - t2,
                    "whole (processor)": t3 - t_cpu,
                    "whole (wall)": time.perf_counter() - t,
                }
            )
            kinds.append(kind)

        steps = 0
        while len(rows) < args.count and steps < 2000:
            lines = [
                line
                for line in session.who_acts.acting()
                if line.procedure == "gun_attack"
                and not session.refusals.line_refusal(line.procedure, line.who, line.other)
            ]
            if not lines:
                session.clock.next_step()
                steps += 1
                pump(0.05)
                continue
            line = rng.choice(lines)
            draft.open_line(line.procedure, line.who, line.other)
            if "position_modifier" in draft.names:
                draft.type_text("position_modifier", "0")
            if draft.prepared is None or draft.prepared.inputs is None:
                # something else to type or pick first (its target shot down: no one to aim
                # at): the umpire would not resolve this line as it stands; the next step's
                session.clock.next_step()
                steps += 1
                pump(0.05)
                continue
            resolve_timed()
            pump(0.3)
            owed = draft.procedure not in (None, "gun_attack") and draft.prepared is not None
            if owed and not draft.refusal:
                resolve_timed()  # the roll it owes, opened by the desk
                pump(0.3)
        window.close()
        model.set_session(None)
    print(
        f"{len(rows)} resolves from the Combat form ({kinds.count('gun_attack')} gun attacks, "
        f"{len(rows) - kinds.count('gun_attack')} rolls they owed), Phantoms demo, 1366x768:"
    )
    for name in rows[0] if rows else ():
        xs = [r.get(name, 0.0) * 1000 for r in rows]
        print(f"  {name:24s} p50 {statistics.median(xs):6.1f} ms, p95 {percentile(xs, 95):6.1f} ms")


if __name__ == "__main__":
    main()
