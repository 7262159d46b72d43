"""The plugin contract every ruleset implements (see API.md and DESIGN.md).

A ruleset is a ``Ruleset`` subclass instance registered under the ``airboss.rulesets`` entry
point group. It declares, as data wherever it can:

- ``procedure_types``: the rules actions (``app.core.procedure``). Each ``Procedure`` has an
  ``Inputs`` pydantic model and one ``decide(inputs, dice, draft)``, from which ``resolve`` and
  the exact ``odds`` are derived; a ``Calculator`` (no dice) has ``compute(inputs, draft)``.
- ``ledgers``: the consumables per aircraft and their starting values from the card.
- ``Card`` (pydantic model of a control card) and ``aircraft`` (the catalogue), ``Details`` (the
  per-aircraft settings ``add_aircraft`` accepts), ``card_blocks`` (what the printed card shows).
- ``steps`` (the sequence of play of one turn) and ``acting`` (who acts now, in order).
- ``variants``: optional rules, errata and readings of contradictions, chosen per game.
- ``geometry``: how two pieces on the board relate, for the angle-off calculator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from app.core.acting import ActingLine
from app.core.engagement import PILOT_QUALITIES, AircraftState, Engagement, apply
from app.core.errors import RuleViolation, problems_text
from app.core.events import AircraftAdded, Event
from app.core.procedure import Procedure, Resolution, check_event

M = TypeVar("M", bound=BaseModel)

PilotQuality = Literal["green", "inexperienced", "average", "experienced", "ace"]

__all__ = [
    "ActingLine",
    "AircraftInputs",
    "CardBlock",
    "CardSpec",
    "Geometry",
    "KeyValues",
    "LedgerSpec",
    "Lines",
    "MovementHelp",
    "Piece",
    "PilotQuality",
    "ProcedureInputs",
    "Relation",
    "Resolution",
    "Ruleset",
    "RuleViolation",
    "Step",
    "Table",
    "Track",
    "Variant",
]


class ProcedureInputs(BaseModel):
    """Base of every two-aircraft procedure's inputs: optional attacker and target ids.

    With ids given the desk prefills the numbers from the aircraft and ``resolve`` emits the
    events that change them; without, the procedure is a what-if that only logs its result.
    """

    # the schema is built when a procedure is first used, not when its ruleset loads (issue 20)
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    attacker: str | None = None
    target: str | None = None


class AircraftInputs(BaseModel):
    """Base of a one-aircraft procedure's inputs (fire check, ejection, recovery ...)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    aircraft: str | None = None


@dataclass(frozen=True)
class LedgerSpec:
    """A consumable per aircraft. ``card_field`` names the card field holding the starting value
    (a number, or absent for aircraft without it); ``unit`` is the smallest step (1/2 for half
    points of ammunition)."""

    id: str
    title: str
    card_field: str
    unit: Fraction = Fraction(1)
    rule: str = ""
    #: the starting value when it is not one card field (a count in a list on the card)
    fixed_start: Fraction | None = None

    def start(self, card: Mapping[str, Any]) -> Fraction | None:
        if self.fixed_start is not None:
            return self.fixed_start
        value = card.get(self.card_field)
        if value is None or value is False:
            return None
        return Fraction(value)


@dataclass(frozen=True)
class Variant:
    """An optional rule, erratum, or reading of a contradiction in the text.

    ``off`` and ``on`` say, for an open reading, what the game does without this variant and
    with it (both readings, for Help > Rules readings); ``help`` then gives the text's words
    and why they can be read either way. Empty: ``help`` says it all."""

    id: str
    title: str
    help: str
    rule: str = ""
    default: bool = False
    off: str = ""
    on: str = ""


@dataclass(frozen=True)
class Step:
    """One step of a turn's sequence of play."""

    phase: str
    title: str
    text: str = ""
    rule: str = ""
    impulse: int | None = None
    segment: str | None = None

    @property
    def label(self) -> str:
        parts = [self.phase]
        if self.impulse is not None and self.phase.lower() == "impulse":
            parts = [f"{self.phase} {self.impulse}"]
        elif self.impulse is not None:
            parts.append(f"impulse {self.impulse}")
        if self.segment:
            parts.append(f"{self.segment}) {self.title}")
        elif self.title != self.phase:
            parts.append(self.title)
        return ", ".join(parts)


# --- control cards: concrete blocks a ruleset builds from an aircraft's state ---------------


@dataclass(frozen=True)
class KeyValues:
    title: str
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Table:
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Track:
    """A row of boxes: ``used`` of ``total`` crossed out; boxes from ``grey_from`` on shaded."""

    title: str
    total: int
    used: int
    grey_from: int | None = None
    note: str = ""


@dataclass(frozen=True)
class Lines:
    title: str
    lines: tuple[str, ...]


CardBlock = KeyValues | Table | Track | Lines


@dataclass(frozen=True)
class CardSpec:
    """One aircraft's control card as data: the card's heading and its blocks in order.

    The renderer (``app.ui.cards``) adds the title block (aircraft, side, pilot, ruleset, game,
    turn, variants) and draws the blocks; a ruleset only says what is on the card.
    """

    title: str
    blocks: tuple[CardBlock, ...]


# --- geometry for the angle-off calculator --------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """An aircraft on the calculator board: position in the ruleset's own units, facing in
    degrees counter-clockwise from +x, altitude level and speed."""

    x: float
    y: float
    facing: int = 0
    altitude: int = 0
    speed: float = 0


@dataclass(frozen=True)
class Relation:
    """What the geometry says of an attacker against a target: label/value lines for the panel,
    and the arcs to draw around the target as (label, from-degrees, to-degrees)."""

    lines: tuple[tuple[str, str], ...]
    arcs: tuple[tuple[str, float, float], ...] = ()
    attack_allowed: bool | None = None
    why_not: str = ""
    #: procedure input field -> value read off the board (range, arc, clock, altitude
    #: difference ...), keyed by the field names of the ruleset's procedures; the desk fills
    #: the matching fields of the form being resolved and marks them "from the board"
    readings: Mapping[str, Any] = field(default_factory=dict)
    #: arcs to draw around the attacker, as ``arcs`` (Phantoms' radar cone on its facing)
    attacker_arcs: tuple[tuple[str, float, float], ...] = ()


@dataclass(frozen=True)
class MovementHelp:
    """What the board shows for one aircraft's move (issue 18): label/value lines (flight points
    left ...) and the end positions its legal moves reach, as (label, x, y, facing)."""

    lines: tuple[tuple[str, str], ...] = ()
    ends: tuple[tuple[str, float, float, int], ...] = ()


class Geometry(Protocol):
    grid: Literal["hex", "inches"]

    def relate(self, target: Piece, attacker: Piece) -> Relation: ...


# --- the ruleset ----------------------------------------------------------------------------


class _NoDetails(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class _AnyState(BaseModel):
    """The state of a ruleset that has not declared its typed ``State`` yet."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)


class Ruleset:
    """Base class of a ruleset. Subclasses set the class attributes; ``RULESET = MyRuleset()``."""

    id: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str] = ""
    procedure_types: ClassVar[tuple[type[Procedure], ...]] = ()
    ledgers: ClassVar[tuple[LedgerSpec, ...]] = ()
    variant_list: ClassVar[tuple[Variant, ...]] = ()
    Card: ClassVar[type[BaseModel]]
    Details: ClassVar[type[BaseModel]] = _NoDetails
    #: the typed per-aircraft state its events keep (``AttributesSet`` values), read through
    #: ``aircraft.typed(State, "attributes")`` or ``draft.state(aircraft, State)``
    State: ClassVar[type[BaseModel]] = _AnyState
    #: the typed game-wide records its ``GameAttributesSet`` events keep (missiles in flight,
    #: advantages, fire records, ties ...): every event is checked against it (issue 32)
    GameState: ClassVar[type[BaseModel]] = _AnyState
    uses_pilot_quality: ClassVar[bool] = True
    #: the procedure id that sets the initiative order, and whether it orders sides or aircraft
    initiative: ClassVar[str | None] = None
    initiative_by: ClassVar[Literal["side", "aircraft"] | None] = None
    #: the procedure id that passes the initiative marker, for rulesets whose marker can be
    #: passed (Phantoms 4.0); the Initiative panel offers it
    pass_initiative: ClassVar[str | None] = None
    #: the board's geometry; a ruleset whose readings depend on the game's variants sets its own
    #: per game in ``__init__``
    geometry: Geometry | None = None
    #: the desk's panels this game uses (``None``: derived from what the ruleset declares:
    #: Initiative with an initiative procedure, Angle-off with a geometry, Displays when it has
    #: boards, Critical hits unless ``uses_critical_hits`` is off)
    panels: ClassVar[tuple[str, ...] | None] = None
    uses_critical_hits: ClassVar[bool] = True

    def __init__(self, variants: Sequence[str] = ()) -> None:
        _check_declarations(type(self))
        known = {v.id for v in self.variant_list}
        unknown = [v for v in variants if v not in known]
        if unknown:
            raise RuleViolation(
                f"{self.title} has no variant {', '.join(unknown)}; known: "
                + (", ".join(sorted(known)) or "none")
            )
        self.chosen = frozenset(variants)
        self.procedures: Mapping[str, Procedure] = {
            p.id: p(self.chosen, self.State, self.GameState, getattr(self, "Card", None))
            for p in self.procedure_types
        }

    def bind(self, variants: Sequence[str]) -> Ruleset:
        """This ruleset with a game's chosen variants."""
        return type(self)(variants)

    @property
    def variants(self) -> tuple[Variant, ...]:
        return self.variant_list

    @property
    def default_variants(self) -> tuple[str, ...]:
        return tuple(v.id for v in self.variant_list if v.default)

    # -- aircraft ---------------------------------------------------------------------------

    @property
    def aircraft(self) -> Mapping[str, BaseModel]:
        """The catalogue: aircraft type id -> card (shipped samples plus the umpire's own)."""
        return {}

    def new_aircraft(
        self,
        aircraft_id: str,
        name: str,
        side: str,
        type_id: str,
        pilot: str | None,
        details: Mapping[str, Any],
    ) -> AircraftAdded:
        """The event that puts an aircraft (or counted group) on the roster, all checked."""
        catalogue = self.aircraft
        if type_id not in catalogue:
            raise RuleViolation(
                f"{self.title} has no aircraft type {type_id!r}; known: {', '.join(catalogue)}"
            )
        if self.uses_pilot_quality and pilot not in PILOT_QUALITIES:
            raise RuleViolation(
                f"pilot quality {pilot!r} is not one of {', '.join(PILOT_QUALITIES)}"
            )
        if not name.strip() or not side.strip():
            raise RuleViolation("an aircraft needs a name and a side")
        try:
            det = self.Details.model_validate(dict(details))
        except ValidationError as e:
            raise RuleViolation(f"{name}: {_brief(e)}") from None
        card = catalogue[type_id].model_dump(mode="json")
        return AircraftAdded(
            aircraft=aircraft_id,
            name=name.strip(),
            side=side.strip(),
            type_id=type_id,
            pilot=pilot if self.uses_pilot_quality else None,
            count=self.count_of(det),
            card=card,
            details=det.model_dump(mode="json"),
            ledgers=self.starting_ledgers(card, det),
            max_damage=self.max_damage(card, det),
            attributes=self.initial_attributes(card, det),
        )

    def ledgers_for(self, card: Mapping[str, Any]) -> tuple[LedgerSpec, ...]:
        """The ledgers an aircraft with this card keeps: the ruleset's ``ledgers`` and any the
        card itself names (a Phantoms missile type). The one place that says so (issue 19):
        starting values, corrections, the Ledgers panel and the cards all read it."""
        return self.ledgers

    def starting_ledgers(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Fraction]:
        out = {}
        for spec in self.ledgers_for(card):
            value = spec.start(card)
            if value is not None:
                out[spec.id] = value
        return out

    def count_of(self, details: BaseModel) -> int:
        """How many aircraft or air points one roster entry stands for."""
        return 1

    def max_damage(self, card: Mapping[str, Any], details: BaseModel) -> int | None:
        return None

    def initial_attributes(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Any]:
        return {}

    def displays(self, engagement: Engagement) -> list[CardBlock]:
        """The ruleset's own boards the desk shows beside the roster (Nth Fleet's Air Base
        Displays), built from the projection; none by default."""
        return []

    # -- what each side may know (the players' own screens, issue 48) ----------------------------

    def known_enemies(self, engagement: Engagement, side: str) -> frozenset[str] | None:
        """The enemy aircraft ``side`` may know of now (its spotting rule), or ``None`` for a
        ruleset (or a game) without one: then a side sees the enemy as the Player display
        shows it."""
        return None

    def written_plot(self, engagement: Engagement, line: ActingLine) -> bool:
        """This "who acts now" line's ``secret_inputs`` are written secretly (a plot): what a
        player enters for it stays sealed at the desk until every written plot of the step is
        in (the reveal). None by default."""
        return False

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        """This aircraft's printed control card; rulesets override to add their data blocks."""
        return CardSpec(
            aircraft.type_id,
            (*damage_track(aircraft), *ledger_tracks(self, aircraft), *critical_lines(aircraft)),
        )

    # -- sequence of play -------------------------------------------------------------------

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        """The steps of one turn, in order."""
        return (Step("Turn", "Turn"),)

    def acting(self, engagement: Engagement) -> Sequence[ActingLine]:
        """Who acts in the current step, in order: an ``ActingLine`` each (who, what they do,
        and the procedure when one procedure is what they do: the desk then opens that
        procedure's form for them on a double-click). Anything else is refused by the guest
        checks (``app.core.guest.acting_lines``), naming the line."""
        return []

    def on_clock(self, engagement: Engagement, turn: int, step: int) -> list[Event]:
        """Events that happen by themselves when the game reaches ``turn``/``step``."""
        return []

    def chain_model(self) -> Any:
        """The rolls an aircraft owes as a Markov chain (``app.core.chain_model.ChainModel``)
        for the odds to the end of the chain, or ``None``: the chain is then followed through
        the "who acts now" lines and the procedures themselves (``GenericModel``)."""
        return None

    def movement_help(self, engagement: Engagement, aircraft_id: str) -> MovementHelp | None:
        """Where the rules let this aircraft move now, for the board to show (``None``: the
        ruleset gives no help). Read from its card and state and its position on the board."""
        return None

    def table_files(self) -> Mapping[str, Path]:
        """The ruleset's editable TOML data tables: name -> shipped file (for the tables editor).

        Cells holding ``"missing"`` are ones the rules text does not print; the umpire's values
        are saved with ``app.core.data.save_override`` and merged in by ``load_table``.
        """
        return {}

    def table_headings(self) -> Mapping[str, Mapping[str, Sequence[str]]]:
        """Printed headings of the positions of a table's lists, where the file's keys do not
        give them: file stem -> {dotted path of the lists (a record list's leaf as
        ``rows.hit``) -> one heading per position}. The tables editor numbers them from 1
        otherwise."""
        return {}

    def check_events(self, engagement: Engagement, events: Sequence[Event]) -> Engagement | None:
        """The one door every event of this ruleset's game passes before it is stored (issue
        32), whatever made it (a procedure, ``on_clock``, an aircraft put on the roster with its
        initial attributes, a correction): each event in turn, on the game as the events
        before it leave it, against ``State`` and ``GameState`` (``InvalidState``, naming what
        is wrong; nothing is stored). The game as the events leave it, numbered on from
        ``engagement`` (the session takes it, issue 44: not worked out twice), or ``None`` when
        one cannot apply (the session's own check then refuses it)."""
        state = engagement
        for event in events:
            check_event(event, state, self.State, self.GameState)
            try:
                state = apply(state, event, state.seq + 1)
            except Exception:  # noqa: BLE001 - what cannot apply is refused by the store's check
                return None
        return state

    def ledger_spec(
        self, ledger_id: str, card: Mapping[str, Any] | None = None
    ) -> LedgerSpec | None:
        specs = self.ledgers_for(card) if card is not None else self.ledgers
        return next((s for s in specs if s.id == ledger_id), None)

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}{' ' + ','.join(sorted(self.chosen)) if self.chosen else ''}>"


#: the ruleset classes whose declarations were checked (once per class, not per game)
_CHECKED: set[type[Ruleset]] = set()


def _check_declarations(cls: type[Ruleset]) -> None:
    """The class's declarations checked against the contract once (``app.core.contract``):
    ``RulesetContractError`` naming every mistake, before a procedure is built."""
    if cls in _CHECKED:
        return
    from app.core.contract import RulesetContractError, declaration_mistakes

    mistakes = declaration_mistakes(cls)
    if mistakes:
        rid = getattr(cls, "id", cls.__name__)
        raise RulesetContractError(str(rid), [f"{rid}: {m}" for m in mistakes])
    _CHECKED.add(cls)


#: the typed game-wide records of recent projections: (id of the attributes, model) ->
#: (the attributes, the model's value), kept while the attributes are the same object
_GAME_STATES: dict[tuple[int, type[BaseModel]], tuple[Mapping[str, Any], BaseModel]] = {}


def game_state(engagement: Engagement, model: type[M]) -> M:
    """The game's records (``GameAttributesSet`` values) as the ruleset's ``GameState``,
    validated once per projection's records and then shared (as ``AircraftState.typed``)."""
    attributes = engagement.attributes
    key = (id(attributes), model)
    hit = _GAME_STATES.get(key)
    if hit is not None and hit[0] is attributes:
        return hit[1]  # type: ignore[return-value]
    value = model.model_validate(dict(attributes))
    if len(_GAME_STATES) > 256:
        _GAME_STATES.clear()
    _GAME_STATES[key] = (attributes, value)
    return value


def prefill_subject(
    engagement: Engagement, attacker: str | None, target: str | None
) -> AircraftState | None:
    """The aircraft a one-aircraft procedure's ``prefill`` is about: the desk passes it as
    ``attacker`` (a caller passing it as ``target`` is served too); ``None`` without one."""
    who = attacker or target
    return engagement.get(who) if who else None


def _brief(e: ValidationError) -> str:
    return problems_text(e)


def ledger_tracks(rs: Ruleset, aircraft: AircraftState) -> list[CardBlock]:
    """A track of boxes per ledger the aircraft has, spent units crossed out."""
    out: list[CardBlock] = []
    for spec in rs.ledgers_for(aircraft.card):
        led = aircraft.ledgers.get(spec.id)
        if led is None:
            continue
        total = int(led.maximum / spec.unit)
        used = int((led.maximum - led.value) / spec.unit)
        note = f"{led.value} of {led.maximum} left" + (
            f" (boxes are {spec.unit})" if spec.unit != 1 else ""
        )
        out.append(Track(spec.title, total, used, note=note))
    return out


def damage_track(aircraft: AircraftState, grey_from: int | None = None) -> list[CardBlock]:
    """The damage track: ``max_damage`` boxes, the damage taken crossed out."""
    if aircraft.max_damage is None:
        return []
    return [
        Track(
            "Damage",
            aircraft.max_damage,
            min(aircraft.damage, aircraft.max_damage),
            grey_from,
            note=f"{aircraft.damage} of {aircraft.max_damage}",
        )
    ]


def critical_lines(aircraft: AircraftState) -> list[CardBlock]:
    """The critical-hit entries and status flags, as a card block."""
    lines = [
        f"T{c.turn}: {c.result}" + (f" - {c.effect}" if c.effect else "")
        for c in aircraft.criticals
    ]
    if aircraft.status:
        lines.append("Status: " + ", ".join(sorted(s.replace("_", " ") for s in aircraft.status)))
    return [Lines("Critical hits and status", tuple(lines) or ("none",))]
