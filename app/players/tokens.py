"""One long random token per side (issue 48): new for each game, revoked in one call.

The token is the whole of a page's right: it is in the page's link (and QR code), and every
request names it. A token maps to one side only; looking one up compares it in constant time
with each token held. The mapping is replaced whole on every change (never edited in place),
so the server thread reads a consistent one without a lock.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable, Mapping
from types import MappingProxyType

#: bytes of randomness in a token (256 bits; 43 characters in the link)
TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class SideTokens:
    """The current token of each side of the game shown."""

    def __init__(self) -> None:
        self._by_side: Mapping[str, str] = MappingProxyType({})

    def new_game(self, sides: Iterable[str]) -> None:
        """Another game (or the same one afresh): a new token for every side, the old ones
        refused from now on."""
        self._by_side = MappingProxyType({side: new_token() for side in sides})

    def add_sides(self, sides: Iterable[str]) -> None:
        """Sides that appeared in the game (an aircraft of a new side): a token each."""
        new = [s for s in sides if s not in self._by_side]
        if new:
            self._by_side = MappingProxyType({**self._by_side, **{s: new_token() for s in new}})

    def revoke(self, side: str) -> str:
        """The side's token is refused from now on; its new one (a new link) is returned."""
        if side not in self._by_side:
            raise KeyError(f"no side {side!r} in this game")
        token = new_token()
        self._by_side = MappingProxyType({**self._by_side, side: token})
        return token

    def clear(self) -> None:
        """No game: every token refused."""
        self._by_side = MappingProxyType({})

    @property
    def by_side(self) -> Mapping[str, str]:
        return self._by_side

    def side_of(self, token: str) -> str | None:
        """The side this token is for, or ``None`` (unknown, revoked, or of another game)."""
        if not isinstance(token, str) or len(token) > 200:
            return None
        found = None
        given = token.encode("utf-8", "replace")
        for side, held in self._by_side.items():
            if hmac.compare_digest(given, held.encode()):
                found = side
        return found
