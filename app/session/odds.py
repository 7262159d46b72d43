"""The odds of a prepared action, to the end of its chain, and the ruling of a logged one."""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction
from itertools import islice
from typing import Any

from app.core.chain_odds import ChainOdds, chain_odds
from app.core.engagement import Engagement
from app.core.errors import MissingTableValue, RuleViolation
from app.core.events import Restored, Reverted
from app.core.guest import Later, call_guest, hanging, odds_table, ruleset_name
from app.core.prepared import Prepared
from app.core.procedure import Procedure, UnknownOdds
from app.core.ruleset import Ruleset
from app.core.ruling import Ruling, needs_the_log, ruling_of, ruling_of_action
from app.session import guard
from app.session.log import GameLog


def procedure_of(ruleset: Ruleset, procedure: str) -> Procedure:
    """The ruleset's procedure of this id, or a refusal naming the ones it has."""
    try:
        return ruleset.procedures[procedure]
    except KeyError:
        raise RuleViolation(
            f"{ruleset.title} has no procedure {procedure!r}; known: "
            + ", ".join(ruleset.procedures)
        ) from None


class Odds:
    """Exact odds (``Fraction``s) worked out by the same ``decide`` resolve runs."""

    def __init__(self, log: GameLog) -> None:
        self._log = log
        #: the odds last worked out, and what they were worked out of (resolve stores them)
        self._last: tuple[tuple[object, ...], dict[str, Fraction]] | None = None

    def _key(
        self, prepared: Prepared, ruleset: Ruleset | None = None, state: Engagement | None = None
    ) -> tuple[object, ...]:
        """What odds are worked out of: the ruleset (its tables), the game as it is, the
        procedure and its inputs. A prepared action made again with the same inputs (the
        desk's form after a die is typed, a page's dice taken) has the odds it had (issue
        48: they were worked out again for the roll)."""
        return (
            self._log.ruleset if ruleset is None else ruleset,
            self._log.timeline.state if state is None else state,
            prepared.procedure,
            prepared.is_what_if,
            prepared.inputs,
        )

    def _kept(self, key: tuple[object, ...]) -> dict[str, Fraction] | None:
        cached = self._last
        if cached is None or len(cached[0]) != len(key):
            return None
        same = all(a is b for a, b in zip(cached[0][:2], key[:2], strict=True))
        return dict(cached[1]) if same and cached[0][2:] == key[2:] else None

    def odds(self, prepared: Prepared) -> dict[str, Fraction]:
        """The exact odds of the prepared action, in the game as it is (a what-if without
        aircraft): the same ``decide`` resolve runs, over every value of its dice. When they
        need a table cell the rules text does not print: ``UnknownOdds``, empty, naming it."""
        if prepared.inputs is None:
            raise RuleViolation(prepared.error or "the inputs are not complete")
        key = self._key(prepared)
        kept = self._kept(key)
        if kept is not None:
            return kept
        rs = self._log.ruleset
        proc = procedure_of(rs, prepared.procedure)
        args = _asked(prepared, self._log.timeline.state)
        try:
            odds: dict[str, Fraction] = call_guest(
                rs,
                f"odds of {proc.title}",
                proc.odds,
                *args,
                time_limit=guard.TIME_LIMIT,
                returns=odds_table,
            )
        except MissingTableValue as e:  # named, not raised (issue 45): the desk offers it
            return UnknownOdds(e)
        self._last = (key, dict(odds))  # resolve stores them with the event
        return odds

    def wanted(self, proc: Procedure) -> bool:
        """Odds are stored with this procedure's roll (issue 34), unless it is a calculator
        (no dice) or its odds were given up after the time limit and are still being worked
        out (not asked again, not even inside another guarded call, where a call runs
        unguarded)."""
        return not proc.is_calculator and (
            (ruleset_name(self._log.ruleset), f"odds of {proc.title}") not in hanging()
        )

    def ahead(self, ruleset: Ruleset, state: Engagement) -> Callable[[Prepared], object]:
        """The odds of a prepared action on this game, as the ruleset's worker works them out
        right after resolving it (``call_guest_then``, issue 44): those kept for the same
        question, else the walk."""

        def odds(prepared: Prepared) -> object:
            kept = self._kept(self._key(prepared, ruleset, state))
            if kept is not None:
                return kept
            return procedure_of(ruleset, prepared.procedure).odds(*_asked(prepared, state))

        return odds

    def to_store(
        self, prepared: Prepared, later: Later | None = None
    ) -> dict[str, Fraction] | None:
        """The odds to keep with the event (issue 34): those the desk showed for these inputs
        on this game, else worked out now (``later``: already being worked out, ``ahead``),
        on the game as it is before the roll. None when they cannot be: they fail, name a
        cell the text does not print, or run out of time (see also ``wanted``)."""
        proc = procedure_of(self._log.ruleset, prepared.procedure)
        if prepared.inputs is None or not self.wanted(proc):
            return None
        key = self._key(prepared)
        kept = self._kept(key)
        if kept is not None:
            return kept
        try:
            if later is None:
                odds = self.odds(prepared)
            else:
                odds = later.result(guard.TIME_LIMIT, odds_table)
                self._last = (key, dict(odds))
        except Exception:  # noqa: BLE001 - odds that cannot be worked out are not stored
            return None
        return None if isinstance(odds, UnknownOdds) else odds

    def chain_odds(self, prepared: Prepared) -> ChainOdds:
        """The odds to the end of the chain of the prepared action (issue 34): the exact chance
        of its target destroyed, its pilot killed or ejected, a fire ..., within this action
        and the rolls it owes (``app.core.chain_odds``). Pure: safe off the GUI thread."""
        if prepared.inputs is None:
            raise RuleViolation(prepared.error or "the inputs are not complete")
        rs = self._log.ruleset
        proc = procedure_of(rs, prepared.procedure)
        result: ChainOdds = call_guest(
            rs,
            f"chain of {proc.title}",
            chain_odds,
            rs,
            self._log.timeline.state,
            prepared.procedure,
            prepared.inputs,
            time_limit=guard.TIME_LIMIT,
            returns=ChainOdds,
        )
        return result

    def ruling(self, seq: int, undone: Collection[int] | None = None) -> Ruling:
        """The ruling of the action log entry ``seq`` belongs to (issue 34; ``KeyError``: no
        such entry). Read from the store a page of one event and one action at a time, unless
        the action's odds were logged before they were stored with it (then the whole log is
        replayed to work them out). ``undone``: the actions undone now, when the caller knows
        them (the desk's log index); otherwise the log says."""
        log = self._log
        found = list(islice(log.store.iter_events(log.game_id, after=seq - 1, page=1), 1))
        if not found or found[0].seq != seq:
            raise KeyError(f"the log has no entry {seq}")
        at = found[0]
        action = at.event.action if isinstance(at.event, Reverted | Restored) else at.action
        mine = [e for e in log.store.action(log.game_id, action) if not e.is_meta]
        if not mine:
            raise KeyError(f"the log has no entry {action}")
        if needs_the_log(mine):
            return ruling_of(log.events(), seq, log.ruleset)
        gone = log.undone_actions() if undone is None else undone
        e = log.timeline.state
        names = {**e.removed, **{a.id: a.name for a in e.aircraft.values()}}
        return ruling_of_action(mine, log.ruleset, names=names, undone=action in gone)


def _asked(prepared: Prepared, state: Engagement) -> tuple[Any, ...]:
    """What a procedure's ``odds`` is asked with: the inputs on this game, or a what-if's
    inputs alone."""
    return (prepared.inputs,) if prepared.is_what_if else (prepared.inputs, state)
