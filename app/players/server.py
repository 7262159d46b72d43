"""The players' web server (issue 48): a small ASGI app (Starlette) served by uvicorn in a
thread of the desk's process.

Why these: Starlette is a well-kept, small ASGI toolkit whose routing, streaming responses and
test client are all we need; uvicorn serves it from a socket we bind ourselves (so where it
listens is exactly where the umpire said, and a port in use is said at once), with TLS from a
certificate and key file. Both are pure Python wheels. The page is plain HTML, CSS and a little
JavaScript served from this package: nothing to install on a phone, no build step.

The server never touches Qt or the game: the desk hands it immutable snapshots (``publish``:
one JSON view per side and what each side's lines ask for), and what a page sends is checked
here (token, size, shape, rate, the line it names) and handed to the desk through ``send``,
which the desk makes a queued Qt signal. Every request names a side's token in its path; no
cookie is set or read, a request from a page of another origin is refused, and the responses
say not to cache, frame or refer them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from app.core.draft import tokens as dice_tokens
from app.players.tokens import SideTokens

logger = logging.getLogger(__name__)

#: the largest body a page may send (bytes): a line's dice or a plot is far less
MAX_BODY = 2048
#: requests a side may send in ``WINDOW`` seconds (a table sends one every few seconds at most)
SENDS_PER_WINDOW = 12
READS_PER_WINDOW = 60
#: requests one address may make in ``WINDOW`` seconds, whatever its token (guessing is slow)
PER_ADDRESS = 240
WINDOW = 10.0
#: live connections (one per open page) per side and in all
STREAMS_PER_SIDE = 24
STREAMS = 64
#: seconds between two keep-alive lines on a live connection, and the page's retry (ms)
KEEPALIVE = 15.0
RETRY_MS = 1000
_TOKEN = re.compile(r"^[A-Za-z0-9_\-]{20,100}$")
_DICE_TEXT = re.compile(r"^[0-9 ,;]{0,40}$")
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
}


class PlayersServerError(RuntimeError):
    """The server could not start: the message says why and what to do."""


@dataclass(frozen=True)
class Published:
    """What the desk published: a version, each side's view as JSON bytes, and what each side's
    open lines ask of its pages (by line key text) to check what they send."""

    version: int = 0
    views: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}))
    #: each side's cards: card key (new for every change of a card) -> its HTML as a JSON
    #: string; a page is sent a card once per key, not with every view
    cards: Mapping[str, Mapping[str, bytes]] = field(default_factory=lambda: MappingProxyType({}))
    asks: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(
        default_factory=lambda: MappingProxyType({})
    )


@dataclass(frozen=True)
class Sent:
    """What a side's page sent for one of its lines, checked against what the line asked."""

    side: str
    line: str
    dice: tuple[str, ...] = ()
    plot: Mapping[str, Any] = field(default_factory=dict)
    #: the view version the page showed when it sent it
    seen: int = 0


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    line: str = Field(max_length=300)
    dice: list[str] | None = Field(None, max_length=16)
    plot: dict[str, int | bool | str] | None = Field(None, max_length=40)
    seen: int = Field(0, ge=0)


def _static(name: str) -> bytes:
    return resources.files("app.players").joinpath("static", name).read_bytes()


class _Rate:
    """A sliding window of request times per key."""

    def __init__(self, limit: int, window: float = WINDOW) -> None:
        self.limit, self.window = limit, window
        self._seen: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        q = self._seen.setdefault(key, deque())
        while q and now - q[0] > self.window:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        if len(self._seen) > 4096:  # forget idle keys
            self._seen = {k: v for k, v in self._seen.items() if v}
        return True


def _refuse(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=HEADERS)


def check_sent(side: str, body: _Body, asks: Mapping[str, Mapping[str, Any]]) -> Sent | str:
    """What a page sent, checked against what its line asks now: the ``Sent``, or why not."""
    ask = asks.get(body.line)
    if ask is None:
        return "this line asks for nothing from your page now (it may have been resolved)"
    if ask["kind"] == "dice":
        if body.dice is None or body.plot is not None:
            return "this line asks for dice"
        slots = ask["slots"]
        if len(body.dice) != len(slots):
            return f"{len(body.dice)} dice fields sent, the line has {len(slots)}"
        if not any(t.strip() for t in body.dice):
            return "type the dice you rolled first"
        for text, slot in zip(body.dice, slots, strict=True):
            faces = dice_tokens(text, slot["count"]) if _DICE_TEXT.match(text) else ["?"]
            if len(faces) > slot["count"]:
                return f"{slot['label']}: {len(faces)} dice typed, {slot['count']} rolled"
            for t in faces:
                if not (t.isdigit() and slot["low"] <= int(t) <= slot["high"]):
                    return f"{slot['label']}: {t} is not a face of a {slot['die']}"
        return Sent(side, body.line, dice=tuple(t.strip() for t in body.dice), seen=body.seen)
    if ask["kind"] == "plot":
        if body.plot is None or body.dice is not None:
            return "this line asks for a written plot"
        fields = {f["name"]: f for f in ask["fields"]}
        unknown = sorted(set(body.plot) - set(fields))
        if unknown:
            return f"not a field of this plot: {', '.join(unknown)}"
        for name, value in body.plot.items():
            f = fields[name]
            if f["kind"] == "bool" and not isinstance(value, bool):
                return f"{f['title']}: tick it or not"
            if f["kind"] == "int" and (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not f["low"] <= value <= f["high"]
            ):
                return f"{f['title']}: a whole number from {f['low']} to {f['high']}"
            if f["kind"] == "choice" and value not in f["options"]:
                return f"{f['title']}: one of {', '.join(f['options'])}"
        return Sent(side, body.line, plot=dict(body.plot), seen=body.seen)
    return "this line asks for nothing from your page yet"


class PlayersServer:
    """The server of the players' pages: ``start`` binds and serves in a thread, ``publish``
    hands it the views, ``stop`` ends it. ``send`` is called (on the server's thread) with
    each checked ``Sent``."""

    def __init__(
        self,
        tokens: SideTokens,
        send: Callable[[Sent], None],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        certfile: str | Path | None = None,
        keyfile: str | Path | None = None,
    ) -> None:
        self.tokens = tokens
        self.send = send
        self.host, self.port = host, port
        self.certfile = str(certfile) if certfile else None
        self.keyfile = str(keyfile) if keyfile else None
        self._published = Published()
        self.bound: tuple[str, int] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._streams: dict[str, int] = {}
        self._sends = _Rate(SENDS_PER_WINDOW)
        self._reads = _Rate(READS_PER_WINDOW)
        self._addresses = _Rate(PER_ADDRESS)
        self._closing = False
        self._page = _static("page.html")
        self._files = {
            "page.js": (_static("page.js"), "text/javascript; charset=utf-8"),
            "page.css": (_static("page.css"), "text/css; charset=utf-8"),
        }
        self.app = Starlette(
            routes=[
                Route("/s/{token}", self._page_of, methods=["GET"]),
                Route("/s/{token}/state", self._state, methods=["GET"]),
                Route("/s/{token}/events", self._events, methods=["GET"]),
                Route("/s/{token}/send", self._send, methods=["POST"]),
                Route("/static/{name}", self._file, methods=["GET"]),
            ]
        )

    # -- the desk's side ------------------------------------------------------------------------

    @property
    def scheme(self) -> str:
        return "https" if self.certfile else "http"

    @property
    def base(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    def link(self, side: str) -> str:
        """The link of the side's page (its token in it)."""
        return f"{self.base}/s/{self.tokens.by_side[side]}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def publish(self, published: Published) -> None:
        """New views (from the desk's thread): the live pages are told at once."""
        self._published = published
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._bump)
            except RuntimeError:  # the loop closed meanwhile: nobody to tell
                pass

    def revoked(self) -> None:
        """A token was revoked: its live pages are cut off now."""
        self.publish(self._published)

    def start(self, timeout: float = 10.0) -> None:
        """Bind where told and serve in a thread; ``PlayersServerError`` says why not."""
        import uvicorn

        ssl_args: dict[str, Any] = {}
        if self.certfile or self.keyfile:
            if not (self.certfile and self.keyfile):
                raise PlayersServerError("TLS needs both the certificate and its key file")
            try:
                ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
                    self.certfile, self.keyfile
                )
            except (OSError, ssl.SSLError) as e:
                raise PlayersServerError(
                    f"TLS: cannot use the certificate {self.certfile} with the key "
                    f"{self.keyfile}: {e}"
                ) from None
            ssl_args = {"ssl_certfile": self.certfile, "ssl_keyfile": self.keyfile}
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as e:
            sock.close()
            raise PlayersServerError(
                f"cannot listen on {self.host} port {self.port}: {e.strerror or e}"
            ) from None
        sock.listen(64)
        #: the address the socket is bound to: where the pages are served, and nowhere else
        self.bound = sock.getsockname()[:2]
        self.port = self.bound[1]
        config = uvicorn.Config(
            self.app,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="off",
            proxy_headers=False,
            server_header=False,
            date_header=False,
            timeout_graceful_shutdown=1,
            limit_concurrency=STREAMS + 32,
            h11_max_incomplete_event_size=16 * 1024,
            ws="none",
            **ssl_args,
        )
        self._server = uvicorn.Server(config)
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            self._changed = asyncio.Event()
            ready.set()
            try:
                loop.run_until_complete(self._server.serve(sockets=[sock]))
            except Exception:  # noqa: BLE001 - said in the desk's log; the desk carries on
                logger.exception("the players' server stopped")
            finally:
                sock.close()
                loop.close()

        self._closing = False
        self._thread = threading.Thread(target=run, name="airboss-players", daemon=True)
        self._thread.start()
        ready.wait(timeout)
        deadline = time.monotonic() + timeout
        while not self._server.started and time.monotonic() < deadline and self.running:
            time.sleep(0.01)
        if not self._server.started:
            self.stop()
            raise PlayersServerError("the players' server did not start (see the desk's log)")

    def stop(self) -> None:
        """End the server: every page's connection closes."""
        self._closing = True
        if self._server is not None:
            self._server.should_exit = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._bump)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(5)
        self._thread, self._server, self._loop = None, None, None

    # -- on the server's thread -----------------------------------------------------------------

    def _bump(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()

    def _side(self, request: Request) -> str | None:
        token = request.path_params.get("token", "")
        if not _TOKEN.match(token):
            return None
        return self.tokens.side_of(token)

    def _admit(self, request: Request) -> str | Response:
        """The side whose token the request names, or its refusal (too many requests from
        its address, or a token unknown or revoked)."""
        if not self._address_ok(request):
            return _refuse(429, "too many requests: wait a moment")
        side = self._side(request)
        return _refuse(404, _REVOKED) if side is None else side

    def _address_ok(self, request: Request) -> bool:
        client = request.client.host if request.client else "?"
        return self._addresses.allow(client)

    async def _page_of(self, request: Request) -> Response:
        if not self._address_ok(request):
            return _refuse(429, "too many requests: wait a moment")
        if self._side(request) is None:
            return Response(
                _GONE, status_code=404, media_type="text/html; charset=utf-8", headers=HEADERS
            )
        return Response(self._page, media_type="text/html; charset=utf-8", headers=HEADERS)

    async def _file(self, request: Request) -> Response:
        found = self._files.get(request.path_params.get("name", ""))
        if found is None:
            return _refuse(404, "no such file")
        return Response(found[0], media_type=found[1], headers=HEADERS)

    async def _state(self, request: Request) -> Response:
        side = self._admit(request)
        if isinstance(side, Response):
            return side
        if not self._reads.allow(side):
            return _refuse(429, "too many requests: wait a moment")
        pub = self._published
        view = pub.views.get(side)
        if view is None:
            return _refuse(503, "the desk has nothing to show yet")
        cards = pub.cards.get(side, {})
        html = b",".join(json.dumps(k).encode() + b":" + v for k, v in cards.items())
        body = b'{"card_html":{' + html + b"}," + view[1:]
        return Response(body, media_type="application/json", headers=HEADERS)

    async def _events(self, request: Request) -> Response:
        """The side's view now, then again on every change: a page that lost the network and
        comes back (its browser reconnects by itself) catches up at once."""
        side = self._admit(request)
        if isinstance(side, Response):
            return side
        if self._streams.get(side, 0) >= STREAMS_PER_SIDE or sum(self._streams.values()) >= (
            STREAMS
        ):
            return _refuse(503, "too many pages open: close one and reload")
        token = request.path_params["token"]
        self._streams[side] = self._streams.get(side, 0) + 1

        async def stream() -> Any:
            last: bytes | None = None
            sent: set[str] = set()
            try:
                yield f"retry: {RETRY_MS}\n\n".encode()
                while not self._closing:
                    if self.tokens.side_of(token) != side:
                        yield b"event: revoked\ndata: {}\n\n"
                        return
                    pub = self._published
                    view = pub.views.get(side)
                    if view is not None and view != last:
                        cards = pub.cards.get(side, {})
                        for key, html in cards.items():  # the cards changed, before the view
                            if key not in sent:
                                head = b'event: card\ndata: {"key":' + json.dumps(key).encode()
                                yield head + b',"html":' + html + b"}\n\n"
                        sent = set(cards)
                        last = view
                        yield b"id: %d\nevent: view\ndata: " % pub.version + view + b"\n\n"
                    changed = self._changed
                    if changed is None:
                        return
                    try:
                        await asyncio.wait_for(changed.wait(), KEEPALIVE)
                    except TimeoutError:
                        yield b": still here\n\n"
            finally:
                self._streams[side] = max(0, self._streams.get(side, 1) - 1)

        headers = {**HEADERS, "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def _send(self, request: Request) -> Response:
        side = self._admit(request)
        if isinstance(side, Response):
            return side
        origin = request.headers.get("origin")
        if origin is not None and origin != self._origin(request):
            return _refuse(403, "refused: sent from another site's page")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _refuse(415, "send JSON")
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return _refuse(413, "too large")
        if not self._sends.allow(side):
            return _refuse(429, "too many sent: wait a moment")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                return _refuse(413, "too large")
        try:
            body = _Body.model_validate(json.loads(raw))
        except (ValueError, ValidationError):
            return _refuse(400, "not what a page sends")
        checked = check_sent(side, body, self._published.asks.get(side, {}))
        if isinstance(checked, str):
            return _refuse(409, checked)
        self.send(checked)
        return JSONResponse({"said": "Sent: waiting for the umpire"}, 202, headers=HEADERS)

    def _origin(self, request: Request) -> str:
        return f"{self.scheme}://{request.headers.get('host', '')}"


_REVOKED = "this link is not valid: revoked, or from another game. Ask the umpire for the new one."
_GONE = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
    b'content="width=device-width, initial-scale=1"><title>Airboss</title></head><body>'
    b"<h1>This link is not valid</h1><p>It was revoked, or it is from another game. Ask the "
    b"umpire for your side's new link.</p></body></html>"
)
