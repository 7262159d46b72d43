"""The passwords of a club's server (issue 30): never in a URL that is shown or remembered,
kept in the computer's keyring (the ``keyring`` package) where there is one, otherwise held in
memory for this run once the umpire has typed them.

A server URL is shown and remembered without its password, or with ``***`` in its place; a
URL whose password is missing or ``***`` is completed from the keyring when it is connected.
Nothing here imports SQLAlchemy (the desk names URLs before any store is loaded).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from urllib.parse import quote, unquote

#: the keyring's service name for every Airboss server password
SERVICE = "airboss"
#: the club server's group roles (``app.club_server``): one that acts, one that only reads;
#: each machine logs in as a member of one (``airboss_station_2``)
STATION = "airboss_station"
VIEWER = "airboss_viewer"
#: what stands for a password in every URL that is shown or remembered
HIDDEN = "***"

#: scheme://user:password@rest
_URL = re.compile(
    r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?P<user>[^:@/?#]*)(?::(?P<pw>[^@/?#]*))?"
    r"@(?P<rest>.*)$",
    re.S,
)

#: passwords typed in this run (when there is no keyring, or before it answered)
_typed: dict[str, str] = {}
#: asked for a password the keyring does not hold (the CLI prompts; the desk's dialog types
#: it in first): ``ask(shown_url)`` gives the password or ``None``
ask: Callable[[str], str | None] | None = None

log = logging.getLogger(__name__)


def _parts(url: str) -> tuple[str, str, str | None, str] | None:
    m = _URL.match(url)
    if m is None:
        return None
    pw = m["pw"]
    return m["scheme"], unquote(m["user"]), None if pw is None else unquote(pw), m["rest"]


def shown(url: str) -> str:
    """The URL as it may be shown, printed, logged or remembered: ``***`` for its password."""
    p = _parts(str(url))
    if p is None or p[2] is None:
        return str(url)
    scheme, user, _pw, rest = p
    return f"{scheme}{quote(user, safe='')}:{HIDDEN}@{rest}"


def user_of(url: str) -> str | None:
    p = _parts(url)
    return None if p is None else p[1]


def with_user(url: str, user: str) -> str:
    """The same server and database as another role (its password not carried over)."""
    p = _parts(url)
    if p is None:
        return url
    return f"{p[0]}{quote(user, safe='')}@{p[3]}"


def key(url: str) -> str:
    """The keyring's name of one role on one server: ``user@host:port/database?...``."""
    p = _parts(url)
    if p is None:
        return url.split("://", 1)[-1]
    return f"{p[1]}@{p[3]}"


def _keyring() -> object | None:
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:  # noqa: BLE001 - a broken keyring is no keyring
        return None
    if isinstance(backend, fail.Keyring):
        return None
    return keyring


def lookup(url: str) -> str | None:
    """The password of this URL's role: typed in this run, else from the keyring."""
    k = key(url)
    if k in _typed:
        return _typed[k]
    ring = _keyring()
    if ring is not None:
        try:
            found = ring.get_password(SERVICE, k)  # type: ignore[attr-defined]
        except Exception as e:  # noqa: BLE001 - a locked or broken keyring: ask instead
            log.warning("the keyring could not be read: %s", e)
            found = None
        if found:
            return str(found)
    return None


def remember(url: str, password: str) -> bool:
    """Keep a password for this run and in the keyring; whether the keyring took it."""
    k = key(url)
    _typed[k] = password
    ring = _keyring()
    if ring is None:
        return False
    try:
        ring.set_password(SERVICE, k, password)  # type: ignore[attr-defined]
    except Exception as e:  # noqa: BLE001 - kept for this run only
        log.warning("the keyring could not keep the password: %s", e)
        return False
    return True


def forget(url: str) -> None:
    """Drop a password that the server refused (from this run and the keyring)."""
    k = key(url)
    _typed.pop(k, None)
    ring = _keyring()
    if ring is not None:
        try:
            ring.delete_password(SERVICE, k)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001, S110 - nothing was kept there
            pass


def for_connecting(url: str) -> tuple[str, str | None]:
    """(the URL without a password, the password to send): the URL's own password if it
    holds one (kept for this run and in the keyring), else the remembered one, else what
    ``ask`` gives, else ``None`` (the server then says it needs one)."""
    p = _parts(url)
    if p is None:
        return url, None
    bare = f"{p[0]}{quote(p[1], safe='')}@{p[3]}"
    if p[2] is not None and p[2] != HIDDEN:
        remember(bare, p[2])
        return bare, p[2]
    found = lookup(bare)
    if found is None and ask is not None:
        found = ask(shown(bare))
        if found:
            remember(bare, found)
    return bare, found


def for_reading(url: str) -> str:
    """The URL a read-only desk uses (issue 30): a station's address becomes the viewer's when
    this computer holds the viewer's password, so read-only holds on the server too."""
    user = user_of(url) or ""
    if user != STATION and not user.startswith(STATION + "_"):
        return url
    number = user.removeprefix(STATION).strip("_")
    for viewer in dict.fromkeys((VIEWER + "_" + number, VIEWER + "_1", VIEWER)):
        candidate = with_user(url, viewer)
        if lookup(candidate) is not None:
            return candidate
    return url
