"""Names are text (issue 46): no control characters in what the umpire types, and none shown
raw from an older file.

An aircraft's name, a side, a game's title, a reason or the name of a die is text that Airboss
prints: in the desk, in ``airboss log``, ``--list`` and ``ruling``, on the cards. A NUL, a BEL,
an ANSI escape (which colours a terminal or moves its cursor), a backspace, CR or LF (which fake
a log line), or a bidirectional override (which turns what follows around) in one would act on
whatever prints it. So they are refused when typed (``refuse_control``), and shown as visible
escapes (``shown``: ``\\x1b``, ``\\u202e``) when an older file holds them.

The characters: Unicode's controls (category Cc: C0, DEL, C1), its line and paragraph
separators, and the format characters that steer the direction of text or hide it (bidi
embeddings, overrides, isolates and marks, the byte-order mark). Joiners, soft hyphens and the
like, which text in many languages and emoji need, are left alone.
"""

from __future__ import annotations

import re
import unicodedata

from app.core.errors import RuleViolation

_STEERING = (
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\u2028\u2029"
)
#: every character refused in typed text and escaped when shown
CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{_STEERING}]")
#: how the usual ones are shown; any other as ``\\xNN`` or ``\\uNNNN``
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    named = _NAMED.get(c)
    if named is not None:
        return named
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(value: str) -> str:
    """``value`` with every control character shown as a visible escape (``\\x1b``); text
    without one is returned as it is, at the cost of one check."""
    if value.isprintable():
        return value
    return CONTROL.sub(_escape, value)


def describe(c: str) -> str:
    """A character as the umpire reads it: ``U+001B (ESCAPE)``."""
    name = unicodedata.name(c, "") or {
        "\x00": "NUL",
        "\x07": "BEL",
        "\x08": "BACKSPACE",
        "\t": "TAB",
        "\n": "LINE FEED",
        "\r": "CARRIAGE RETURN",
        "\x1b": "ESCAPE",
        "\x7f": "DELETE",
    }.get(c, "a control character")
    return f"U+{ord(c):04X} ({name})"


def refuse_control(field: str, value: str | None) -> None:
    """``RuleViolation`` naming the field and the character if ``value`` holds one that is
    not text (see the module's docstring); nothing is recorded."""
    if value is None or value.isprintable():
        return
    m = CONTROL.search(value)
    if m is None:
        return
    raise RuleViolation(
        f"{field} {shown(value)!r} holds {describe(m.group())}, which is not text (a tab, a "
        "line break, a terminal escape or a direction override); type it without it. "
        "Nothing was recorded."
    )


def file_stem(text: str, fallback: str = "game") -> str:
    """``text`` (a game's title) as the start of a file name that every system takes: letters,
    digits, spaces, "-" and "_" only ("Demo: Phantoms over the Gulf" -> "Demo Phantoms over the
    Gulf"; a ":" or "/" in a name is refused on Windows or makes a folder), ``fallback`` when
    nothing is left."""
    return " ".join("".join(c for c in text if c.isalnum() or c in " -_").split()) or fallback
