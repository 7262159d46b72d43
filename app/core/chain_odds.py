"""Odds to the end of the chain (issues 34, 45): the exact chance of what the players care
about -- the target destroyed, its pilot killed or ejected, out of the fight, a fire -- within
this action and the rolls it owes (its damage, the critical hits it brings, an ejection, the
fire checks of a fire until it is out ...).

1. The action itself is its procedure's own ``decide`` walked over every value of its dice
   (``app.core.chain_model.walk_events``): paths that emit the same events are one branch.
   Actions asked together (``then``: the UFO cannon at the half-way point and again at the end
   of the move) follow on each branch, each at the next step of the turn whose rules take it.
2. From each branch the rolls the aircraft owes are a Markov chain (``ChainModel``: the
   ruleset's own, or ``GenericModel``) over the states that matter, solved exactly by
   ``app.core.markov.absorb``: two paths to the same state are worked out once, and a roll that
   leads back (a fire still burning) is an equation, not a cut.
3. At each end, what came of it (``ChainModel.new_facts``) against the aircraft before the
   action. The rolls the aircraft already owed before the action are followed too: they are
   rolled with this action's, and its fate depends on them all.

A branch that needs a table cell the rules text does not print is not guessed: its chance is
kept apart and the table named. A chain is never cut short by a built-in ruleset; were it
(more than ``MOST_STATES`` states, or longer than ``MOST_SECONDS``), each chance found is a
lower bound, ``exact`` is False, and it is said "at least 79%", never as a fraction.
Pure Python: no Qt, no store. Exact: ``Fraction`` throughout.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from app.core.chain_model import ChainModel, GenericModel, walk_events
from app.core.engagement import Engagement, apply
from app.core.errors import MissingTableValue, RuleViolation
from app.core.markov import CUT, MOST_STATES, Unknown, Weighted, absorb
from app.core.procedure import input_value

if TYPE_CHECKING:
    from app.core.ruleset import Ruleset

__all__ = ["ChainOdds", "chain_odds", "chance_text", "fight_odds"]

#: the longest a chain is worked out before it is cut (said as a bound)
MOST_SECONDS = 3.0


def chance_text(p: Fraction, exact: bool = True) -> str:
    """A chance as the desk says it: "13/200 (6.5%)", or for a lower bound "at least 6.5%"
    (rounded down, never a fraction: it is not exact)."""
    if exact:
        from app.core.ruling import odds_text

        return odds_text(p)
    pct = math.floor(p * 1000) / 10
    shown = f"{pct:.1f}".rstrip("0").rstrip(".")
    return f"at least {shown}%"


@dataclass(frozen=True)
class ChainOdds:
    """The chance of each fact within the action and the rolls it owes."""

    #: the aircraft the chain is about (the target, or the one aircraft of its roll)
    aircraft: str | None
    #: fact -> its chance: exact, or a lower bound when ``exact`` is False
    chances: Mapping[str, Fraction]
    #: every branch followed to its end; False when the chain was cut or a branch needs a
    #: table the text does not print: each chance is then a lower bound ("at least ...")
    exact: bool = True
    #: the procedures the chain went through, first roll first (titles)
    rolls: tuple[str, ...] = ()
    #: tables the text does not print that some branch needs, and the chance of those branches
    missing: tuple[str, ...] = ()
    unknown: Fraction = Fraction(0)
    #: what the chain assumes, and why some branch was not followed
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: facts this game cannot say at all (fact -> what it needs)
    not_known: Mapping[str, str] = field(default_factory=dict)
    #: the chain was cut (too many states or too long): its chances are lower bounds
    cut: bool = False
    #: how many states the chain worked out (those known from an earlier chain are not counted)
    states: int = field(default=0, compare=False)

    @property
    def follows_rolls(self) -> bool:
        """The chain goes past its first roll."""
        return len(self.rolls) > 1

    def text_of(self, fact: str) -> str:
        """A fact's chance as the desk shows it: exact, or "at least ..." for a bound."""
        return chance_text(self.chances[fact], self.exact)

    def lines(self) -> list[str]:
        """As the desk says it: "destroyed 13/200 (6.5%)", "out of the fight at least 79%".
        A fact that cannot come is left out, except "out of the fight" (the players' first
        question), which is always answered."""
        out = [
            f"{fact} {self.text_of(fact)}"
            for fact, p in self.chances.items()
            if p or fact == "out of the fight"
        ]
        out += [f"{fact}: not known ({why})" for fact, why in self.not_known.items()]
        if self.cut:
            out.append("cut short: too long a chain to follow to its end here")
        if self.missing:
            out.append(
                f"not known for {chance_text(self.unknown)} of the rolls: needs "
                + "; ".join(self.missing)
                + " (not printed in the rules text)"
            )
        out += list(self.notes)
        return out


def chain_odds(
    ruleset: Ruleset,
    engagement: Engagement,
    procedure: str,
    inputs: BaseModel,
    *,
    then: Sequence[tuple[str, BaseModel]] = (),
    seconds: float = MOST_SECONDS,
    most_states: int = MOST_STATES,
) -> ChainOdds:
    """The chain of ``procedure`` with ``inputs`` on ``engagement``, and of the actions
    ``then`` (procedure id, inputs) that follow it in this turn: the chance of each fact for
    its target (or its one aircraft), to the end of the rolls owed."""
    proc = ruleset.procedures[procedure]
    own: ChainModel[Any] | None = ruleset.chain_model()
    subject = (own or _DEFAULT).subject(procedure, inputs, engagement)
    if not subject or subject not in engagement.aircraft:
        return ChainOdds(None, {}, rolls=(proc.title,), notes=("a what-if: no aircraft to follow",))
    deadline = time.perf_counter() + seconds
    model: ChainModel[Any] = own or GenericModel(ruleset, engagement, subject)
    actions = [(proc, inputs), *((ruleset.procedures[p], i) for p, i in then)]
    rolls: dict[str, None] = {p.title: None for p, _ in actions}
    baseline = model.state(engagement, subject)
    start: dict[Any, Fraction] = {}
    if not then and model.owed(baseline) == procedure and _as_read(proc, inputs, engagement):
        # the roll the aircraft owes, as the game reads it: the chain's own first roll
        walked = _Walked([])
        start[baseline] = Fraction(1)
    else:
        walked = _walk_actions(ruleset, actions, engagement)
        if walked.refused is not None:
            return ChainOdds(subject, {}, rolls=(proc.title,), notes=(walked.refused,))
    for p, state in walked.branches:
        s = model.state(state, subject, engagement)
        start[s] = start.get(s, Fraction(0)) + p

    def step(s: Any) -> Mapping[Any, Fraction] | Weighted[Any] | None:
        return None if model.owed(s) is None else model.roll(s)

    absorbed = absorb(
        start,
        step,
        model.facts,
        split=model.split,
        tag=model.owed,
        memo=model.memo,
        most_states=most_states,
        seconds=max(0.0, deadline - time.perf_counter()),
    )
    order = list(ruleset.procedures)
    owed = {str(t) for t in absorbed.tags if t is not None}
    for pid in sorted(owed, key=lambda p: order.index(p) if p in order else len(order)):
        rolls[ruleset.procedures[pid].title] = None
    missing: dict[str, None] = dict.fromkeys(walked.missing)
    unknown = walked.unknown
    unlisted = model.unlisted(baseline) | set(model.not_known())
    chances: dict[str, Fraction] = {f: Fraction(0) for f in model.listed if f not in unlisted}
    for label, p in absorbed.chances.items():
        if isinstance(label, Unknown):
            unknown += p
            if label is not CUT:
                missing[label.why] = None
        elif label not in unlisted:
            chances[str(label)] = chances.get(str(label), Fraction(0)) + p
    return ChainOdds(
        subject,
        chances,
        exact=unknown == 0,
        rolls=tuple(rolls),
        missing=tuple(missing),
        unknown=unknown,
        notes=(*walked.notes, *model.notes(baseline, frozenset(owed))),
        not_known=dict(model.not_known()),
        cut=absorbed.cut,
        states=absorbed.states,
    )


def fight_odds(
    ruleset: Ruleset,
    before: Engagement,
    aircraft: str,
    branches: Sequence[tuple[Fraction, Engagement]],
) -> tuple[Fraction, Fraction] | None:
    """For the after-action luck: the chance ``aircraft`` is out of the fight at the end of
    the chain from ``branches`` (the game after an action, each with its chance), and the
    chance from the rolls it already owed before it -- their difference is what the action
    and the rolls it owes did. ``None`` for a ruleset without a chain model of its own."""
    model: ChainModel[Any] | None = ruleset.chain_model()
    if model is None or aircraft not in before.aircraft:
        return None
    base = model.state(before, aircraft)
    if "out of the fight" in model.unlisted(base):
        return Fraction(0), Fraction(0)

    def out(start: Mapping[Any, Fraction]) -> Fraction:
        absorbed = absorb(
            start,
            lambda s: None if model.owed(s) is None else model.roll(s),
            model.facts,
            split=model.split,
            memo=model.memo,
            seconds=MOST_SECONDS,
        )
        return absorbed.chances.get("out of the fight", Fraction(0))

    start: dict[Any, Fraction] = {}
    for p, state in branches:
        s = model.state(state, aircraft, before)
        start[s] = start.get(s, Fraction(0)) + p
    return out(start), out({base: Fraction(1)})


def _as_read(proc: Any, inputs: Any, engagement: Engagement) -> bool:
    """Whether ``inputs`` are what the procedure reads off the aircraft (no value typed over
    or overridden): then the roll is the one the chain model owes."""
    who = input_value(inputs, "attacker") or input_value(inputs, "aircraft")
    try:
        read = proc.prefill(engagement, who, input_value(inputs, "target"))
    except Exception:  # noqa: BLE001 - cannot say: walk the procedure itself
        return False
    return all(input_value(inputs, k) == v for k, v in read.items())


class _Default(ChainModel[None]):
    """Only its ``subject``: the rule every model starts from."""

    def state(
        self, engagement: Engagement, aircraft: str, before: Engagement | None = None
    ) -> None:  # pragma: no cover
        return None

    def owed(self, s: None) -> str | None:  # pragma: no cover
        return None

    def roll(self, s: None) -> Mapping[None, Fraction]:  # pragma: no cover
        return {}

    def facts(self, s: None) -> frozenset[str]:  # pragma: no cover
        return frozenset()


_DEFAULT = _Default()


@dataclass
class _Walked:
    """The game after the actions themselves: each branch with its chance."""

    branches: list[tuple[Fraction, Engagement]]
    unknown: Fraction = Fraction(0)
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the first action refused by the rules: why (nothing to follow)
    refused: str | None = None


def _walk_actions(
    ruleset: Ruleset, actions: Sequence[tuple[Any, Any]], engagement: Engagement
) -> _Walked:
    """Each action's ``decide`` over every value of its dice, on every branch of the ones
    before it; a later action at the first step of this turn (from the branch's own) whose
    rules take it."""
    out = _Walked([(Fraction(1), engagement)])
    for n, (proc, inputs) in enumerate(actions):
        branches: list[tuple[Fraction, Engagement]] = []
        for p, state in out.branches:
            try:
                walked = _walk_at(ruleset, proc, inputs, state, first=n == 0)
            except MissingTableValue as e:
                out.unknown += p
                out.missing.append(f"{e.table} ({e.cell})")
                continue
            except RuleViolation as e:
                if n == 0:
                    out.refused = f"{proc.title}: {e}"
                    return out
                out.notes.append(f"{proc.title} cannot follow in some branches: {e}")
                branches.append((p, state))
                continue
            for q, events in walked[1]:
                after = walked[0]
                for ev in events:
                    after = apply(after, ev, after.seq)
                branches.append((p * q, after))
        out.branches = branches
    return out


def _walk_at(
    ruleset: Ruleset, proc: Any, inputs: Any, state: Engagement, *, first: bool
) -> tuple[Engagement, list[tuple[Fraction, tuple[Any, ...]]]]:
    """The action walked on ``state``, or (a later action) at the first step from there whose
    rules take it; the last refusal is raised when none does."""
    if first:
        return state, walk_events(proc, inputs, state)
    error: RuleViolation | None = None
    try:
        n_steps = len(ruleset.steps(state))
    except Exception:  # noqa: BLE001 - a ruleset that cannot say: this step only
        n_steps = state.step + 1
    for step in range(state.step, max(n_steps, state.step + 1)):
        at = state if step == state.step else replace(state, step=step)
        try:
            return at, walk_events(proc, inputs, at)
        except MissingTableValue:
            raise
        except RuleViolation as e:
            error = e
    assert error is not None
    raise error
