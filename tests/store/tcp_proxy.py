"""A small TCP proxy for the store tests (issue 30): between a station and the private
PostgreSQL server, on 127.0.0.1 only, it passes traffic or misbehaves as a bad network does.

Modes, set at any time (``proxy.mode = ...``):

- ``pass``: every byte both ways;
- ``swallow-commit``: the next COMMIT reaches the server, its answer never reaches the station,
  whose connection is then reset (the server saved the action; the station cannot know);
- ``reset-before-commit``: the next COMMIT is never delivered and both sides are reset (the
  server rolls the action back);
- ``blackhole``: from the next COMMIT on, nothing goes either way on that connection and no new
  connection gets an answer, though every socket stays open (a network gone silent) until the
  mode is set back to ``pass``.

The ``swallow-commit`` and ``reset-before-commit`` modes act once and return to ``pass``. Every
loop ends when the proxy is closed; each waits at most 0.1 s per turn.
"""

from __future__ import annotations

import select
import socket
import struct
import threading
from pathlib import Path


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset (RST), as a dropped connection does."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


class Proxy:
    def __init__(self, upstream_socket: Path) -> None:
        self.upstream = str(upstream_socket)
        self.mode = "pass"
        self.closed = False
        #: the network went silent (``blackhole`` after its COMMIT): new connections too
        self.dark = False
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.server.settimeout(0.1)
        self.port = self.server.getsockname()[1]
        #: what the proxy did, for the test to check it happened
        self.events: list[str] = []
        self._threads: list[threading.Thread] = []
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    def url(self, user: str = "airboss", database: str = "club") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except (TimeoutError, OSError):
                continue
            t = threading.Thread(target=self._serve, args=(client,), daemon=True)
            self._threads.append(t)
            t.start()

    def _serve(self, client: socket.socket) -> None:
        up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        up.connect(self.upstream)
        silent = self.mode == "blackhole" and self.dark  # new, into a silent network
        swallowing = False
        try:
            while not self.closed:
                ready, _, _ = select.select([client, up], [], [], 0.1)
                if silent:
                    if self.mode != "blackhole":  # the network is back, for this one too
                        silent = False
                    continue  # sockets open, nothing read: no answer, no error
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        if b"COMMIT" in data and self.mode == "swallow-commit":
                            self.mode = "pass"
                            swallowing = True
                            self.events.append("swallowed a COMMIT's answer")
                            up.sendall(data)
                            continue
                        if b"COMMIT" in data and self.mode == "reset-before-commit":
                            self.mode = "pass"
                            self.events.append("reset before a COMMIT")
                            _reset(client)
                            _reset(up)
                            return
                        if b"COMMIT" in data and self.mode == "blackhole":
                            self.events.append("black-holed a COMMIT")
                            silent = self.dark = True
                            break
                        up.sendall(data)
                    else:
                        if swallowing:  # the server's answer to COMMIT: dropped, then reset
                            self.events.append("reset after the COMMIT")
                            _reset(client)
                            return
                        client.sendall(data)
        except OSError:
            return
        finally:
            for sock in (client, up):
                try:
                    sock.close()
                except OSError:
                    pass

    def close(self) -> None:
        self.closed = True
        self._accepting.join(2)
        for t in self._threads:
            t.join(2)
        self.server.close()
