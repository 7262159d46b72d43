"""``airboss club-server``: a PostgreSQL server for a club laptop, in the umpire's own data
folder (issue 17), secure by default (issue 30).

``start`` makes the cluster on first use (``initdb``) and starts it:

- it listens on ``localhost`` unless the umpire names the club's interface (``--listen``);
- every connection asks a password (``scram-sha-256``) except the owner's own socket, whose
  folder only the laptop's account can open; the owner (``airboss``, the superuser that made
  the tables) has no password and never leaves that socket;
- two kinds of role with the least each needs (issue 46): a station reads games and appends
  to their logs only through the server's own functions (``app.store.server_functions``: no
  INSERT, UPDATE or DELETE on any table, no DDL, no superuser, so no ``COPY ... TO PROGRAM``),
  and a viewer only reads (HQ's desk and the Player display). The rights belong to the group
  roles ``airboss_station`` and ``airboss_viewer``, which cannot log in; each machine logs in
  as a role of its own (``airboss_station_2``, ``airboss_viewer_1`` ...), a member of its
  group. PostgreSQL lets any role change its own password and end its own connections, and
  nothing short of a server extension stops that: with a role per machine, a station doing
  so shuts out only itself, never another station;
- their passwords are generated once, returned to be shown once, and kept in this laptop's
  keyring; they are never written to a file or put in a printed URL;
- with ``tls`` the server makes itself a certificate, whose fingerprint and file ``describe``
  prints, and the club's network must use TLS; each station pins that certificate at first
  use (``app.store.server_trust``). Without it, on the club's network, ``describe`` says
  plainly that the network can read the games.

``stop`` stops it; ``status`` says whether it runs. The server binaries are Debian's
``postgresql`` package (README, "A club's server").
"""

from __future__ import annotations

import ipaddress
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
from app.store import passwords, server_trust

DATABASE = "club"
#: the owner: the superuser that makes the tables; this laptop's socket only, no password
ROLE = "airboss"
#: the group roles that hold the rights (they cannot log in): stations act, viewers read
STATION, VIEWER = passwords.STATION, passwords.VIEWER
#: the machines' own login roles made by default: this laptop is station 1 and viewer 1
STATIONS, VIEWERS = 4, 2
#: connections one machine may hold at once (a desk uses at most 11): one machine cannot
#: take all the server's connections from the others
CONNECTIONS_PER_MACHINE = 24
#: a group: no login, no password, nothing but what is granted to it
_GROUP = "CREATE ROLE {} WITH NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
_MAKE_GROUP = (
    "ALTER ROLE {} WITH NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS "
    "PASSWORD NULL"
)
#: one machine: a login, its group's rights, nothing more
_CREATE_ROLE = (
    "CREATE ROLE {} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS "
    "INHERIT CONNECTION LIMIT {} PASSWORD {} IN ROLE {}"
)
_ALTER_ROLE = (
    "ALTER ROLE {} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS "
    "INHERIT CONNECTION LIMIT {} PASSWORD {}"
)
#: the functions every role may run in a database (PostgreSQL gives them to PUBLIC) that
#: make an object: large objects (issue 46: no role but the owner creates anything)
_NO_OBJECT_MAKERS = (
    "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_create(oid) FROM PUBLIC",
    "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_creat(integer) FROM PUBLIC",
    "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_from_bytea(oid, bytea) FROM PUBLIC",
    "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_import(text) FROM PUBLIC",
    "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_import(text, oid) FROM PUBLIC",
)


def login(group: str, number: int) -> str:
    """The login role of one machine: ``airboss_station_2``."""
    return f"{group}_{number}"


#: what ``--listen`` may name: host names and addresses, comma-separated, or ``*``
_LISTEN = re.compile(r"^(\*|[A-Za-z0-9.:\-]+(,[A-Za-z0-9.:\-]+)*)$")


class ClubServerError(RuntimeError):
    """The server could not be set up or started; the message says why and what to do."""


@dataclass(frozen=True)
class Machine:
    """One machine's way in: what it is, its login role and the URL it uses."""

    label: str
    role: str
    url: str


@dataclass
class Started:
    """What ``start`` did: where the server listens and how each machine reaches it."""

    listen: str
    host: str
    port: int
    tls: bool
    #: the URLs for the club's other machines, station 2 and viewer 2 (no password in them)
    station_url: str
    viewer_url: str
    #: the URLs for this laptop (its own socket), station 1 and viewer 1
    local_station_url: str
    local_viewer_url: str
    #: every machine's way in, this laptop's first
    machines: list[Machine] = field(default_factory=list)
    #: passwords made by this start (shown to the umpire once), login role -> password
    passwords: dict[str, str] = field(default_factory=dict)
    #: this laptop's keyring holds them
    in_keyring: bool = False
    #: the server's certificate (``tls``): its file, to copy to the stations, and fingerprint
    certificate: Path | None = None
    fingerprint: str = ""

    def password(self, group: str, number: int) -> str:
        """The password made now for machine ``number`` of ``group`` (``KeyError`` if none)."""
        return self.passwords[login(group, number)]


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
    roles = f"+{STATION},+{VIEWER}"  # every member of a group: each machine's own login
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


def _certificate(data: Path, host: str) -> Path:
    """A self-signed certificate for the server (``--tls``), made once: the one certificate
    each station pins (``app.store.server_trust``)."""
    crt, key = data / "server.crt", data / "server.key"
    if crt.exists() and key.exists():
        return crt
    try:
        ipaddress.ip_address(host)
        alt = f"subjectAltName=IP:{host}"
    except ValueError:
        alt = f"subjectAltName=DNS:{host}"
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
            "-addext",
            alt,
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
    return crt


def _owner_url(sock: Path, port: int, database: str = DATABASE) -> str:
    return f"postgresql://{ROLE}@/{database}?host={sock}&port={port}"


def _logins(stations: int, viewers: int) -> list[tuple[str, str]]:
    """(group, login role) of every machine, this laptop's (number 1) first."""
    return [(STATION, login(STATION, n)) for n in range(1, stations + 1)] + [
        (VIEWER, login(VIEWER, n)) for n in range(1, viewers + 1)
    ]


def _setup_roles(
    sock: Path, port: int, new_passwords: bool, stations: int = STATIONS, viewers: int = VIEWERS
) -> dict[str, str]:
    """The club database, its schema and the server's own functions, the two group roles
    with their rights and a login role per machine; the passwords of logins made (or remade)
    now."""
    import psycopg
    from psycopg import sql
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    from app.store import server_functions
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

        def exists(role: str) -> bool:
            row = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
            return row is not None

        for group in (STATION, VIEWER):
            # a group: made, or a login of an older Airboss (shared by every machine) made one
            statement = _MAKE_GROUP if exists(group) else _GROUP
            conn.execute(sql.SQL(statement).format(sql.Identifier(group)))
        limit = sql.Literal(CONNECTIONS_PER_MACHINE)
        for group, role in _logins(stations, viewers):
            there = exists(role)
            if there and not new_passwords:
                continue
            password = secrets.token_urlsafe(18)
            if there:
                conn.execute(
                    sql.SQL(_ALTER_ROLE).format(sql.Identifier(role), limit, sql.Literal(password))
                )
            else:
                conn.execute(
                    sql.SQL(_CREATE_ROLE).format(
                        sql.Identifier(role), limit, sql.Literal(password), sql.Identifier(group)
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
            ("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC, {}", [both]),
            ("REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC, {}", [both]),
            ("REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC, {}", [both]),
            # reading is all a table allows them: every write goes through the functions
            ("GRANT SELECT ON ALL TABLES IN SCHEMA public TO {}", [both]),
            # an older Airboss let them read every connection's statements (issue 46)
            ("REVOKE pg_read_all_stats FROM {}", [both]),
        ):
            conn.execute(sql.SQL(statement).format(*args))
        for group, grants in (
            (STATION, server_functions.STATION_GRANTS),
            (VIEWER, server_functions.VIEWER_GRANTS),
        ):
            for grant in grants:
                conn.execute(sql.SQL(grant).format(ident[group]))
        for revoke in _NO_OBJECT_MAKERS:
            conn.execute(revoke)
    return made


def start(
    root: Path | None = None,
    port: int = 5433,
    listen: str = "localhost",
    tls: bool = False,
    new_passwords: bool = False,
    stations: int = STATIONS,
    viewers: int = VIEWERS,
) -> Started:
    """Start (and on first use create) the club's server; how each machine reaches it."""
    if not _LISTEN.match(listen or "localhost"):
        raise ClubServerError(
            f"--listen {listen!r}: name this laptop's address on the club's network "
            "(for example 192.168.1.20), or localhost"
        )
    if not (1 <= stations <= 99 and 1 <= viewers <= 99):
        raise ClubServerError("--stations and --viewers: from 1 to 99 machines each")
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
    certificate = _certificate(data, host) if tls else None
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
        made = _setup_roles(sock, port, new_passwords, stations, viewers)
    except Exception as e:  # noqa: BLE001 - one line for the umpire; the details in the log
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ClubServerError(f"setting up the club's roles failed: {first}") from None
    # a club's network without TLS is said so in the address itself (issue 46); with TLS
    # each station proves the server by the certificate it pinned (nothing in the address)
    ssl = "?sslmode=disable" if network and not tls else ""
    local = f"/{DATABASE}?host={sock}&port={port}"
    machines = [
        Machine(
            f"This laptop ({group.removeprefix('airboss_')} 1)",
            role,
            f"postgresql://{role}@{local}",
        )
        for group, role in _logins(1, 1)
    ] + [
        Machine(
            f"{'Station' if group == STATION else 'HQ or Player display'} {role.rsplit('_', 1)[1]}",
            role,
            f"postgresql://{role}@{host}:{port}/{DATABASE}{ssl}",
        )
        for group, role in _logins(stations, viewers)
        if not role.endswith("_1")
    ]
    by_role = {m.role: m for m in machines}
    far_station = login(STATION, 2 if stations > 1 else 1)
    far_viewer = login(VIEWER, 2 if viewers > 1 else 1)
    result = Started(
        listen=listen,
        host=host,
        port=port,
        tls=tls,
        station_url=f"postgresql://{far_station}@{host}:{port}/{DATABASE}{ssl}",
        viewer_url=f"postgresql://{far_viewer}@{host}:{port}/{DATABASE}{ssl}",
        local_station_url=by_role[login(STATION, 1)].url,
        local_viewer_url=by_role[login(VIEWER, 1)].url,
        machines=machines,
        passwords=made,
        certificate=certificate,
        fingerprint=server_trust.fingerprint_of_file(certificate) if certificate else "",
    )
    kept = True
    for role, password in made.items():
        urls = [m.url for m in machines if m.role == role]
        for url in (*urls, f"postgresql://{role}@{host}:{port}/{DATABASE}{ssl}"):
            kept = passwords.remember(url, password) and kept
    result.in_keyring = kept and bool(made)
    return result


def local_url(root: Path | None = None, port: int = 5433, role: str = STATION) -> str:
    """The URL this laptop itself uses (the Unix socket: no network needed), as its station
    or (``role=VIEWER``) its read-only viewer (a group names its first login); the password
    comes from the keyring."""
    root = root or user_data_dir() / "club-server"
    if role in (STATION, VIEWER):
        role = login(role, 1)
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
    """What ``airboss club-server start`` prints: where it listens, each machine's URL (no
    password in it) and the passwords made now, this once; the certificate's fingerprint and
    file with TLS, and plainly that the club's network can read the games without it."""
    where = (
        "only this laptop (localhost)"
        if started.host == "localhost"
        else f"the club's network on {started.listen}" + (" (TLS)" if started.tls else "")
    )
    out = [f"The club's server runs on port {started.port}, listening on {where}."]
    if started.host != "localhost" and not started.tls:
        out.append(
            "WARNING: without --tls the games and the stations' actions cross the club's "
            "network as clear text: anyone on it can read them (the passwords are never sent "
            "in clear). Start it with --tls to encrypt them and let each station prove the "
            "server."
        )
    if started.tls and started.certificate is not None:
        out += [
            f"Its certificate's fingerprint is {started.fingerprint}",
            "Each station checks it the first time it connects (compare it with this line), or "
            f"copy {started.certificate} to the station and run there:",
            f"    airboss club-server trust {started.host}:{started.port} --certificate server.crt",
        ]
    out.append("Each machine has an address of its own (give each to one machine only):")
    width = max(len(m.label) for m in started.machines) + 2
    for m in started.machines:
        password = started.passwords.get(m.role)
        shown = f"   password: {password}" if password else ""
        out.append(f"    {(m.label + ':').ljust(width)}airboss --db '{m.url}'{shown}")
    if started.passwords:
        out.append(
            "The passwords are shown this once. "
            + (
                "This laptop's keyring keeps them."
                if started.in_keyring
                else "This laptop has no keyring: each machine asks for its password when it "
                "opens a game."
            )
        )
    return out
