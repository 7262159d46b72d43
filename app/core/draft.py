"""The action being typed: one draft, the one source of what the form shows (issue 43).

An ``ActionDraft`` owns everything about the action the umpire is typing: the procedure, the
aircraft in each role, each value typed (as the text typed) or overridden (with its reason),
and the dice typed so far. Every change makes the one call that prepares the action
(``Desk.prepare``, ``app.core.prepared``) and emits ``changed``. The Combat and Initiative
panels are views of a draft: each field's painted text is ``text(name)``, each keystroke is
``type_text`` / ``type_die``, and Resolve sends exactly ``prepared``. So what the umpire sees is
what resolves, by construction: a typed text that is not a value of its field is passed on as
typed and refused in place by the procedure's own validation, never clamped or cut.

The Enter -> next die -> resolve flow is a small state machine on the draft: ``next_entry``
says where the cursor goes (a field still to type, a die still to type, Resolve, or Target
when the rules refuse the pair), ``enter`` moves on or resolves, and a typed die asks the rules
which die they roll next (dice they never roll are marked "not rolled"; a result that rolls
more asks for it in the same draft).

Pure Python: no Qt. The desk, a test or a player's page drive it alike.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, Concatenate, Literal, ParamSpec, Protocol, TypeVar

from psygnal import Signal
from pydantic import ValidationError

from app.core import field_text, guest
from app.core.acting import ActingLine
from app.core.dice import DiceError, DiceSource, DiceSpec, SeededDice, TableDice
from app.core.engagement import Engagement
from app.core.errors import MissingTableValue, Raced, RuleViolation, error_text
from app.core.prepared import ROLES, DieToType, Prepared, Question, dice_of, line_roles
from app.core.procedure import Procedure, Resolution

__all__ = [
    "ActionDraft",
    "Desk",
    "DieSlot",
    "Entry",
    "pools",
]


P = ParamSpec("P")
R = TypeVar("R")


def _waits(
    method: Callable[Concatenate[ActionDraft, P], R],
) -> Callable[Concatenate[ActionDraft, P], R | None]:
    """One of the draft's actions (a keystroke, a line opened, Resolve, the game changed).
    A ruleset call it makes that is to be answered later (``app.core.guest.GuestPending``:
    the desk's GUI thread does not wait, issue 44) puts the draft back as the action found it
    (no view was told of the half-done action), ``waiting`` set (no Resolve meanwhile) and
    ``waits`` emitted; ``prepare_again``, once the call has answered, does the action again,
    its calls answered from the first run's record, so it goes through as if the ruleset had
    answered at once. A newer action supersedes it. Within one of the desk's actions that is
    done again itself (``app.core.guest.current``: a key's, a click's), the draft is put back
    and the ``GuestPending`` goes on to it."""

    @functools.wraps(method)
    def run(self: ActionDraft, /, *args: P.args, **kwargs: P.kwargs) -> R | None:
        outer, here = self._in_action, guest.current()
        if outer is not None and outer is here:  # within another action of the draft
            return method(self, *args, **kwargs)
        if here is not None:  # within one of the desk's actions: that one is done again
            before = self._state()
            self._again, self.waiting, self._in_action = None, None, here
            try:
                return method(self, *args, **kwargs)
            except guest.GuestPending:
                self.__dict__.update(before)
                raise
            finally:
                self._in_action = outer
        again = functools.partial(method, self, *args, **kwargs)
        record = self._again[1] if self._again is not None and self._again[2] else guest.Record()
        self._again, self.waiting, self._in_action = None, None, record
        before = self._state()
        try:
            with guest.replaying(record):
                return again()
        except guest.GuestPending as e:
            # as the action found it (what it changed so far never shown: no view is told of
            # a half-done action), until it is done again
            self.__dict__.update(before)
            self._again, self.waiting = (again, record, False), e.call
            self.waits.emit(e.call)
            return None
        finally:
            self._in_action = outer

    return run


class Desk(Protocol):
    """What a draft needs of the game it is typed for (``GameSession`` is one)."""

    @property
    def engagement(self) -> Engagement: ...

    @property
    def ruleset(self) -> Any: ...

    def prepare(
        self,
        procedure: str,
        roles: Mapping[str, str | None] | None = None,
        typed: Mapping[str, Any] | None = None,
        overridden: frozenset[str] | set[str] = frozenset(),
        *,
        choose_target: bool = True,
        notes: Sequence[str] = (),
        check: bool = True,
        pending: Collection[str] = (),
        dice: bool = True,
    ) -> Prepared: ...

    def next_die(self, prepared: Prepared, typed: Sequence[int]) -> DieToType | str | None: ...

    def resolve(self, prepared: Prepared, dice: DiceSource | None = None) -> Resolution: ...

    def acting(self) -> list[ActingLine]: ...

    def first_roles(self, procedure: str) -> dict[str, str | None]: ...


@dataclass(frozen=True)
class DieSlot:
    """One field of dice: ``count`` identical dice of ``spec`` typed as one string (a pool,
    issue 29), or one die (``count`` 1), with the label the umpire reads."""

    spec: DiceSpec
    label: str
    count: int = 1

    @property
    def name(self) -> str:
        """The die as printed: ``d10``, or ``6d6`` for a pool."""
        return f"{self.count}{self.spec.die_name}" if self.count > 1 else self.spec.die_name

    @property
    def typeable(self) -> list[int]:
        """The numbers one die takes: its faces, and 0 where a 0 reads as one (a d10's 10)."""
        faces = set(self.spec.faces)
        return sorted(faces | {0} if self.spec.zero_reads is not None else faces)

    @property
    def hint(self) -> str:
        zero = " (0 = 10)" if self.spec.zero_reads else ""
        if self.count == 1:
            return f"{self.spec.low}-{self.spec.high}{zero}"
        return f"{self.count} dice, e.g. {'1' * self.count}{zero}"


@dataclass(frozen=True)
class Entry:
    """Where the cursor goes: a ``field`` (by name), a ``die`` (by index), the ``target``
    picker (the rules refuse this pair), ``resolve``, the offer to fill in a ``missing`` table
    cell, or ``none`` (nothing is open)."""

    kind: Literal["field", "die", "target", "resolve", "missing", "none"]
    name: str = ""
    index: int = -1


_DIE_OF = re.compile(r"^(?P<stem>.*) \(die (?P<i>\d+) of (?P<n>\d+)\)$")
_SEPARATED = re.compile(r"[\s,;]")


def pools(dice: Sequence[DieToType]) -> list[DieSlot]:
    """One slot per die, except the dice of one roll of several identical dice ("... (die 1
    of 6)" to "(die 6 of 6)"), which make one pool slot labelled once (issue 29)."""
    out: list[DieSlot] = []
    i = 0
    while i < len(dice):
        d = dice[i]
        m = _DIE_OF.match(d.label)
        n = int(m["n"]) if m and m["i"] == "1" else 1
        group = dice[i : i + n]
        same = bool(m) and (
            len(group) == n
            and all(
                g.spec == d.spec and (mm := _DIE_OF.match(g.label)) and mm["stem"] == m["stem"]  # type: ignore[index]
                for g in group
            )
        )
        if n > 1 and same and m is not None:
            out.append(DieSlot(d.spec, m["stem"], n))
            i += n
        else:
            out.append(DieSlot(d.spec, d.label, 1))
            i += 1
    return out


def tokens(text: str, count: int) -> list[str]:
    """The faces typed in one slot: separated by spaces or commas, else one character a die
    in a pool ("345612") and the whole text for one die ("10" is one die)."""
    text = text.strip()
    if not text:
        return []
    if _SEPARATED.search(text):
        return [t for t in re.split(r"[\s,;]+", text) if t]
    return list(text) if count > 1 else [text]


def _whole(t: str) -> bool:
    return t.lstrip("-").isdigit()


class ActionDraft:
    """One action being typed (see the module's docstring). ``whole_game``: the initiative
    roll's draft (no aircraft roles; a tie re-rolls a whole round)."""

    #: the draft changed (anything a view shows): the prepared action now (``None``: none)
    changed = Signal(object)
    #: the cursor should go here now (an ``Entry``)
    focus = Signal(object)
    #: an action was resolved: the resolution and the prepared action it resolved
    resolved = Signal(object, object)
    #: a resolve left nothing owed: the desk moves on ("who acts now")
    done = Signal()
    #: a resolve was refused: the message (the desk's status bar and ledgers hear it too)
    refused = Signal(str)
    #: the game changed while no view showed the draft (``shown``): it is prepared again when
    #: next read, and its view should paint it again when it comes into view (issue 48)
    behind = Signal()
    #: an action waits for a ruleset call (``app.core.guest.Call``): the draft is as the
    #: action found it until ``prepare_again`` (issue 44)
    waits = Signal(object)

    def __init__(self, desk: Desk | None = None, *, whole_game: bool = False) -> None:
        self._desk = desk
        self.whole_game = whole_game
        #: the players roll real dice and the umpire types them (else Airboss rolls)
        self.players_roll = True
        self.procedure: str | None = None
        #: role -> aircraft id; ``None``: none picked (an attacker's target is chosen for it),
        #: ``""``: the umpire's own what-if (no aircraft)
        self.roles: dict[str, str | None] = {}
        #: the text the umpire typed in each text field (exactly as typed)
        self.texts: dict[str, str] = {}
        #: the values the umpire picked (choices, check boxes, ticked lists)
        self.picked: dict[str, Any] = {}
        #: locked values (read off the cards or the board) the umpire overrides on purpose
        self.overridden: set[str] = set()
        #: why the override (logged with the action and shown in its ruling)
        self.reason = ""
        #: the dice typed, one text per slot (``slots``)
        self.dice_texts: list[str] = []
        #: the game's (turn, step) when a die was last typed: dice outlive no step (issue 48)
        self._dice_step: tuple[int, int] | None = None
        #: slots the rules will not roll with the dice typed before them ("not rolled")
        self.skipped: set[int] = set()
        #: dice a result asked for that nobody could know before the roll (UFO damage 2)
        self.more: tuple[DieToType, ...] = ()
        #: rounds of re-rolled dice (an initiative tie)
        self.rounds = 0
        #: a resolve asked for the dice: the empty ones say "type the number rolled" in place
        self._insisted = False
        self._prepared: Prepared | None = None
        #: whether a view shows the draft now (``None``: always, as for a draft no panel
        #: owns); while none does, a change of the game prepares it only when next read
        self.shown: Callable[[], bool] | None = None
        #: the game changed since the draft was last prepared (no view showed it)
        self._behind = False
        #: while the draft resolves: the changes of the game its own append made (``None``
        #: otherwise)
        self._own: list[tuple[bool, bool]] | None = None
        #: why the action could not be prepared at all (the rules or the ruleset refused)
        self.prepare_error = ""
        #: the ruleset call the last action waits for (``prepare_again``), if any
        self.waiting: guest.Call | None = None
        #: that action, to be done again, its record of answers, and whether it is being
        #: done again now (``_waits``)
        self._again: tuple[Callable[[], object], guest.Record, bool] | None = None
        self._in_action: guest.Record | None = None
        #: a new game, or just resolved: the umpire is not at the form yet, so a refusal of
        #: the action as it stands is said beside the odds, not in red
        self.quiet = True
        #: the blue line (something the umpire should know changed) and the red one (a
        #: refusal of what he just did); the prepared action's own refusal adds to the red
        self._notice = ""
        self._refused = ""
        #: a table cell the last resolve stopped at (the desk offers the Tables editor)
        self.missing: MissingTableValue | None = None
        self._resolving_missing = False
        #: the "who acts now" line this draft was opened from, and whether that line was
        #: listed then (a roll owed that is undone or resolved elsewhere leaves the form)
        self.line: ActingLine | None = None
        self._line_listed = False
        self._clock: tuple[int, int] = (0, 0)
        self._roster: tuple[tuple[str, str, str | None, bool], ...] = ()
        #: the last resolution, for the result line
        self.last: tuple[Resolution, Prepared] | None = None
        #: called before a resolve: the desk takes in what other windows or stations did
        #: first, so an action of theirs refuses this one, saying what they did
        self.before_resolve: Callable[[], object] | None = None
        #: while ``changed`` is emitted: the change is the game's alone (``game_changed``
        #: prepared the action again on the game as it is now), nothing the umpire did; a view
        #: whose ``look`` is as it painted it need paint only what follows the game (issue 48)
        self.moving_on = False

    @property
    def desk(self) -> Desk:
        if self._desk is None:
            raise RuleViolation("no game is open")
        return self._desk

    def attach(self, desk: Desk | None) -> None:
        """Another game (or none): the draft starts afresh on it (``reset``)."""
        self._desk = desk
        if desk is None:
            self._clean()
            self.procedure, self.roles, self.prepared, self.last = None, {}, None, None
            self.notice, self.quiet = "", True
            self._emit()
            return
        self.reset()

    # -- what a view reads ---------------------------------------------------------------------

    @property
    def prepared(self) -> Prepared | None:
        """The action as it stands, prepared on the game as it is now (a draft behind the game
        is prepared first: ``catch_up``)."""
        if self._behind:
            self.catch_up()
        return self._prepared

    @prepared.setter
    def prepared(self, p: Prepared | None) -> None:
        self._prepared = p
        self._behind = False

    def catch_up(self) -> None:
        """Prepared again if the game changed while no view showed the draft (``behind``)."""
        if self._behind:
            self._behind = False
            self._prepare()

    @property
    def proc(self) -> Procedure | None:
        if self.procedure is None or self._desk is None:
            return None
        procedure: Procedure | None = self.desk.ruleset.procedures.get(self.procedure)
        return procedure

    @property
    def names(self) -> list[str]:
        """The fields the form shows, in order."""
        return list(self.prepared.names) if self.prepared is not None else []

    def kind(self, name: str) -> field_text.Kind:
        """The editor field ``name`` calls for (a picker where the rules offer choices)."""
        proc = self.proc
        assert proc is not None
        kind, _ = field_text.kind_of(proc.Inputs.model_fields[name])
        p = self.prepared
        if p is not None and name in p.choices:
            return "multi" if kind in ("str_list", "multi") else "choice"
        return kind

    def optional(self, name: str) -> bool:
        proc = self.proc
        assert proc is not None
        return field_text.kind_of(proc.Inputs.model_fields[name])[1]

    def options(self, name: str) -> tuple[tuple[Any, str], ...]:
        """A picker's (value, printed label) pairs: the rules' offer, else the type's values."""
        p = self.prepared
        assert p is not None
        return self._options_of(p, name)

    def required(self, name: str) -> bool:
        proc = self.proc
        return proc is not None and proc.Inputs.model_fields[name].is_required()

    def bounds(self, name: str) -> tuple[int, int]:
        proc = self.proc
        assert proc is not None
        return field_text.bounds(proc.Inputs.model_fields[name])

    def text(self, name: str) -> str:
        """The text field ``name`` shows: what the umpire typed, else the value used as text
        (read off a card, the board, the game, or the field's default); empty while unset."""
        if name in self.texts:
            return self.texts[name]
        p = self.prepared
        if p is None or name not in p.names:
            return ""
        v = p.value(name)
        return "" if v.source == "unset" else field_text.render(v.value)

    def value(self, name: str) -> Any:
        """The value field ``name`` resolves with (``None`` while unset)."""
        p = self.prepared
        if p is None or name not in p.names:
            return None
        v = p.value(name)
        return None if v.source == "unset" else v.value

    def error(self, name: str) -> str:
        """Why field ``name`` is refused, in place ("" when it is good or still to type)."""
        p = self.prepared
        if p is None or name not in p.names:
            return ""
        v = p.value(name)
        if v.source == "unset" or not v.error:
            return ""
        if name in self.texts and not self.texts[name].strip():
            return "empty: type a value"
        return v.error

    def locked(self, name: str) -> bool:
        """Read off the cards, the board or the game: changed only by an override."""
        p = self.prepared
        return p is not None and name in p.names and p.value(name).locked

    @property
    def notice(self) -> str:
        """The blue line: what the umpire should know changed (dice cleared, a roll owed, the
        Roster's choice, a form left), then what the prepared action notes (the board's
        readings, a target chosen for it)."""
        p = self.prepared
        notes = list(p.notes) if p is not None else []
        return " ".join(n for n in (self._notice, *notes) if n)

    @notice.setter
    def notice(self, text: str) -> None:
        self._notice = text

    @property
    def refusal(self) -> str:
        """The red line: what was just refused, or why the action as it stands cannot act."""
        if self._refused:
            return self._refused
        if self.waiting is not None:
            return f"Waiting for the ruleset {self.waiting.ruleset} ({self.waiting.call})…"
        p = self.prepared
        if self.prepare_error:
            return self.prepare_error
        if p is None:
            return ""
        if p.cannot:
            return p.cannot
        if p.refused and not self.quiet:
            return f"Cannot resolve: {p.refused}"
        return ""

    @property
    def can_resolve(self) -> bool:
        """Resolve is offered: an action is prepared and the rules do not refuse it as it is."""
        p = self.prepared
        return p is not None and not p.refused and not p.cannot and self.waiting is None

    @property
    def slots(self) -> list[DieSlot]:
        """The fields of dice to type: the action's, each re-roll round's, and the dice its
        result asked for."""
        p = self.prepared
        dice = tuple(p.dice) if p is not None else ()
        rounds: list[Sequence[DieToType]] = [dice]
        rounds += [
            tuple(DieToType(d.spec, f"{d.label} (re-roll {n})") for d in dice)
            for n in range(1, self.rounds + 1)
        ]
        rounds.append(self.more)
        return [slot for batch in rounds for slot in pools(batch)]

    def die_text(self, index: int) -> str:
        return self.dice_texts[index] if index < len(self.dice_texts) else ""

    def die_error(self, index: int, required: bool = False) -> str:
        """Why the dice typed in slot ``index`` are refused ("" when good, or empty and not
        yet required)."""
        slot = self.slots[index]
        text = self.die_text(index).strip()
        if not text:
            return "type the number rolled" if required or self._insisted else ""
        faces = tokens(text, slot.count)
        try:
            for t in faces:
                slot.spec.read(int(t) if _whole(t) else t, slot.label)  # type: ignore[arg-type]
        except DiceError as e:
            return str(e)
        if slot.count == 1 and len(faces) > 1:
            return f"{len(faces)} dice typed in the field of one die: type each in its own"
        if slot.count > 1 and len(faces) > slot.count:
            return f"{len(faces)} dice typed, {slot.count} rolled"
        if required and slot.count > 1 and len(faces) < slot.count:
            return f"{len(faces)} of {slot.count} dice typed"
        return ""

    def die_faces(self, index: int) -> list[int] | None:
        """The numbers typed in slot ``index`` (``None`` while they are not all whole numbers
        of this die, or not all there)."""
        slot = self.slots[index]
        faces = tokens(self.die_text(index), slot.count)
        if len(faces) != slot.count or not all(_whole(t) for t in faces):
            return None
        if self.die_error(index):
            return None
        return [int(t) for t in faces]

    def dice_to_type(self) -> list[int]:
        """The slots the umpire types: every slot the rules roll (not those marked skipped)."""
        return [i for i in range(len(self.slots)) if i not in self.skipped]

    def must_type(self) -> list[str]:
        """The fields the umpire types for this action: required, not read off a card."""
        p = self.prepared
        if p is None:
            return []
        return [
            v.name
            for v in p.values
            if self.required(v.name) and not v.locked and v.source != "override"
        ]

    def next_entry(self) -> Entry:
        """Where the cursor goes next: the first field still to type or refused, else the
        first die still to type (when the players roll), else Resolve. An action the rules
        refuse as it stands goes to Target, where one key picks another."""
        p = self.prepared
        if p is None:
            return Entry("none")
        if p.refused and "target" in self.roles and not self.whole_game:
            return Entry("target")
        for name in p.names:
            v = p.value(name)
            if v.locked and v.source != "override":
                continue
            if v.error or (v.source == "unset" and self.required(name)):
                return Entry("field", name)
        if self.players_roll:
            for i in self.dice_to_type():
                if self.die_faces(i) is None:
                    return Entry("die", index=i)
        return Entry("resolve")

    def first_entry(self) -> Entry:
        """Where the cursor goes when the action is opened: the first field the umpire types
        (its value selected), else as ``next_entry``."""
        p = self.prepared
        if p is not None and not (p.refused and "target" in self.roles):
            todo = self.must_type()
            if todo:
                return Entry("field", todo[0])
        return self.next_entry()

    # -- opening an action ---------------------------------------------------------------------

    @_waits
    def reset(self) -> None:
        """A new game (or the same game afresh): the procedure shown stays if the ruleset has
        it, on the first aircraft whose cards it reads; nothing typed; the umpire not at it."""
        rs = self.desk.ruleset
        if self.whole_game:
            self.procedure = rs.initiative
        elif self.procedure not in rs.procedures or self.procedure == rs.initiative:
            self.procedure = next((p for p in rs.procedures if p != rs.initiative), None)
        self._clean()
        self.notice = ""
        self.quiet = True
        self.last = None
        self.roles = self._first_roles() if self.procedure else {}
        self._roster = self._roster_now()
        self._prepare()

    def _roster_now(self) -> tuple[tuple[str, str, str | None, bool], ...]:
        """What an initiative roll's values depend on: who is on which side, pilots, in play."""
        e = self.desk.engagement
        return tuple((a.id, a.side, a.pilot, a.in_play) for a in e.aircraft.values())

    def _first_roles(self) -> dict[str, str | None]:
        if self.whole_game or self.procedure is None:
            return {}
        try:
            return self.desk.first_roles(self.procedure)
        except Exception:  # noqa: BLE001 - then the umpire picks them
            return {}

    def _clean(self) -> bool:
        """Nothing typed, picked or overridden; True if dice had been typed."""
        had = any(t.strip() for t in self.dice_texts)
        self._insisted = False
        self.texts, self.picked, self.overridden, self.reason = {}, {}, set(), ""
        self.dice_texts, self.skipped, self.more, self.rounds = [], set(), (), 0
        self._refused, self.missing, self._resolving_missing = "", None, False
        self.prepare_error = ""
        self.line, self._line_listed = None, False
        return had

    @_waits
    def open_line(self, procedure: str, who: str, other: str | None = None) -> None:
        """A "who acts now" line: this procedure with the line's aircraft each in the role the
        rules give it, on a clean form, the cursor in the first field to type. Dice typed for
        another action are cleared, and the draft says so."""
        proc = self.desk.ruleset.procedures.get(procedure)
        if proc is None:
            self._say_refused(f"Cannot open this line: no procedure {procedure!r}")
            return
        had = self._clean()
        self.notice = "The dice typed for the last action were cleared." if had else ""
        self.quiet = False
        self.procedure = procedure
        e = self.desk.engagement
        self.roles = {} if self.whole_game else line_roles(proc, e, who, other)
        self.line = ActingLine(who, "", procedure=procedure, other=other or "")
        self._line_listed = self._listed(self.line)
        self._clock = (e.turn, e.step)
        self._prepare()
        self.focus.emit(self.first_entry())

    @_waits
    def choose_procedure(self, procedure: str) -> None:
        """Another procedure picked: a clean form for it with the aircraft picked (or the first
        whose cards it reads); the dice of the last one cleared, and said."""
        if procedure == self.procedure or procedure not in self.desk.ruleset.procedures:
            return
        had = self._clean()
        self.quiet = False
        self.procedure = procedure
        fields = self.proc.Inputs.model_fields if self.proc is not None else {}
        kept = {r: a for r, a in self.roles.items() if r in fields}
        first = self.roles.get("attacker") or self.roles.get("aircraft")
        if "aircraft" in fields and "attacker" not in fields and first:
            kept = {"aircraft": first}
        elif "attacker" in fields and first and "attacker" not in kept:
            kept = {"attacker": first, "target": self.roles.get("target")}
        self.roles = {r: a for r, a in kept.items() if r in fields} or self._first_roles()
        self.notice = "Dice cleared (another procedure): type the dice of this one." if had else ""
        self._prepare()

    @_waits
    def set_role(self, role: str, aircraft: str | None) -> None:
        """The umpire picked ``aircraft`` for ``role`` (``""`` in Target: his own what-if).
        Values typed for what the new cards say give way to them; the dice typed for the last
        pair are cleared, and said."""
        if self.proc is None or role not in ROLES:
            return
        if self.roles.get(role) == aircraft:
            return
        fields = self.proc.Inputs.model_fields
        self.quiet = False
        if role in ("attacker", "aircraft"):
            for r in ("attacker", "aircraft"):
                if r in fields or r == role:
                    self.roles[r] = aircraft
            self.roles = {r: a for r, a in self.roles.items() if r in fields}
            target = self.roles.get("target")
            if target and not self._enemies(aircraft, target):
                self.roles["target"] = None  # no longer an enemy: the first one is chosen
        else:
            self.roles[role] = aircraft
        self._refused = ""
        if self._clear_dice():
            self.notice = "Dice cleared (another aircraft): type the dice of this pair."
        self._prepare()
        p = self.prepared
        if p is not None:
            stale = {
                v.name
                for v in p.values
                if v.source == "typed" and v.read is not None and v.name not in self.overridden
            }
            if stale:
                for name in stale:
                    self.texts.pop(name, None)
                    self.picked.pop(name, None)
                self._prepare()

    def _enemies(self, first: str | None, target: str) -> bool:
        e = self.desk.engagement
        a, t = e.aircraft.get(first or ""), e.aircraft.get(target)
        return t is not None and t.in_play and (a is None or a.side != t.side)

    @_waits
    def choose(self, ids: Sequence[str]) -> str:
        """The Roster's selection: the first aircraft acts, a second is the target. Returns
        what changed hands, also kept as the notice ("" when nothing did)."""
        if self.proc is None or not ids or self.whole_game:
            return ""
        before = self._role_names()
        first = ids[0]
        fields = self.proc.Inputs.model_fields
        role = "attacker" if "attacker" in fields else "aircraft" if "aircraft" in fields else ""
        if role and self.roles.get(role) != first:
            self.set_role(role, first)
        if len(ids) > 1 and "target" in fields and self.roles.get("target") != ids[1]:
            if self._enemies(self.roles.get("attacker"), ids[1]):
                self.set_role("target", ids[1])
        after = self._role_names()
        changed = [
            f"{r} is now {after[r]} (was {before.get(r, 'none')})"
            for r in after
            if before.get(r) != after[r]
        ]
        if not changed:
            return ""
        self._notice = "Chosen in the Roster: " + "; ".join(changed) + "."
        self._emit()
        return self._notice

    def _role_names(self) -> dict[str, str]:
        e = self.desk.engagement
        p = self.prepared
        roles = p.roles if p is not None else self.roles
        return {
            r.capitalize(): (e.aircraft[a].name if a and a in e.aircraft else "none")
            for r, a in roles.items()
        }

    # -- typing --------------------------------------------------------------------------------

    @_waits
    def type_text(self, name: str, text: str, *, advance: bool = True) -> None:
        """The umpire typed ``text`` in field ``name`` (the whole text the field holds). A
        whole number no further digit could change moves the cursor on (``advance``)."""
        if self.prepared is None or name not in self.prepared.names:
            return
        if self.texts.get(name) == text and name in self.texts:
            return
        self.texts[name] = text
        self._edited()
        if not advance or self.kind(name) != "int" or self.error(name):
            return
        low, high = self.bounds(name)
        if field_text.is_complete(text.strip(), low, high):
            self._advance_from(Entry("field", name))

    @_waits
    def pick(self, name: str, value: Any, *, advance: bool = False) -> None:
        """The umpire picked ``value`` in field ``name`` (a choice, a box, ticked items);
        ``advance``: picked by its key, the cursor moves on as after a typed number."""
        if self.prepared is None or name not in self.prepared.names:
            return
        if not (name in self.picked and self.picked[name] == value):
            self.picked[name] = value
            self._edited()
        if advance and not self.error(name):
            self._advance_from(Entry("field", name))

    @_waits
    def override(self, name: str) -> None:
        """The umpire overrides a locked value: it becomes his to type (the value read is
        kept as the text until he types another), and the log records it."""
        p = self.prepared
        if p is None or name not in p.names:
            return
        self.overridden.add(name)
        v = p.value(name)
        if self.kind(name) in ("choice", "multi", "bool"):
            self.picked[name] = v.value
        else:
            self.texts[name] = field_text.render(v.value)
        self._edited()
        self.focus.emit(Entry("field", name))

    @_waits
    def set_reason(self, text: str) -> None:
        """Why the override: goes into the log and the ruling with the action."""
        if text != self.reason:
            self.reason = text
            self._prepare()

    def _edited(self) -> None:
        self.quiet = False
        self._refused = ""
        self._prepare()

    @_waits
    def type_die(self, index: int, text: str) -> None:
        """The umpire typed (or pasted) ``text`` in die slot ``index``. Several dice pasted in
        the field of one die fill it and the fields after it, when there are enough of them
        and each is a face of its die; otherwise the field keeps what was typed and says why
        in place. A die whole moves the cursor to the next die the rules roll."""
        slots = self.slots
        if not 0 <= index < len(slots):
            return
        self._fit_dice(len(slots))
        self._refused = ""
        self.quiet = False
        e = self.desk.engagement
        self._dice_step = (e.turn, e.step)
        faces = tokens(text, slots[index].count)
        spread = self._spread(index, faces) if slots[index].count == 1 and len(faces) > 1 else None
        if spread:
            for i, t in spread:
                self.dice_texts[i] = t
            last = spread[-1][0]
            self._reopen(index)
            self._emit()
            self._die_typed(last)
            return
        self.dice_texts[index] = text
        self._reopen(index)
        self._emit()
        if self.die_faces(index) is None:
            return
        slot = slots[index]
        if slot.count == 1:
            t = text.strip()
            typeable = slot.typeable
            if not field_text.is_complete(t, min(typeable), max(typeable)):
                return
        self._die_typed(index)

    def _spread(self, index: int, faces: list[str]) -> list[tuple[int, str]] | None:
        """Several dice pasted in one die's field: the fields they fill, or ``None`` when they
        do not fit (too few fields after it, or a value not a face of its die)."""
        slots = self.slots
        todo = [i for i in range(index, len(slots)) if i not in self.skipped or i == index]
        if len(todo) < len(faces) or any(slots[i].count != 1 for i in todo[: len(faces)]):
            return None
        for i, t in zip(todo, faces, strict=False):
            if not _whole(t):
                return None
            try:
                slots[i].spec.read(int(t), slots[i].label)
            except DiceError:
                return None
        return list(zip(todo, faces, strict=False))

    def _fit_dice(self, n: int) -> None:
        if len(self.dice_texts) < n:
            self.dice_texts += [""] * (n - len(self.dice_texts))

    def _reopen(self, index: int) -> None:
        """A die typed again: the dice after it are the rules' to ask for again."""
        self.skipped = {i for i in self.skipped if i <= index}

    def _die_typed(self, index: int) -> None:
        """Die ``index`` is whole: on to the next die the rules roll with the dice typed so
        far; the dice they never roll after it are marked "not rolled" (issue 29), and a die
        they roll beyond the fields is asked for now."""
        p = self.prepared
        slots = self.slots
        typed: list[int] = []
        for i in range(index + 1):
            if i in self.skipped:
                continue
            faces = self.die_faces(i)
            if faces is None:
                self.focus.emit(self.next_entry())
                return
            typed += faces
        die: DieToType | str | None = ""
        if p is not None and p.inputs is not None:
            try:
                die = self.desk.next_die(p, typed)
            except Exception:  # noqa: BLE001 - not known: simply the next field
                die = ""
        later = list(range(index + 1, len(slots)))
        if not later:
            if isinstance(die, DieToType):  # the roll goes on: its next die asked for now
                self.more = (*self.more, die)
                self._notice = f"The result rolls more: {die.label}. Type it and press Enter."
                self._emit()
                self.focus.emit(Entry("die", index=len(self.slots) - 1))
            else:
                self.focus.emit(self.next_entry())
            return
        wanted = die.label if isinstance(die, DieToType) else die
        if wanted == "":
            self.focus.emit(self._next_die_entry(index))
            return
        stem = m["stem"] if wanted and (m := _DIE_OF.match(wanted)) else wanted
        to = next((i for i in later if slots[i].label in (wanted, stem)), None) if wanted else None
        if wanted and to is None:  # a die this form does not list: the next field
            self.focus.emit(self._next_die_entry(index))
            return
        for i in later:
            if i == to:
                break
            self.skipped.add(i)
            if i < len(self.dice_texts):
                self.dice_texts[i] = ""
        self._emit()
        self.focus.emit(Entry("die", index=to) if to is not None else self.next_entry())

    def _next_die_entry(self, index: int) -> Entry:
        for i in self.dice_to_type():
            if i > index and self.die_faces(i) is None:
                return Entry("die", index=i)
        return self.next_entry()

    def _advance_from(self, at: Entry) -> None:
        """A field typed in full: on to the next field still to type after it, else the first
        die to type; nothing more (Enter resolves)."""
        p = self.prepared
        if p is None:
            return
        todo = self.must_type()
        if at.name in todo:
            for name in todo[todo.index(at.name) + 1 :]:
                v = p.value(name)
                if v.source == "unset" or v.error:
                    self.focus.emit(Entry("field", name))
                    return
        nxt = self.next_entry()
        if nxt.kind == "die":
            self.focus.emit(nxt)

    @_waits
    def fill_sent(self, dice: Sequence[tuple[str, str]], plot: Mapping[str, Any], said: str) -> str:
        """What a player's page sent for the line this draft is open on, accepted by the
        umpire's key (issue 48): a plot's values go into their fields and the dice into their
        slots (matched by printed label, in order), each as if typed here, so the form shows
        them and what it shows is what resolves. ``said`` is the notice. Returns "" or why
        nothing was filled (the dice the line asks for changed since the page showed them)."""
        p = self.prepared
        if p is None:
            return "no action is open to fill"
        labels = [s.label for s in self.slots]
        sent = [label for label, _ in dice]
        if sent and sent != labels[: len(sent)]:
            return (
                "the dice this line asks for changed since the page showed them (now: "
                + (", ".join(labels) or "none yet")
                + "): ask the player to send them again"
            )
        unknown = [n for n in plot if n not in p.names]
        if unknown:
            return f"not a field of this form: {', '.join(unknown)}"
        # each as if typed, the form painted and the cursor placed once, at the end
        with self.changed.blocked(), self.focus.blocked():
            for name, value in plot.items():
                if self.kind(name) in ("choice", "multi", "bool"):
                    self.pick(name, value)
                else:
                    self.type_text(name, field_text.render(value), advance=False)
            for i, (_, text) in enumerate(dice):
                if text.strip() and i not in self.skipped:
                    self.type_die(i, text)
        self.notice = said
        self._emit()
        self.focus.emit(self.next_entry())
        return ""

    @_waits
    def clear_dice(self, why: str) -> None:
        """Empty the typed dice (they belong to the action they were typed for) and say so; a
        refusal of the dice just cleared is no longer said."""
        if self._clear_dice():
            self._refused = ""
            self.notice = f"Dice cleared ({why}): type the dice of this action."
            self._prepare()

    def _clear_dice(self) -> bool:
        had = any(t.strip() for t in self.dice_texts)
        self._insisted = False
        self.dice_texts, self.skipped, self.more, self.rounds = [], set(), (), 0
        return had

    # -- the flow: Enter, resolve ---------------------------------------------------------------

    @_waits
    def enter(self, at: Entry | None = None) -> None:
        """Enter where the cursor is: on to what is still to type (saying why where the
        cursor stays), else resolve; an action the rules refuse as it stands is resolved, so
        the rules say why (nothing is written)."""
        p = self.prepared
        if p is None:
            self._say_refused(self.prepare_error or "Nothing to resolve: no procedure is open.")
            return
        nxt = self.next_entry()
        if p.refused or p.cannot or nxt.kind == "resolve":
            self.resolve()
            return
        if nxt == at:
            self._say_refused(self._why_not(nxt))
        self.focus.emit(nxt)

    def _why_not(self, at: Entry) -> str:
        if at.kind == "field" and self.prepared is not None:
            title = self.prepared.value(at.name).title
            return f"Not resolved: {title}: {self.error(at.name) or 'type it first'}"
        if at.kind == "die":
            slot = self.slots[at.index]
            return f"Not resolved: {slot.name}, {slot.label}: " + (
                self.die_error(at.index, required=True) or "type the number rolled"
            )
        return self.refusal

    @_waits
    def resolve(self, seen: Prepared | None = None) -> bool:
        """Resolve exactly the prepared action the umpire sees (``seen``: the one the form
        showed, if the draft has prepared again since: another window acted first) with the
        dice typed or Airboss's. Returns True when the action was recorded. Every refusal is
        said (``refusal``) and writes nothing."""
        p = seen if seen is not None else self.prepared
        if self.before_resolve is not None:
            self.before_resolve()  # their action first: then this one is refused, said so
        if p is None or self.proc is None:
            self._say_refused("Nothing to resolve: no procedure is open.")
            return False
        if self.prepare_error:
            self._say_refused(self.prepare_error)
            return False
        if p.inputs is None and not p.refused and not p.cannot:
            self._say_refused(f"Not resolved: {p.error}")
            self.focus.emit(self.next_entry())
            return False
        if p.refused and p.inputs is None:  # refused whatever is still typed: said as it is
            self._say_refused(f"Cannot resolve: {p.refused}")
            return False
        dice: DiceSource
        if p.refused or p.cannot:
            dice = SeededDice()  # refused before any die: nothing is rolled, the rules say why
        elif self.players_roll:
            typed = self._typed_dice()
            if typed is None:
                return False
            dice = typed
        else:
            dice = SeededDice()
        self.missing = None
        try:
            res = self._resolve_own(p, dice)
        except Raced as e:
            self._say_refused(str(e))  # the dice stay: Enter resolves again on the game now
            with guest.detached():  # an action of its own: the game changed under this one
                self._prepare_afresh()
            return False
        except MissingTableValue as e:
            self.missing, self._resolving_missing = e, True
            self._say_refused(str(e))
            self.focus.emit(Entry("missing"))  # Enter opens the editor on the cell (issue 29)
            return False
        except (RuleViolation, ValidationError) as e:
            if isinstance(dice, TableDice) and dice.ran_out and dice.wanted is not None:
                self._ask_more(dice.wanted)
                return False
            self._say_refused(error_text(e))
            if self._clear_dice():
                self.notice = "The dice typed for this action were cleared: it was not resolved."
            self._emit()
            return False
        except Exception as e:  # noqa: BLE001 - a store's or a ruleset's error: said, not lost
            self._say_refused(
                f"{p.title}: not resolved ({type(e).__name__}: {e}); nothing was written"
            )
            return False
        self.last = (res, p)
        self._clear_dice()
        self._refused, self.notice = "", ""
        self.resolved.emit(res, p)
        # what follows the write is an action of its own: one that waits for the ruleset is
        # done again by itself, never the resolve (it would write twice; issue 44)
        with guest.detached():
            self._after_resolve(res)
        return True

    @_waits
    def _after_resolve(self, res: Resolution) -> None:
        """After a resolve wrote: the roll it owes opened (said), else the form cleared and
        the desk told to move on."""
        if self.whole_game:  # the roll stays on its panel, ready for the next turn's
            self.quiet = True
            self._prepare()
            return
        if res.follows is not None:
            owed = res.follows
            who, pid = owed.who, owed.procedure
            self.open_line(pid, who, owed.other or None)
            game = self.desk.engagement
            name = game.aircraft[who].name if who in game.aircraft else who
            title = self.desk.ruleset.procedures[pid].title
            self.notice = f"Owed now: {title} for {name}. Resolve it next."
            self._emit()
            return
        self.texts, self.picked, self.overridden, self.reason = {}, {}, set(), ""
        self.line, self._line_listed = None, False
        self.quiet = True
        self._prepare()
        self.done.emit()

    def _resolve_own(self, p: Prepared, dice: DiceSource) -> Resolution:
        """``desk.resolve``, the draft's own ``game_changed`` held meanwhile: once it is
        recorded the draft prepares on the game after it (``resolve``), so preparing (and its
        view painting) on the append too would be done twice (issue 48). Refused, the changes
        are followed as they came."""
        self._own = []
        try:
            res = self.desk.resolve(p, dice)
        except BaseException:
            missed, self._own = self._own, None
            with guest.detached():  # each an action of its own (issue 44)
                for undone, elsewhere in missed:
                    self.game_changed(undone, elsewhere)
            raise
        missed, self._own = self._own, None
        if missed:  # what the append changes beyond the form, followed still
            self._follow_roster()
            self._follow_roles()
        return res

    def _typed_dice(self) -> TableDice | None:
        """The dice typed, or ``None`` (the first wrong or missing one said, the cursor on it)."""
        values: list[int] = []
        self._insisted = True
        for i in self.dice_to_type():
            err = self.die_error(i, required=True)
            faces = self.die_faces(i)
            if err or faces is None:
                slot = self.slots[i]
                self._say_refused(
                    f"Not resolved: {slot.name}, {slot.label}: {err or 'type the number rolled'}"
                )
                self.focus.emit(Entry("die", index=i))
                return None
            values += faces
        self._insisted = False
        return TableDice(values)

    def _ask_more(self, wanted: tuple[str, str]) -> None:
        """The roll asked for more dice than were typed: a tie the rules re-roll (a round of
        the same dice), or a die nobody could know of before (asked for here, issue 29)."""
        spec, purpose = wanted
        if self.whole_game:
            self.rounds += 1
            self._say_refused(
                "A tie: the rules re-roll it. Type the re-rolled dice in the new fields."
            )
        else:
            e = self.desk.engagement
            p = self.prepared
            names = {a.id: a.name for a in e.aircraft.values()}
            if p is not None:
                names |= {
                    r: e.aircraft[a].name for r, a in p.roles.items() if a and a in e.aircraft
                }
            self.more = (*self.more, *dice_of([(spec, purpose)], names))
            self._say_refused(f"The result rolls more: {purpose}. Type it and press Enter.")
        self._fit_dice(len(self.slots))
        self._emit()
        self.focus.emit(Entry("die", index=len(self.slots) - 1))

    def _say_refused(self, message: str) -> None:
        self._refused = message
        self._emit()
        self.refused.emit(message)

    # -- the game changed ----------------------------------------------------------------------

    @_waits
    def game_changed(self, undone: bool = False, elsewhere: bool = False) -> None:
        """Something was appended (a piece moved, a card edited, an undo, another window's
        action): the draft is prepared again on the game as it is. A roll owed that is no
        longer owed (undone, or resolved in another window) leaves the form, said why."""
        if self.procedure is None or self._desk is None:
            return
        if self._own is not None:  # our own resolve's append: it prepares after it
            self._own.append((undone, elsewhere))
            return
        e = self.desk.engagement
        if any(t.strip() for t in self.dice_texts) and (e.turn, e.step) != self._dice_step:
            # typed in a step that is over (or undone): they belong to no action now
            self._clear_dice()
            self._refused = ""
            self.notice = "Dice cleared (the step they were typed in is over)."
        if self.whole_game:
            self._follow_roster()
        line = self.line
        if line is not None and self._line_listed and (e.turn, e.step) == self._clock:
            if not self._listed(line):
                self._line_gone(line, undone, elsewhere)
                return
        self._follow_roles()
        if self.shown is None or self.shown():
            self.moving_on = True
            try:
                self._prepare()
            finally:
                self.moving_on = False
        elif not self._behind:  # prepared when next read (issue 48: 20 pages, one frame)
            self._behind = True
            self.behind.emit()

    def _follow_roster(self) -> None:
        """The initiative roll's: who rolls changed, so what was typed gives way."""
        if self.whole_game:
            roster = self._roster_now()
            if roster != self._roster:
                self._roster = roster
                self.texts, self.picked = {}, {}

    def _follow_roles(self) -> None:
        """An aircraft gone from the game leaves its role."""
        e = self.desk.engagement
        for role, a in list(self.roles.items()):
            if a and a not in e.aircraft:
                self.roles[role] = None

    def _line_gone(self, line: ActingLine, undone: bool, elsewhere: bool) -> None:
        pid, who = line.procedure, line.who
        e = self.desk.engagement
        name = e.aircraft[who].name if who in e.aircraft else e.removed.get(who, who)
        proc = self.desk.ruleset.procedures.get(pid)
        title = proc.title if proc is not None else pid
        if undone:
            why = "the action that made it owed was undone"
        elif elsewhere:
            why = "another window or station resolved it"
        else:
            why = "it is no longer owed"
        self._clean()
        self.texts, self.picked = {}, {}
        self.quiet = True
        self.notice = f"{title} for {name} left the form: {why}."
        self._prepare()

    @_waits
    def set_players_roll(self, on: bool) -> None:
        """The desk's dice choice: typed dice (the players roll) or Airboss's."""
        if on != self.players_roll:
            self.players_roll = on
            self._emit()

    def note_missing(self, e: MissingTableValue) -> None:
        """The odds reached a table cell the rules text does not print: offered to fill in."""
        if self.missing is None or (self.missing.table, self.missing.cell) != (e.table, e.cell):
            self.missing = e
            self._emit()

    @_waits
    def tables_changed(self) -> None:
        """A table value was saved: prepared again; a resolve that stopped at the missing cell
        goes on with the dice typed."""
        resolving = self._resolving_missing
        self._resolving_missing = False
        self.missing = None
        self._refused = ""
        self._prepare()
        p = self.prepared
        if resolving and p is not None and p.missing is None:
            self.resolve()

    def _listed(self, line: ActingLine) -> bool:
        pid, who = line.procedure, line.who
        try:
            lines = self.desk.acting()
        except Exception:  # noqa: BLE001 - said where who acts now is shown
            return False
        return any(a.procedure == pid and a.who == who for a in lines)

    # -- preparing -----------------------------------------------------------------------------

    def question(self) -> Question | None:
        """What the draft asks the desk to prepare as it stands (``Desk.prepare``, with the
        rules run to their first die), or ``None`` with no procedure open."""
        proc = self.proc
        if proc is None:
            return None
        roles = {} if self.whole_game else dict(self.roles)
        return Question(proc.id, roles, self.typed(), frozenset(self.overridden))

    def typed(self) -> dict[str, Any]:
        """What the umpire gave, as the procedure is given it: each text parsed (text that is
        not a value of its field passed on as typed, for the rules to refuse in place)."""
        out: dict[str, Any] = dict(self.picked)
        for name, text in self.texts.items():
            if self.proc is None or name not in self.proc.Inputs.model_fields:
                continue
            kind, optional = field_text.kind_of(self.proc.Inputs.model_fields[name])
            out[name] = field_text.parse(kind, text, optional)
        return out

    def look(self) -> dict[str, Any]:
        """Everything a view shows of the draft, to compare with what it painted (issue 48):
        the draft's own state, and the prepared action but for the game's sequence number it
        was prepared at and pydantic's error object (shown as its ``error``). A step on that
        changes none of it leaves the form as it is; anything else compares unequal."""
        state = self._state()
        p = state.pop("_prepared")
        state.pop("moving_on")
        state["waiting"] = self.waiting  # (the red line says so)
        state["_prepared"] = (
            None
            if p is None
            else tuple(getattr(p, f.name) for f in dataclass_fields(p) if f.name not in _NOT_SHOWN)
        )
        return state

    def _state(self) -> dict[str, Any]:
        """What an action may change, copied (``_waits`` puts it back)."""
        return {
            k: v.copy() if isinstance(v, dict | list | set) else v
            for k, v in self.__dict__.items()
            if k not in ("_again", "waiting", "_in_action")
        }

    @_waits
    def _prepare_afresh(self) -> None:
        """Prepare the action as it stands on the game as it is now."""
        self._prepare()

    def prepare_again(self) -> None:
        """Do the action that ``waiting`` held up again, now that its ruleset call answered."""
        if self._again is not None:
            again, record, _ = self._again
            self._again = (again, record, True)
            with guest.detached():  # its own record, not that of whoever asks it again
                _waits(lambda draft: again())(self)

    def _prepare(self) -> None:
        """The one call that prepares the action, then ``changed``."""
        self._behind = False
        proc = self.proc
        self.prepare_error = ""
        if proc is None:
            self.prepared = None
            self._emit()
            return
        question = self.question()
        assert question is not None
        roles = question.roles
        try:
            p = self.desk.prepare(
                question.procedure,
                roles,
                question.typed,
                question.overridden,
                check=True,
            )
        except RuleViolation as e:
            self.prepared = None
            self.prepare_error = f"Cannot prepare {proc.title}: {e}"
            self._emit()
            return
        except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
            self.prepared = None
            self.prepare_error = (
                f"{proc.title}: the ruleset could not prepare this action "
                f"({type(e).__name__}: {e}); nothing was written"
            )
            self._emit()
            return
        offered = self._first_offers(p)
        if offered:  # a pick to make: the first offered is shown, so it is the one used
            self.picked.update(offered)
            self._prepare()
            return
        if self.reason and p.overrides:
            from dataclasses import replace

            p = replace(p, reason=self.reason.strip())
        if not self.whole_game:
            self.roles = {r: (a if a is not None else None) for r, a in p.roles.items()}
            if roles.get("target") == "" and "target" in self.roles:
                self.roles["target"] = ""  # the umpire's what-if stays his
        self.texts = {n: t for n, t in self.texts.items() if n in p.names}
        self.picked = {n: v for n, v in self.picked.items() if n in p.names}
        self.prepared = p
        if p.missing is not None and self.missing is None:
            self.missing = p.missing
        self._fit_dice(len(self.slots))
        self._emit()

    def _first_offers(self, p: Prepared) -> dict[str, Any]:
        """The picks still to make (a required choice nothing gives a value): the first of
        what is offered, as the picker shows it (the missile listed first, say)."""
        proc = self.proc
        out: dict[str, Any] = {}
        if proc is None:
            return out
        for v in p.values:
            if v.source != "unset" or v.name in self.picked or not self.required(v.name):
                continue
            kind, _ = field_text.kind_of(proc.Inputs.model_fields[v.name])
            if kind != "choice" and v.name not in p.choices:
                continue
            if kind in ("str_list", "multi"):
                continue
            options = self._options_of(p, v.name)
            if options:
                out[v.name] = options[0][0]
        return out

    def _options_of(self, p: Prepared, name: str) -> tuple[tuple[Any, str], ...]:
        if name in p.choices:
            return tuple(p.choices[name])
        proc = self.proc
        assert proc is not None
        annotation, _ = field_text.unwrap_optional(proc.Inputs.model_fields[name].annotation)
        return tuple((v, str(v)) for v in field_text.choices_of(annotation) or ())

    def _emit(self) -> None:
        self.changed.emit(self.prepared)


#: what of a prepared action no view shows: the sequence number of the game it was prepared
#: on (a step on moves it), and pydantic's error object (``error`` is its text)
_NOT_SHOWN = frozenset({"seq", "invalid"})


#: a view's callback for a draft's ``changed`` (kept for type checkers)
Listener = Callable[[Prepared | None], None]
