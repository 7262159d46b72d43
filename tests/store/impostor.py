"""An impostor of a club's server for the store tests (issue 46): it listens where the station
expects the club's server and speaks just enough of PostgreSQL's protocol to ask for the
password, in clear text (as the audit's impostor did, and received it). It records everything
a station sends it, so a test can check that no password arrived.

``tls``: a PEM certificate and key of its own: it then accepts TLS (answering the SSLRequest
with ``S``), as an impostor with a certificate of its own would; without, it answers ``N``.
"""

from __future__ import annotations

import socket
import ssl
import struct
import subprocess
import threading
from pathlib import Path

#: AuthenticationCleartextPassword: "send me the password as it is"
_ASK_CLEARTEXT = b"R" + struct.pack("!ii", 8, 3)
_SSL_REQUEST = 80877103
_GSS_REQUEST = 80877104


def make_certificate(folder: Path, name: str = "impostor") -> tuple[Path, Path]:
    """A self-signed certificate and key of the impostor's own."""
    crt, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-new", "-x509", "-days", "2", "-nodes", "-subj", f"/CN={name}",
         "-keyout", str(key), "-out", str(crt)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return crt, key


class Impostor:
    def __init__(self, host: str = "127.0.0.1", tls: tuple[Path, Path] | None = None) -> None:
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.bind((host, 0))
        self.server.listen(8)
        self.server.settimeout(0.1)
        self.host = host
        self.port = self.server.getsockname()[1]
        self.closed = False
        #: every byte every connection sent after its start-up message
        self.received: list[bytes] = []
        #: the start-up messages (user and database) that reached it
        self.startups: list[bytes] = []
        self.context: ssl.SSLContext | None = None
        if tls is not None:
            self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.context.load_cert_chain(str(tls[0]), str(tls[1]))
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError
            data += chunk
        return data

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(5)
        try:
            while True:  # SSLRequest / GSSENCRequest, then the start-up message
                length = struct.unpack("!i", self._read(conn, 4))[0]
                body = self._read(conn, length - 4)
                code = struct.unpack("!i", body[:4])[0]
                if code == _SSL_REQUEST:
                    if self.context is None:
                        conn.sendall(b"N")
                        continue
                    conn.sendall(b"S")
                    conn = self.context.wrap_socket(conn, server_side=True)
                    continue
                if code == _GSS_REQUEST:
                    conn.sendall(b"N")
                    continue
                self.startups.append(body)
                break
            conn.sendall(_ASK_CLEARTEXT)
            while True:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                self.received.append(chunk)
        except (OSError, ConnectionError, ssl.SSLError):
            pass
        finally:
            conn.close()

    def heard(self) -> bytes:
        return b"".join(self.received)

    def url(self, user: str) -> str:
        return f"postgresql://{user}@{self.host}:{self.port}/club"

    def close(self) -> None:
        self.closed = True
        self.server.close()
        self._thread.join(timeout=2)
