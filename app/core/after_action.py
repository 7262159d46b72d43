"""The game over time, read from its log alone (issue 35): per aircraft and per side, the
damage taken, every ledger, speed and altitude where the ruleset tracks them, and the aircraft
lost, each point with the log line that made it.

Game time is counted in turns: a point of turn ``t``, step ``s`` of a ruleset whose turn has
``n`` steps sits at ``t + s / n``. Only what counts now is read: undone actions are left out
(the state before an action that counts is the fold of the actions before it that count, so
the log read once in order is the game as it went). Values stay exact (``Fraction``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    AttributesSet,
    ClockSet,
    DamageTaken,
    LedgerAdded,
    LedgerChanged,
    LedgerLimitChanged,
    PositionSet,
    ProcedureResolved,
    Restored,
    Reverted,
    StatusChanged,
)
from app.core.log_index import Logged
from app.core.status import Status

__all__ = [
    "LOSSES",
    "AfterAction",
    "Loss",
    "Point",
    "Series",
    "read_after_action",
    "undone_actions",
]

#: statuses that take an aircraft out of the fight as a loss (breaking off is leaving, not lost)
LOSSES = frozenset({Status.DESTROYED, Status.EJECTED, Status.CRASHED, Status.PILOT_KILLED})
#: the state attributes plotted, by the name they are plotted under
TRACKED = {"speed": "speed", "airspeed": "speed", "altitude": "altitude"}
#: quantities whose side series is the mean over the side's aircraft, not their sum
MEAN = frozenset({"speed", "altitude"})


@dataclass(frozen=True, slots=True)
class Point:
    """One value of a series: when (game time in turns), what, and the event that set it."""

    x: float
    value: Fraction
    seq: int
    action: int


@dataclass
class Series:
    """One quantity over the game for one aircraft (``who`` its id) or one side (its name)."""

    quantity: str
    who: str
    name: str
    side: str
    points: list[Point] = field(default_factory=list)

    @property
    def xs(self) -> list[float]:
        return [p.x for p in self.points]

    @property
    def values(self) -> list[Fraction]:
        return [p.value for p in self.points]


@dataclass(frozen=True, slots=True)
class Loss:
    """An aircraft out of the fight: when, how, and the enemy whose attack on it came last."""

    x: float
    seq: int
    action: int
    aircraft: str
    name: str
    side: str
    how: str
    by: str | None = None
    by_name: str | None = None
    by_side: str | None = None


@dataclass
class _Plane:
    name: str
    side: str
    damage: Fraction = Fraction(0)
    ledgers: dict[str, Fraction] = field(default_factory=dict)
    tracked: dict[str, Fraction] = field(default_factory=dict)
    status: frozenset[str] = frozenset()
    #: the ruleset keeps altitude as a state value: the board's altitude is not read too
    altitude_attribute: bool = False


class AfterAction:
    """The series of one game, fed its log in order (``feed``) with the actions undone at
    its end (``undone``): undo and redo records themselves are skipped, so a log that goes on
    after an undo or a redo is read again from the start."""

    def __init__(
        self,
        undone: Iterable[int] = (),
        steps_per_turn: int = 1,
        ledger_titles: Mapping[str, str] | None = None,
        step_labels: Sequence[str] = (),
    ) -> None:
        self.undone = set(undone)
        self.steps_per_turn = max(1, steps_per_turn, len(step_labels))
        #: the steps of a turn as the ruleset names them ("Impulse 1, f) Gun"), if known
        self.step_labels = list(step_labels)
        self.ledger_titles = dict(ledger_titles or {})
        self.turn, self.step = 1, 0
        self.planes: dict[str, _Plane] = {}
        #: (quantity, aircraft id) -> series, in the order first seen
        self.series: dict[tuple[str, str], Series] = {}
        self.losses: list[Loss] = []
        #: action -> its log line (the narrative of its first event that has one)
        self.lines: dict[int, str] = {}
        #: action -> the turn and step it happened in
        self.when: dict[int, tuple[int, int]] = {}
        self.last_seq = 0
        self._last_attack: dict[str, str] = {}

    # -- reading --------------------------------------------------------------------------

    @property
    def x(self) -> float:
        return self.turn + self.step / self.steps_per_turn

    def feed(self, events: Iterable[Logged]) -> None:
        """Take in these events (after those already fed)."""
        for env in events:
            self.last_seq = env.seq
            ev = env.event
            if isinstance(ev, Reverted | Restored):
                continue
            if env.action in self.undone:
                continue
            if env.narrative and env.action not in self.lines:
                self.lines[env.action] = env.narrative
            self.when.setdefault(env.action, (self.turn, self.step))
            self._take(env.seq, env.action, ev)

    def _take(self, seq: int, action: int, ev: Any) -> None:
        if isinstance(ev, ClockSet):
            self.turn, self.step = ev.turn, ev.step
        elif isinstance(ev, AircraftAdded):
            self.planes[ev.aircraft] = _Plane(ev.name, ev.side, ledgers=dict(ev.ledgers))
            self._set(seq, action, ev.aircraft, "damage", Fraction(0))
            for ledger, value in ev.ledgers.items():
                self._set(seq, action, ev.aircraft, f"ledger:{ledger}", value)
            self._attributes(seq, action, ev.aircraft, ev.attributes)
        elif isinstance(ev, AircraftChanged):
            p = self.planes.get(ev.aircraft)
            if p is not None:
                p.name = ev.name or p.name
                p.side = ev.side or p.side
        elif isinstance(ev, DamageTaken) and ev.points:
            p = self.planes.get(ev.aircraft)
            if p is not None:
                p.damage += ev.points
                self._set(seq, action, ev.aircraft, "damage", p.damage)
        elif isinstance(ev, LedgerChanged):
            p = self.planes.get(ev.aircraft)
            if p is not None and ev.ledger in p.ledgers:
                p.ledgers[ev.ledger] += ev.delta
                self._set(seq, action, ev.aircraft, f"ledger:{ev.ledger}", p.ledgers[ev.ledger])
        elif isinstance(ev, LedgerAdded):
            p = self.planes.get(ev.aircraft)
            if p is not None:
                p.ledgers[ev.ledger] = Fraction(ev.value)
                self._set(seq, action, ev.aircraft, f"ledger:{ev.ledger}", p.ledgers[ev.ledger])
        elif isinstance(ev, LedgerLimitChanged):
            p = self.planes.get(ev.aircraft)
            if p is not None and ev.ledger in p.ledgers and p.ledgers[ev.ledger] > ev.maximum:
                p.ledgers[ev.ledger] = ev.maximum
                self._set(seq, action, ev.aircraft, f"ledger:{ev.ledger}", ev.maximum)
        elif isinstance(ev, AttributesSet):
            self._attributes(seq, action, ev.aircraft, ev.values)
        elif isinstance(ev, PositionSet):
            p = self.planes.get(ev.aircraft)
            if p is not None and not p.altitude_attribute and ev.x is not None:
                self._track(seq, action, ev.aircraft, "altitude", Fraction(ev.altitude))
        elif isinstance(ev, ProcedureResolved):
            # the attack whose chain puts its target out of the fight: the last one on it that
            # did something (a loss in a roll it owed -- a critical hit, an ejection, a damage
            # roll -- is its kill too, issue 45)
            a, t = self.planes.get(ev.attacker or ""), self.planes.get(ev.target or "")
            hostile = a is not None and t is not None and a.side != t.side
            if hostile and ev.target and ev.outcome != "miss":
                self._last_attack[ev.target] = ev.attacker or ""
        elif isinstance(ev, StatusChanged):
            self._status(seq, action, ev)

    def _attributes(self, seq: int, action: int, aircraft: str, values: Mapping[str, Any]) -> None:
        p = self.planes.get(aircraft)
        if p is None:
            return
        for key, quantity in TRACKED.items():
            v = values.get(key)
            if isinstance(v, bool) or not isinstance(v, int | float | Fraction):
                continue
            if key == "altitude":
                p.altitude_attribute = True
            self._track(seq, action, aircraft, quantity, Fraction(v))

    def _track(self, seq: int, action: int, aircraft: str, quantity: str, v: Fraction) -> None:
        p = self.planes[aircraft]
        if p.tracked.get(quantity) != v:
            p.tracked[quantity] = v
            self._set(seq, action, aircraft, quantity, v)

    def _status(self, seq: int, action: int, ev: StatusChanged) -> None:
        p = self.planes.get(ev.aircraft)
        if p is None:
            return
        new = (frozenset(ev.set) - p.status) & LOSSES
        p.status = (p.status - frozenset(ev.cleared)) | frozenset(ev.set)
        if not new or (p.status - new) & LOSSES:
            return  # not lost now, or lost before (an ejected pilot's aircraft crashing)
        by = self._last_attack.get(ev.aircraft)
        enemy = self.planes.get(by or "")
        self.losses.append(
            Loss(
                self.x,
                seq,
                action,
                ev.aircraft,
                p.name,
                p.side,
                ", ".join(sorted(s.replace("_", " ") for s in new)),
                by if enemy else None,
                enemy.name if enemy else None,
                enemy.side if enemy else None,
            )
        )

    def _set(self, seq: int, action: int, aircraft: str, quantity: str, value: Fraction) -> None:
        key = (quantity, aircraft)
        s = self.series.get(key)
        if s is None:
            p = self.planes[aircraft]
            s = self.series[key] = Series(quantity, aircraft, p.name, p.side)
        s.points.append(Point(self.x, value, seq, action))

    # -- what the plots ask -----------------------------------------------------------------

    @property
    def sides(self) -> list[str]:
        """The sides in the order their first aircraft joined."""
        return list(dict.fromkeys(p.side for p in self.planes.values()))

    def quantities(self) -> dict[str, str]:
        """Each quantity that has a series -> its title ("Damage", "Gun ammunition" ...)."""
        out: dict[str, str] = {}
        for quantity, _ in self.series:
            out.setdefault(quantity, self.title(quantity))
        return out

    def title(self, quantity: str) -> str:
        if quantity.startswith("ledger:"):
            ledger = quantity.split(":", 1)[1]
            return self.ledger_titles.get(ledger) or ledger.replace("_", " ").capitalize()
        return quantity.capitalize()

    def of_aircraft(self, quantity: str) -> list[Series]:
        """One series per aircraft that has this quantity (names as they are now)."""
        out = []
        for (q, aircraft), s in self.series.items():
            if q == quantity:
                p = self.planes[aircraft]
                s.name, s.side = p.name, p.side
                out.append(s)
        return out

    def of_sides(self, quantity: str) -> list[Series]:
        """One series per side: the sum over the side's aircraft (damage, ledgers), or their
        mean (speed, altitude: ``MEAN``), one point per moment of game time at which it
        changed (its value after that moment's actions, from the last of them)."""
        by_side: dict[str, list[Series]] = {}
        for s in self.of_aircraft(quantity):
            by_side.setdefault(s.side, []).append(s)
        out = []
        for side, members in by_side.items():
            now: dict[str, Fraction] = {}
            total = Series(quantity, side, side, side)
            points = sorted(((p, s.who) for s in members for p in s.points), key=lambda t: t[0].seq)
            running = Fraction(0)
            for point, who in points:
                running += point.value - now.get(who, 0)
                now[who] = point.value
                value = running
                if quantity in MEAN:
                    value /= len(now)
                if total.points and total.points[-1].x == point.x:
                    total.points[-1] = Point(point.x, value, point.seq, point.action)
                else:
                    total.points.append(Point(point.x, value, point.seq, point.action))
            out.append(total)
        return out

    def step_name(self, step: int) -> str:
        """A step as the ruleset names it ("Impulse 1, f) Gun"), else "step 3" (from 1)."""
        if 0 <= step < len(self.step_labels):
            return self.step_labels[step]
        return f"step {step + 1}"

    def line(self, action: int) -> str:
        """The log line of an action, with its turn and step:
        "Turn 2, Impulse 1, f) Gun, #41: Olds 1 ..." (or "Turn 2, step 3, #41: ...")."""
        turn, step = self.when.get(action, (0, 0))
        return f"Turn {turn}, {self.step_name(step)}, #{action}: {self.lines.get(action, '')}"


def undone_actions(events: Iterable[Logged]) -> set[int]:
    """The actions undone at the log's end: those whose last undo or redo record is an undo
    (only the newest action can be undone, so nothing else needs following)."""
    undone: set[int] = set()
    for env in events:
        ev = env.event
        if isinstance(ev, Reverted):
            undone.add(ev.action)
        elif isinstance(ev, Restored):
            undone.discard(ev.action)
    return undone


def read_after_action(
    events: Iterable[Logged],
    steps_per_turn: int = 1,
    ledger_titles: Mapping[str, str] | None = None,
    undone: Iterable[int] | None = None,
    step_labels: Sequence[str] = (),
) -> AfterAction:
    """The series of a whole log. ``events`` is read twice unless ``undone`` (the actions
    undone at the log's end) is given: pass a list, or a function's fresh iterator each time."""
    if undone is None:
        events = list(events)
        undone = undone_actions(events)
    out = AfterAction(undone, steps_per_turn, ledger_titles, step_labels)
    out.feed(events)
    return out
