"""Benchmark: a game of 1,000,000 events with no snapshot opened (issue 31).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_huge_open.py [EVENTS]``
Targets: the first open (which replays the log a page at a time and stores a snapshot) in
seconds with bounded memory; the next open, from that snapshot, well under a second; the
same for ``airboss log``'s first line. The log is written straight into the file (as another
program, or an older Airboss that kept no snapshots, would have left it): building is not
what is measured. Each figure is measured in a fresh process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SITE = HERE.parent / "fixtures" / "site"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(SITE))

EVENTS = 1_000_000
NEWLINE = b"\n"

OPEN = """
import resource, sys, time
sys.path.insert(0, sys.argv[2])
from app.session import GameSession
t, cpu = time.perf_counter(), time.process_time()
s = GameSession.open(sys.argv[1], read_only=sys.argv[3] == "ro")
took, cpu = time.perf_counter() - t, time.process_time() - cpu
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{took:.3f} {rss} {s.engagement.seq} {len(s.engagement.aircraft)} {cpu:.3f}")
"""


def build_huge(path: Path, events: int) -> None:
    """A skirmish game of ``events`` events and no snapshot: two aircraft changing speed and
    place, a new turn, an undo and a redo every thousand events."""
    from app.session import GameSession
    from app.store.file_store import TIME_FORMAT

    s = GameSession.create(path, ruleset="skirmish", title="A long night")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    game, seq = s.game_id, s.engagement.seq
    s.close()
    from app.store.chain import event_hash
    from app.store.store import EVENT_COLUMNS

    INSERT = f"INSERT INTO event ({', '.join(EVENT_COLUMNS)}) VALUES ({', '.join('?' * 11)})"
    when = datetime.now(UTC).strftime(TIME_FORMAT)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("DELETE FROM snapshot")
    prev = db.execute("SELECT hash FROM event WHERE seq = ?", (seq,)).fetchone()[0]
    db.execute("BEGIN")
    rows = []
    last_action = seq
    while seq < events:
        seq += 1
        n = seq % 1000
        if n == 0:
            kind, payload, action = "reverted", {"kind": "reverted", "action": last_action}, seq
            narrative = "Undone"
        elif n == 1 and seq > 1000:
            kind, payload, action = "restored", {"kind": "restored", "action": last_action}, seq
            narrative = "Redone"
        elif n == 2:
            turn = seq // 1000 + 1
            kind, payload = "clock_set", {"kind": "clock_set", "turn": turn, "step": 0}
            action = last_action = seq
            narrative = f"Turn {turn}: Initiative"
        else:
            aircraft = "blue-1" if seq % 2 else "red-1"
            if seq % 3:
                kind = "attributes_set"
                payload = {"kind": kind, "aircraft": aircraft, "values": {"speed": seq % 9}}
            else:
                kind = "position_set"
                payload = {
                    "kind": kind,
                    "aircraft": aircraft,
                    "x": float(seq % 20),
                    "y": float(seq % 7),
                    "facing": 0,
                    "altitude": seq % 5,
                }
            action = last_action = seq
            narrative = f"{aircraft} moves ({seq})"
        row = (game, seq, action, when, "umpire", "", narrative, kind, json.dumps(payload), None)
        prev = event_hash(prev, row)  # chained as Airboss writes (issue 30)
        rows.append((*row, prev))
        if len(rows) == 50_000:
            db.executemany(INSERT, rows)
            rows.clear()
    db.executemany(INSERT, rows)
    db.execute("COMMIT")
    db.close()


def measure(path: Path, mode: str) -> tuple[float, float, int, float]:
    """Wall-clock seconds, peak RSS (MB), the newest event, and the processor seconds of
    this process (the figure to compare while other work shares the machine)."""
    out = subprocess.run(
        [sys.executable, "-c", OPEN, str(path), str(SITE), mode],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    return float(out[0]), int(out[1]) / 1024, int(out[2]), float(out[4])


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else EVENTS
    with tempfile.TemporaryDirectory(prefix="airboss-huge-") as d:
        path = Path(d) / "huge.airboss"
        t = time.perf_counter()
        build_huge(path, events)
        print(f"built {events:,} events in {time.perf_counter() - t:.0f} s, no snapshot")
        took, rss, seq, cpu = measure(path, "ro")
        print(
            f"read-only open, no snapshot (none stored): {took:.1f} s ({cpu:.1f} s processor), "
            f"peak RSS {rss:.0f} MB"
        )
        took, rss, seq, cpu = measure(path, "rw")
        print(
            f"first open (replays, stores a snapshot): {took:.1f} s ({cpu:.1f} s processor), "
            f"peak RSS {rss:.0f} MB"
        )
        took, rss, seq, cpu = measure(path, "rw")
        print(
            f"next open (from the snapshot): {took:.2f} s ({cpu:.2f} s processor), "
            f"peak RSS {rss:.0f} MB ({seq:,})"
        )
        t, before = time.perf_counter(), os.times()
        log = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from app.cli import main; sys.exit(main())",
                "log",
                str(path),
            ],
            capture_output=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": f"{ROOT}:{SITE}"},
        )
        after = os.times()
        cpu = (after.children_user + after.children_system) - (
            before.children_user + before.children_system
        )
        print(
            f"airboss log (every line printed): {time.perf_counter() - t:.1f} s "
            f"({cpu:.1f} s processor), exit {log.returncode}, {log.stdout.count(NEWLINE):,} lines"
        )


if __name__ == "__main__":
    main()
