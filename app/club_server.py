"""``airboss club-server``: a PostgreSQL server for a club laptop, in the umpire's own data
folder (issue 17).

``start`` makes the cluster on first use (``initdb``), starts it listening on the network so the
other stations can reach it, creates the ``airboss`` role and the ``club`` database, and prints
the URL to give the other stations. ``stop`` stops it; ``status`` says whether it runs. The
server binaries are Debian's ``postgresql`` package (README, "A club's server").
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path

from app.core.paths import user_data_dir

DATABASE = "club"
ROLE = "airboss"


class ClubServerError(RuntimeError):
    """The server could not be set up or started; the message says why and what to do."""


def pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    on_path = shutil.which("initdb")
    if not found and not on_path:
        raise ClubServerError(
            "the PostgreSQL server is not installed: sudo apt install postgresql (Debian/Ubuntu)"
        )
    return (found[-1] if found else Path(on_path or "")).parent


def _as_owner(root: Path) -> list[str]:
    """initdb refuses to run as root: then the cluster belongs to the postgres user."""
    if os.geteuid() != 0:
        return []
    user = pwd.getpwnam("postgres")
    for p in (root, root / "sock"):
        p.mkdir(parents=True, exist_ok=True)
        os.chown(p, user.pw_uid, user.pw_gid)
    root.chmod(0o755)
    return ["runuser", "-u", "postgres", "--"]


def _run(args: list[str], what: str) -> None:
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise ClubServerError(f"{what} failed: {(done.stderr or done.stdout).strip()}")


def start(root: Path | None = None, port: int = 5433, listen: str = "*") -> str:
    """Start (and on first use create) the club's server; the URL for the other stations."""
    root = root or user_data_dir() / "club-server"
    data, sock = root / "data", root / "sock"
    root.mkdir(parents=True, exist_ok=True)
    sock.mkdir(exist_ok=True)
    owner = _as_owner(root)
    bindir = pg_bin()
    if not (data / "PG_VERSION").exists():
        _run(
            [
                *owner,
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                ROLE,
                "--auth=trust",
                "-E",
                "UTF8",
            ],
            "creating the server's data folder (initdb)",
        )
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write("\n# the club's stations on the local network (airboss club-server)\n")
            hba.write(f"host {DATABASE} {ROLE} samenet trust\n")
    opts = f"-k {sock} -p {port} -c listen_addresses='{listen}'"
    if not running(root):
        _run(
            [
                *owner,
                str(bindir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                opts,
                "-w",
                "-l",
                str(root / "server.log"),
                "start",
            ],
            f"starting the server (log: {root / 'server.log'})",
        )
    created = subprocess.run(
        [*owner, str(bindir / "createdb"), "-h", str(sock), "-p", str(port), "-U", ROLE, DATABASE],
        capture_output=True,
        text=True,
    )
    if created.returncode != 0 and "already exists" not in created.stderr:
        raise ClubServerError(f"creating the club database failed: {created.stderr.strip()}")
    host = socket.gethostname() if listen != "" else "localhost"
    return f"postgresql://{ROLE}@{host}:{port}/{DATABASE}"


def local_url(root: Path | None = None, port: int = 5433) -> str:
    """The URL this laptop itself uses (the Unix socket: no network needed)."""
    root = root or user_data_dir() / "club-server"
    return f"postgresql://{ROLE}@/{DATABASE}?host={root / 'sock'}&port={port}"


def running(root: Path | None = None) -> bool:
    root = root or user_data_dir() / "club-server"
    return (root / "data" / "postmaster.pid").exists()


def stop(root: Path | None = None) -> None:
    root = root or user_data_dir() / "club-server"
    if not running(root):
        return
    _run(
        [
            *_as_owner(root),
            str(pg_bin() / "pg_ctl"),
            "-D",
            str(root / "data"),
            "-m",
            "fast",
            "stop",
        ],
        "stopping the server",
    )
