"""The log read in order, without Qt: which actions are undone now, the turn each event
happened in, aircraft names and sides, the dice each procedure rolled, and what touched each
aircraft. The game log, the critical-hit log, the ledgers' history and ``airboss log`` all read
the log through this one index (fed a page at a time with the whole log, then with each
append).

A 100,000-event game must not sit in memory as envelopes (issue 20): the reader keeps a small
summary of each event (``LogEntry``) and of the few kinds the panels tabulate (``Hit``,
``LedgerChange``), and drops the envelopes it was fed. Nor must reading it stall the desk:
``SlicedRead`` feeds a reader a slice at a time (a few milliseconds each), from wherever the
log is stored, so the desk can take a turn of its event loop between slices.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any, Literal, Protocol

from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    CardsPrinted,
    ClockSet,
    CriticalHit,
    DamageTaken,
    Event,
    LedgerAdded,
    LedgerChanged,
    LedgerLimitChanged,
    ProcedureResolved,
    Restored,
    Reverted,
)
from app.core.text import shown

__all__ = [
    "Hit",
    "LedgerChange",
    "LogEntry",
    "LogReader",
    "Logged",
    "SlicedRead",
    "roll_text",
    "undone_in",
]


class Logged(Protocol):
    """An event as the reader reads it: an ``Envelope``, or a store's lighter row of one with
    the same fields (``app.store.StoredEvent``: no envelope built around the event)."""

    @property
    def seq(self) -> int: ...
    @property
    def action(self) -> int: ...
    @property
    def time(self) -> datetime: ...
    @property
    def actor(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def narrative(self) -> str: ...
    @property
    def event(self) -> Event: ...


def undone_in(events: Iterable[Logged]) -> set[int]:
    """The actions of a log that are reverted at its end."""
    reader = LogReader()
    reader.feed(events)
    return reader.undone


class LogEntry:
    """One event as the log lists it: where it sits, when (POSIX seconds), who, which rule,
    what it says and the turn it happened in; for a clock step, the turn it moved to. The
    event itself is not kept."""

    __slots__ = (
        "action",
        "actor",
        "clock_turn",
        "meta",
        "narrative",
        "rule",
        "seq",
        "time",
        "turn",
    )

    def __init__(
        self,
        seq: int,
        action: int,
        time: float,
        actor: str,
        rule: str,
        narrative: str,
        turn: int,
        *,
        meta: bool = False,
        clock_turn: int | None = None,
    ) -> None:
        self.seq = seq
        self.action = action
        self.time = time
        self.actor = actor
        self.rule = rule
        self.narrative = narrative
        self.turn = turn
        #: an undo or redo record, which steers the log rather than changes the game
        self.meta = meta
        #: a clock step (``ClockSet``): the turn it moved to
        self.clock_turn = clock_turn

    @property
    def when(self) -> datetime:
        return datetime.fromtimestamp(self.time, UTC)


@dataclass(frozen=True, slots=True)
class Hit:
    """One row of the critical-hit log: damage or a critical hit, with the names and sides as
    they were when it happened."""

    seq: int
    action: int
    turn: int
    side: str
    aircraft: str
    name: str
    roll: str
    result: str
    rule: str
    narrative: str


@dataclass(frozen=True, slots=True)
class LedgerChange:
    """One line of a ledger's history: its starting value (``start``), a spend or refill
    (``delta``) or a new maximum (``limit``), and why."""

    seq: int
    action: int
    turn: int
    kind: Literal["start", "delta", "limit"]
    amount: Fraction
    why: str


class LogReader:
    """Reads a game log in order: the turn each event happened in, aircraft names and sides,
    which actions are undone now, and the summaries the panels show. Fed once with the whole
    log (any iterable: a page at a time), then with each append."""

    def __init__(self) -> None:
        self.undone: set[int] = set()
        self.names: dict[str, str] = {}
        self.sides: dict[str, str] = {}
        #: every event fed, oldest first
        self.entries: list[LogEntry] = []
        #: damage and critical hits, oldest first
        self.hits: list[Hit] = []
        #: (aircraft, ledger) -> its history, oldest first
        self.ledgers: dict[tuple[str, str], list[LedgerChange]] = {}
        self.by_aircraft: dict[str, list[int]] = {}  # aircraft -> the actions that touched it
        self._clock_of: dict[int, int] = {}  # action -> the turn its ClockSet set
        self._clock: dict[int, int] = {}  # the clock actions that count now
        self._rolls: dict[int, str] = {}  # action -> the dice its procedure rolled
        self._latest: int | None = None  # the newest clock action that counts
        #: clock action (None: before the first) -> (action, procedure, who) resolved there
        self._acted_at: dict[int | None, list[tuple[int, str, str]]] = {}
        #: the newest action with a narrative, and that narrative (the "why" of its changes)
        self._said: tuple[int, str] = (0, "")
        #: one copy of each actor and rule text, shared by every entry that names it
        self._texts: dict[str, str] = {}
        #: the newest cards printed: when (a timestamp) and where ("" when not said)
        self.last_printed: tuple[float, str] | None = None

    @property
    def turn(self) -> int:
        return self._clock[self._latest] if self._latest is not None else 1

    def _newest_clock(self) -> int | None:
        return max(self._clock) if self._clock else None

    def rolls(self, action: int) -> str:
        return self._rolls.get(action, "")

    def acted_now(self) -> set[tuple[str, str]]:
        """``(procedure, aircraft)`` of every procedure resolved, and not undone, since the
        game reached its current step ("who acts now" ticks them off); ``""`` for a procedure
        of the whole game (an initiative roll)."""
        return {
            (procedure, who)
            for action, procedure, who in self._acted_at.get(self._latest, ())
            if action not in self.undone
        }

    def feed(self, envelopes: Iterable[Logged]) -> set[int]:
        """Read ``envelopes`` (kept only as summaries); the actions they undid or redid."""
        toggled: set[int] = set()
        for env in envelopes:
            ev = env.event
            # the event types are final: ``type() is`` costs less than isinstance on pydantic's
            # ABC-based classes, which counts on a 100,000-event log
            if type(ev) is Reverted:
                self.undone.add(ev.action)
                if self._clock.pop(ev.action, None) is not None and ev.action == self._latest:
                    self._latest = self._newest_clock()  # only on undoing a clock step
                toggled.add(ev.action)
            elif type(ev) is Restored:
                self.undone.discard(ev.action)
                if ev.action in self._clock_of:
                    self._clock[ev.action] = self._clock_of[ev.action]
                    if self._latest is None or ev.action > self._latest:
                        self._latest = ev.action
                toggled.add(ev.action)
            elif type(ev) is ClockSet:
                self._clock_of[env.action] = ev.turn
                self._clock[env.action] = ev.turn
                self._latest = env.action
            elif type(ev) is AircraftAdded:
                self.names[ev.aircraft] = ev.name
                self.sides[ev.aircraft] = ev.side
            elif type(ev) is AircraftChanged:
                if ev.name:
                    self.names[ev.aircraft] = ev.name
                if ev.side:
                    self.sides[ev.aircraft] = ev.side
            elif type(ev) is ProcedureResolved:
                if ev.rolls:
                    self._rolls[env.action] = ", ".join(roll_text(r) for r in ev.rolls)
                # a roll of the whole game (the initiative of every plane) acts as "" (issue 29)
                acted = self._acted_at.setdefault(self._latest, [])
                acted.append((env.action, ev.procedure, ev.attacker or ""))
            for aircraft in ev.touches():
                actions = self.by_aircraft.setdefault(aircraft, [])
                if not actions or actions[-1] != env.action:
                    actions.append(env.action)
            self._summarise(env)
        return toggled

    def _summarise(self, env: Logged) -> None:
        """Keep the entry of ``env`` and, for damage, critical hits and ledgers, their row."""
        ev, turn = env.event, self.turn
        # one int object for the common case of an action of one event
        action = env.seq if env.action == env.seq else env.action
        if env.narrative:
            self._said = (action, env.narrative)
        text = self._texts.setdefault
        self.entries.append(
            LogEntry(
                env.seq,
                action,
                env.time.timestamp(),
                text(env.actor, env.actor),
                text(env.rule, env.rule),
                env.narrative,
                turn,
                meta=type(ev) is Reverted or type(ev) is Restored,
                clock_turn=ev.turn if isinstance(ev, ClockSet) else None,
            )
        )
        said = self._said[1] if self._said[0] == action else ""
        if isinstance(ev, DamageTaken | CriticalHit):
            self.hits.append(self._hit(env, ev, turn, said))
        elif isinstance(ev, AircraftAdded):
            for lid, start in ev.ledgers.items():
                amount = Fraction(start)
                self.ledgers[(ev.aircraft, lid)] = [
                    LedgerChange(env.seq, action, turn, "start", amount, "card")
                ]
        elif isinstance(ev, LedgerAdded):
            self.ledgers[(ev.aircraft, ev.ledger)] = [
                LedgerChange(
                    env.seq, action, turn, "start", Fraction(ev.value), shown(ev.reason) or said
                )
            ]
        elif isinstance(ev, LedgerChanged):
            self.ledgers.setdefault((ev.aircraft, ev.ledger), []).append(
                LedgerChange(
                    env.seq, action, turn, "delta", Fraction(ev.delta), shown(ev.reason) or said
                )
            )
        elif isinstance(ev, LedgerLimitChanged):
            self.ledgers.setdefault((ev.aircraft, ev.ledger), []).append(
                LedgerChange(env.seq, action, turn, "limit", Fraction(ev.maximum), said)
            )
        elif isinstance(ev, CardsPrinted):
            self.last_printed = (env.time.timestamp(), ev.where)

    def _hit(self, env: Logged, ev: DamageTaken | CriticalHit, turn: int, said: str) -> Hit:
        if isinstance(ev, DamageTaken):
            result = f"{ev.points} damage" if ev.points else ""
            boxes = ", ".join(f"{box} {n:+d}" for box, n in ev.boxes.items())
            result = ", ".join(p for p in (result, boxes) if p)
            if ev.source:
                result += f" from {self.names.get(ev.source, ev.source)}"
            roll = self.rolls(env.action)
            rule = env.rule
        else:
            result = ev.result + (f": {ev.effect}" if ev.effect else "")
            roll = str(ev.roll) if ev.roll is not None else self.rolls(env.action)
            rule = ev.rule or env.rule
        return Hit(
            seq=env.seq,
            action=env.action,
            turn=turn,
            side=self.sides.get(ev.aircraft, ""),
            aircraft=ev.aircraft,
            name=self.names.get(ev.aircraft, ev.aircraft),
            roll=roll,
            result=result,
            rule=rule,
            narrative=said,
        )


class SlicedRead:
    """A log read into a ``LogReader`` a slice at a time (issue 20: the first read of a
    100,000-event log took 1.7 s in one go).

    ``pages(after)`` gives the stored log after sequence number ``after``, oldest first (a
    store's paged read). Each ``step`` feeds the reader until its time is up or the log ends.
    Between steps the log may grow (an action taken, undone, or taken in from another window):
    the read carries on from the last event it fed, so an event is read once, in log order, and
    never lost. A read is ``done`` only when a look at the store made in that same step found
    nothing more; from then on the owner feeds the reader each append itself.
    """

    def __init__(
        self,
        reader: LogReader,
        pages: Callable[[int], Iterator[Logged]],
        clock: Callable[[], float] = time.perf_counter,
        check_every: int = 64,
    ) -> None:
        self.reader = reader
        #: how many events are fed between two looks at the clock
        self.check_every = check_every
        self._pages = pages
        self._clock = clock
        #: the sequence number of the newest event fed
        self.seq = 0
        #: every event stored is read; the reader is fed each append from now on
        self.done = False
        self._source: Iterator[Logged] | None = None

    def step(self, budget: float, at_least: int = 0) -> set[int]:
        """Feed the reader for about ``budget`` seconds, and at least ``at_least`` events
        (unless the log ends first); the actions undone or redone in what was read."""
        if self.done:
            return set()
        deadline = self._clock() + budget
        fed = 0
        opened_now = False  # a source opened in this step: its looks at the store are current
        toggled: set[int] = set()
        while True:
            if self._source is None:
                self._source = self._pages(self.seq)
                opened_now = True
            batch: list[Logged] = []
            for env in self._source:
                batch.append(env)
                if len(batch) == self.check_every:
                    break
            if batch:
                toggled |= self.reader.feed(batch)
                self.seq = batch[-1].seq
                fed += len(batch)
            if len(batch) < self.check_every:  # this source has ended
                self._source = None
                if opened_now:
                    self.done = True
                    return toggled
                # opened in an earlier step: the log may have grown since its last look
                continue
            if fed >= at_least and self._clock() >= deadline:
                return toggled

    def finish(self) -> set[int]:
        """Read the rest at once (when everything is needed now, as for an export)."""
        toggled: set[int] = set()
        while not self.done:
            toggled |= self.step(float("inf"))
        return toggled


def roll_text(roll: dict[str, Any]) -> str:
    dice = roll.get("dice") or []
    total = sum(int(d) for d in dice)
    faces = "+".join(str(d) for d in dice)
    text = f"{roll.get('spec', '')}={total}" if len(dice) == 1 else f"{roll.get('spec')}={faces}"
    return text + (" (typed)" if roll.get("typed") else "")
