"""A ruling: why a logged action came out as it did, every number explained (issue 34).

For any event of the log, the ruling of its action: the procedure and its rule; every input
with its value and where it came from (the card and state, the board, the game, the umpire's
typing, an override -- who made it and the value it replaced --, the field's default); the
inputs that are modifiers, with the rule their declaration cites; the variants in force; the
exact odds as they stood before the roll; the dice, typed at the table or rolled by Airboss;
the outcome; and every event the action caused. An undone action's ruling says so.

The odds are those stored with the event at resolve (``ProcedureResolved.odds``), so a table
edited later does not change them. A log written before odds were stored has them worked out
again on the state before the roll, and the ruling says which it shows.

``Ruling.public()`` is what may go on the Player display: no umpire's bookkeeping of state
(positions, written plots, game records), no inputs or dice the ruleset keeps secret
(``Ruleset.secret_inputs``), no note of who overrode what. Pure Python: no Qt, no store.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from pydantic_core import to_jsonable_python

from app.core.engagement import Engagement, apply
from app.core.event_text import PRIVATE_EVENTS, event_text, kind_title, said
from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    CardsPrinted,
    Envelope,
    Event,
    ProcedureResolved,
    Restored,
    Reverted,
)
from app.core.reckoning import Term, by_die, rule_cited, terms_of_record, total
from app.core.text import shown

if TYPE_CHECKING:
    from app.core.prepared import Prepared
    from app.core.ruleset import Ruleset

__all__ = [
    "Ruling",
    "RulingDie",
    "RulingEvent",
    "RulingInput",
    "odds_text",
    "needs_the_log",
    "ruling_of",
    "ruling_of_action",
    "stamped",
]

#: a rule number as the texts print them: 7.2, 7.1.1b, 13.0
_RULE = re.compile(r"\b\d+(?:\.\d+)+[a-z]?\b")
#: a modifier's signed value in a field's title or description: "+4", "-2"
_SIGNED = re.compile(r"(?<![\w.])[+-]\d+\b")


SOURCE_WORDS = {
    "card": "card and state",
    "board": "board",
    "game": "worked out from the game",
    "typed": "typed",
    "override": "override",
    "default": "default",
    "unset": "not given",
}


def stamped(
    events: Sequence[Event], prepared: Prepared, odds: Mapping[str, Fraction] | None
) -> tuple[Event, ...]:
    """``events`` with the procedure's record given what a ruling needs later: each input's
    source, the value each override replaced, and the odds just before the roll."""
    sources = {v.name: v.source for v in prepared.values}
    if prepared.inputs is not None:
        for name in type(prepared.inputs).model_fields:
            if name not in sources and name not in ("attacker", "target", "aircraft"):
                sources[name] = "default"  # an input off in this game: its default stands
    read = {
        v.name: to_jsonable_python(v.read, fallback=str)
        for v in prepared.values
        if v.source == "override"
    }
    out: list[Event] = []
    done = False
    for ev in events:
        if not done and isinstance(ev, ProcedureResolved) and ev.procedure == prepared.procedure:
            ev = ev.model_copy(
                update={
                    "sources": sources,
                    "read": read,
                    "odds": dict(odds) if odds is not None else None,
                    "reason": prepared.reason if read else "",
                }
            )
            done = True
        out.append(ev)
    return tuple(out)


@dataclass(frozen=True)
class RulingInput:
    """One input of the procedure as resolve used it."""

    name: str
    title: str
    value: Any
    #: ``card``, ``board``, ``game``, ``typed``, ``override``, ``default``, or ``""`` when the
    #: log predates stored sources
    source: str
    #: the rule numbers the input's declaration cites
    rules: tuple[str, ...] = ()
    #: a modifier (its name or declaration says it changes a roll)
    modifier: bool = False
    #: for an override: the value read that it replaced, who overrode it, and why
    read: Any = None
    who: str = ""
    why: str = ""
    #: kept from the players where the ruleset hides it
    secret: bool = False

    @property
    def source_text(self) -> str:
        if not self.source:
            return "not recorded (logged before sources were kept)"
        if self.source == "override":
            by = f" by {self.who}" if self.who else ""
            why = f"; why: {self.why}" if self.why else "; no reason given"
            return f"override{by}: replaced {said(self.read)}, the value read{why}"
        return SOURCE_WORDS.get(self.source, self.source)


@dataclass(frozen=True)
class RulingDie:
    purpose: str
    spec: str
    dice: tuple[int, ...]
    typed: bool
    secret: bool = False

    @property
    def text(self) -> str:
        faces = " + ".join(str(d) for d in self.dice)
        total = sum(self.dice)
        shown = f"{faces} = {total}" if len(self.dice) > 1 else str(total)
        how = "typed at the table" if self.typed else "rolled by Airboss"
        return f"{self.purpose}: {self.spec} {shown} ({how})"


@dataclass(frozen=True)
class RulingEvent:
    seq: int
    kind: str
    aircraft: str | None
    text: str
    public: bool = True


@dataclass(frozen=True)
class Ruling:
    """Why one logged action came out as it did."""

    game: str
    seq: int
    action: int
    time: datetime
    actor: str
    #: ``None``: an action with no rules procedure (an aircraft added, a clock step ...)
    procedure: str | None
    title: str
    rule: str
    narrative: str
    #: role -> aircraft name (attacker, target, aircraft)
    roles: tuple[tuple[str, str], ...] = ()
    inputs: tuple[RulingInput, ...] = ()
    #: the variants in force: (id, title, rule)
    variants: tuple[tuple[str, str, str], ...] = ()
    #: outcome label -> its exact chance before the roll
    odds: tuple[tuple[str, Fraction], ...] = ()
    #: ``stored`` (kept with the event), ``replayed`` (worked out again: an older log), or
    #: ``""`` (none: a calculation without dice, or odds that could not be worked out)
    odds_from: Literal["stored", "replayed", ""] = ""
    odds_note: str = ""
    dice: tuple[RulingDie, ...] = ()
    outcome: str = ""
    events: tuple[RulingEvent, ...] = ()
    #: undone now, and the sequence number of the undo
    undone: bool = False
    undone_at: int | None = None
    #: every modifier that entered the roll's number, with its rule and sign, as the
    #: procedure summed them (issue 45; empty in older logs: the inputs that are modifiers)
    terms: tuple[Term, ...] = ()
    #: the public version (``public()``): what the players may see
    is_public: bool = False
    #: parts left out of the public version, said in one line
    withheld: tuple[str, ...] = field(default_factory=tuple)

    @property
    def modifiers(self) -> tuple[RulingInput, ...]:
        return tuple(i for i in self.inputs if i.modifier)

    @property
    def chance(self) -> Fraction | None:
        """The chance, before the roll, of the outcome that came."""
        return dict(self.odds).get(self.outcome) if self.odds else None

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule number the ruling cites, the procedure's first."""
        seen: dict[str, None] = {}
        for r in (self.rule, *(r for i in self.inputs for r in i.rules)):
            if r:
                seen.setdefault(r, None)
        return tuple(seen)

    def public(self) -> Ruling:
        """The ruling as the players may see it (the Player display)."""
        withheld: list[str] = []
        inputs = tuple(replace(i, who="") for i in self.inputs if not i.secret)
        if len(inputs) < len(self.inputs):
            withheld.append(f"{len(self.inputs) - len(inputs)} input(s) the rules keep secret")
        dice = tuple(d for d in self.dice if not d.secret)
        if len(dice) < len(self.dice):
            withheld.append(f"{len(self.dice) - len(dice)} die/dice the rules keep secret")
        events = tuple(e for e in self.events if e.public)
        if len(events) < len(self.events):
            withheld.append("the umpire's records of positions and state")
        narrative = self.narrative if len(inputs) == len(self.inputs) else ""
        terms = self.terms if len(inputs) == len(self.inputs) else ()
        return replace(
            self,
            actor="",
            terms=terms,
            inputs=inputs,
            dice=dice,
            events=events,
            narrative=narrative,
            is_public=True,
            withheld=tuple(withheld),
        )

    def sections(self) -> list[tuple[str, list[str]]]:
        """The ruling as titled sections of lines (the text, the window and the page)."""
        out: list[tuple[str, list[str]]] = []
        head = [self.title + (f" ({rule_cited(self.rule)})" if self.rule else "")]
        if self.roles:
            head.append(", ".join(f"{role}: {name}" for role, name in self.roles))
        when = f"{self.time:%Y-%m-%d %H:%M:%S}"
        head.append(
            f"Log entry {self.seq} (action {self.action}), {when}"
            + (f", by {self.actor}" if self.actor else "")
        )
        if self.undone:
            at = f" (entry {self.undone_at})" if self.undone_at else ""
            head.append(f"UNDONE{at}: this action no longer counts in the game.")
        out.append(("Ruling", head))
        if self.inputs:
            lines = []
            for i in self.inputs:
                cites = f" [{', '.join(i.rules)}]" if i.rules else ""
                lines.append(f"{i.title}: {said(i.value)} — {i.source_text}{cites}")
            out.append(("Inputs", lines))
        if self.terms:
            lines = []
            for die, terms in by_die(self.terms).items():
                of = f"{die}: " if die else ""
                summed = total(terms)
                lines.append(of + "; ".join(t.text for t in terms) + f" (in all {summed:+d})")
            out.append(("Modifiers", lines))
        elif self.modifiers:
            lines = []
            for i in self.modifiers:
                cites = rule_cited(", ".join(i.rules) if i.rules else self.rule)
                lines.append(f"{i.title}: {said(i.value)} ({cites})")
            out.append(("Modifiers", lines))
        if self.procedure is not None:
            out.append(
                (
                    "Variants in force",
                    [f"{t}" + (f" ({r})" if r else "") for _, t, r in self.variants] or ["none"],
                )
            )
        if self.odds:
            note = {
                "stored": "as stored with the event before the roll",
                "replayed": "worked out again from the log (logged before odds were stored)",
            }.get(self.odds_from, "")
            lines = [f"({note})"] if note else []
            for label, p in self.odds:
                mark = "  <- came" if label == self.outcome else ""
                lines.append(f"{label}: {odds_text(p)}{mark}")
            out.append(("Odds before the roll", lines))
        elif self.odds_note:
            out.append(("Odds before the roll", [self.odds_note]))
        if self.dice:
            out.append(("Dice", [d.text for d in self.dice]))
        if self.procedure is not None:
            outcome = [f"Outcome: {self.outcome}"]
            if self.narrative:
                outcome.append(self.narrative)
            out.append(("Outcome", outcome))
        elif self.narrative:
            out.append(("Logged", [self.narrative]))
        if self.events:
            out.append(("What it caused", [f"{e.seq}: {e.text}" for e in self.events]))
        if self.withheld:
            out.append(("Not shown to the players", list(self.withheld)))
        return out

    def text(self) -> str:
        parts: list[str] = []
        for title, lines in self.sections():
            parts.append(title)
            parts.extend(f"  {line}" for line in lines)
        return "\n".join(parts)


def odds_text(p: Fraction) -> str:
    """An exact chance as the desk says it: "13/200 (6.5%)"."""
    pct = f"{float(p) * 100:.1f}".rstrip("0").rstrip(".")
    return f"{p.numerator}/{p.denominator} ({pct}%)" if p not in (0, 1) else f"{p} ({pct}%)"


def ruling_of(events: Sequence[Envelope], seq: int, ruleset: Ruleset) -> Ruling:
    """The ruling of the action the log entry ``seq`` belongs to (``KeyError``: no such
    entry). ``events`` is the game's log, oldest first, at least up to that action's end and
    with every undo and redo after it."""
    at = next((e for e in events if e.seq == seq), None)
    if at is None:
        raise KeyError(f"the log has no entry {seq}")
    if at.is_meta:
        assert isinstance(at.event, Reverted | Restored)
        target = at.event.action
        env = next((e for e in events if e.seq == target), None)
        if env is None:
            raise KeyError(f"the log has no entry {target}")
        at = env
    action = at.action
    mine = [e for e in events if e.action == action and not e.is_meta]
    state, names = _before(events, action)
    undone_at = _undone_at(events, action)
    return ruling_of_action(
        mine,
        ruleset,
        names=names,
        undone=undone_at is not None,
        undone_at=undone_at,
        state_before=state,
    )


def needs_the_log(action: Sequence[Envelope]) -> bool:
    """Whether the ruling of this action needs the log before it: a roll logged before odds
    were stored with it, whose odds are worked out again on the state before it."""
    return any(
        isinstance(e.event, ProcedureResolved) and e.event.odds is None and e.event.rolls
        for e in action
    )


def ruling_of_action(
    mine: Sequence[Envelope],
    ruleset: Ruleset,
    *,
    names: Mapping[str, str],
    undone: bool,
    undone_at: int | None = None,
    state_before: Engagement | None = None,
) -> Ruling:
    """The ruling of one action from its own events (``mine``, oldest first): ``names`` of
    the aircraft, whether it is ``undone`` now (and by which entry), and the game just before
    it (``state_before``; needed only for the odds of a roll logged before they were stored:
    without it they are said to be unknown)."""
    first = mine[0]
    action = first.action
    state = state_before
    names = {
        **names,
        **{e.event.aircraft: e.event.name for e in mine if isinstance(e.event, AircraftAdded)},
    }
    variants = tuple((v.id, v.title, v.rule) for v in ruleset.variants if v.id in ruleset.chosen)
    record = next((e for e in mine if isinstance(e.event, ProcedureResolved)), None)
    caused = tuple(_event_line(e, names) for e in mine if e is not record)
    base: dict[str, Any] = dict(
        game=first.game,
        seq=first.seq,
        action=action,
        time=first.time,
        actor=first.actor,
        narrative=next((e.narrative for e in mine if e.narrative), ""),
        events=caused,
        undone=undone,
        undone_at=undone_at,
        variants=variants,
    )
    if record is None:
        return Ruling(procedure=None, title=kind_title(first.event), rule=first.rule, **base)
    ev = record.event
    assert isinstance(ev, ProcedureResolved)
    proc = ruleset.procedures.get(ev.procedure)
    title = proc.title if proc is not None else ev.procedure
    rule = proc.rule if proc is not None else record.rule
    secret = frozenset(getattr(ruleset, "secret_inputs", {}).get(ev.procedure, ()))
    roles = tuple(
        (role, names.get(str(ev.inputs[role]), str(ev.inputs[role])))
        for role in ("attacker", "target", "aircraft")
        if ev.inputs.get(role)
    )
    inputs = tuple(
        _input(name, value, ev, proc, record.actor, secret)
        for name, value in ev.inputs.items()
        if name not in ("attacker", "target", "aircraft")
    )
    dice = tuple(
        RulingDie(
            str(r.get("purpose", "")),
            str(r.get("spec", "")),
            tuple(int(d) for d in r.get("dice") or ()),
            bool(r.get("typed")),
            secret=bool(secret),
        )
        for r in ev.rolls
    )
    odds: dict[str, Fraction] = {}
    odds_from: Literal["stored", "replayed", ""] = ""
    note = ""
    if ev.odds is not None:
        odds, odds_from = dict(ev.odds), "stored"
    elif proc is None:
        note = f"not known: the ruleset has no procedure {ev.procedure!r} now"
    elif proc.is_calculator or not ev.rolls:
        note = "no dice: a calculation with one result"
    elif state is None:
        note = "not stored with this older event (the whole log is needed to work them out)"
    else:
        try:
            parsed = proc.parse(ev.inputs)
            what_if = not any(ev.inputs.get(r) for r in ("attacker", "target", "aircraft"))
            odds = dict(proc.odds(parsed) if what_if else proc.odds(parsed, state))
            odds_from = "replayed"
        except Exception as e:  # noqa: BLE001 - said on the ruling, never fatal
            note = f"could not be worked out again: {type(e).__name__}: {e}"
    return Ruling(
        procedure=ev.procedure,
        title=title,
        rule=rule,
        roles=roles,
        terms=terms_of_record(ev.modifiers),
        inputs=inputs,
        odds=tuple(odds.items()),
        odds_from=odds_from,
        odds_note=note,
        dice=dice,
        outcome=ev.outcome,
        **base,
    )


def _input(
    name: str, value: Any, ev: ProcedureResolved, proc: Any, actor: str, secret: frozenset[str]
) -> RulingInput:
    info = proc.Inputs.model_fields.get(name) if proc is not None else None
    title = (info.title if info is not None else None) or name.replace("_", " ").capitalize()
    declared = " ".join(t for t in (info.title, info.description) if t) if info else ""
    rules = tuple(dict.fromkeys(_RULE.findall(declared)))
    modifier = "modifier" in name or bool(_SIGNED.search(declared))
    source = ev.sources.get(name, "")
    return RulingInput(
        name=name,
        title=title,
        value=value,
        source=source,
        rules=rules,
        modifier=modifier,
        read=ev.read.get(name),
        who=actor if source == "override" else "",
        why=shown(ev.reason) if source == "override" else "",  # issue 46: an older file's
        secret=name in secret,
    )


def _before(events: Sequence[Envelope], action: int) -> tuple[Engagement, dict[str, str]]:
    """The game as it stood just before ``action`` (the actions before it that counted then),
    and every aircraft's name known by the end of the action."""
    earlier = [e for e in events if e.seq < action]
    off: set[int] = set()
    for e in earlier:
        if isinstance(e.event, Reverted):
            off.add(e.event.action)
        elif isinstance(e.event, Restored):
            off.discard(e.event.action)
    state = Engagement()
    names: dict[str, str] = {}
    for e in earlier:
        if e.is_meta or isinstance(e.event, CardsPrinted) or e.action in off:
            continue
        state = apply(state, e.event, e.seq)
    for a in state.aircraft.values():
        names[a.id] = a.name
    for e in events:
        if e.action == action and isinstance(e.event, AircraftAdded | AircraftChanged):
            if e.event.name:
                names[e.event.aircraft] = e.event.name
    return state, names


def _undone_at(events: Sequence[Envelope], action: int) -> int | None:
    """The entry that undid ``action``, if it does not count now."""
    last: int | None = None
    for e in events:
        if isinstance(e.event, Reverted) and e.event.action == action:
            last = e.seq
        elif isinstance(e.event, Restored) and e.event.action == action:
            last = None
    return last


def _event_line(env: Envelope, names: Mapping[str, str]) -> RulingEvent:
    ev = env.event
    aircraft = ev.__dict__.get("aircraft")
    return RulingEvent(
        env.seq,
        ev.kind,
        aircraft if isinstance(aircraft, str) else None,
        event_text(ev, names),
        public=not isinstance(ev, PRIVATE_EVENTS),
    )
