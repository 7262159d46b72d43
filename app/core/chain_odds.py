"""Odds to the end of the chain (issue 34): the exact chance of what the players care about --
the target destroyed, the pilot killed or ejected, a fire -- within this action and the rolls
it owes (a hit, its damage, the critical hits it brings, an ejection ...).

Nothing here knows a ruleset's rules. The chain is composed from the procedures' own
``decide`` and the ruleset's own "who acts now" (``Ruleset.acting``):

1. the first roll's ``decide`` is walked over every value of its dice
   (``app.core.procedure.exact_outcomes``); paths that emit the same events are one branch;
2. each branch's events are applied to the game: a roll that the new state owes the aircraft
   of the chain (a line of ``acting`` that was not there before: a critical hit, an
   ejection ...) is prepared as the desk prepares it (``app.core.prepared.prepare``: cards and
   state read) and walked the same way, on that state, and so on to the end of the chain;
3. at each end, the target's status is compared with the status before the first roll.

A branch that needs a table cell the rules text does not print is not guessed: its chance is
kept apart and the table named. Rolls owed in a later step (a fire check in the next
Fire-Check Segment) are not in the chain: "a fire" is the chance the chain sets one.
Pure Python: no Qt, no store. Exact: ``Fraction`` throughout.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, apply
from app.core.errors import MissingTableValue, RuleViolation
from app.core.events import Event, StatusChanged, event_to_json
from app.core.prepared import line_roles, prepare
from app.core.procedure import Draft, Procedure, exact_outcomes
from app.core.status import Status

if TYPE_CHECKING:
    from app.core.ruleset import Ruleset

__all__ = ["FACTS", "ChainOdds", "chain_odds"]

#: what the players care about, in the order the desk lists them: fact -> the status flags
#: that say it (any of them, newly set on the aircraft the chain is about)
FACTS: Mapping[str, frozenset[str]] = {
    "destroyed": frozenset({Status.DESTROYED, Status.CRASHED}),
    "pilot killed": frozenset({Status.PILOT_KILLED}),
    "ejected": frozenset({Status.EJECTED}),
    "fire": frozenset({Status.ON_FIRE}),
}

#: status flags that are bookkeeping rather than news (Phantoms' grey damage zone)
QUIET = frozenset({Status.LOADED})

#: the most rolls one chain follows (a hit, its critical hits, an ejection ...)
DEPTH = 8
#: the most branches walked in all, and the longest time, before the chain is given up
#: (said on the line): a UFO's cannon at close range owes many damage rolls, each with dice
MOST_BRANCHES = 4000
MOST_SECONDS = 3.0


@dataclass(frozen=True)
class ChainOdds:
    """The chance of each fact within the action and the rolls it owes."""

    #: the aircraft the chain is about (the target, or the one aircraft of its roll)
    aircraft: str | None
    #: fact -> its exact chance (only the facts that can come)
    chances: Mapping[str, Fraction]
    #: the procedures the chain went through, first roll first (titles)
    rolls: tuple[str, ...] = ()
    #: tables the text does not print that some branch needs, and the chance of those branches
    missing: tuple[str, ...] = ()
    unknown: Fraction = Fraction(0)
    #: why some branch was not followed (cut short, a roll that could not be prepared)
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def follows_rolls(self) -> bool:
        """The chain goes past its first roll."""
        return len(self.rolls) > 1

    def lines(self) -> list[str]:
        """As the desk says it: "destroyed 13/200 (6.5%)"."""
        from app.core.ruling import odds_text

        out = [f"{fact} {odds_text(p)}" for fact, p in self.chances.items()]
        if self.missing:
            out.append(
                f"not known for {odds_text(self.unknown)} of the rolls: needs "
                + "; ".join(self.missing)
                + " (not printed in the rules text)"
            )
        out += list(self.notes)
        return out


class _Cut(Exception):
    """The chain has more branches than it may walk."""


@dataclass
class _Walk:
    ruleset: Ruleset
    subject: str
    before: frozenset[str]
    start_state: Engagement
    start: AircraftState | None = None
    #: the steps of this turn where a roll owed may come, in order (see ``_steps_ahead``)
    steps: tuple[int, ...] = ()
    deadline: float = float("inf")
    branches: int = 0
    missing: dict[str, None] = field(default_factory=dict)
    notes: dict[str, None] = field(default_factory=dict)
    rolls: dict[str, None] = field(default_factory=dict)
    memo: dict[tuple[str, ...], dict[str, Fraction]] = field(default_factory=dict)
    #: step -> the rolls the subject owed there before the first roll (an earlier action's:
    #: not followed)
    owed_at_start: dict[int, frozenset[tuple[str, str, str]]] = field(default_factory=dict)
    #: (step, what the lines can read) -> the subject's lines there (``acting`` is the costly
    #: part of a chain: a ruleset of 100 steps a turn is asked at each)
    lines: dict[tuple[int, str], tuple[tuple[str, str, str], ...]] = field(default_factory=dict)

    def owed(self, state: Engagement, step: int) -> tuple[tuple[str, str, str], ...]:
        """The subject's lines at ``step`` of ``state``: read again only when the subject's
        state or another aircraft changed."""
        key = (step, _state_key(state, self.subject) + repr(_revisions(state, self.subject)))
        found = self.lines.get(key)
        if found is None:
            found = _owed(self.ruleset, _at_step(state, step), self.subject)
            self.lines[key] = found
        return found

    def was_owed(self, step: int, line: tuple[str, str, str]) -> bool:
        """Whether the subject had a line of this procedure at this step before the chain (a
        UFO's ray gun, whose words change with its charge, is not a roll the hit owes)."""
        if step not in self.owed_at_start:
            self.owed_at_start[step] = frozenset(
                (who, "", pid) for who, _, pid in self.owed(self.start_state, step)
            )
        return (line[0], "", line[2]) in self.owed_at_start[step]


def chain_odds(
    ruleset: Ruleset,
    engagement: Engagement,
    procedure: str,
    inputs: BaseModel,
    *,
    depth: int = DEPTH,
    seconds: float = MOST_SECONDS,
) -> ChainOdds:
    """The chain of ``procedure`` with ``inputs`` on ``engagement``: the chance of each fact
    for its target (or its one aircraft), to the end of the rolls it owes in this turn."""
    proc = ruleset.procedures[procedure]
    subject = getattr(inputs, "target", None) or getattr(inputs, "aircraft", None)
    if not subject or subject not in engagement.aircraft:
        return ChainOdds(None, {}, (proc.title,), notes=("a what-if: no aircraft to follow",))
    start = engagement.aircraft[subject]
    walk = _Walk(
        ruleset,
        subject,
        frozenset(str(s) for s in start.status),
        engagement,
        start,
        _steps_ahead(ruleset, engagement),
        deadline=time.perf_counter() + seconds,
    )
    walk.rolls[proc.title] = None
    try:
        ends = _roll(walk, engagement, proc, inputs, depth, first=True)
    except _Cut:
        return ChainOdds(
            subject,
            {},
            (proc.title,),
            notes=(
                f"more than {MOST_BRANCHES} branches or {seconds:g} s: too long a chain to work "
                "out here",
            ),
        )
    chances: dict[str, Fraction] = {}
    for key, q in ends.items():
        if key == "?":
            continue
        for fact in key.split("|") if key else ():
            chances[fact] = chances.get(fact, Fraction(0)) + q
    order = list(FACTS)
    chances = dict(
        sorted(chances.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99)
    )
    return ChainOdds(
        subject,
        chances,
        tuple(walk.rolls),
        tuple(walk.missing),
        ends.get("?", Fraction(0)),
        tuple(walk.notes),
    )


def _steps_ahead(ruleset: Ruleset, engagement: Engagement) -> tuple[int, ...]:
    """The later steps of this turn where a roll may be owed: the next of each kind (a
    ruleset of impulses repeats its segments: the next Fire-Check Segment is where a fire is
    checked, the ones after it come after the chain)."""
    try:
        steps = list(ruleset.steps(engagement))
    except Exception:  # noqa: BLE001 - a ruleset that cannot say: this step only
        return (engagement.step,)
    seen: set[tuple[str, str, str | None]] = set()
    out = [engagement.step]
    for i in range(engagement.step + 1, len(steps)):
        st = steps[i]
        kind = (st.phase, st.title, st.segment)
        if kind not in seen:
            seen.add(kind)
            out.append(i)
    return tuple(out)


def _at_step(state: Engagement, step: int) -> Engagement:
    return state if state.step == step else replace(state, step=step)


def _owed(
    ruleset: Ruleset, engagement: Engagement, subject: str
) -> tuple[tuple[str, str, str], ...]:
    """(aircraft, line, procedure) of each roll the subject owes now, in the order of play
    (the line's words count: "rolls 2 critical hit(s)" is not "rolls 1 critical hit(s)")."""
    try:
        lines = ruleset.acting(engagement)
    except Exception:  # noqa: BLE001 - a ruleset that cannot say: nothing owed
        return ()
    return tuple(
        (line[0], line[1], line[2])
        for line in lines
        if len(line) >= 3 and line[0] == subject and line[2] in ruleset.procedures
    )


def _named(flags: set[str]) -> list[str]:
    """Status flags newly set as facts: those of ``FACTS`` by their name, any other by its
    own words ("engine damaged")."""
    facts = [fact for fact, any_of in FACTS.items() if flags & any_of]
    known = frozenset().union(*FACTS.values())
    return facts + sorted(f.replace("_", " ") for f in flags - known - QUIET)


def _facts(walk: _Walk, state: Engagement) -> str:
    """What came of the chain for its aircraft, at its end: the status flags newly set, and
    what the ruleset's own ``chain_facts`` names (Advanced Air Force's hit effects)."""
    a = state.aircraft.get(walk.subject)
    if a is None:
        return ""
    facts = _named({str(s) for s in a.status} - walk.before)
    own = getattr(walk.ruleset, "chain_facts", None)
    if own is not None and walk.start is not None:
        facts += [f for f in own(walk.start, a) if f not in facts]
    return "|".join(facts)


def _merged(end: str, seen: list[str]) -> str:
    """An end's facts with those set on the way (a fire put out by a later roll was a fire)."""
    if end == "?" or not seen:
        return end
    have = end.split("|") if end else []
    return "|".join([*have, *(f for f in seen if f not in have)])


def _roll(
    walk: _Walk,
    state: Engagement,
    proc: Procedure,
    inputs: Any,
    depth: int,
    *,
    first: bool = False,
) -> dict[str, Fraction]:
    """The end facts of this roll and every roll it owes: "fact|fact" -> chance ("?": a
    branch not worked out). A roll the rules refuse after the first one is not owed after
    all (a fire already checked this impulse): the chain ends there."""
    branches: dict[str, tuple[Event, ...]] = {}

    def run(dice: DiceSource) -> str:
        draft = Draft(state, proc.state_model)
        proc.decide(inputs, dice, draft)
        key = "\n".join(event_to_json(e) for e in draft.events)
        branches.setdefault(key, tuple(draft.events))
        return key

    try:
        walked = exact_outcomes(run)  # pools of dice in icepool: nothing is cut (issue 32)
    except MissingTableValue as e:
        walk.missing[f"{e.table} ({e.cell})"] = None
        return {"?": Fraction(1)}
    except RuleViolation as e:
        if not first:
            return {_facts(walk, state): Fraction(1)}
        walk.notes[f"{proc.title}: {e}"] = None
        return {"?": Fraction(1)}
    out: dict[str, Fraction] = {}
    for key, p in walked.items():
        walk.branches += 1
        if walk.branches > MOST_BRANCHES or time.perf_counter() > walk.deadline:
            raise _Cut
        after = state
        flags: set[str] = set()
        for ev in branches[key]:
            if isinstance(ev, StatusChanged) and ev.aircraft == walk.subject:
                flags |= {str(f) for f in ev.set} - walk.before
            after = apply(after, ev, after.seq)
        seen = _named(flags)
        for end, q in _next(walk, after, depth).items():
            end = _merged(end, seen)
            out[end] = out.get(end, Fraction(0)) + p * q
    return out


def _next(walk: _Walk, state: Engagement, depth: int) -> dict[str, Fraction]:
    """The end facts from ``state``: its facts if it owes no new roll in the rest of this
    turn, else those of the first roll it owes (in that roll's step)."""
    owed: tuple[int, tuple[str, str, str]] | None = None
    for step in (state.step, *(s for s in walk.steps if s > state.step)):
        at = _at_step(state, step)
        line = next(
            (o for o in _owed(walk.ruleset, at, walk.subject) if not walk.was_owed(step, o)), None
        )
        if line is not None:
            owed = (step, line)
            break
    if owed is None:
        return {_facts(walk, state): Fraction(1)}
    if depth <= 1:
        walk.notes[f"the chain is followed to {DEPTH} rolls"] = None
        return {_facts(walk, state): Fraction(1)}
    step, (who, _, pid) = owed
    at = _at_step(state, step)
    memo_key = (pid, str(step), _state_key(at, who))
    if memo_key in walk.memo:
        return walk.memo[memo_key]
    proc = walk.ruleset.procedures[pid]
    try:
        prepared = prepare(proc, at, roles=line_roles(proc, at, who, None))
    except MissingTableValue as e:
        walk.missing[f"{e.table} ({e.cell})"] = None
        return {"?": Fraction(1)}
    if prepared.missing is not None:
        walk.missing[f"{prepared.missing.table} ({prepared.missing.cell})"] = None
        return {"?": Fraction(1)}
    if prepared.inputs is None:
        walk.notes[f"{proc.title} could not be prepared: {prepared.error or prepared.cannot}"] = (
            None
        )
        return {"?": Fraction(1)}
    walk.rolls[proc.title] = None
    ends = _roll(walk, at, proc, prepared.inputs, depth - 1)
    walk.memo[memo_key] = ends
    return ends


def _revisions(state: Engagement, who: str) -> tuple[tuple[str, int], ...]:
    """Every other aircraft's revision: the chain changes the others only by the first roll's
    events (the attacker's ammunition), the same in every branch."""
    return tuple((a.id, a.revision) for a in state.aircraft.values() if a.id != who)


def _state_key(state: Engagement, who: str) -> str:
    """What a follow-up roll can read of the game: the aircraft's state (its status, damage,
    attributes and ledgers), as text."""
    a = state.aircraft[who]
    return repr(
        (
            sorted(str(s) for s in a.status),
            a.damage,
            sorted((k, repr(v)) for k, v in a.attributes.items()),
            sorted((k, repr(v)) for k, v in a.ledgers.items()),
        )
    )
