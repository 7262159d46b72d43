"""A club's PostgreSQL server (DESIGN.md Storage): the same schema, several games in one place,
two umpire stations on one game kept consistent by the log's per-game sequence number.

A private PostgreSQL cluster is started for these tests in a temporary folder, listening only
on a Unix socket there (no network). The server comes from Debian's postgresql package, which
``scripts/setup`` installs.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.core.history import Timeline
from app.session import GameSession
from app.store import StoreError


def _pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    on_path = shutil.which("initdb")
    assert found or on_path, "PostgreSQL server binaries are missing: ./scripts/setup installs them"
    return (found[-1] if found else Path(on_path or "")).parent


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    bindir = _pg_bin()
    # not under pytest's temp folder: the postgres user must be able to reach it
    root = Path(tempfile.mkdtemp(prefix="airboss-pg-"))
    root.chmod(0o755)
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root: run the cluster as postgres
        user = pwd.getpwnam("postgres")
        for p in (root, sock):
            os.chown(p, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [
            *run_as,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "airboss",
            "--auth=trust",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
    )
    port = "54329"
    opts = f"-k {sock} -p {port} -c listen_addresses='' -c fsync=off"
    subprocess.run(
        [
            *run_as,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            opts,
            "-w",
            "-l",
            str(root / "log"),
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            [
                *run_as,
                str(bindir / "createdb"),
                "-h",
                str(sock),
                "-p",
                port,
                "-U",
                "airboss",
                "club",
            ],
            check=True,
            capture_output=True,
        )
        yield f"postgresql://airboss@/club?host={sock}&port={port}"
    finally:
        subprocess.run(
            [*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def test_two_games_on_one_server(pg_url: str) -> None:
    one = GameSession.create(pg_url, ruleset="skirmish", title="Table 1")
    two = GameSession.create(pg_url, ruleset="skirmish", title="Table 2", variants=["long_guns"])
    a = one.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    b = one.add_aircraft(side="Red", type_id="prop", name="Red 1")
    one.perform("gun_attack", {"attacker": a, "target": b, "snap_shot": True}, TableDice([1]))
    two.add_aircraft(side="Red", type_id="jet", name="Red 9")
    state1, state2 = one.engagement, two.engagement
    ids = one.game_id, two.game_id
    one.close()
    two.close()
    with pytest.raises(StoreError, match="name one"):
        GameSession.open(pg_url)
    r1 = GameSession.open(pg_url, game=ids[0])
    r2 = GameSession.open(pg_url, game=ids[1])
    assert r1.engagement.aircraft == state1.aircraft
    assert r2.engagement.aircraft == state2.aircraft
    assert r2.ruleset.chosen == {"long_guns"}
    assert Timeline.replay(r1.events()).state.aircraft == r1.engagement.aircraft
    r1.close()
    r2.close()


def test_two_stations_on_one_game(pg_url: str) -> None:
    first = GameSession.create(pg_url, ruleset="skirmish", title="Convention")
    first.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    station = GameSession.open(pg_url, game=first.game_id)
    first.next_step()
    with pytest.raises(StoreError, match="another station"):
        station.next_step()  # lost the race: refused, nothing overwritten, brought up to date
    assert station.engagement == first.engagement
    station.next_step()
    first.refresh()
    assert first.engagement == station.engagement
    assert [e.seq for e in first.events()] == list(range(1, len(first.events()) + 1))
    first.close()
    station.close()
