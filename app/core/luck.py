"""Luck, from the log alone (issue 35): for every resolved roll, its odds before the roll
against what happened; expected against actual hits and kills per side and per aircraft,
with the band a fair game falls in and one number per side.

Since issue 34 each ``ProcedureResolved`` stores the odds the procedure gave just before the
roll, and those are the odds used; an older record has its procedure and its inputs, and the
state before it is the fold of the actions before it that count (an undone
action is not in the game, and one undone before this roll cannot be redone after it). The
odds are worked out again by walking the procedure's own ``decide`` over every value of its
dice on that state (``app.core.procedure.exact_outcomes``, as ``Procedure.odds`` does), so they
are exactly what the desk showed before the roll, as ``Fraction``. The same walk says which
outcomes put the target out of the fight, so kills have exact odds too.

Which rolls count for luck: attacks (a roll with an attacker and a target of another side).
A roll's *hits* are the number its outcome label begins with ("4 hits"), 0 for ``"miss"``
(the one label with no effect on the target, API.md) and 1 for any other outcome ("lock",
"3FW2L"). A side's total over the game is a sum of independent rolls with known exact
distributions; the distribution of that sum (a convolution, in double precision over the
exact probabilities) gives the band a fair game falls in and the share of fair games with
these odds that a side's rolls beat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from app.core.after_action import LOSSES, undone_actions
from app.core.chain_odds import fight_odds
from app.core.engagement import Engagement, apply
from app.core.events import (
    CardsPrinted,
    Event,
    ProcedureResolved,
    Restored,
    Reverted,
    StatusChanged,
    event_to_json,
)
from app.core.log_index import Logged
from app.core.procedure import Draft, Procedure, exact_outcomes

if TYPE_CHECKING:
    import numpy as np

    from app.core.ruleset import Ruleset

__all__ = [
    "BAND",
    "BandPoint",
    "RollOdds",
    "Tally",
    "band",
    "hits_of",
    "luck_rolls",
    "luckier_than",
    "tally",
]

#: the band a fair game falls in: from its 5% to its 95% point (the middle 90% of fair games)
BAND = (0.05, 0.95)
_HITS = re.compile(r"^\s*(\d+)\s+hits?\b", re.IGNORECASE)


def hits_of(label: str) -> int:
    """The hits an outcome label stands for: "4 hits" 4, "miss" 0, any other outcome 1."""
    if label == "miss":
        return 0
    m = _HITS.match(label)
    return int(m.group(1)) if m else 1


@dataclass(frozen=True)
class RollOdds:
    """One resolved roll: its odds before the roll and what happened."""

    seq: int
    action: int
    turn: int
    step: int
    procedure: str
    title: str
    outcome: str
    #: the aircraft whose roll it was (the attacker, or the one aircraft), its name and side
    roller: str | None
    name: str
    side: str | None
    target: str | None
    target_name: str
    #: an attack on another side's aircraft: it counts in the luck sums
    attack: bool
    #: every outcome label -> its exact chance before the roll (empty: not worked out, ``why``)
    odds: Mapping[str, Fraction] = field(default_factory=dict)
    #: the hits the roll could score -> their chance
    hit_odds: Mapping[int, Fraction] = field(default_factory=dict)
    #: the chance the roll put the target out of the fight
    kill_chance: Fraction = Fraction(0)
    killed: bool = False
    why: str = ""

    @property
    def known(self) -> bool:
        return bool(self.odds)

    @property
    def hits(self) -> int:
        return hits_of(self.outcome)

    @property
    def chance(self) -> Fraction:
        """The chance, before the roll, of the outcome that came."""
        return self.odds.get(self.outcome, Fraction(0))

    @property
    def expected_hits(self) -> Fraction:
        return sum((h * p for h, p in self.hit_odds.items()), Fraction(0))


def luck_rolls(
    events: Iterable[Logged],
    procedures: Mapping[str, Procedure],
    undone: Iterable[int] | None = None,
    chains: Ruleset | None = None,
) -> list[RollOdds]:
    """Every roll of the log that counts now, with its odds worked out again on the state
    before it. ``events`` is read twice unless ``undone`` is given (a list is fine).

    A kill is credited to the attack whose chain put the target out of the fight: its own roll
    and the rolls it owed (Phantoms' critical hits and ejection, the UFO game's damage rolls).
    A loss in a roll that is not an attack (a roll owed) goes to the last attack on that target
    that did something (not a "miss"). With ``chains`` (the game's ruleset) a roll's kill
    chance is likewise the chance its chain puts the target out of the fight, less the chance
    the rolls it already owed did (``app.core.chain_odds.fight_odds``)."""
    if undone is None:
        events = list(events)
        undone = undone_actions(events)
    gone = set(undone)
    state = Engagement()
    out: list[RollOdds] = []
    #: target -> the index in ``out`` of the last attack on it that did something
    owner: dict[str, int] = {}
    for env in events:
        ev = env.event
        if isinstance(ev, Reverted | Restored | CardsPrinted) or env.action in gone:
            continue
        if isinstance(ev, ProcedureResolved) and ev.rolls:
            out.append(_roll(env.seq, env.action, ev, procedures.get(ev.procedure), state, chains))
            r = out[-1]
            if r.attack and r.target and r.outcome != "miss":
                owner[r.target] = len(out) - 1
        elif (
            isinstance(ev, StatusChanged)
            and set(ev.set) & LOSSES
            and not state.get(ev.aircraft).status & LOSSES
        ):
            mine = out and out[-1].action == env.action and out[-1].target == ev.aircraft
            at = len(out) - 1 if mine else owner.get(ev.aircraft)
            if at is not None and out[at].attack:  # its own roll, or a roll its chain owed
                out[at] = replace(out[at], killed=True)
        state = apply(state, ev, env.seq)
    return out


def _roll(
    seq: int,
    action: int,
    ev: ProcedureResolved,
    proc: Procedure | None,
    state: Engagement,
    chains: Ruleset | None = None,
) -> RollOdds:
    a = state.aircraft.get(ev.attacker or "")
    t = state.aircraft.get(ev.target or "")
    base: dict[str, Any] = dict(
        seq=seq,
        action=action,
        turn=state.turn,
        step=state.step,
        procedure=ev.procedure,
        title=proc.title if proc is not None else ev.procedure,
        outcome=ev.outcome,
        roller=ev.attacker,
        name=a.name if a else "",
        side=a.side if a else None,
        target=ev.target,
        target_name=t.name if t else "",
        attack=a is not None and t is not None and a.side != t.side,
    )
    if proc is None:
        return RollOdds(**base, why=f"the ruleset has no procedure {ev.procedure!r} now")
    try:
        odds, kill = _odds(proc, proc.parse(ev.inputs), state, ev.target, chains)
    except Exception as e:  # noqa: BLE001 - one roll that cannot be worked out is said, not fatal
        return RollOdds(**base, why=f"{type(e).__name__}: {e}")
    if ev.odds is not None:
        odds = dict(ev.odds)  # as stored with the roll (issue 34): a table edited since counts not
    hit_odds: dict[int, Fraction] = {}
    for label, p in odds.items():
        hit_odds[hits_of(label)] = hit_odds.get(hits_of(label), Fraction(0)) + p
    return RollOdds(**base, odds=odds, hit_odds=dict(sorted(hit_odds.items())), kill_chance=kill)


def _odds(
    proc: Procedure,
    inputs: Any,
    state: Engagement,
    target: str | None,
    chains: Ruleset | None = None,
) -> tuple[dict[str, Fraction], Fraction]:
    """The outcome odds of ``proc`` on ``state`` (as ``Procedure.odds``) and the chance that
    the roll, with the rolls it owes (``chains``), puts ``target`` out of the fight, from one
    walk of ``decide``."""
    model = proc.state_model
    after: dict[str, tuple[Event, ...]] = {}

    def run(dice: Any) -> str:
        draft = Draft(state, model)
        label = proc.decide(inputs, dice, draft).outcome
        lost = target is not None and any(
            isinstance(e, StatusChanged) and e.aircraft == target and set(e.set) & LOSSES
            for e in draft.events
        )
        key = f"{int(lost)}{label}"
        if chains is not None and target is not None:
            key += "\x00" + "\n".join(event_to_json(e) for e in draft.events)
            after.setdefault(key, tuple(draft.events))
        return key

    walked = exact_outcomes(run)
    odds: dict[str, Fraction] = {}
    kill = Fraction(0)
    branches: list[tuple[Fraction, Engagement]] = []
    for key, p in walked.items():
        label = key.split("\x00", 1)[0][1:]
        odds[label] = odds.get(label, Fraction(0)) + p
        if key[0] == "1":
            kill += p
        if key in after:
            s = state
            for e in after[key]:
                s = apply(s, e, s.seq)
            branches.append((p, s))
    if chains is not None and target is not None:
        fight = fight_odds(chains, state, target, branches)
        if fight is not None:
            kill = max(fight[0] - fight[1], Fraction(0))
    return proc.arrange(odds), kill


# -- the sums -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """A side's (or an aircraft's) attacks: expected against actual hits and kills."""

    who: str
    name: str
    rolls: int
    expected_hits: Fraction
    hits: int
    expected_kills: Fraction
    kills: int
    #: the share of fair games with these odds whose hits this one's beat (ties count half)
    luckier_than: float

    def sentence(self) -> str:
        """ "Blue's rolls were luckier than 83% of games with these odds"."""
        if not self.rolls:
            return f"{self.name} made no attack rolls."
        return (
            f"{self.name}'s rolls were luckier than {self.luckier_than:.0%} of games with "
            f"these odds ({_n(self.hits, 'hit')} against {float(self.expected_hits):.1f} "
            f"expected, over {_n(self.rolls, 'attack roll')})."
        )


def _n(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def tally(rolls: Sequence[RollOdds], by: str = "side") -> list[Tally]:
    """The attacks summed per side (``by="side"``) or per attacking aircraft (``"aircraft"``)."""
    groups: dict[str, list[RollOdds]] = {}
    names: dict[str, str] = {}
    for r in rolls:
        if not (r.attack and r.known):
            continue
        key = (r.side if by == "side" else r.roller) or ""
        groups.setdefault(key, []).append(r)
        names[key] = key if by == "side" else r.name
    return [
        Tally(
            key,
            names[key],
            len(rs),
            sum((r.expected_hits for r in rs), Fraction(0)),
            sum(r.hits for r in rs),
            sum((r.kill_chance for r in rs), Fraction(0)),
            sum(r.killed for r in rs),
            luckier_than([r.hit_odds for r in rs], sum(r.hits for r in rs)),
        )
        for key, rs in groups.items()
    ]


def _kernel(odds: Mapping[int, Fraction]) -> np.ndarray[Any, Any]:
    import numpy as np

    k = np.zeros(max(odds) + 1 if odds else 1)
    for h, p in odds.items():
        k[h] += float(p)
    return k


def distribution_of_sum(rolls: Sequence[Mapping[int, Fraction]]) -> list[float]:
    """The chance of every total of these independent rolls (index = total)."""
    import numpy as np

    dist = np.ones(1)
    for odds in rolls:
        dist = np.convolve(dist, _kernel(odds))
    return [float(p) for p in dist]


def luckier_than(rolls: Sequence[Mapping[int, Fraction]], actual: int) -> float:
    """The share of fair games with these odds that a total of ``actual`` beats: the chance
    of a lower total, and half the chance of the same total."""
    dist = distribution_of_sum(rolls)
    below = sum(dist[: max(0, min(actual, len(dist)))])
    same = dist[actual] if 0 <= actual < len(dist) else 0.0
    return min(1.0, max(0.0, below + same / 2))


@dataclass(frozen=True, slots=True)
class BandPoint:
    """Cumulative after one roll: expected and actual totals, and the fair band around them."""

    seq: int
    action: int
    expected: Fraction
    actual: int
    low: int
    high: int


def band(
    rolls: Sequence[RollOdds], kills: bool = False, quantiles: tuple[float, float] = BAND
) -> list[BandPoint]:
    """After each roll, the cumulative expected and actual hits (or kills), and the totals
    between which the middle of fair games falls (``quantiles`` of the exact distribution)."""
    import numpy as np

    dist = np.ones(1)
    out: list[BandPoint] = []
    expected, actual = Fraction(0), 0
    lo_q, hi_q = quantiles[0] - 1e-12, quantiles[1] - 1e-12
    for r in rolls:
        odds: Mapping[int, Fraction] = (
            {0: 1 - r.kill_chance, 1: r.kill_chance} if kills else r.hit_odds
        )
        dist = np.convolve(dist, _kernel(odds))
        cdf = np.cumsum(dist)
        expected += r.kill_chance if kills else r.expected_hits
        actual += int(r.killed) if kills else r.hits
        low = int(np.searchsorted(cdf, lo_q))
        high = min(int(np.searchsorted(cdf, hi_q)), len(cdf) - 1)
        out.append(BandPoint(r.seq, r.action, expected, actual, low, high))
    return out


def attacks(rolls: Iterable[RollOdds], side: str | None = None) -> list[RollOdds]:
    """The rolls that count for luck (of one side, if given), in the order of the game."""
    return [r for r in rolls if r.attack and r.known and (side is None or r.side == side)]


def read_luck(
    events: Callable[[], Iterable[Logged]],
    procedures: Mapping[str, Procedure],
    chains: Ruleset | None = None,
) -> list[RollOdds]:
    """Every roll with its odds, from a log read by ``events()`` (called twice: a long log
    is never held whole)."""
    return luck_rolls(events(), procedures, undone_actions(events()), chains)
