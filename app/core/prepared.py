"""One prepared action: what the desk shows is what resolve uses, by construction (issue 28).

The session turns a "who acts now" line, or a procedure picked with aircraft, into a
``Prepared``: the procedure, every aircraft in its role, every input with the value resolve
will use and where that value came from (the card and state, the board, the game, the
umpire's typing, an override, the field's default), which values are locked (read off the
cards or the board: changed only by an override, which the log records), the dice still to
type (one entry per die, labelled with printed names), and the validated inputs. The Combat
and Initiative panels render it and send it back to the session's ``actions.resolve``;
``GameSession.perform`` builds one from a script's inputs. Any change -- a keystroke, a piece
moved, a card or table edited, another station's action -- makes a new one.

Pure Python: no Qt, no store.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import Annotated, Any, Literal, NoReturn

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from app.core.data import steady_tables
from app.core.dice import DiceSpec
from app.core.engagement import Engagement
from app.core.errors import MissingTableValue, RuleViolation, problem_text
from app.core.procedure import DRY_RUN_LIMIT, Procedure

__all__ = [
    "ROLES",
    "DieToType",
    "Prepared",
    "Source",
    "Value",
    "first_enemy",
    "line_roles",
    "prepare",
    "refused_before_the_dice",
]

#: the aircraft references a procedure's ``Inputs`` may have
ROLES = ("attacker", "target", "aircraft")

#: where a value comes from: ``card`` (the aircraft's card and state, ``Procedure.prefill``),
#: ``board`` (what the board reads of the pair), ``game`` (worked out from the game and the
#: other inputs: ``Procedure.complete``, the sides of an initiative roll), ``typed`` (the umpire
#: or a script), ``override`` (a locked value the umpire changed on purpose), ``default`` (the
#: field's own default), ``unset`` (nothing yet: a value the umpire must type)
Source = Literal["card", "board", "game", "typed", "override", "default", "unset"]


@dataclass(frozen=True)
class Value:
    """One input as resolve will use it."""

    name: str
    title: str
    value: Any
    source: Source
    #: read off the cards, the board or the game: shown read-only until overridden
    locked: bool = False
    #: why this value is refused (empty: it is good)
    error: str = ""
    #: for an override: the value read, which it replaces
    read: Any = None


@dataclass(frozen=True)
class DieToType:
    """One die the players roll for this action: its faces and its label."""

    spec: DiceSpec
    label: str


@dataclass(frozen=True)
class Question:
    """What a form asks to have prepared as it stands: the ``procedure``, its aircraft by
    role, the values typed and the card values overridden (``Actions.prepare`` with the rules
    run to their first die: ``app.core.draft``)."""

    procedure: str
    roles: dict[str, str | None]
    typed: dict[str, Any]
    overridden: frozenset[str]


@dataclass(frozen=True)
class Prepared:
    """A procedure ready to resolve: what the form shows and what resolve sends."""

    procedure: str
    title: str
    rule: str
    #: the game's sequence number this was prepared at: resolve refuses a stale one
    seq: int
    #: ``attacker``/``target``/``aircraft`` -> aircraft id (``None``: none, a what-if)
    roles: Mapping[str, str | None]
    values: tuple[Value, ...]
    #: the validated inputs (``None`` while a value is missing or refused)
    inputs: BaseModel | None
    #: the whole refusal, one line (empty when ``inputs`` is good)
    error: str = ""
    #: pydantic's own refusal, kept for scripts (``GameSession.perform`` raises it)
    invalid: ValidationError | None = None
    dice: tuple[DieToType, ...] = ()
    #: fields the umpire picks rather than types: field -> ((value, printed label), ...)
    choices: Mapping[str, tuple[tuple[Any, str], ...]] = field(default_factory=dict)
    #: what the panel says beside the form (the board's readings, a target chosen for it)
    notes: tuple[str, ...] = ()
    #: why the cards could not be read (the line cannot act as it is)
    cannot: str = ""
    #: a table cell the rules text does not print, needed by these inputs
    missing: MissingTableValue | None = None
    #: a value typed for a field read off the cards or the board, which disagrees with it
    #: and was not overridden (a script's mistake; the desk never sends one)
    disagrees: str = ""
    #: the umpire's reason for the values he overrode, kept in the log and shown in the
    #: action's ruling (issue 34); empty: none given
    reason: str = ""
    #: why the rules refuse this action as it stands, before any die is rolled, once the
    #: values that refusal depends on are in (issue 29: said in the form at once, not after
    #: the dice and Enter); empty: not refused, or not known until more is typed
    refused: str = ""

    def value(self, name: str) -> Value:
        return next(v for v in self.values if v.name == name)

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.values]

    @property
    def shown(self) -> dict[str, Any]:
        """Every input's value as the form shows it, roles included."""
        return {**{r: a for r, a in self.roles.items()}, **{v.name: v.value for v in self.values}}

    @property
    def overrides(self) -> dict[str, tuple[Any, Any]]:
        """Locked values the umpire changed: field title -> (value read, value used)."""
        return {
            v.title: (v.read, v.value)
            for v in self.values
            if v.source == "override" and v.read != v.value
        }

    @property
    def is_what_if(self) -> bool:
        return not any(self.roles.values())


def first_enemy(engagement: Engagement, attacker: str | None) -> str | None:
    """The target a line opens on when it names none: the first aircraft of another side
    still in play (the umpire changes it in Target)."""
    a = engagement.aircraft.get(attacker) if attacker else None
    if a is None:
        return None
    return next(
        (t.id for t in engagement.aircraft.values() if t.side != a.side and t.in_play), None
    )


def line_roles(
    proc: Procedure, engagement: Engagement, who: str, other: str | None
) -> dict[str, str | None]:
    """The aircraft of a "who acts now" line in the procedure's roles: the line's aircraft
    takes ``proc.line_role`` (the attacker of a shot, the aircraft of a one-aircraft roll, the
    target of a damage roll it owes), ``other`` the opposite role. A line of a side (not an
    aircraft) names no aircraft. An attack without a named target opens on the first enemy
    in play, never on nobody (a what-if is the umpire's choice, not a line's)."""
    fields = proc.Inputs.model_fields
    me = who if who in engagement.aircraft else None
    them = other if other and other in engagement.aircraft else None
    if "aircraft" in fields and not ({"attacker", "target"} & set(fields)):
        return {"aircraft": me}
    role = proc.line_role
    if role == "target":
        return {"attacker": them, "target": me}
    roles: dict[str, str | None] = {"attacker": me, "target": them}
    if "target" in fields and roles["target"] is None:
        roles["target"] = first_enemy(engagement, me)
    return {r: a for r, a in roles.items() if r in fields}


def _is_choice(info: FieldInfo) -> bool:
    annotation = info.annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    for a in [annotation, *args]:
        if typing.get_origin(a) is Literal or (isinstance(a, type) and issubclass(a, Enum)):
            return True
    return False


def _title(name: str, info: FieldInfo) -> str:
    return info.title or name.replace("_", " ").capitalize()


def _label(purpose: str, names: Mapping[str, str]) -> str:
    """A die's purpose with the aircraft's printed name for its role or id ("gun attack:
    Phantom 1" rather than "gun attack: attacker"; "initiative for Blue 1", not "initiative
    for blue-1")."""
    head, sep, tail = purpose.rpartition(": ")
    if sep and tail in names:
        return f"{head}: {names[tail]}"
    head, sep, tail = purpose.rpartition(" ")
    if sep and tail in names:
        return f"{head} {names[tail]}"
    return purpose


def dice_of(
    needed: Sequence[tuple[str, str]], names: Mapping[str, str] | None = None
) -> tuple[DieToType, ...]:
    """One entry per die of ``needed`` ((spec, purpose) per roll)."""
    out: list[DieToType] = []
    for text, purpose in needed:
        spec = DiceSpec.parse(text)
        label = _label(purpose, names or {})
        one = DiceSpec(1, spec.low, spec.high, spec.die_name, spec.zero_reads)
        for i in range(spec.count):
            which = f"{label} (die {i + 1} of {spec.count})" if spec.count > 1 else label
            out.append(DieToType(one, which))
    return tuple(out)


def _spent(proc: Procedure, engagement: Engagement, who: str | None) -> str:
    """Why the acting aircraft cannot act: a ledger the procedure spends is empty (no gun
    ammunition left), or "" (issue 29: said on the line, before any die is typed)."""
    a = engagement.aircraft.get(who) if who else None
    if a is None:
        return ""
    for ledger in proc.spends:
        led = a.ledgers.get(ledger)
        if led is not None and led.value <= 0:
            return f"{a.name} has no {ledger.replace('_', ' ')} left ({proc.rule})"
    return ""


def _same(proc: Procedure, raw: Mapping[str, Any], name: str, a: Any, b: Any) -> bool:
    """Whether two values of one field are the same once validated (3 and "3" are)."""
    if a == b:
        return True
    try:
        return bool(
            getattr(proc.parse({**raw, name: a}), name)
            == getattr(proc.parse({**raw, name: b}), name)
        )
    except (ValidationError, RuleViolation, ValueError):
        return False


@steady_tables()  # its cards, choices, completion, dry run and check read the tables once
def prepare(
    proc: Procedure,
    engagement: Engagement,
    *,
    roles: Mapping[str, str | None],
    typed: Mapping[str, Any] | None = None,
    overridden: Iterable[str] = (),
    board: Mapping[str, Any] | None = None,
    whole_game: bool = False,
    notes: Sequence[str] = (),
    check: bool = False,
    pending: Iterable[str] = (),
    dice: bool = True,
    first_roll: bool = True,
    first_offered: bool = False,
) -> Prepared:
    """The procedure with these aircraft, what was typed and what was overridden, made ready.

    A value read off the cards (``prefill``) or the board is locked when the form must not
    change it silently: a required value, a choice, or one of the procedure's ``card_fields``;
    a value the procedure works out from the others (``complete``) is locked too. A locked
    value is replaced only by an override; a typed value that disagrees with a card field or
    the board without one is refused (``disagrees``). ``whole_game``: the procedure reads the
    whole game rather than two aircraft (the initiative roll), so its cards are read with no
    aircraft named. ``check``: the rules run up to their first die, so a refusal is said now
    (``refused``, ``refused_before_the_dice``); ``pending`` names values the form shows but
    the umpire has not typed (a spin box's 0): a refusal that reads them waits for them.
    ``dice=False``: the dice are not worked out (``dice`` is empty), for a question answered
    before them: can this line act at all (issue 36: the dry run for the dice, a run of the
    rules for every branch of every roll, was most of the time of asking it for every line).
    The rules still run once up to their first roll, so a ruleset's error there says the line
    cannot act, as with the dice (issue 32). ``first_roll=False`` (with ``dice=False``) skips
    that run too: for a script's ``perform``, which resolves the action at once, so the rules
    run then and say what they refuse (issue 44). ``first_offered``: a pick still to make (a
    required value nothing gives, the missile) is the first offered, as if typed: "can this
    line act" asks with it, so a rule that refuses every pick is said now (no lock-on, say),
    and a refusal the rules reach before they read the pick is the same whichever is picked.
    """
    typed = dict(typed or {})
    over = set(overridden)
    model_fields = proc.Inputs.model_fields
    off = proc.inputs_off()
    roles = {r: roles.get(r) for r in ROLES if r in model_fields}
    first = roles.get("attacker") or roles.get("aircraft")
    target = roles.get("target")
    has_roles = bool(roles)

    card: dict[str, Any] = {}
    choices: dict[str, tuple[tuple[Any, str], ...]] = {}
    cannot = ""
    if first or target or not has_roles or whole_game:
        try:
            choices = {k: tuple(v) for k, v in proc.choices(engagement, first, target).items()}
            filled = proc.prefill(engagement, first, target)
            if not isinstance(filled, Mapping):  # a plugin's bug, named as such (issue 31)
                raise TypeError(f"prefill returned {type(filled).__name__}, not a mapping")
            card = dict(filled)
        except (RuleViolation, KeyError, ValueError) as e:
            cannot = f"Cannot read the cards: {e}"
    cannot = cannot or _spent(proc, engagement, first)
    if whole_game:
        if "sides" in model_fields and len(engagement.sides) >= 2:
            card.setdefault("sides", list(engagement.sides))
        if "aircraft_ids" in model_fields:
            card.setdefault(
                "aircraft_ids", [a.id for a in engagement.aircraft.values() if a.in_play]
            )
    from_board = {k: v for k, v in proc.board_inputs(board or {}).items() if k in model_fields}
    strict = proc.card_fields | frozenset(from_board)

    def lockable(name: str, info: FieldInfo) -> bool:
        if name in proc.suggested and name not in from_board:
            return False  # the umpire decides it; the card only suggests
        return name in from_board or (
            name in card and (info.is_required() or _is_choice(info) or name in proc.card_fields)
        )

    if first_offered:
        typed = {
            **{
                name: choices[name][0][0]
                for name, info in model_fields.items()
                if choices.get(name)
                and info.is_required()
                and name not in ROLES
                and name not in off
                and name not in from_board
                and name not in card
            },
            **typed,
        }
    values: dict[str, Value] = {}
    disagrees: list[tuple[str, Any, Any, bool]] = []
    for name, info in model_fields.items():
        if name in ROLES or name in off:
            continue
        title = _title(name, info)
        read_from: Source | None = (
            "board" if name in from_board else "card" if name in card else None
        )
        read = from_board[name] if name in from_board else card.get(name)
        if read_from is not None and lockable(name, info):
            if name in over:
                v = Value(name, title, typed.get(name, read), "override", read=read)
            elif name in typed and name in strict and not _same(proc, {}, name, typed[name], read):
                disagrees.append((name, typed[name], read, read_from == "board"))
                v = Value(name, title, typed[name], "typed", read=read)
            elif name in typed and name not in strict:
                v = Value(name, title, typed[name], "typed", read=read)
            else:
                v = Value(name, title, read, read_from, locked=True)
        elif name in typed:
            v = Value(name, title, typed[name], "typed", read=read)
        elif read_from is not None:
            v = Value(name, title, read, read_from, read=read)
        elif not info.is_required():
            v = Value(name, title, info.get_default(call_default_factory=True), "default")
        else:
            v = Value(name, title, None, "unset")
        values[name] = v

    raw = {
        **{r: a for r, a in roles.items() if a is not None},
        **{n: v.value for n, v in values.items() if v.source != "unset"},
    }
    try:
        derived = proc.complete(engagement, raw) if (first or target) else {}
    except (RuleViolation, KeyError, ValueError):
        derived = {}
    for name, value in derived.items():
        was = values.get(name)
        if was is None or was.source == "override":
            continue
        values[name] = Value(name, was.title, value, "game", locked=True, read=value)
        raw[name] = value

    # "can this line act" (a check without the dice): the check's run is the rules' one run up
    # to their first roll, a ruleset's error there raised as the dry run for the dice raises it
    # (issue 48: the rules ran twice for every line of every step, three times for one refused)
    once = check and not dice and first_roll and any(roles.values())
    prepared = _validated(
        proc,
        engagement,
        roles,
        values,
        raw,
        choices=choices,
        notes=tuple(notes),
        cannot=cannot,
        disagrees=disagrees,
        dice=dice,
        first_roll=first_roll and not once,
    )
    if check:
        refused = refused_before_the_dice(proc, engagement, prepared, pending, errors=once)
        if refused:
            prepared = replace(prepared, refused=refused)
    return prepared


def _validated(
    proc: Procedure,
    engagement: Engagement,
    roles: Mapping[str, str | None],
    values: dict[str, Value],
    raw: dict[str, Any],
    *,
    choices: Mapping[str, tuple[tuple[Any, str], ...]],
    notes: tuple[str, ...],
    cannot: str,
    disagrees: Sequence[tuple[str, Any, Any, bool]],
    dice: bool,
    first_roll: bool = True,
) -> Prepared:
    """Validate the values as one ``Inputs`` and work out the dice they need (if ``dice``)."""
    inputs: BaseModel | None = None
    invalid: ValidationError | None = None
    general: list[str] = []
    errors: dict[str, list[str]] = {}
    try:
        inputs = proc.parse(raw)
    except ValidationError as e:
        invalid = e
        for err in e.errors():
            loc = err["loc"]
            name = str(loc[0]) if loc else ""
            msg = problem_text(err)
            if len(loc) > 1:
                msg = f"item {'.'.join(str(p) for p in loc[1:])}: {msg}"
            if name in values:
                errors.setdefault(name, []).append(msg)
            else:
                general.append(f"{name}: {msg}" if name else msg)
    except RuleViolation as e:
        general.append(str(e))
    said = ""
    for name, given, read, board in disagrees:
        v = values[name]
        whose_id = (
            roles.get("target")
            if name.startswith("target") and roles.get("target")
            else (roles.get("attacker") or roles.get("aircraft"))
        )
        whose = engagement.aircraft.get(whose_id) if whose_id else None
        who = whose.name if whose is not None else "the aircraft"
        source = "the board says" if board else f"{who}'s card and state say"
        said = said or (
            f"{v.title}: {given} is not what {source} ({read}); override it on purpose (the log "
            "records it) or leave it as read. Nothing was recorded."
        )
        errors.setdefault(name, []).append(f"not what {source} ({read})")
    for name, msgs in errors.items():
        v = values[name]
        shown = "needed" if v.source == "unset" else "; ".join(dict.fromkeys(msgs))
        values[name] = Value(v.name, v.title, v.value, v.source, v.locked, shown, v.read)
    if said:
        inputs = None
    error = said or "; ".join([f"{values[n].title}: {values[n].error}" for n in errors] + general)
    to_type: tuple[DieToType, ...] = ()
    missing: MissingTableValue | None = None
    if inputs is not None and (dice or first_roll):
        try:
            game = engagement if any(roles.values()) else None  # as the odds are worked out
            needed = proc.dice_needed(inputs, game, limit=DRY_RUN_LIMIT if dice else 1)
            to_type = dice_of(needed, _names(engagement, roles)) if dice else ()
        except MissingTableValue as e:
            missing = e
        except (RuleViolation, ValueError, KeyError):
            to_type = ()
    return Prepared(
        procedure=proc.id,
        title=proc.title,
        rule=proc.rule,
        seq=engagement.seq,
        roles=dict(roles),
        values=tuple(values.values()),
        inputs=inputs,
        error=error,
        invalid=invalid,
        dice=to_type,
        choices=choices,
        notes=notes,
        cannot=cannot,
        missing=missing,
        disagrees=said,
    )


def _names(engagement: Engagement, roles: Mapping[str, str | None]) -> dict[str, str]:
    """How the dice name who rolls them: each aircraft's name, by id and by role."""
    return {a.id: a.name for a in engagement.aircraft.values()} | {
        r: engagement.aircraft[a].name
        for r, a in roles.items()
        if a is not None and a in engagement.aircraft
    }


# -- a refusal said before the dice (issue 29) ------------------------------------------------


class _Unset(BaseException):
    """The rules read a value still to be typed: their refusal (if any) depends on it. A
    ``BaseException``, so a rule's own ``except Exception`` never swallows it."""


class _NotTyped:
    """Stands in for a value still to be typed: any use of it (a comparison, arithmetic, a
    conversion, an attribute) stops the dry run (``_Unset``)."""

    __slots__ = ()

    def _stop(self, *_: object, **__: object) -> NoReturn:
        raise _Unset

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _stop
    __bool__ = __int__ = __float__ = __index__ = __str__ = __format__ = _stop
    __hash__ = __len__ = __iter__ = __contains__ = __getitem__ = _stop
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _stop
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _stop
    __neg__ = __pos__ = __abs__ = __round__ = _stop

    def __getattr__(self, name: str) -> NoReturn:
        raise _Unset

    def __repr__(self) -> str:
        return "<not typed yet>"


_NOT_TYPED = _NotTyped()


class _DiceReached(BaseException):
    """The dry run reached its first roll: the rules refused nothing before it."""


class _UntilTheDice:
    """A dice source for a dry run: it stops the decision at its first roll (or pool)."""

    def __init__(self) -> None:
        self.rolls: list[Any] = []

    def roll(self, spec: Any, purpose: str) -> NoReturn:
        raise _DiceReached

    def branch(self, rolls: Any, outcomes: Any) -> NoReturn:
        raise _DiceReached


@cache
def _adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    """A validator of one field of ``model`` on its own (its type and constraints)."""
    info = model.model_fields[name]
    typ: Any = info.annotation
    if info.metadata:
        typ = Annotated[typ, *info.metadata]
    return TypeAdapter(typ)


def _so_far(proc: Procedure, p: Prepared, pending: frozenset[str]) -> BaseModel | None:
    """The inputs as far as they are in: each good value validated on its own, each value
    still to type (unset, refused, or ``pending``) a stand-in that stops the rules where they
    read it; ``None`` when nothing is missing (the form's own error says what is wrong)."""
    model = proc.Inputs
    out: dict[str, Any] = {r: a for r, a in p.roles.items() if r in model.model_fields}
    missing = False
    for v in p.values:
        if v.source == "unset" or v.error or v.name in pending:
            out[v.name] = _NOT_TYPED
            missing = True
            continue
        try:
            out[v.name] = _adapter(model, v.name).validate_python(v.value)
        except (ValidationError, TypeError, ValueError):
            out[v.name] = _NOT_TYPED
            missing = True
    if not missing:
        return None
    return model.model_construct(**out)


def refused_before_the_dice(
    proc: Procedure,
    engagement: Engagement,
    p: Prepared,
    pending: Iterable[str] = (),
    *,
    errors: bool = False,
) -> str:
    """Why the rules refuse the prepared action before its first die (no radar lock-on on
    the target picked, a gun already fired this impulse), or "" (issue 29: a refusal is said
    as soon as the values it depends on are in, not after the dice and Enter).

    The rules run on the game as it is up to their first roll. While values are still to
    type, each is a stand-in that stops the run where the rules read it: a refusal reached
    without reading any is theirs whatever is typed; one that reads a value still to type
    waits for it (so does one that reads a ``pending`` value: shown, not typed). A missing
    table cell (the form offers it), a ruleset's error and a what-if
    (no aircraft) say nothing here: resolve says them. ``errors``: a ruleset's error in a run
    on every value (not a stand-in) is raised where ``Procedure.dice_needed`` raises it (for
    "can this line act", whose one run of the rules this is). Nothing is written."""
    if p.cannot or p.disagrees or p.is_what_if or p.seq != engagement.seq:
        return ""
    waiting = frozenset(pending)
    inputs = p.inputs
    if inputs is None or waiting & {v.name for v in p.values}:
        inputs = _so_far(proc, p, waiting)
    if inputs is None:
        return ""
    try:
        if type(proc).resolve is Procedure.resolve:  # the rules alone: no log record made
            proc.decide(inputs, _UntilTheDice(), proc.draft(engagement))
        else:  # a ruleset's own resolve (it completes the inputs first): run as it is
            proc.resolve(inputs, _UntilTheDice(), engagement)
    except (_DiceReached, _Unset, MissingTableValue):
        return ""
    except RuleViolation as e:
        return str(e)
    except Exception:
        if errors and inputs is p.inputs:
            # the dry run for the dice tells a ruleset's error it raises (said on the line)
            # from one only resolve meets (a result of the wrong type)
            with suppress(RuleViolation, ValueError, KeyError):
                proc.dice_needed(inputs, engagement, limit=1)
        return ""  # a ruleset's bug is said when it is resolved
    return ""
