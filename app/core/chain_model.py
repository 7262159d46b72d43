"""A ruleset's chain of follow-up rolls as a Markov chain (issue 45).

``app.core.chain_odds`` walks the action itself through its procedure's own ``decide`` (every
value of its dice, as the odds are), then follows the rolls it owes with the ruleset's
``ChainModel``: a small hashable state per aircraft (damage, boxes, flags, rolls still owed)
and, for the next roll owed, the exact chance of each next state. ``app.core.markov`` solves
the chain. A model reuses its ruleset's rule functions (the table reads, the modifiers), so
what it says a roll does is what the roll's procedure does; its tests check it against an
enumeration of every die written from the rules text.

A ruleset without a model of its own (a club's house rules) gets ``GenericModel``: the same
chain over the whole aircraft state, each roll owed found in the ruleset's "who acts now" and
walked through its procedure's ``decide`` -- exact too, only slower, and cut (said as a
bound) past ``app.core.markov.MOST_STATES`` states or the time allowed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from app.core.engagement import AircraftState, Engagement, apply
from app.core.errors import MissingTableValue, RuleViolation
from app.core.events import Event, StatusChanged, event_to_json
from app.core.markov import NotWorkedOut, Weighted
from app.core.procedure import Draft, exact_outcomes, input_value
from app.core.status import Status

if TYPE_CHECKING:
    from app.core.ruleset import Ruleset

__all__ = [
    "STANDARD_FACTS",
    "standard_facts",
    "ChainModel",
    "GenericModel",
    "walk_events",
]

#: the facts every ruleset with follow-up rolls names (API.md, "Odds to the end of the chain"):
#: "destroyed" the aircraft is lost (destroyed or crashed); "pilot killed"; "ejected";
#: "out of the fight" any of the ruleset's ways out (destroyed, crashed, pilot killed,
#: ejected, broke off, boxes exhausted); "fire" the chain sets a fire
STANDARD_FACTS = ("destroyed", "pilot killed", "ejected", "out of the fight", "fire")

#: status flags that take an aircraft out of the fight
OUT = frozenset(
    {Status.DESTROYED, Status.CRASHED, Status.PILOT_KILLED, Status.EJECTED, Status.BROKEN_OFF}
)
#: status flag -> the standard fact it says, when newly set
FLAG_FACTS: Mapping[str, str] = {
    Status.DESTROYED: "destroyed",
    Status.CRASHED: "destroyed",
    Status.PILOT_KILLED: "pilot killed",
    Status.EJECTED: "ejected",
    Status.ON_FIRE: "fire",
}
#: status flags that are bookkeeping rather than news (Phantoms' grey damage zone)
QUIET = frozenset({Status.LOADED})
#: the mark of a generic chain's end where the rules refused the roll the lines said was owed
REFUSED = "refused"

S = TypeVar("S", bound=Hashable)


def standard_facts(*, destroyed: bool, pilot_killed: bool, ejected: bool, out: bool) -> set[str]:
    """The standard facts (``STANDARD_FACTS``, "fire" aside) that hold of an aircraft."""
    named = (
        ("destroyed", destroyed),
        ("pilot killed", pilot_killed),
        ("ejected", ejected),
        ("out of the fight", out),
    )
    return {fact for fact, holds in named if holds}


class ChainModel(ABC, Generic[S]):
    """The rolls an aircraft owes, as a Markov chain over ``S``, the states that matter."""

    #: the facts this model always lists (the standard ones, then its own fixed ones)
    listed: ClassVar[tuple[str, ...]] = STANDARD_FACTS

    def subject(self, procedure: str, inputs: Any, engagement: Engagement) -> str | None:
        """The aircraft the chain of this action is about: its target, or its one aircraft."""
        who: str | None = input_value(inputs, "target") or input_value(inputs, "aircraft")
        return who

    @abstractmethod
    def state(self, engagement: Engagement, aircraft: str, before: Engagement | None = None) -> S:
        """The aircraft's state as the game has it now; ``before``: the game before the
        action (None: this is it), for what the action itself did."""

    @abstractmethod
    def owed(self, s: S) -> str | None:
        """The procedure id of the next roll owed from ``s``; ``None`` at the end."""

    @abstractmethod
    def roll(self, s: S) -> Mapping[S, Fraction] | Weighted[S]:
        """The next roll owed from ``s``: each next state with its exact chance (or its
        ways out of the dice's faces, ``Weighted``)."""

    @abstractmethod
    def facts(self, s: S) -> frozenset[str]:
        """The facts true at the end state ``s``: a fact is a state of the aircraft (lost, its
        pilot ejected) or something that came since before the action (a fire), never lost
        again, so one already true before the action is simply not listed (``unlisted``)."""

    def split(self, s: S) -> tuple[S, frozenset[str]]:
        """``s`` without the facts it already has for good that change nothing to come (a
        hard point lost), and those facts: fewer states (``app.core.markov.absorb``)."""
        return s, frozenset()

    def unlisted(self, s: S) -> frozenset[str]:
        """The facts not listed for this aircraft before the action ``s``: already true (they
        cannot newly come), or not in its game (a UFO has no pilot to eject)."""
        return self.facts(s)

    @property
    def memo(self) -> dict[Any, Any] | None:
        """Answers of states kept from one chain to the next (``None``: none kept). A model
        that keeps them is made again when its tables change (the ruleset's ``chain_model``)."""
        return None

    def not_known(self) -> Mapping[str, str]:
        """Facts this game cannot say (fact -> what it needs), e.g. a table not printed."""
        return {}

    def notes(self, start: S, owed: frozenset[str]) -> tuple[str, ...]:
        """What the chain assumes, said with its odds ("fire checks at its speed now"), given
        the procedures of the rolls it followed."""
        return ()


def walk_events(
    proc: Any, inputs: Any, state: Engagement
) -> list[tuple[Fraction, tuple[Event, ...]]]:
    """``decide`` of ``proc`` walked over every value of its dice on ``state``: each distinct
    list of events it emits, with its chance. ``RuleViolation`` (the rules refuse it) and
    ``MissingTableValue`` (a cell not printed) are raised."""
    branches: dict[str, tuple[Event, ...]] = {}

    def run(dice: Any) -> str:
        # no check of each event against the ruleset's State here: the procedure's own
        # events, checked when it is resolved; a walk is many runs of it
        draft = Draft(state)
        proc.decide(inputs, dice, draft)
        key = "\n".join(event_to_json(e) for e in draft.events)
        branches.setdefault(key, tuple(draft.events))
        return key

    walked = exact_outcomes(run)
    return [(p, branches[key]) for key, p in walked.items()]


@dataclass(frozen=True, eq=False)
class Snap:
    """The game at one point of a generic chain: equal when what a roll can read is equal
    (the subject's state and every other aircraft's revision, the step, the flags seen)."""

    key: tuple[Any, ...]
    engagement: Engagement = field(compare=False)
    seen: frozenset[str] = frozenset()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Snap) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


class GenericModel(ChainModel[Snap]):
    """Any ruleset's chain, from its "who acts now" and its procedures (see the module)."""

    def __init__(self, ruleset: Ruleset, engagement: Engagement, subject: str) -> None:
        self.ruleset = ruleset
        self.subject_id = subject
        self.start = engagement
        self.steps = _steps_ahead(ruleset, engagement)
        self._lines: dict[tuple[int, str], tuple[tuple[str, str, str], ...]] = {}
        self._before = {
            s: frozenset((w, p) for w, _, p in self._owed(engagement, s)) for s in self.steps
        }

    def state(
        self, engagement: Engagement, aircraft: str, before: Engagement | None = None
    ) -> Snap:
        return self._snap(engagement, frozenset())

    def _snap(self, engagement: Engagement, seen: frozenset[str]) -> Snap:
        a = engagement.aircraft[self.subject_id]
        others = tuple((x.id, x.revision) for x in engagement.aircraft.values() if x.id != a.id)
        key = (engagement.step, _state_key(a), others, seen)
        return Snap(key, engagement, seen)

    def _owed(self, engagement: Engagement, step: int) -> tuple[tuple[str, str, str], ...]:
        at = engagement if engagement.step == step else replace(engagement, step=step)
        a = at.aircraft[self.subject_id]
        key = (step, repr(_state_key(a)))
        found = self._lines.get(key)
        if found is None:
            try:
                lines = self.ruleset.acting(at)
            except Exception:  # noqa: BLE001 - a ruleset that cannot say: nothing owed
                lines = []
            found = tuple(
                (line.who, line.what, line.procedure)
                for line in lines
                if line.who == self.subject_id and line.procedure in self.ruleset.procedures
            )
            self._lines[key] = found
        return found

    def _next(self, s: Snap) -> tuple[int, str] | None:
        e = s.engagement
        for step in (e.step, *(x for x in self.steps if x > e.step)):
            for who, _, pid in self._owed(e, step):
                if (who, pid) not in self._before.get(step, frozenset()):
                    return step, pid
        return None

    def owed(self, s: Snap) -> str | None:
        if s.key[-1] == REFUSED:
            return None
        found = self._next(s)
        return None if found is None else found[1]

    def roll(self, s: Snap) -> Mapping[Snap, Fraction]:
        from app.core.prepared import line_roles, prepare

        found = self._next(s)
        assert found is not None
        step, pid = found
        e = s.engagement
        at = e if e.step == step else replace(e, step=step)
        proc = self.ruleset.procedures[pid]
        prepared = prepare(proc, at, roles=line_roles(proc, at, self.subject_id, None))
        if prepared.missing is not None:
            raise prepared.missing
        if prepared.inputs is None:
            raise NotWorkedOut(
                f"{proc.title} could not be prepared: {prepared.error or prepared.cannot}"
            )
        try:
            branches = walk_events(proc, prepared.inputs, at)
        except MissingTableValue:
            raise
        except RuleViolation:
            # the rules refuse it after all (a fire already checked this impulse): not owed,
            # the chain ends here, as if it owed nothing more
            return {replace(s, key=(*s.key, REFUSED)): Fraction(1)}
        out: dict[Snap, Fraction] = {}
        for p, events in branches:
            after, seen = at, set(s.seen)
            for ev in events:
                if isinstance(ev, StatusChanged) and ev.aircraft == self.subject_id:
                    seen |= {str(f) for f in ev.set}
                after = apply(after, ev, after.seq)
            nxt = self._snap(after, frozenset(seen))
            out[nxt] = out.get(nxt, Fraction(0)) + p
        return out

    def facts(self, s: Snap) -> frozenset[str]:
        """The status flags newly set since before the action (those set on the way too: a
        fire put out later was a fire), by their fact or their own words, and what the
        ruleset's ``chain_facts`` names."""
        a0 = self.start.aircraft[self.subject_id]
        a1 = s.engagement.aircraft[self.subject_id]
        before = {str(f) for f in a0.status}
        now = {str(f) for f in a1.status} | s.seen
        facts = {FLAG_FACTS[f] for f in now - before if f in FLAG_FACTS}
        if now & OUT:
            facts.add("out of the fight")
        facts |= {FLAG_FACTS[f] for f in now & before if f in FLAG_FACTS and f != Status.ON_FIRE}
        facts |= {f.replace("_", " ") for f in now - before - set(FLAG_FACTS) - QUIET - OUT}
        own = getattr(self.ruleset, "chain_facts", None)
        if own is not None:
            facts |= set(own(a0, a1))
        return frozenset(facts)


def _state_key(a: AircraftState) -> tuple[Any, ...]:
    """What a follow-up roll can read of an aircraft: its status, damage, attributes, ledgers."""
    return (
        tuple(sorted(str(s) for s in a.status)),
        repr(a.damage),
        repr(sorted((k, repr(v)) for k, v in a.attributes.items())),
        repr(sorted((k, repr(v)) for k, v in a.ledgers.items())),
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
