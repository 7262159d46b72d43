"""The log read in order, without Qt: which actions are undone now, the turn each event
happened in, aircraft names and sides, the dice each procedure rolled, and what touched each
aircraft. The game log, the critical-hit log, the ledgers' history and ``airboss log`` all read
the log through this one index (fed once with the whole log, then with each append).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    ClockSet,
    Envelope,
    ProcedureResolved,
    Restored,
    Reverted,
)

__all__ = ["LogReader", "roll_text", "undone_in"]


def undone_in(events: Sequence[Envelope]) -> set[int]:
    """The actions of a log that are reverted at its end."""
    reader = LogReader()
    reader.feed(events)
    return reader.undone


class LogReader:
    """Reads a game log in order: the turn each event happened in, aircraft names and sides,
    and which actions are undone now. Fed once with the whole log, then with each append."""

    def __init__(self) -> None:
        self.undone: set[int] = set()
        self.names: dict[str, str] = {}
        self.sides: dict[str, str] = {}
        self._clock_of: dict[int, int] = {}  # action -> the turn its ClockSet set
        self._clock: dict[int, int] = {}  # the clock actions that count now
        self._rolls: dict[int, str] = {}  # action -> the dice its procedure rolled
        self._latest: int | None = None  # the newest clock action that counts
        self.by_aircraft: dict[str, list[int]] = {}  # aircraft -> the actions that touched it
        #: clock action (None: before the first) -> (action, procedure, who) resolved there
        self._acted_at: dict[int | None, list[tuple[int, str, str]]] = {}

    @property
    def turn(self) -> int:
        return self._clock[self._latest] if self._latest is not None else 1

    def _newest_clock(self) -> int | None:
        return max(self._clock) if self._clock else None

    def rolls(self, action: int) -> str:
        return self._rolls.get(action, "")

    def acted_now(self) -> set[tuple[str, str]]:
        """``(procedure, aircraft)`` of every procedure resolved, and not undone, since the
        game reached its current step ("who acts now" ticks them off)."""
        return {
            (procedure, who)
            for action, procedure, who in self._acted_at.get(self._latest, ())
            if action not in self.undone
        }

    def feed(self, envelopes: Iterable[Envelope]) -> tuple[list[tuple[Envelope, int]], set[int]]:
        """The envelopes with the turn each happened in, and the actions undone or redone."""
        out: list[tuple[Envelope, int]] = []
        toggled: set[int] = set()
        for env in envelopes:
            ev = env.event
            if isinstance(ev, Reverted):
                self.undone.add(ev.action)
                if self._clock.pop(ev.action, None) is not None and ev.action == self._latest:
                    self._latest = self._newest_clock()  # only on undoing a clock step
                toggled.add(ev.action)
            elif isinstance(ev, Restored):
                self.undone.discard(ev.action)
                if ev.action in self._clock_of:
                    self._clock[ev.action] = self._clock_of[ev.action]
                    if self._latest is None or ev.action > self._latest:
                        self._latest = ev.action
                toggled.add(ev.action)
            elif isinstance(ev, ClockSet):
                self._clock_of[env.action] = ev.turn
                self._clock[env.action] = ev.turn
                self._latest = env.action
            elif isinstance(ev, AircraftAdded):
                self.names[ev.aircraft] = ev.name
                self.sides[ev.aircraft] = ev.side
            elif isinstance(ev, AircraftChanged):
                if ev.name:
                    self.names[ev.aircraft] = ev.name
                if ev.side:
                    self.sides[ev.aircraft] = ev.side
            elif isinstance(ev, ProcedureResolved):
                if ev.rolls:
                    self._rolls[env.action] = ", ".join(roll_text(r) for r in ev.rolls)
                if ev.attacker:
                    acted = self._acted_at.setdefault(self._latest, [])
                    acted.append((env.action, ev.procedure, ev.attacker))
            for aircraft in ev.touches():
                actions = self.by_aircraft.setdefault(aircraft, [])
                if not actions or actions[-1] != env.action:
                    actions.append(env.action)
            out.append((env, self.turn))
        return out, toggled


def roll_text(roll: dict[str, Any]) -> str:
    dice = roll.get("dice") or []
    total = sum(int(d) for d in dice)
    faces = "+".join(str(d) for d in dice)
    text = f"{roll.get('spec', '')}={total}" if len(dice) == 1 else f"{roll.get('spec')}={faces}"
    return text + (" (typed)" if roll.get("typed") else "")
