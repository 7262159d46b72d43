"""Nothing lost (DESIGN.md): SIGKILL at random moments loses no acknowledged action."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.core.history import Timeline
from app.session import GameSession

HERE = Path(__file__).parent
SITE = HERE.parent / "fixtures" / "site"
KILLS = 20


def _read_lines(child: subprocess.Popen[str], into: list[str]) -> None:
    assert child.stdout is not None
    into.extend(iter(child.stdout.readline, ""))


@pytest.mark.slow
def test_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.airboss"
    s = GameSession.create(path, ruleset="skirmish", title="Crash test")
    for i in range(4):
        s.add_aircraft(side="Blue" if i % 2 else "Red", type_id="jet", name=f"Jet {i}")
    s.close()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SITE), os.environ.get("PYTHONPATH", "")]),
    }
    rng = random.Random(2026)
    acked: list[int] = []
    for kill in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, str(HERE / "crash_child.py"), str(path), str(kill)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        lines: list[str] = []
        reader = threading.Thread(target=_read_lines, args=(child, lines))
        reader.start()
        deadline = time.monotonic() + 20
        while not lines and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.01)  # wait until the child is acting
        assert lines, (
            f"child never acted: {child.stderr.read() if child.poll() is not None else ''}"
        )
        time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        child.wait()
        reader.join()
        # An acknowledgement counts once its whole line arrived: a kill can cut "ack 12" short.
        whole = [line for line in lines if line.endswith("\n")]
        acked += [int(line.split()[1]) for line in whole if line.startswith("ack ")]
        child.stdout.close()
        child.stderr.close()

    reopened = GameSession.open(path)
    try:
        assert reopened.store.integrity_ok()
        stored = {e.seq for e in reopened.events()}
        assert set(acked) <= stored, f"lost acknowledged actions: {sorted(set(acked) - stored)}"
        assert Timeline.replay(reopened.events()).state == reopened.engagement
        assert len(acked) > KILLS
    finally:
        reopened.close()
