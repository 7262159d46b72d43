"""The private PostgreSQL server the store tests share (one per test module).

A private cluster is started in a temporary folder, listening only on a Unix socket there (no
network). The server comes from Debian's postgresql package, which ``scripts/setup`` installs.
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


class MemoryKeyring:
    """A keyring backend in memory: the tests never touch a real keyring (issue 30)."""

    priority = 1

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.kept.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.kept[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.kept.pop((service, username), None)


@pytest.fixture(autouse=True)
def fake_keyring() -> Iterator[MemoryKeyring]:
    """Every store test runs with an empty keyring of its own and nothing typed yet."""
    import keyring
    from keyring.backend import KeyringBackend

    from app.store import passwords

    class Backend(MemoryKeyring, KeyringBackend):
        pass

    ring = Backend()
    before = keyring.get_keyring()
    keyring.set_keyring(ring)
    passwords._typed.clear()
    yield ring
    keyring.set_keyring(before)
    passwords._typed.clear()
