"""What the players' pages sent, waiting for the umpire's key (issue 48).

A page never changes the game: the dice its players typed for a "who acts now" line, or a
written plot (Advanced Air Force rule 2), become a *pending entry* on that line. The umpire
accepts it with one key (the desk opens the line in its draft and fills what was sent into the
form, so what it shows is what resolves) or rejects it; the page is told either way. A written
plot stays sealed at the desk (its values unshown) until every written plot of the step is in.

Pure Python: the desk's model keeps one ``PendingBook``; the players' views read it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from app.core.acting import ActingLine

#: a "who acts now" line: procedure id, the line's aircraft (or side), the other aircraft or ""
LineKey = tuple[str, str, str]
State = Literal["pending", "accepted", "rejected", "closed"]
#: entries kept per side for its page (the newest)
KEEP = 20


def line_key(line: ActingLine) -> LineKey:
    """The key of a "who acts now" line: its procedure, who acts and the other aircraft."""
    return (line.procedure, line.who, line.other)


def key_text(key: LineKey) -> str:
    """The key as the pages name it: ``procedure|who|other``."""
    return "|".join(key)


@dataclass(frozen=True)
class Entry:
    """One thing a side's page sent for one line."""

    id: int
    side: str
    line: LineKey
    #: the aircraft's (or side's) name, and the line's words, as the desk showed them
    name: str
    what: str
    #: the dice as typed on the page, one (printed label, die name, text) per field
    dice: tuple[tuple[str, str, str], ...] = ()
    #: a written plot: (field name, printed title, value) per field
    plot: tuple[tuple[str, str, Any], ...] = ()
    #: a written plot (sealed at the desk until the reveal)
    written: bool = False
    state: State = "pending"
    #: why it was rejected or closed, said on the page
    why: str = ""
    sent_at: float = 0.0
    #: the turn and step it was sent in (a line of the same aircraft next turn is another)
    clock: tuple[int, int] = (0, 0)

    @property
    def typed(self) -> str:
        """The dice typed, as the desk says them: ``7, 4``."""
        return ", ".join(t.strip() for _, _, t in self.dice if t.strip())

    def desk_text(self, revealed: bool) -> str:
        """What the desk's line says of it: ``Olds 1's player typed 7, 4``."""
        if self.plot:
            if self.written and not revealed:
                return f"{self.name}'s player wrote the plot (sealed until every plot is in)"
            values = ", ".join(f"{title} {_shown(v)}" for _, title, v in self.plot)
            return f"{self.name}'s player wrote: {values}"
        return f"{self.name}'s player typed {self.typed}"

    def page_text(self) -> str:
        """What the side's own page says of it."""
        sent = self.typed if self.dice else "the plot"
        if self.state == "pending":
            return f"Sent {sent}: waiting for the umpire"
        if self.state == "accepted":
            return f"The umpire took {sent}"
        if self.state == "rejected":
            return f"The umpire rejected {sent}" + (f": {self.why}" if self.why else "")
        return f"Not used: {self.why}" if self.why else "Not used"


def _shown(v: Any) -> str:
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


class PendingBook:
    """The entries the pages sent this game: at most one pending per line (a newer one from
    the same line replaces it)."""

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._next = 1
        #: bumped on every change (the views and the desk's lines redraw on it)
        self.version = 0

    def clear(self) -> None:
        self._entries, self.version = [], self.version + 1

    def add(
        self,
        side: str,
        line: LineKey,
        name: str,
        what: str,
        *,
        dice: Iterable[tuple[str, str, str]] = (),
        plot: Iterable[tuple[str, str, Any]] = (),
        written: bool = False,
        clock: tuple[int, int] = (0, 0),
    ) -> Entry:
        """A page sent this: pending on its line (the entry it replaces is closed)."""
        for e in self.pending():
            if e.line == line:
                self._set(e, "closed", "replaced by what was sent after it")
        entry = Entry(
            self._next,
            side,
            line,
            name,
            what,
            tuple(dice),
            tuple(plot),
            written,
            sent_at=time.time(),
            clock=clock,
        )
        self._next += 1
        self._entries.append(entry)
        kept: list[Entry] = []
        for e in reversed(self._entries):  # the newest KEEP per side, and every pending one
            if e.state == "pending" or sum(k.side == e.side for k in kept) < KEEP:
                kept.append(e)
        self._entries = kept[::-1]
        self.version += 1
        return entry

    def pending(self) -> list[Entry]:
        return [e for e in self._entries if e.state == "pending"]

    def on_line(self, line: LineKey) -> Entry | None:
        """The entry waiting on this line, if any."""
        return next((e for e in self.pending() if e.line == line), None)

    def get(self, entry_id: int) -> Entry | None:
        return next((e for e in self._entries if e.id == entry_id), None)

    def of_side(self, side: str) -> list[Entry]:
        """The side's entries, newest first (its page shows what became of each)."""
        return [e for e in reversed(self._entries) if e.side == side]

    def accept(self, entry: Entry) -> None:
        self._set(entry, "accepted", "")

    def reject(self, entry: Entry, why: str = "") -> None:
        self._set(entry, "rejected", why)

    def close(self, entry: Entry, why: str) -> None:
        """Not used: its line was resolved or left behind before the umpire took it."""
        self._set(entry, "closed", why)

    def close_gone(self, listed: Iterable[LineKey], why: str) -> list[Entry]:
        """Close every pending entry whose line is no longer listed; those closed."""
        keep = set(listed)
        gone = [e for e in self.pending() if e.line not in keep]
        for e in gone:
            self._set(e, "closed", why)
        return gone

    def revealed(
        self, written_lines: Iterable[LineKey], done: Iterable[LineKey], clock: tuple[int, int]
    ) -> bool:
        """Every written plot of the step (``clock``) is in (pending or taken) or its line
        resolved: the reveal (Advanced Air Force rule 2: no plot is seen before all are
        written)."""
        finished = set(done)
        have = {
            e.line
            for e in self._entries
            if e.plot and e.clock == clock and e.state in ("pending", "accepted")
        }
        return all(k in have or k in finished for k in written_lines)

    def _set(self, entry: Entry, state: State, why: str) -> None:
        for i, e in enumerate(self._entries):
            if e.id == entry.id:
                self._entries[i] = replace(e, state=state, why=why)
                self.version += 1
                return
