"""How a station knows its club's server before it sends a password (issue 46).

The audit's impostor asked for the password in clear text and got it. Three things stop that,
and every server connection gets them (``connection_security``):

- a password is only ever proved by SCRAM (libpq's ``require_auth=scram-sha-256``): a server
  that asks for it in clear text, or by any other method, is refused before anything is sent,
  and SCRAM itself never sends the password;
- a server on the club's network must prove itself by TLS against the certificate this station
  pinned (``sslmode=verify-ca`` with that certificate as the only root) and bind the SCRAM
  exchange to it (``channel_binding=require``). The certificate is pinned at first use, once
  the umpire has compared its fingerprint with the one ``airboss club-server start --tls``
  printed (``confirm``), or from the certificate file copied from the club's laptop
  (``pin_file``). A server without TLS, or with another certificate, gets no password, and
  the message says why;
- this laptop's own socket (a folder only its account can open) and its loopback need no
  certificate; SCRAM alone keeps the password from an impostor there.

A URL that names its own ``sslmode`` (``sslmode=disable`` for a club that runs without
``--tls``) is taken at its word: the games then cross the network as clear text, which
``plain_text`` says, and SCRAM still keeps the password.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import socket
import ssl
import struct
from collections.abc import Callable, Mapping
from pathlib import Path

from app.core.errors import StoreError
from app.core.paths import user_data_dir

#: libpq's SSLRequest: the message a client sends before TLS starts (its length, then the code)
_SSL_REQUEST = struct.pack("!ii", 8, 80877103)
#: how long the probe of a server's certificate may take (seconds)
PROBE_S = 4.0
#: the ``sslmode`` values that verify the server's certificate
VERIFYING = ("verify-ca", "verify-full")

#: asked whether to pin a server's certificate seen for the first time:
#: ``confirm(host, port, fingerprint)`` (the desk shows a dialog, the command line asks at the
#: terminal); ``None``: nobody to ask, so the server is refused with its fingerprint named
confirm: Callable[[str, int, str], bool] | None = None


class ServerUnproven(StoreError):
    """The server did not prove it is the club's server: no password was sent."""


class UnknownServer(ServerUnproven):
    """A server whose certificate this station has not pinned yet (``fingerprint`` to compare)."""

    def __init__(self, host: str, port: int, fingerprint: str) -> None:
        self.host, self.port, self.fingerprint = host, port, fingerprint
        super().__init__(
            f"{host}:{port}: this computer does not know this server yet, so no password was "
            f"sent; its certificate's fingerprint is {fingerprint}: if the club's laptop "
            "printed the same when its server started, trust it (the desk asks; at a terminal "
            f"`airboss club-server trust {host}:{port} --fingerprint {fingerprint}`)."
        )


def fingerprint(der: bytes) -> str:
    """A certificate's SHA-256 fingerprint as ``openssl x509 -fingerprint -sha256`` prints it."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return "SHA256:" + ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def fingerprint_of_file(path: Path) -> str:
    """The fingerprint of a PEM certificate file (the club's ``server.crt``)."""
    return fingerprint(ssl.PEM_cert_to_DER_cert(path.read_text(encoding="ascii")))


def is_socket(host: str) -> bool:
    """A Unix socket's folder (libpq's ``host=/path``), not a network address."""
    return host.startswith("/") or host.startswith("@")


def is_loopback(host: str) -> bool:
    """This computer itself: ``localhost`` or a loopback address."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def pins() -> Path:
    """The folder of the certificates this station pinned, one per server."""
    return user_data_dir() / "servers"


def pinned(host: str, port: int) -> Path:
    """Where the pinned certificate of ``host:port`` is kept (the name made safe for a file)."""
    safe = re.sub(r"[^A-Za-z0-9.\-]", "_", host.strip("[]"))
    return pins() / f"{safe}_{port}.crt"


def server_certificate(host: str, port: int, timeout: float = PROBE_S) -> bytes:
    """The certificate the server at ``host:port`` shows (DER), read without sending anything
    but the SSLRequest (no user name, no password); ``ServerUnproven`` if it offers no TLS."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(_SSL_REQUEST)
            answer = sock.recv(1)
            if answer != b"S":
                raise ServerUnproven(
                    f"{host}:{port}: the server offers no TLS, so it cannot prove it is the "
                    "club's server and no password was sent; if the club runs its server "
                    "without --tls, its address ends in ?sslmode=disable (and the club's "
                    "network can read the games)."
                )
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE  # only read here; libpq verifies against the pin
            with context.wrap_socket(sock, server_hostname=host) as tls:
                der = tls.getpeercert(binary_form=True)
    except OSError as e:
        raise StoreError(
            f"{host}:{port}: cannot reach the server ({e.strerror or e}); nothing was sent; "
            "check that it runs, the address and the network, then try again."
        ) from None
    if not der:
        raise ServerUnproven(f"{host}:{port}: the server showed no certificate; nothing was sent.")
    return der


def pin(host: str, port: int, der: bytes) -> Path:
    """Keep ``der`` as the one certificate ``host:port`` must show from now on."""
    path = pinned(host, port)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(ssl.DER_cert_to_PEM_cert(der), encoding="ascii")
    return path


def pin_file(host: str, port: int, certificate: Path) -> str:
    """Pin the certificate file copied from the club's laptop; its fingerprint."""
    try:
        der = ssl.PEM_cert_to_DER_cert(certificate.read_text(encoding="ascii"))
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise StoreError(f"{certificate}: not a certificate file ({e}); nothing was kept") from None
    pin(host, port, der)
    return fingerprint(der)


def trust(host: str, port: int, expected: str) -> str:
    """Pin the certificate the server shows now if its fingerprint is ``expected`` (as the
    club's laptop printed it); ``ServerUnproven`` naming both if not."""
    der = server_certificate(host, port)
    seen = fingerprint(der)
    if _bare(seen) != _bare(expected):
        raise ServerUnproven(
            f"{host}:{port}: the server's certificate has fingerprint {seen}, not {expected}: "
            "it is not the club's server (or the fingerprint was mistyped); nothing was kept "
            "and no password was sent."
        )
    pin(host, port, der)
    return seen


def _bare(print_: str) -> str:
    return re.sub(r"[^0-9A-F]", "", print_.upper().removeprefix("SHA256"))


def connection_security(
    host: str | None, port: int | None, query: Mapping[str, object], password: bool
) -> dict[str, str]:
    """The libpq parameters that make a connection to ``host:port`` prove the server before a
    password is sent (see the module's docstring). ``query`` is the URL's own parameters (its
    ``host=`` for a socket, its ``sslmode``); ``password`` whether one will be sent."""
    params: dict[str, str] = {}
    if password:
        params["require_auth"] = "scram-sha-256"
    where = str(query.get("host") or host or "")
    if not where or is_socket(where):
        return params  # this laptop's own socket: its folder is the proof
    given = query.get("sslmode")
    if given is not None:
        if str(given) in (*VERIFYING, "require") and password:
            params["channel_binding"] = "require"
        return params  # the URL says how; ``plain_text`` tells when it is clear text
    if is_loopback(where):
        return params  # this laptop: SCRAM keeps the password from anyone listening here
    number = int(port or 5432)
    root = query.get("sslrootcert")
    if root is None:
        pin_path = pinned(where, number)
        if not pin_path.exists():
            der = server_certificate(where, number)
            seen = fingerprint(der)
            if confirm is None or not confirm(where, number, seen):
                raise UnknownServer(where, number, seen)
            pin(where, number, der)
        params["sslrootcert"] = str(pin_path)
    params["sslmode"] = "verify-ca"
    if password:
        params["channel_binding"] = "require"
    return params


def plain_text(host: str | None, query: Mapping[str, object]) -> bool:
    """The URL names a server on the network and asks for no TLS (``sslmode=disable``,
    ``allow`` or ``prefer``): what it sends and reads may be read on the way."""
    where = str(query.get("host") or host or "")
    if not where or is_socket(where) or is_loopback(where):
        return False
    return str(query.get("sslmode", "verify-ca")) in ("disable", "allow", "prefer")
