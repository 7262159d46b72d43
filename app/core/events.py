"""The event types of a game's log and the envelope every stored event travels in.

Nothing in Airboss edits state in place: an umpire action becomes one or more events, appended
together as one *action* (the envelope's ``action`` is the sequence number of its first event).
The projection (``app.core.engagement``) folds them into the current state. Events are generic
so that every ruleset shares them; a ruleset's own per-aircraft quantities travel in
``AttributesSet`` and ``LedgerChanged``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from app.core.text import shown

JSON = Any
#: text that is printed (a name, a side, a title, a reason): any control character an older
#: file holds is shown as a visible escape, never acted on by what prints it (issue 46)
Shown = Annotated[str, AfterValidator(shown)]


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def touches(self) -> frozenset[str]:
        """The aircraft whose state or card this event changes."""
        # the field's value, read without getattr: on a model without the field, pydantic's
        # __getattr__ raises and catches, which made reading a 100,000-event log 0.5 s slower
        aircraft = self.__dict__.get("aircraft")
        return frozenset({aircraft}) if isinstance(aircraft, str) else frozenset()


class GameCreated(_Event):
    kind: Literal["game_created"] = "game_created"
    ruleset: str
    title: Shown
    variants: tuple[str, ...] = ()


class AircraftAdded(_Event):
    """A roster entry: one aircraft, or a counted group (``count`` air points)."""

    kind: Literal["aircraft_added"] = "aircraft_added"
    aircraft: str
    name: Shown
    side: Shown
    type_id: str
    pilot: str | None = None
    count: int = 1
    card: dict[str, JSON] = Field(default_factory=dict)
    details: dict[str, JSON] = Field(default_factory=dict)
    ledgers: dict[str, Fraction] = Field(default_factory=dict)
    max_damage: int | None = None
    attributes: dict[str, JSON] = Field(default_factory=dict)


class AircraftChanged(_Event):
    """Rename, change pilot or side, or replace the card (card editor)."""

    kind: Literal["aircraft_changed"] = "aircraft_changed"
    aircraft: str
    name: Shown | None = None
    side: Shown | None = None
    pilot: str | None = None
    card: dict[str, JSON] | None = None


class AircraftRemoved(_Event):
    kind: Literal["aircraft_removed"] = "aircraft_removed"
    aircraft: str


class LedgerChanged(_Event):
    """A consumable spent (negative ``delta``) or regained; the projection refuses < 0 or > max."""

    kind: Literal["ledger_changed"] = "ledger_changed"
    aircraft: str
    ledger: str
    delta: Fraction
    #: (frequent: escaped where it is shown, ``app.core.event_text``, ``log_index``)
    reason: str = ""


class LedgerAdded(_Event):
    """A counter an aircraft did not start with, full at ``value``: a value its card does not
    print, given by the umpire where it is first needed (a Medium UFO's anti-grav rating)."""

    kind: Literal["ledger_added"] = "ledger_added"
    aircraft: str
    ledger: str
    value: Fraction
    reason: str = ""


class LedgerLimitChanged(_Event):
    """A ledger's maximum changes (a ray gun losing charge capacity, a hard point lost)."""

    kind: Literal["ledger_limit_changed"] = "ledger_limit_changed"
    aircraft: str
    ledger: str
    maximum: Fraction


class DamageTaken(_Event):
    """Damage points on the card's damage track and/or hits marked in named boxes."""

    kind: Literal["damage_taken"] = "damage_taken"
    aircraft: str
    points: int = 0
    boxes: dict[str, int] = Field(default_factory=dict)
    source: str | None = None


class CriticalHit(_Event):
    """One entry of the critical-hit log: the table roll, its result and what it did."""

    kind: Literal["critical_hit"] = "critical_hit"
    aircraft: str
    roll: int | None = None
    result: str
    effect: str = ""
    rule: str = ""


class StatusChanged(_Event):
    """Status flags set or cleared (see ``app.core.engagement.Status``)."""

    kind: Literal["status_changed"] = "status_changed"
    aircraft: str
    set: tuple[str, ...] = ()
    cleared: tuple[str, ...] = ()


class AttributesSet(_Event):
    """A ruleset's own per-aircraft values (speed, altitude, maneuver, position ...)."""

    kind: Literal["attributes_set"] = "attributes_set"
    aircraft: str
    values: dict[str, JSON]


class PositionSet(_Event):
    """An aircraft placed, moved or turned on the board (the umpire mirrors the table's map):
    ``x``/``y`` in the ruleset's own units (hex grid or inches), ``facing`` in degrees
    counter-clockwise from +x, ``altitude`` as the ruleset counts it. ``None`` clears it."""

    kind: Literal["position_set"] = "position_set"
    aircraft: str
    x: float | None = None
    y: float | None = None
    facing: int = 0
    altitude: int = 0


class GameAttributesSet(_Event):
    """A ruleset's own game-wide values (advantage pairs, missiles in flight, kill credits ...)."""

    kind: Literal["game_attributes_set"] = "game_attributes_set"
    values: dict[str, JSON]


class ProcedureResolved(_Event):
    """The record of a rules procedure: what was asked, what was rolled, what came of it."""

    kind: Literal["procedure_resolved"] = "procedure_resolved"
    procedure: str
    inputs: dict[str, JSON]
    rolls: tuple[dict[str, JSON], ...] = ()
    outcome: str
    attacker: str | None = None
    target: str | None = None
    #: where each input came from when it was resolved (issue 34): field -> ``card``,
    #: ``board``, ``game``, ``typed``, ``override`` or ``default`` (empty in older logs)
    sources: dict[str, str] = Field(default_factory=dict)
    #: for each overridden input, the value read off the cards or the board that it replaced
    read: dict[str, JSON] = Field(default_factory=dict)
    #: every outcome label -> its exact chance as the procedure gave it just before the roll,
    #: kept so that a table edited later does not change a ruling (``None``: an older log, or
    #: odds that could not be worked out)
    odds: dict[str, Fraction] | None = None
    #: the umpire's reason for the inputs he overrode (issue 34; empty: none given)
    reason: str = ""
    #: every modifier that entered the roll's number, with its rule and sign, as ``decide``
    #: summed them (issue 45, ``app.core.reckoning.Term``; empty in older logs)
    modifiers: tuple[dict[str, JSON], ...] = ()

    def touches(self) -> frozenset[str]:
        return frozenset(a for a in (self.attacker, self.target) if a)


class InitiativeSet(_Event):
    """The order of play for this turn (sides or aircraft ids) and who holds the marker."""

    kind: Literal["initiative_set"] = "initiative_set"
    order: tuple[str, ...]
    marker: str | None = None
    scores: dict[str, int] = Field(default_factory=dict)


class ClockSet(_Event):
    """The game moves to ``turn`` and step ``step`` of the ruleset's sequence of play."""

    kind: Literal["clock_set"] = "clock_set"
    turn: int
    step: int


class CardsPrinted(_Event):
    """Control cards printed: the revision of each aircraft's card that went on paper."""

    kind: Literal["cards_printed"] = "cards_printed"
    revisions: dict[str, int]
    #: where they went and from what: "cards.pdf (airboss cards)", "the printer HP (the desk)"
    where: str = ""


class Reverted(_Event):
    """Undo: the action whose first event has sequence number ``action`` no longer counts."""

    kind: Literal["reverted"] = "reverted"
    action: int


class Restored(_Event):
    """Redo: a reverted action counts again."""

    kind: Literal["restored"] = "restored"
    action: int


class DiceSet(_Event):
    """Dice at the table (issue 35): from now on the dice the umpire types for ``side``'s
    rolls (or, with ``aircraft``, that aircraft's: a player's) are rolled with ``dice`` -- a
    physical die or a player ("the red d10s", "Anna"); empty: no longer named. It changes
    nothing in the game: the After-action panel's dice check groups typed dice by it."""

    kind: Literal["dice_set"] = "dice_set"
    side: Shown
    aircraft: str | None = None
    dice: Shown = ""

    def touches(self) -> frozenset[str]:
        return frozenset()  # no aircraft's state or card changes


Event = Annotated[
    GameCreated
    | AircraftAdded
    | AircraftChanged
    | AircraftRemoved
    | LedgerChanged
    | LedgerAdded
    | LedgerLimitChanged
    | DamageTaken
    | CriticalHit
    | StatusChanged
    | AttributesSet
    | PositionSet
    | GameAttributesSet
    | ProcedureResolved
    | InitiativeSet
    | ClockSet
    | CardsPrinted
    | Reverted
    | Restored
    | DiceSet,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


class Envelope(BaseModel):
    """A stored event: where it sits in its game's log, when, who, which rule, and what it says."""

    model_config = ConfigDict(frozen=True)

    game: str
    seq: int
    action: int
    time: datetime = Field(default_factory=lambda: datetime.now(UTC))
    actor: str = "umpire"
    rule: str = ""
    narrative: str = ""
    event: Event

    @property
    def is_meta(self) -> bool:
        """Undo and redo records, which steer the log rather than change the game."""
        return isinstance(self.event, Reverted | Restored)


def event_to_json(event: Event) -> str:
    """The event's JSON as the log stores it. An action's events are written out to see that
    they can be stored, to measure them against the limits and to store them: the text is
    kept for the events written out last, by identity (an event is frozen, its JSON never
    changes), so each is written out once (issue 44)."""
    kept = _WRITTEN.get(id(event))
    if kept is not None and kept[0] is event:
        return kept[1]
    text = EVENT_ADAPTER.dump_json(event).decode()
    if len(_WRITTEN) >= 64:
        _WRITTEN.clear()
    _WRITTEN[id(event)] = (event, text)
    return text


#: event id -> (the event, its JSON), for ``event_to_json`` (the event is held, so its id
#: cannot be another's while the entry lives)
_WRITTEN: dict[int, tuple[Event, str]] = {}


#: the adapter's own validator: ``TypeAdapter.validate_json`` only passes its defaults on to
#: it, and calling it directly saves a fifth of decoding a long log (issue 31)
_FROM_JSON = EVENT_ADAPTER.validator.validate_json


def event_from_json(text: str | bytes) -> Event:
    """An event decoded from its JSON and checked by its type (``ValidationError`` if not)."""
    event: Event = _FROM_JSON(text)
    return event


def events_from_json(texts: Iterable[str | bytes]) -> list[Event]:
    """``event_from_json`` of each text, in order (a page of a long log, issue 31)."""
    return list(map(_FROM_JSON, texts))
