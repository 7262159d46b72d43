"""The projection: the current state of a game, folded from its events.

``Engagement`` and ``AircraftState`` are immutable values: ``apply(state, event, seq)`` returns
a new state sharing everything the event did not touch, so keeping the state before an action
(for undo) costs one dictionary copy, and a redraw can compare revisions instead of contents.
Mappings inside a state are never mutated after it is built.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from app.core.errors import RuleViolation
from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    AircraftRemoved,
    AttributesSet,
    ClockSet,
    CriticalHit,
    DamageTaken,
    DiceSet,
    Event,
    GameAttributesSet,
    GameCreated,
    InitiativeSet,
    LedgerAdded,
    LedgerChanged,
    LedgerLimitChanged,
    PositionSet,
    ProcedureResolved,
    StatusChanged,
)

# re-exported: ``from app.core.engagement import Status, PILOT_QUALITIES`` keeps working
from app.core.status import PILOT_QUALITIES as PILOT_QUALITIES
from app.core.status import Status as Status

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

OUT_OF_PLAY = frozenset(
    {Status.DESTROYED, Status.EJECTED, Status.BROKEN_OFF, Status.CRASHED, Status.PILOT_KILLED}
)


@dataclass(frozen=True)
class Ledger:
    """A consumable: what is left and the most it can hold (both exact)."""

    value: Fraction
    maximum: Fraction


@dataclass(frozen=True)
class CriticalEntry:
    """One line of the critical-hit log as it stands in the projection."""

    seq: int
    turn: int
    result: str
    roll: int | None
    effect: str
    rule: str


@dataclass(frozen=True)
class Position:
    """Where an aircraft stands on the board, in the ruleset's own units (see ``PositionSet``)."""

    x: float
    y: float
    facing: int = 0
    altitude: int = 0


@dataclass(frozen=True)
class AircraftState:
    """One roster entry: an aircraft, or a counted group of ``count`` air points."""

    id: str
    name: str
    side: str
    type_id: str
    pilot: str | None
    count: int = 1
    card: Mapping[str, Any] = field(default_factory=dict)
    details: Mapping[str, Any] = field(default_factory=dict)
    ledgers: Mapping[str, Ledger] = field(default_factory=dict)
    damage: int = 0
    max_damage: int | None = None
    boxes: Mapping[str, int] = field(default_factory=dict)
    criticals: tuple[CriticalEntry, ...] = ()
    status: frozenset[str] = frozenset()
    attributes: Mapping[str, Any] = field(default_factory=dict)
    position: Position | None = None
    revision: int = 0

    @property
    def in_play(self) -> bool:
        return not (self.status & OUT_OF_PLAY)

    def typed(self, model: type[M], part: Literal["card", "attributes", "details"]) -> M:
        """``card``, ``attributes`` or ``details`` as the ruleset's typed model (``Card``,
        ``State``, ``Details``), validated once per state value and then shared."""
        return _typed(getattr(self, part), model, self.name, part)

    def ledger(self, ledger_id: str) -> Fraction:
        """What is left in a ledger; ``RuleViolation`` if this aircraft has no such ledger."""
        try:
            return self.ledgers[ledger_id].value
        except KeyError:
            raise RuleViolation(f"{self.name} has no {ledger_id.replace('_', ' ')}") from None


@dataclass(frozen=True)
class Engagement:
    """The whole game as it stands after the events applied so far."""

    game: str = ""
    ruleset: str = ""
    title: str = ""
    variants: tuple[str, ...] = ()
    aircraft: Mapping[str, AircraftState] = field(default_factory=dict)
    turn: int = 1
    step: int = 0
    initiative_order: tuple[str, ...] = ()
    initiative_marker: str | None = None
    initiative_scores: Mapping[str, int] = field(default_factory=dict)
    attributes: Mapping[str, Any] = field(default_factory=dict)
    last_outcome: str | None = None
    seq: int = 0
    #: the sequence number of the clock step that set ``turn`` and ``step`` (0: none yet, or
    #: a snapshot older than this field), so "who acted in this step" reads only the log after
    #: it instead of the whole log (issue 20)
    clock_seq: int = 0
    #: names of aircraft removed from the roster, so a refusal can name them (issue 13)
    removed: Mapping[str, str] = field(default_factory=dict)

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides in the order their first aircraft joined. Worked out once and carried to
        the states that follow while no aircraft joins, leaves or changes side (``_SIDES``;
        issue 44: a ruleset asks for them at every "who acts now", a scan of the roster)."""
        kept: tuple[str, ...] | None = self.__dict__.get(_SIDES)
        if kept is None:
            kept = self.__dict__[_SIDES] = tuple({a.side: None for a in self.aircraft.values()})
        return kept

    def on_side(self, side: str) -> list[AircraftState]:
        return [a for a in self.aircraft.values() if a.side == side]

    def get(self, aircraft_id: str) -> AircraftState:
        """The aircraft with this id, or ``RuleViolation`` naming the id."""
        if not isinstance(aircraft_id, str):  # a list or a mapping from a script (issue 31)
            raise RuleViolation(
                f"an aircraft id is text, not {type(aircraft_id).__name__} {aircraft_id!r:.40}"
            )
        try:
            return self.aircraft[aircraft_id]
        except KeyError:
            if aircraft_id in self.removed:
                raise RuleViolation(
                    f"{self.removed[aircraft_id]} was removed from the roster: nothing was recorded"
                ) from None
            raise RuleViolation(f"no aircraft {aircraft_id!r} in this game") from None

    def apply(self, event: Event, seq: int) -> Engagement:
        """The state after ``event`` (sequence number ``seq``); see :func:`apply`."""
        return apply(self, event, seq)


#: where an ``Engagement`` keeps its ``sides`` once worked out (not a field: never stored,
#: compared or copied by ``dataclasses.replace``); ``_evolve`` carries it to the next state
#: and the changes that can move a side (an aircraft added, changed or removed) clear it
_SIDES = "_sides"


class _ByIdentity:
    """A bounded cache of values worked out from immutable objects, keyed by the object's
    identity and a second key (the object is held too, so its id cannot be reused while the
    entry lives)."""

    def __init__(self, keep: int) -> None:
        self._keep = keep
        self._kept: OrderedDict[tuple[int, Any], tuple[object, Any]] = OrderedDict()

    def get(self, obj: object, key: Any, make: Callable[[], T]) -> T:
        k = (id(obj), key)
        hit = self._kept.get(k)
        if hit is not None and hit[0] is obj:
            self._kept.move_to_end(k)
            return hit[1]  # type: ignore[no-any-return]
        value = make()
        self._kept[k] = (obj, value)
        if len(self._kept) > self._keep:
            self._kept.popitem(last=False)
        return value


_TYPED = _ByIdentity(8192)
_DERIVED = _ByIdentity(64)


def _typed(data: Mapping[str, Any], model: type[M], name: str, part: str) -> M:
    """A validated model per immutable mapping, validated once and then shared."""

    def validated() -> M:
        try:
            return model.model_validate(dict(data))
        except ValidationError as e:
            raise RuleViolation(f"{name}: its {part} does not fit {model.__name__}: {e}") from None

    return _TYPED.get(data, model, validated)


def derived(engagement: Engagement, fn: Callable[[Engagement], T]) -> T:
    """``fn(engagement)``, worked out once per game state and then shared: for a reading of
    the whole roster that a ruleset asks for each aircraft (who holds whom in tailing position),
    which a dry run for the dice asks again at every branch (issue 36: asked 13 times for each
    of 60 lines, such a scan was half the time of working out who can act). A game state never
    changes (every event makes a new one), so ``fn`` must read nothing but ``engagement``."""
    return _DERIVED.get(engagement, fn, lambda: fn(engagement))


D = TypeVar("D", "Engagement", AircraftState)


def _evolve(obj: D, **changes: Any) -> D:
    """``dataclasses.replace`` for these frozen dataclasses, which have no ``__post_init__``:
    a copy of the instance's fields with ``changes``, without running ``__init__`` again.
    Folding a long log calls it twice an event; ``replace`` was half of opening a game of a
    million events with no snapshot (issue 31)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


def _with_aircraft(state: Engagement, a: AircraftState, seq: int) -> Engagement:
    """``state`` with ``a``, an aircraft state each handler makes new for its event (never one
    a game state holds already), stamped with the event's ``seq`` in place (issue 44: it was
    copied once more for that)."""
    was = state.aircraft.get(a.id)
    aircraft = dict(state.aircraft)
    a.__dict__["revision"] = seq
    aircraft[a.id] = a
    if was is not None and was.side == a.side:
        return _evolve(state, aircraft=aircraft, seq=seq)
    return _evolve(state, aircraft=aircraft, seq=seq, **{_SIDES: None})  # a side may change


def _game_created(s: Engagement, e: GameCreated, seq: int) -> Engagement:
    return _evolve(s, ruleset=e.ruleset, title=e.title, variants=tuple(e.variants), seq=seq)


def _aircraft_added(s: Engagement, e: AircraftAdded, seq: int) -> Engagement:
    if e.aircraft in s.aircraft:
        raise RuleViolation(f"an aircraft with id {e.aircraft!r} is already in this game")
    a = AircraftState(
        id=e.aircraft,
        name=e.name,
        side=e.side,
        type_id=e.type_id,
        pilot=e.pilot,
        count=e.count,
        card=e.card,
        details=e.details,
        ledgers={k: Ledger(v, v) for k, v in e.ledgers.items()},
        max_damage=e.max_damage,
        attributes=e.attributes,
    )
    return _with_aircraft(s, a, seq)


def _aircraft_changed(s: Engagement, e: AircraftChanged, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    changes = {k: v for k in ("name", "side", "pilot", "card") if (v := getattr(e, k)) is not None}
    return _with_aircraft(s, _evolve(a, **changes), seq)


def _aircraft_removed(s: Engagement, e: AircraftRemoved, seq: int) -> Engagement:
    name = s.get(e.aircraft).name
    aircraft = {k: v for k, v in s.aircraft.items() if k != e.aircraft}
    removed = {**s.removed, e.aircraft: name}
    return _evolve(s, aircraft=aircraft, removed=removed, seq=seq, **{_SIDES: None})


def _ledger_changed(s: Engagement, e: LedgerChanged, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    old = a.ledgers.get(e.ledger)
    what = e.ledger.replace("_", " ")
    if old is None:
        raise RuleViolation(f"{a.name} has no {what}")
    value = old.value + e.delta
    if value < 0:
        raise RuleViolation(f"{a.name} cannot pay {-e.delta} {what}: only {old.value} left")
    if value > old.maximum:
        raise RuleViolation(f"{a.name}: {what} cannot exceed {old.maximum}")
    ledgers = {**a.ledgers, e.ledger: Ledger(value, old.maximum)}
    return _with_aircraft(s, _evolve(a, ledgers=ledgers), seq)


def _ledger_added(s: Engagement, e: LedgerAdded, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    what = e.ledger.replace("_", " ")
    if e.ledger in a.ledgers:
        raise RuleViolation(f"{a.name} already has its {what}")
    if e.value < 0:
        raise RuleViolation(f"{a.name}: a {what} cannot start below zero")
    ledgers = {**a.ledgers, e.ledger: Ledger(e.value, e.value)}
    return _with_aircraft(s, _evolve(a, ledgers=ledgers), seq)


def _ledger_limit(s: Engagement, e: LedgerLimitChanged, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    old = a.ledgers.get(e.ledger)
    if old is None:
        raise RuleViolation(f"{a.name} has no {e.ledger.replace('_', ' ')}")
    if e.maximum < 0:
        raise RuleViolation(f"{a.name}: a ledger maximum cannot be negative")
    ledgers = {**a.ledgers, e.ledger: Ledger(min(old.value, e.maximum), e.maximum)}
    return _with_aircraft(s, _evolve(a, ledgers=ledgers), seq)


def _damage_taken(s: Engagement, e: DamageTaken, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    boxes: Mapping[str, int] = a.boxes  # a hit on no box leaves them as they are (issue 44)
    if e.boxes:
        grown = dict(a.boxes)
        for box, n in e.boxes.items():
            grown[box] = grown.get(box, 0) + n
        boxes = grown
    damage = a.damage + e.points
    if damage < 0 or any(v < 0 for v in boxes.values()):
        raise RuleViolation(f"{a.name}: damage cannot fall below zero")
    return _with_aircraft(s, _evolve(a, damage=damage, boxes=boxes), seq)


def _critical_hit(s: Engagement, e: CriticalHit, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    entry = CriticalEntry(seq, s.turn, e.result, e.roll, e.effect, e.rule)
    return _with_aircraft(s, _evolve(a, criticals=(*a.criticals, entry)), seq)


def _status_changed(s: Engagement, e: StatusChanged, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    status = (a.status - frozenset(e.cleared)) | frozenset(e.set)
    return _with_aircraft(s, _evolve(a, status=status), seq)


def _attributes_set(s: Engagement, e: AttributesSet, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    return _with_aircraft(s, _evolve(a, attributes={**a.attributes, **e.values}), seq)


def _position_set(s: Engagement, e: PositionSet, seq: int) -> Engagement:
    a = s.get(e.aircraft)
    if e.x is None or e.y is None:
        return _with_aircraft(s, _evolve(a, position=None), seq)
    if not (math.isfinite(e.x) and math.isfinite(e.y)):
        raise RuleViolation(f"{a.name}: a position must be a finite point")
    return _with_aircraft(s, _evolve(a, position=Position(e.x, e.y, e.facing, e.altitude)), seq)


def _game_attributes(s: Engagement, e: GameAttributesSet, seq: int) -> Engagement:
    return _evolve(s, attributes={**s.attributes, **e.values}, seq=seq)


def _procedure(s: Engagement, e: ProcedureResolved, seq: int) -> Engagement:
    return _evolve(s, last_outcome=e.outcome, seq=seq)


def _initiative(s: Engagement, e: InitiativeSet, seq: int) -> Engagement:
    return _evolve(
        s,
        initiative_order=tuple(e.order),
        initiative_marker=e.marker,
        initiative_scores=dict(e.scores),
        seq=seq,
    )


def _dice_set(s: Engagement, e: DiceSet, seq: int) -> Engagement:
    return _evolve(s, seq=seq)  # which dice roll for whom: read from the log, not the state


def _clock(s: Engagement, e: ClockSet, seq: int) -> Engagement:
    if e.turn < 1 or e.step < 0:
        raise RuleViolation("the game cannot go back before turn 1")
    return _evolve(s, turn=e.turn, step=e.step, seq=seq, clock_seq=seq)


_HANDLERS: dict[type, Callable[[Engagement, Any, int], Engagement]] = {
    GameCreated: _game_created,
    AircraftAdded: _aircraft_added,
    AircraftChanged: _aircraft_changed,
    AircraftRemoved: _aircraft_removed,
    LedgerChanged: _ledger_changed,
    LedgerAdded: _ledger_added,
    LedgerLimitChanged: _ledger_limit,
    DamageTaken: _damage_taken,
    CriticalHit: _critical_hit,
    StatusChanged: _status_changed,
    AttributesSet: _attributes_set,
    PositionSet: _position_set,
    GameAttributesSet: _game_attributes,
    ProcedureResolved: _procedure,
    InitiativeSet: _initiative,
    ClockSet: _clock,
    DiceSet: _dice_set,
}


def apply(state: Engagement, event: Event, seq: int) -> Engagement:
    """Fold one domain event into the state; ``RuleViolation`` if the event cannot happen.

    Undo, redo and print records are not domain events: ``app.core.history`` handles them.
    """
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"{type(event).__name__} is not applied to an engagement")
    return handler(state, event, seq)


def apply_all(
    state: Engagement,
    events: Iterable[tuple[Event, int]],
    skipped: dict[int, str] | None = None,
) -> Engagement:
    """``apply`` of each ``(event, seq)`` in turn: the same state as applying them one by one
    (a test compares both on a log of every ruleset), but without a new state and a new
    roster per event, which was most of replaying a long log with no snapshot (issue 31).

    The kinds a long log is mostly made of (attributes, positions, the clock, procedures,
    dice, game-wide values) are folded into a draft: the state's fields and roster held in
    dictionaries of their own, an aircraft copied once and then changed in place. Every other
    kind is applied by ``apply`` on the draft made a state. ``state`` itself and everything it
    holds are never changed; each mapping the result holds is a new one, never changed after.

    With ``skipped``, an event that cannot happen is left out and said there (seq -> why)
    and the rest applied (issue 46: a row written outside Airboss, a station's that did not
    play by the rules, never makes the game unopenable); without it, it raises. Every kind is
    refused before it changes the draft, so what is left out changed nothing.
    """
    fields = dict(state.__dict__)
    aircraft = dict(state.aircraft)
    #: the aircraft this draft copied (by identity), which it may change in place
    mine: set[int] = set()

    def made() -> Engagement:
        new = object.__new__(Engagement)
        new.__dict__.update(fields, aircraft=dict(aircraft))
        return new

    def plane(aircraft_id: str) -> AircraftState:
        a = aircraft.get(aircraft_id)
        if a is None:
            made().get(aircraft_id)  # the refusal ``apply`` gives, naming it
            raise AssertionError  # pragma: no cover - get raised
        if id(a) not in mine:
            a = _evolve(a)
            aircraft[a.id] = a
            mine.add(id(a))
        return a

    for event, seq in events:
        try:
            if type(event) is AttributesSet:
                a = plane(event.aircraft)
                a.__dict__["attributes"] = {**a.attributes, **event.values}
                a.__dict__["revision"] = seq
            elif type(event) is PositionSet:
                a = plane(event.aircraft)
                if event.x is None or event.y is None:
                    a.__dict__["position"] = None
                elif not (math.isfinite(event.x) and math.isfinite(event.y)):
                    raise RuleViolation(f"{a.name}: a position must be a finite point")
                else:
                    a.__dict__["position"] = Position(
                        event.x, event.y, event.facing, event.altitude
                    )
                a.__dict__["revision"] = seq
            elif type(event) is ClockSet:
                if event.turn < 1 or event.step < 0:
                    raise RuleViolation("the game cannot go back before turn 1")
                fields["turn"], fields["step"], fields["clock_seq"] = event.turn, event.step, seq
            elif type(event) is DiceSet:
                pass
            elif type(event) is ProcedureResolved:
                fields["last_outcome"] = event.outcome
            elif type(event) is GameAttributesSet:
                fields["attributes"] = {**fields["attributes"], **event.values}
            else:
                after = apply(made(), event, seq)
                fields = dict(after.__dict__)
                aircraft = dict(after.aircraft)
                mine.clear()
                continue
            fields["seq"] = seq
        except (RuleViolation, TypeError, ValueError, KeyError, ArithmeticError) as e:
            if skipped is None:
                raise
            skipped[seq] = _why(e)
    result = object.__new__(Engagement)
    result.__dict__.update(fields, aircraft=aircraft)
    return result


def _why(e: BaseException) -> str:
    """One line of why an event could not happen."""
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:300]
