"""One rule, one function: a procedure's decision, its resolution and its exact odds.

A rules procedure is written once, as ``decide(inputs, dice, draft)``: check what the rules
forbid (``RuleViolation``), roll its dice, decide the outcome, and emit the events to
the ``Draft`` (which applies each at once, so later reads in the same decision see them).

- ``resolve(inputs, dice, engagement)`` runs ``decide`` once with the real dice (typed at the
  table or rolled by Airboss) and returns the log record, the events and the narrative.
- ``odds(inputs, engagement)`` runs the *same* ``decide`` over every value the dice can show
  (``exact_outcomes``): a tree walk by re-execution that branches at each roll over the totals
  of its spec. A roll of ``"8d6"`` is one branch per total (icepool convolves the dice), so a
  rule that sums many dice costs the number of totals, not 6**8. Odds and resolve therefore
  cannot disagree: they are one function.

A ``Calculator`` is the other kind: no dice; ``compute`` gives the one result.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import gcd
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from app.core.acting import ActingLine
from app.core.data import steady_tables
from app.core.dice import DiceSource, DiceSpec, Roll, distribution, faces_of
from app.core.engagement import AircraftState, Engagement, apply
from app.core.errors import MissingTableValue, RuleViolation, problems_text
from app.core.events import (
    AircraftAdded,
    AttributesSet,
    Event,
    GameAttributesSet,
    ProcedureResolved,
)
from app.core.reckoning import Term

__all__ = [
    "Calculator",
    "Decision",
    "Draft",
    "OddsTooLarge",
    "UnknownOdds",
    "Procedure",
    "Resolution",
    "exact_outcomes",
    "input_value",
    "sure_rolls",
]

M = TypeVar("M", bound=BaseModel)

#: the most dice sequences ``odds`` walks before refusing (inputs are capped well below it)
ODDS_LIMIT = 20_000


class OddsTooLarge(RuleViolation):
    """The inputs ask for more dice sequences than the odds may walk."""


class UnknownOdds(dict[str, Fraction]):
    """No odds, because a table cell the rules text does not print is needed: empty, with
    ``missing`` naming the table and the cell (the session's ``odds.odds`` gives it, never
    raises)."""

    def __init__(self, missing: MissingTableValue) -> None:
        super().__init__()
        self.missing = missing

    def __repr__(self) -> str:
        return f"UnknownOdds({self.missing})"


@dataclass(frozen=True)
class Resolution:
    """What a resolved procedure appends, in order, and the narrative line for the log."""

    events: tuple[Event, ...]
    narrative: str
    outcome: str
    rolls: tuple[Roll, ...] = ()
    #: rolls this result owes at once, as (procedure id, aircraft id): a critical hit, a fire
    #: check, an ejection ... the desk offers the first as the next roll
    follow_ups: tuple[tuple[str, str], ...] = ()
    #: what the result headline says happened (the outcome label unless the procedure names
    #: it: a critical hit's "Minor Damage" is labelled "miss" for the odds, but is not one)
    headline: str = ""
    #: the "who acts now" line this result makes owed at once, if any (set by the session's
    #: ``actions.resolve`` of a prepared action: a roll it owes, which the desk opens next;
    #: a script's ``perform`` leaves it None)
    follows: ActingLine | None = None


@dataclass(frozen=True, init=False)
class Decision:
    """What ``decide`` concluded: the outcome label, the narrative line (rule cited), and the
    rolls the result owes at once as (procedure id, aircraft id)."""

    outcome: str
    narrative: str
    follow_ups: tuple[tuple[str, str], ...] = ()
    #: the headline when the outcome label does not say what happened (see ``Resolution``)
    headline: str = ""
    #: every modifier that entered the roll's number (``app.core.reckoning.Term``), kept with
    #: the log record for the ruling (issue 45)
    modifiers: tuple[Term, ...] = ()

    def __init__(
        self,
        outcome: str,
        narrative: str,
        follow_ups: tuple[tuple[str, str], ...] = (),
        headline: str = "",
        modifiers: tuple[Term, ...] = (),
    ) -> None:
        # the frozen dataclass's own ``__init__`` sets each field through a call of
        # ``object.__setattr__``: a quarter of a Decision's making, and the odds make one for
        # every value of the dice (issue 44)
        fields = self.__dict__
        fields["outcome"] = outcome
        fields["narrative"] = narrative
        fields["follow_ups"] = follow_ups
        fields["headline"] = headline
        fields["modifiers"] = modifiers


class InvalidState(RuleViolation, TypeError):
    """An event whose values the ruleset's typed ``State`` or ``GameState`` refuses (a misspelt
    key, a wrong type): a bug of the ruleset (or a correction that cannot be), named, and
    nothing is applied."""


def check_event(
    event: Event,
    engagement: Engagement,
    state_model: type[BaseModel] | None,
    game_model: type[BaseModel] | None = None,
) -> None:
    """The one check every event of a ruleset passes (issue 32), wherever it comes from (a
    procedure's draft, ``on_clock``, the initial attributes of an aircraft put on the roster,
    a correction): an aircraft's attributes as they would be after it must be a valid
    ``State``, the game's attributes a valid ``GameState``; ``InvalidState`` names the event,
    the aircraft and what is wrong."""
    if isinstance(event, AttributesSet) and state_model is not None:
        a = engagement.get(event.aircraft)
        _valid(state_model, {**a.attributes, **event.values}, f"{a.name}: state", event.values)
    elif isinstance(event, AircraftAdded) and state_model is not None:
        _valid(
            state_model, dict(event.attributes), f"{event.name}: initial state", event.attributes
        )
    elif isinstance(event, GameAttributesSet) and game_model is not None:
        merged = {**engagement.attributes, **event.values}
        _valid(game_model, merged, "the game's records", event.values)


def _valid(model: type[BaseModel], values: Mapping[str, Any], what: str, given: Any) -> None:
    try:
        model.model_validate(values)
    except ValidationError as err:
        raise InvalidState(f"{what} {dict(given)!r}: {problems_text(err, '(all)')}") from None


class Draft:
    """The engagement as one decision goes: every emitted event is applied at once.

    ``state_model`` and ``game_model`` are the ruleset's typed per-aircraft ``State`` and
    game-wide ``GameState``: an event whose values they refuse (a misspelt key, a wrong type)
    is a programming error caught here (``check_event``), not a silent extra attribute.
    """

    def __init__(
        self,
        engagement: Engagement,
        state_model: type[BaseModel] | None = None,
        game_model: type[BaseModel] | None = None,
    ):
        self.engagement = engagement
        self.state_model = state_model
        self.game_model = game_model
        self.events: list[Event] = []

    def get(self, aircraft_id: str) -> AircraftState:
        return self.engagement.get(aircraft_id)

    def state(self, aircraft: AircraftState | str, model: type[M]) -> M:
        a = self.get(aircraft) if isinstance(aircraft, str) else aircraft
        return a.typed(model, "attributes")

    def emit(self, *events: Event) -> None:
        for e in events:
            check_event(e, self.engagement, self.state_model, self.game_model)
            self.engagement = apply(self.engagement, e, self.engagement.seq)
            self.events.append(e)


class _WalkDraft(Draft):
    """A ``Draft`` for one path of an odds walk (``Procedure.odds``): every path of the walk
    starts from the same game and most emit the same events on the way (a hit's damage on
    every face that hits), so an event already checked and applied to the same game state in
    this walk is taken from ``applied`` (issue 44: applying was a third of the odds stored
    with every roll). A game state never changes (every event makes a new one), and the walk
    holds the states it applied to, so the same object is the same game."""

    def __init__(
        self,
        engagement: Engagement,
        state_model: type[BaseModel] | None,
        game_model: type[BaseModel] | None,
        applied: dict[int, list[tuple[Engagement, Event, Engagement]]],
    ) -> None:  # not through ``Draft.__init__``: one is made for every path of a walk
        self.engagement = engagement
        self.state_model = state_model
        self.game_model = game_model
        self.events = []
        self._applied = applied

    def emit(self, *events: Event) -> None:
        for e in events:
            before = self.engagement
            done = self._applied.setdefault(id(before), [])
            kind, values = type(e), e.__dict__  # events are frozen, their fields all they hold
            after = next(
                (
                    r
                    for b, ev, r in done
                    if b is before and type(ev) is kind and ev.__dict__ == values
                ),
                None,
            )
            if after is None:
                check_event(e, before, self.state_model, self.game_model)
                after = apply(before, e, before.seq)
                done.append((before, e, after))
            self.engagement = after
            self.events.append(e)


Outcomes = tuple[tuple[tuple[Any, int], ...], int]


class _Branch(BaseException):
    """Raised inside a walked decision when it rolls past the chosen prefix (never caught by
    a rule's own ``except Exception``): the rolls the branch stands for, as (spec, purpose),
    and how to work out its outcomes, as (value, ways) and the ways in all (a pool's readings
    may raise: a table cell not printed)."""

    def __init__(self, rolls: tuple[tuple[str, str], ...], outcomes: Callable[[], Outcomes]):
        self.rolls = rolls
        self.outcomes = outcomes


@cache
def _spec(spec: str) -> DiceSpec:
    return DiceSpec.parse(spec)


@cache
def _totals(spec: str) -> tuple[tuple[tuple[int, int], ...], int]:
    """Each total of ``spec`` with its count of ways, and the number of ways in all."""
    dist = distribution(spec)
    den = 1
    for p in dist.values():
        den = den * p.denominator // gcd(den, p.denominator)
    return tuple((t, int(p * den)) for t, p in dist.items()), den


@cache
def _faces(spec: str, total: int) -> tuple[int, ...]:
    """Faces that add up to ``total`` (the walk branches on totals; see ``exact_outcomes``)."""
    return faces_of(_spec(spec), total)


@cache
def _walked_roll(spec: str, purpose: str, total: int) -> Roll:
    """The roll a walk makes of ``spec`` for ``total``: made once and shared by every walk
    (a ``Roll`` is immutable; issue 44: each of a d10's ten paths made its own)."""
    return Roll(spec, purpose, _faces(spec, total))


class _WalkDice:
    """A dice source that replays a chosen prefix of values and branches at the next roll or
    pool query (``app.core.dice.Branching``)."""

    __slots__ = ("prefix", "rolls", "_n")

    def __init__(self, prefix: Sequence[Any]) -> None:
        self.prefix = prefix
        self.rolls: list[Roll] = []
        self._n = 0

    def roll(self, spec: DiceSpec | str, purpose: str) -> Roll:
        name = spec.name if isinstance(spec, DiceSpec) else _spec(spec).name
        n = self._n
        if n >= len(self.prefix):
            raise _Branch(((name, purpose),), lambda: _totals(name))
        r = _walked_roll(name, purpose, self.prefix[n])
        self._n = n + 1
        self.rolls.append(r)
        return r

    def branch(self, rolls: tuple[tuple[str, str], ...], outcomes: Callable[[], Outcomes]) -> Any:
        if self._n >= len(self.prefix):
            raise _Branch(rolls, outcomes)
        value = self.prefix[self._n]
        self._n += 1
        return value


#: the most decisions a dry run for the dice (``sure_rolls``) runs before it stops looking
DRY_RUN_LIMIT = 10_000


def sure_rolls(
    run: Callable[[DiceSource], object], limit: int = DRY_RUN_LIMIT
) -> list[tuple[str, str]]:
    """The rolls ``run`` makes whatever the dice show, in order, as ``(spec, purpose)``: the
    dice the table can roll before anyone reads a face. A dry run, level by level over the
    values of the walk: a roll (or a pool query's rolls) is sure when every path so far makes
    it next; the first path that ends, or makes another roll, stops the list. A path the rules
    or tables stop after a roll (a cell not printed for that total) says nothing of the rolls
    after it and is left out. Past ``limit`` decisions the rolls found so far are returned (a
    roll asked later is asked for when reached, as the desk does for a re-roll). A refusal
    before any roll is raised: the rules refuse these inputs."""
    out: list[tuple[str, str]] = []
    level: list[tuple[Any, ...]] = [()]
    walked = 0
    while level:
        following: tuple[tuple[str, str], ...] | None = None
        children: list[tuple[Any, ...]] = []
        for prefix in level:
            walked += 1
            if walked > limit:
                return out
            try:
                run(_WalkDice(prefix))
            except _Branch as b:
                if following is None:
                    following = b.rolls
                elif following != b.rolls:
                    return out
                try:
                    values = b.outcomes()[0]
                except RuleViolation:  # a pool the tables cannot read yet: rolled all the same
                    return [*out, *b.rolls]
                children.extend((*prefix, v) for v, _ in values)
                continue
            except RuleViolation:
                if not prefix:
                    raise
                continue
            return out
        if following is None:
            return out
        out.extend(following)
        level = children
    return out


def exact_outcomes(
    run: Callable[[DiceSource], str], limit: int = ODDS_LIMIT
) -> dict[str, Fraction]:
    """The exact distribution of ``run``'s outcome over every value its dice can show.

    ``run`` is re-executed along each path of values; a roll beyond the path branches over the
    totals of its spec, a pool query (``app.core.dice``) over the values of its pool, whose
    distribution icepool works out. Rules that read single faces of several dice roll them one
    at a time, or read them as a pool. Weights stay whole numbers (ways, out of ``den``) until
    the end.
    """
    ways: dict[str, dict[int, int]] = {}
    paths: list[tuple[tuple[Any, ...], int, int]] = [((), 1, 1)]
    walked = 0
    while paths:
        prefix, num, den = paths.pop()
        walked += 1
        if walked > limit:
            raise OddsTooLarge(f"more than {limit} dice sequences: too many dice for exact odds")
        try:
            label = run(_WalkDice(prefix))
        except _Branch as b:
            outcomes, d = b.outcomes()
            for value, w in reversed(outcomes):
                paths.append(((*prefix, value), num * w, den * d))
            continue
        by_den = ways.setdefault(label, {})
        by_den[den] = by_den.get(den, 0) + num
    return {label: _sum(by_den) for label, by_den in ways.items()}


def _sum(ways_by_den: Mapping[int, int]) -> Fraction:
    if len(ways_by_den) == 1:  # one depth of dice, the usual case: no sum (issue 44)
        ((d, n),) = ways_by_den.items()
        return Fraction(n, d)
    return sum((Fraction(n, d) for d, n in ways_by_den.items()), Fraction(0))


CardT = TypeVar("CardT", bound=BaseModel)
StateT = TypeVar("StateT", bound=BaseModel)


@dataclass(frozen=True)
class Party(Generic[CardT, StateT]):
    """One aircraft of a two-aircraft procedure (the attacker or the target) with its card and
    its state read through the ruleset's models (``prefill_pair``)."""

    aircraft: AircraftState
    card: CardT
    state: StateT

    @property
    def id(self) -> str:
        return self.aircraft.id


def parties(
    engagement: Engagement,
    attacker: str | None,
    target: str | None,
    card: type[CardT],
    state: type[StateT],
) -> tuple[Party[CardT, StateT] | None, Party[CardT, StateT] | None]:
    """The attacker and the target of a two-aircraft procedure, each with its card and state
    typed (validated once per value, as ``AircraftState.typed``); ``None`` for the one not
    chosen. ``Procedure.prefill`` hands them to ``prefill_pair``."""

    def party(aircraft_id: str | None) -> Party[CardT, StateT] | None:
        if not aircraft_id:
            return None
        a = engagement.get(aircraft_id)
        return Party(a, a.typed(card, "card"), a.typed(state, "attributes"))

    return party(attacker), party(target)


class Procedure(ABC):
    """A rules action. Subclasses set the class attributes and write ``decide`` once.

    ``variants`` are the ids of the game's chosen variants; a procedure reads them, never a
    global. The dice are not declared: ``dice_needed`` finds the rolls ``decide`` makes by a
    dry run, so the desk can show one field per die for typed table dice. ``state_model`` is
    the ruleset's typed per-aircraft ``State`` (the ruleset sets it), against which the draft
    checks every ``AttributesSet``. The hooks for the desk's form (prefill, pickers, inputs
    off, dice fields, validation) have defaults.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    rule: ClassVar[str]
    Inputs: ClassVar[type[BaseModel]]
    #: inputs read off the cards and state (``prefill``): filled from them when not given, and
    #: refused when they disagree unless the umpire overrode them (issue 15; ``app.core.prepared``)
    card_fields: ClassVar[frozenset[str]] = frozenset()
    #: inputs the cards suggest but the umpire decides (the new speed starts at the current
    #: one): filled by ``prefill``, never locked
    suggested: ClassVar[frozenset[str]] = frozenset()
    #: the role the aircraft of a "who acts now" line takes in a two-aircraft procedure: the
    #: attacker of a shot, or the target of a roll it owes for a hit it took (a damage roll)
    line_role: ClassVar[Literal["attacker", "target"]] = "attacker"
    #: ledgers of the acting aircraft (attacker, or the one aircraft) this procedure spends: one
    #: that is empty means the line cannot act, said before anything is typed (issue 29)
    spends: ClassVar[tuple[str, ...]] = ()

    def complete(self, engagement: Engagement, values: Mapping[str, Any]) -> dict[str, Any]:
        """Inputs worked out from the game and the other inputs (an attack total from the
        counters ticked): shown locked, and worked out again at every change."""
        return {}

    def dice_needed(
        self, inputs: Any, engagement: Engagement | None = None, limit: int = DRY_RUN_LIMIT
    ) -> list[tuple[str, str]]:
        """``(spec, purpose)`` of each roll the procedure makes for these inputs whatever the
        dice show, in order: derived from ``decide`` by a dry run (``sure_rolls``), never
        declared. A roll that depends on a face already rolled (a tie re-rolled, a damage roll
        for a hit) is not among them: the desk asks for it when it is reached. Without an
        engagement the inputs are a what-if, as for ``odds``; one whose rules refuse the action
        now (not in this step, say) gets the what-if's dice, and the refusal comes when it is
        resolved. ``limit``: the most runs of ``decide`` (``sure_rolls``); 1 runs the rules
        once, up to their first roll."""
        if engagement is not None:
            game = engagement
            try:
                return sure_rolls(lambda d: self.decide(inputs, d, self.draft(game)), limit)
            except RuleViolation:
                pass
        empty, bare = Engagement(), what_if(inputs)
        return sure_rolls(lambda d: self.decide(bare, d, self.draft(empty)), limit)

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        """Input values read off the aircraft's cards and state, for the desk's form. A
        one-aircraft procedure writes ``prefill_one`` instead (it is given the aircraft), a
        two-aircraft one ``prefill_pair`` (given the attacker and target, typed)."""
        if type(self).prefill_pair is not Procedure.prefill_pair:
            if self.card_model is None or self.state_model is None:
                raise TypeError(
                    f"procedure {self.id!r} was made without its ruleset's Card and State "
                    "(use ruleset.procedures[...]): its prefill_pair reads them typed"
                )
            pair = parties(engagement, attacker, target, self.card_model, self.state_model)
            return self.prefill_pair(engagement, *pair)
        if type(self).prefill_one is Procedure.prefill_one:
            return {}
        who = attacker or target  # the desk passes the one aircraft as the attacker
        return {} if who is None else self.prefill_one(engagement, engagement.get(who))

    def prefill_one(self, engagement: Engagement, aircraft: AircraftState) -> dict[str, Any]:
        """The input values of a one-aircraft procedure read off this aircraft's card and
        state (the opening every such ``prefill`` had, written once)."""
        return {}

    def prefill_pair(
        self,
        engagement: Engagement,
        attacker: Party[Any, Any] | None,
        target: Party[Any, Any] | None,
    ) -> dict[str, Any]:
        """The input values of a two-aircraft procedure read off the attacker's and the
        target's cards and states, given typed by the ruleset's ``Card`` and ``State``
        (``None`` for the one not chosen): the opening every such ``prefill`` had, reading
        both aircraft from the engagement, written once (issue 32). A ruleset's override
        names its own models: ``attacker: Party[Card, State] | None``."""
        return {}

    def board_inputs(self, readings: Mapping[str, Any]) -> dict[str, Any]:
        """The inputs the board's readings of the pair fill (issue 18): by default the readings
        named like this procedure's fields; a procedure whose field is filled from a reading
        of another name (or from a chart the reading names) says so here."""
        return {k: v for k, v in readings.items() if k in self.Inputs.model_fields}

    def inputs_off(self) -> dict[str, str]:
        """Inputs that do not apply in this game (an optional rule not chosen): field -> why.
        The desk does not show them; the procedure refuses a value given for one."""
        return {}

    def choices(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, list[tuple[Any, str]]]:
        """For fields the umpire picks rather than types: field -> ``(value, printed label)``
        of each legal value now (a missile from the attacker's card with rounds left). The
        desk shows them as a picker, never a typed id (issue 14)."""
        return {}

    def parse(self, inputs: BaseModel | Mapping[str, Any]) -> Any:
        """Validate raw inputs into ``Inputs`` (``pydantic.ValidationError`` if they are bad)."""
        return parse_inputs(self.Inputs, inputs)

    def record(
        self,
        inputs: BaseModel,
        rolls: Sequence[Roll],
        outcome: str,
        modifiers: Sequence[Term] = (),
    ) -> ProcedureResolved:
        """The log record of this procedure's roll."""
        data = inputs.model_dump(mode="json")
        return ProcedureResolved(
            modifiers=tuple(t.as_record() for t in modifiers),
            procedure=self.id,
            inputs=data,
            rolls=tuple(
                {"spec": r.spec, "purpose": r.purpose, "dice": list(r.dice), "typed": r.typed}
                for r in rolls
            ),
            outcome=outcome,
            attacker=data.get("attacker") or data.get("aircraft"),
            target=data.get("target"),
        )

    def __repr__(self) -> str:
        return f"<Procedure {self.id} ({self.rule})>"

    #: a calculator has no dice: the desk shows its one result instead of odds
    is_calculator: ClassVar[bool] = False

    def __init__(
        self,
        variants: frozenset[str] = frozenset(),
        state_model: type[BaseModel] | None = None,
        game_model: type[BaseModel] | None = None,
        card_model: type[BaseModel] | None = None,
    ) -> None:
        self.variants = variants
        self.state_model = state_model
        self.game_model = game_model
        self.card_model = card_model

    def draft(self, engagement: Engagement) -> Draft:
        """A draft of ``engagement`` that checks every event against the ruleset's ``State``
        and ``GameState`` (``check_event``)."""
        return Draft(engagement, self.state_model, self.game_model)

    @abstractmethod
    def decide(self, inputs: Any, dice: DiceSource, draft: Draft) -> Decision:
        """The rule: refuse what it forbids, roll, decide, ``draft.emit`` the events."""

    def arrange(self, odds: dict[str, Fraction]) -> dict[str, Fraction]:
        """The order the desk lists outcomes in (default: as the dice first reach them)."""
        return odds

    # -- derived from decide -----------------------------------------------------------------

    def resolve(self, inputs: Any, dice: DiceSource, engagement: Engagement) -> Resolution:
        """Roll and decide once; the log record first, then the events ``decide`` emitted."""
        draft = self.draft(engagement)
        start = len(dice.rolls)
        decision = self.decide(inputs, dice, draft)
        rolls = tuple(dice.rolls[start:])
        events = (self.record(inputs, rolls, decision.outcome, decision.modifiers), *draft.events)
        return Resolution(
            events,
            decision.narrative,
            decision.outcome,
            rolls,
            decision.follow_ups,
            decision.headline or decision.outcome,
        )

    def odds(self, inputs: Any, engagement: Engagement | None = None) -> dict[str, Fraction]:
        """Every outcome label -> exact probability, summing to 1 (``"miss"`` = no effect):
        ``decide`` walked over every value of its dice. Without an engagement the inputs are
        a what-if (aircraft references dropped)."""
        if engagement is None:
            engagement = Engagement()
            inputs = what_if(inputs)
        game: Engagement = engagement
        with steady_tables():  # every path of the walk reads the same tables
            if type(self).draft is not Procedure.draft:  # a ruleset's own draft: as it is
                return self.arrange(
                    exact_outcomes(lambda d: self.decide(inputs, d, self.draft(game)).outcome)
                )
            applied: dict[int, list[tuple[Engagement, Event, Engagement]]] = {}
            models = self.state_model, self.game_model
            return self.arrange(
                exact_outcomes(
                    lambda d: self.decide(inputs, d, _WalkDraft(game, *models, applied)).outcome
                )
            )


class Calculator(Procedure):
    """A procedure without dice: the umpire reads the number instead of working it out."""

    is_calculator = True

    @abstractmethod
    def compute(self, inputs: Any, draft: Draft) -> Decision:
        """The one result; ``RuleViolation`` if the rules forbid what the inputs describe."""

    def decide(self, inputs: Any, dice: DiceSource, draft: Draft) -> Decision:
        return self.compute(inputs, draft)

    def result(self, inputs: Any, engagement: Engagement | None = None) -> Decision:
        """The result the desk shows before it is logged."""
        if engagement is None:
            engagement = Engagement()
            inputs = what_if(inputs)
        return self.compute(inputs, self.draft(engagement))


def input_value(inputs: Any, name: str) -> Any:
    """The input ``name`` of ``inputs`` (a procedure's ``Inputs``), ``None`` when it has no such
    field: read from the model's values, since pydantic's answer for a field a model does not
    have raises an error and catches it (3 us a time, on every action's log line; issue 44)."""
    if isinstance(inputs, BaseModel):
        return inputs.__dict__.get(name)
    return getattr(inputs, name, None)


def what_if(inputs: Any) -> Any:
    """``inputs`` without aircraft references: a calculation that touches no aircraft."""
    if not isinstance(inputs, BaseModel):
        return inputs
    refs: dict[str, Any] = {
        f: None
        for f in ("attacker", "target", "aircraft")
        if f in type(inputs).model_fields and getattr(inputs, f) is not None
    }
    return inputs.model_copy(update=refs) if refs else inputs


def parse_inputs(model: type[BaseModel], inputs: BaseModel | Mapping[str, Any]) -> Any:
    """Validate raw inputs into ``model`` (``pydantic.ValidationError`` if they are bad); text
    that cannot be stored (a lone surrogate from a paste) is refused first, naming the field,
    as a ``RuleViolation`` (issue 16)."""
    if isinstance(inputs, model):
        return inputs
    if isinstance(inputs, BaseModel):
        inputs = inputs.model_dump()
    for name, value in inputs.items():
        if not _storable(value):
            raise RuleViolation(
                f"{name}: holds a character that cannot be stored (a broken character from a "
                "paste?); retype it. Nothing was recorded."
            )
    return model.model_validate(inputs)


def _storable(value: Any) -> bool:
    if value is None or type(value) in _PLAIN:
        return True  # before the slower checks for a mapping and a collection (issue 44)
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, Mapping):
        return all(_storable(k) and _storable(v) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return all(_storable(v) for v in value)
    return True


#: values that always hold storable text (none)
_PLAIN = frozenset({bool, int, float})
