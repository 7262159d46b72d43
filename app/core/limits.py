"""The documented limits of a game (issue 31): what one text field, one event and one game may
hold. They are checked when an action is appended (``GameSession`` refuses it, nothing is
written) and when a game is opened (``app.store.bounds`` reads the stored lengths, never the
values, and refuses the file unchanged), so a name of 64 MB can neither get in nor stall the
desk that opens it.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import RuleViolation
from app.core.events import Envelope, event_to_json

#: characters in one text field: an aircraft's name or side, a game's title, a reason, a
#: log line (narrative), the actor, a rule reference, a procedure id
MAX_TEXT = 10_000
#: characters of one event as stored (its JSON payload: the card of an aircraft, the values
#: of a procedure's record ...)
MAX_PAYLOAD = 1_000_000
#: events in one game's log (undo, redo and print records included)
MAX_EVENTS = 10_000_000
#: bytes of one stored snapshot of a game's state
MAX_SNAPSHOT = 256_000_000


def amount(chars: int) -> str:
    """A length as the umpire reads it: ``"67,108,864 characters (64.0 MB)"``."""
    if chars < 1_000_000:
        return f"{chars:,} characters"
    return f"{chars:,} characters ({chars / 2**20:.1f} MB)"


def text(field: str, value: str) -> None:
    """``RuleViolation`` naming the field, its size and the limit if ``value`` is too long."""
    if len(value) > MAX_TEXT:
        raise RuleViolation(
            f"{field}: {amount(len(value))}; the limit is {MAX_TEXT:,} characters. "
            "Nothing was recorded."
        )


def check_append(envelopes: Sequence[Envelope]) -> None:
    """Refuse one action whose text, payload or place in the log passes a limit."""
    for env in envelopes:
        if env.seq > MAX_EVENTS:
            raise RuleViolation(
                f"this game holds {MAX_EVENTS:,} events, the most one game may; start a new "
                "game (File > Save a copy keeps this one). Nothing was recorded."
            )
        text("the log line", env.narrative)
        text("the actor", env.actor)
        text("the rule", env.rule)
        size = len(event_to_json(env.event))
        if size > MAX_PAYLOAD:
            raise RuleViolation(
                f"{env.event.kind.replace('_', ' ')}: the event is {amount(size)}; the limit "
                f"is {MAX_PAYLOAD:,} characters (a name, a card or a value far too long?). "
                "Nothing was recorded."
            )
