"""``airboss club-server``: a PostgreSQL server for a club laptop, in the umpire's own data
folder (issue 17), secure by default (issue 30).

``start`` makes the cluster on first use (``initdb``) and starts it:

- it listens on ``localhost`` unless the umpire names the club's interface (``--listen``);
- every connection asks a password (``scram-sha-256``) except the owner's own socket, whose
  folder only the laptop's account can open; the owner (``airboss``, the superuser that made
  the tables) has no password and never leaves that socket;
- two roles with the least each needs: ``airboss_station`` reads games and appends to their
  logs (no UPDATE or DELETE on a log, no DDL, no superuser, so no ``COPY ... TO PROGRAM``), and
  ``airboss_viewer`` only reads (HQ's desk and the Player display);
- their passwords are generated once, returned to be shown once, and kept in this laptop's
  keyring; they are never written to a file or put in a printed URL;
- with ``tls`` the server makes itself a certificate and the club's network must use TLS.

``stop`` stops it; ``status`` says whether it runs. The server binaries are Debian's
``postgresql`` package (README, "A club's server").
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import socket
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from app.core.paths import user_data_dir
from app.store import passwords

DATABASE = "club"
#: the owner: the superuser that makes the tables; this laptop's socket only, no password
ROLE = "airboss"
#: reads games and appends events; reads only
STATION, VIEWER = passwords.STATION, passwords.VIEWER
#: the club's roles: a login, nothing more (rights are granted table by table)
_CREATE_ROLE = (
    "CREATE ROLE {} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS "
    "PASSWORD {}"
)
_ALTER_ROLE = (
    "ALTER ROLE {} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS "
    "PASSWORD {}"
)
#: what ``--listen`` may name: host names and addresses, comma-separated, or ``*``
_LISTEN = re.compile(r"^(\*|[A-Za-z0-9.:\-]+(,[A-Za-z0-9.:\-]+)*)$")


class ClubServerError(RuntimeError):
    """The server could not be set up or started; the message says why and what to do."""


@dataclass
class Started:
    """What ``start`` did: where the server listens and how each machine reaches it."""

    listen: str
    host: str
    port: int
    tls: bool
    #: the URLs for the club's other machines (no password in them)
    station_url: str
    viewer_url: str
    #: the URLs for this laptop (its own socket)
    local_station_url: str
    local_viewer_url: str
    #: passwords made by this start (shown to the umpire once), role -> password
    passwords: dict[str, str] = field(default_factory=dict)
    #: this laptop's keyring holds them
    in_keyring: bool = False


def pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    on_path = shutil.which("initdb")
    if not found and not on_path:
        raise ClubServerError(
            "the PostgreSQL server is not installed: sudo apt install postgresql (Debian/Ubuntu)"
        )
    return (found[-1] if found else Path(on_path or "")).parent


def _owner() -> pwd.struct_passwd | None:
    """initdb refuses to run as root: then the cluster belongs to the postgres user."""
    return pwd.getpwnam("postgres") if os.geteuid() == 0 else None


def _as_owner(root: Path) -> list[str]:
    user = _owner()
    if user is None:
        return []
    for p in (root, root / "sock"):
        p.mkdir(parents=True, exist_ok=True)
        os.chown(p, user.pw_uid, user.pw_gid)
    root.chmod(0o755)
    return ["runuser", "-u", "postgres", "--"]


def _run(args: list[str], what: str) -> None:
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise ClubServerError(f"{what} failed: {(done.stderr or done.stdout).strip()}")


def _hba(network: bool, tls: bool) -> str:
    """Who may connect how: the owner on its own socket; the two roles with a password on
    the socket and on this laptop's loopback; the club's network only when asked (and only
    over TLS when the server has a certificate)."""
    roles = f"{STATION},{VIEWER}"
    lines = [
        "# written by `airboss club-server start` on every start (issue 30); edits are lost",
        "# the owner, on its own socket (the folder is the laptop account's alone)",
        f"local   all        {ROLE}   trust",
        "# the club's roles: a password always (scram-sha-256)",
        f"local   {DATABASE}   {roles}   scram-sha-256",
        f"host    {DATABASE}   {roles}   127.0.0.1/32   scram-sha-256",
        f"host    {DATABASE}   {roles}   ::1/128   scram-sha-256",
    ]
    if network:
        kind = "hostssl" if tls else "host"
        lines += [
            "# the club's network (--listen)",
            f"{kind} {DATABASE}   {roles}   samenet   scram-sha-256",
        ]
    lines.append("# anything else is refused")
    return "\n".join(lines) + "\n"


def _certificate(data: Path, host: str) -> None:
    """A self-signed certificate for the server (``--tls``), made once."""
    crt, key = data / "server.crt", data / "server.key"
    if crt.exists() and key.exists():
        return
    _run(
        [
            "openssl",
            "req",
            "-new",
            "-x509",
            "-days",
            "3650",
            "-nodes",
            "-subj",
            f"/CN={host}",
            "-keyout",
            str(key),
            "-out",
            str(crt),
        ],
        "making the server's certificate (openssl)",
    )
    key.chmod(0o600)
    user = _owner()
    if user is not None:
        for p in (crt, key):
            os.chown(p, user.pw_uid, user.pw_gid)


def _owner_url(sock: Path, port: int, database: str = DATABASE) -> str:
    return f"postgresql://{ROLE}@/{database}?host={sock}&port={port}"


def _setup_roles(sock: Path, port: int, new_passwords: bool) -> dict[str, str]:
    """The club database, its schema and the two roles with their rights; the passwords of
    roles made (or remade) now."""
    import psycopg
    from psycopg import sql
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    from app.store.migrate import migrate

    with psycopg.connect(
        _owner_url(sock, port, "postgres"), autocommit=True, connect_timeout=10
    ) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
    engine = create_engine(
        "postgresql+psycopg://" + _owner_url(sock, port).split("://", 1)[1], poolclass=NullPool
    )
    try:
        migrate(engine, f"the club's database on port {port}")
    finally:
        engine.dispose()
    made: dict[str, str] = {}
    with psycopg.connect(_owner_url(sock, port), autocommit=True, connect_timeout=10) as conn:
        for role in (STATION, VIEWER):
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
            if exists and not new_passwords:
                continue
            password = secrets.token_urlsafe(18)
            conn.execute(
                sql.SQL(_ALTER_ROLE if exists else _CREATE_ROLE).format(
                    sql.Identifier(role), sql.Literal(password)
                )
            )
            made[role] = password
        ident = {r: sql.Identifier(r) for r in (STATION, VIEWER, ROLE)}
        both = sql.SQL(", ").join([ident[STATION], ident[VIEWER]])
        db = sql.Identifier(DATABASE)
        for statement, args in (
            ("REVOKE ALL ON DATABASE {} FROM PUBLIC", [db]),
            ("GRANT CONNECT ON DATABASE {} TO {}", [db, both]),
            ("REVOKE ALL ON SCHEMA public FROM PUBLIC", []),
            ("GRANT USAGE ON SCHEMA public TO {}", [both]),
            ("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {}", [both]),
            ("REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {}", [both]),
            ("GRANT SELECT ON ALL TABLES IN SCHEMA public TO {}", [both]),
            ("GRANT INSERT ON TABLE game, event, snapshot TO {}", [ident[STATION]]),
            ("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {}", [ident[STATION]]),
            # to count the stations watching a game (the LISTENs of other sessions)
            ("GRANT pg_read_all_stats TO {}", [both]),
        ):
            conn.execute(sql.SQL(statement).format(*args))
    return made


def start(
    root: Path | None = None,
    port: int = 5433,
    listen: str = "localhost",
    tls: bool = False,
    new_passwords: bool = False,
) -> Started:
    """Start (and on first use create) the club's server; how each machine reaches it."""
    if not _LISTEN.match(listen or "localhost"):
        raise ClubServerError(
            f"--listen {listen!r}: name this laptop's address on the club's network "
            "(for example 192.168.1.20), or localhost"
        )
    listen = listen or "localhost"
    root = root or user_data_dir() / "club-server"
    data, sock = root / "data", root / "sock"
    root.mkdir(parents=True, exist_ok=True)
    sock.mkdir(exist_ok=True)
    sock.chmod(0o700)
    owner = _as_owner(root)
    bindir = pg_bin()
    network = listen not in ("localhost", "127.0.0.1", "::1")
    if listen == "*":
        host = socket.gethostname()
    elif network:
        host = listen.split(",")[0]
    else:
        host = "localhost"
    if not (data / "PG_VERSION").exists():
        _run(
            [
                *owner,
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                ROLE,
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "-E",
                "UTF8",
            ],
            "creating the server's data folder (initdb)",
        )
    (data / "pg_hba.conf").write_text(_hba(network, tls), encoding="utf-8")
    if tls:
        _certificate(data, host)
    opts = (
        f"-k {sock} -p {port} -c listen_addresses='{listen}' "
        "-c password_encryption=scram-sha-256 -c unix_socket_permissions=0700"
    )
    if tls:
        opts += " -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key"
    pg_ctl = [*owner, str(bindir / "pg_ctl"), "-D", str(data)]
    if running(root):
        _run([*pg_ctl, "reload"], "reloading the server's access rules")
    else:
        _run(
            [*pg_ctl, "-o", opts, "-w", "-l", str(root / "server.log"), "start"],
            f"starting the server (log: {root / 'server.log'})",
        )
    try:
        made = _setup_roles(sock, port, new_passwords)
    except Exception as e:  # noqa: BLE001 - one line for the umpire; the details in the log
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ClubServerError(f"setting up the club's roles failed: {first}") from None
    ssl = "?sslmode=require" if tls else ""
    local = f"/{DATABASE}?host={sock}&port={port}"
    result = Started(
        listen=listen,
        host=host,
        port=port,
        tls=tls,
        station_url=f"postgresql://{STATION}@{host}:{port}/{DATABASE}{ssl}",
        viewer_url=f"postgresql://{VIEWER}@{host}:{port}/{DATABASE}{ssl}",
        local_station_url=f"postgresql://{STATION}@{local}",
        local_viewer_url=f"postgresql://{VIEWER}@{local}",
        passwords=made,
    )
    kept = True
    for role, password in made.items():
        for url in (
            (result.station_url, result.local_station_url)
            if role == STATION
            else (result.viewer_url, result.local_viewer_url)
        ):
            kept = passwords.remember(url, password) and kept
    result.in_keyring = kept and bool(made)
    return result


def local_url(root: Path | None = None, port: int = 5433, role: str = STATION) -> str:
    """The URL this laptop itself uses (the Unix socket: no network needed), as a station or
    (``role=VIEWER``) read-only; the password comes from the keyring."""
    root = root or user_data_dir() / "club-server"
    return f"postgresql://{role}@/{DATABASE}?host={root / 'sock'}&port={port}"


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


def describe(started: Started) -> list[str]:
    """What ``airboss club-server start`` prints: where it listens, the URLs (no password in
    them), and the passwords made now, this once."""
    where = (
        "only this laptop (localhost)"
        if started.host == "localhost"
        else f"the club's network on {started.listen}" + (" (TLS)" if started.tls else "")
    )
    out = [
        f"The club's server runs on port {started.port}, listening on {where}.",
        f"Stations (they act):          airboss --db '{started.station_url}'",
        f"HQ and the Player display:    airboss --db '{started.viewer_url}'",
        f"This laptop:                  airboss --db '{started.local_station_url}'",
    ]
    if started.passwords:
        out.append("Passwords, shown this once (give each only to the machines of its role):")
        for role, password in started.passwords.items():
            out.append(f"    {role}: {password}")
        out.append(
            "This laptop's keyring keeps them."
            if started.in_keyring
            else "This laptop has no keyring: each machine asks for its password when it opens "
            "a game."
        )
    return out
