"""The ruleset author's kit (issue 32): one call that checks a ruleset's whole contract.

``check_ruleset(RULESET, fills=...)`` is what a ruleset's own tests call -- Airboss's five
rulesets and a club's house ruleset alike (pure Python; it needs ``hypothesis``, which the
``airboss[test]`` extra installs)::

    from app.testing import check_ruleset
    from my_rules import RULESET

    def test_the_contract():
        check_ruleset(RULESET, fills={"ranges": {"long": 3}})

It checks, and fails naming what is wrong:

1. the declarations (``app.core.contract``: procedures, Inputs, card_fields, initiative,
   sequence, ledgers, variants, tables), as when the ruleset is loaded;
2. the tables filled: ``fills`` (table file stem -> the values an umpire would type into the
   Tables editor, saved as override files in a throw-away user data folder) must leave no
   cell marked ``"missing"`` in any table the ruleset ships -- so no procedure is skipped for
   a cell the rules text does not print;
3. every aircraft of the catalogue goes on a roster (``new_aircraft``, its initial attributes
   a valid ``State``) and prints its card, and what happens by itself at each step of the
   first turn (``on_clock``) passes the ruleset's one door (``check_events``);
4. for every procedure, on inputs generated from its ``Inputs`` (``examples`` distinct ones,
   each one the rules *accept*: a refused one is not counted and another is drawn, up to
   ``DRAWS_PER_EXAMPLE`` per input claimed, ``LEAST_DRAWS`` at least): the odds are exact
   and sum to 1, and equal what ``resolve`` does over *every face of every die* typed at the
   table (an independent walk through ``TableDice``, face by face); the dice the desk asks
   for first (``dice_needed``, a dry run of ``decide``) are the rolls ``resolve`` makes first
   on every path. A procedure checked on fewer accepted inputs than claimed fails, naming
   its refusals: no skips (unless every input its ``Inputs`` allow was drawn). One whose
   rules accept only a narrow geometry is given inputs they accept (``inputs=``) and claims
   fewer generated ones (``examples_for=``). A calculator's ``compute`` gives a
   ``Decision`` or refuses by the rules.
"""

from __future__ import annotations

import os
import tempfile
import types
import typing
import unittest
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ValidationError

from app.core.contract import ruleset_mistakes
from app.core.data import MISSING, clear_table_cache, read_toml, save_override
from app.core.dice import DiceError, DiceSpec, TableDice
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import GameCreated
from app.core.procedure import Calculator, Decision, Procedure
from app.core.ruleset import Ruleset

__all__ = [
    "ContractFailure",
    "check_ruleset",
    "filled_tables",
    "inputs_strategy",
    "missing_cells",
    "typed_outcomes",
]

#: aircraft references: a generated input is a what-if, without them
REFS = frozenset({"attacker", "target", "aircraft"})
#: ids for list-of-names fields (the planes rolling an initiative, say)
NAMES = tuple(f"p{i}" for i in range(1, 7))
#: inputs drawn at most for a procedure, per accepted input it is to be checked on
#: (``examples``), and at least ``LEAST_DRAWS`` (a procedure that claims few is one whose rules
#: accept few: it is searched as long): past that, too few were accepted, and the kit says so
DRAWS_PER_EXAMPLE = 20
LEAST_DRAWS = 240
#: hypothesis gives up on its own after this many rejected inputs (and 100 more for each one
#: accepted: "< 1% of test cases satisfied assumptions"); when it stops before, it has drawn
#: every input the ``Inputs`` allow
HYPOTHESIS_REJECTS = 458


class ContractFailure(AssertionError):
    """What ``check_ruleset`` found wrong, each item named."""

    def __init__(self, ruleset: str, problems: list[str]) -> None:
        self.problems = tuple(problems)
        listed = "\n".join(f"- {p}" for p in problems)
        super().__init__(f"ruleset {ruleset!r} does not keep its contract:\n{listed}")


# -- the tables ------------------------------------------------------------------------------


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, Mapping) and isinstance(over, Mapping):
        out = dict(base)
        for k, v in over.items():
            out[k] = _merge(base.get(k), v) if k in base else v
        return out
    return over


def _missing_in(data: Any, where: str) -> Iterator[str]:
    if isinstance(data, str) and data == MISSING:
        yield where or "(the whole table)"
    elif isinstance(data, Mapping):
        for k, v in data.items():
            yield from _missing_in(v, f"{where}.{k}" if where else str(k))
    elif isinstance(data, list):
        for n, v in enumerate(data):
            yield from _missing_in(v, f"{where}[{n}]")


def missing_cells(
    ruleset: Ruleset, fills: Mapping[str, Mapping[str, Any]] | None = None
) -> list[str]:
    """Every cell still marked ``"missing"`` once ``fills`` are merged in, as ``stem: path``."""
    out: list[str] = []
    for path in ruleset.table_files().values():
        data = _merge(read_toml(path), (fills or {}).get(path.stem, {}))
        out += [f"{path.stem}: {where}" for where in _missing_in(data, "")]
    return out


@contextmanager
def filled_tables(
    ruleset: Ruleset, fills: Mapping[str, Mapping[str, Any]] | None = None
) -> Iterator[None]:
    """The ruleset's tables with ``fills`` saved as the umpire's overrides, in a throw-away
    user data folder (``AIRBOSS_DATA_DIR``) that is removed afterwards; the user's own data
    is never touched."""
    before = os.environ.get("AIRBOSS_DATA_DIR")
    stems = {p.stem for p in ruleset.table_files().values()}
    unknown = sorted(set(fills or {}) - stems)
    if unknown:
        known = ", ".join(sorted(stems))
        raise ContractFailure(
            ruleset.id, [f"fills: {s!r} is no table of table_files ({known})" for s in unknown]
        )
    with tempfile.TemporaryDirectory(prefix="airboss-kit-") as tmp:
        os.environ["AIRBOSS_DATA_DIR"] = tmp
        clear_table_cache()
        try:
            for stem, values in (fills or {}).items():
                save_override(ruleset.id, stem, values)
            yield
        finally:
            if before is None:
                os.environ.pop("AIRBOSS_DATA_DIR", None)
            else:
                os.environ["AIRBOSS_DATA_DIR"] = before
            clear_table_cache()


# -- generated inputs ------------------------------------------------------------------------


def _bounds(info: Any) -> tuple[int, int]:
    lo, hi = -6, 12
    for m in info.metadata:
        for name, step in (("ge", 0), ("gt", 1), ("le", 0), ("lt", -1)):
            if hasattr(m, name):
                v = getattr(m, name) + step
                lo, hi = (max(lo, v), hi) if name in ("ge", "gt") else (lo, min(hi, v))
    if lo > hi:  # a range outside the window: stay at its near end
        hi = lo
    return lo, min(hi, lo + 30)


def _field(annotation: Any, info: Any, n: int) -> Any:
    """A hypothesis strategy for one field (``None``: none); list fields get ``n`` items, so
    that lists meant to go together (planes and their reactions) have the same length."""
    import enum

    from hypothesis import strategies as st

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.integers(*_bounds(info))
    if annotation is float:
        lo, hi = _bounds(info)
        return st.integers(lo * 2, hi * 2).map(lambda v: v / 2)
    if annotation is Fraction:
        lo, hi = _bounds(info)
        return st.integers(lo * 2, hi * 2).map(lambda v: Fraction(v, 2))
    if annotation is str:
        return st.sampled_from(NAMES)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return st.sampled_from(list(annotation))
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (typing.Union, types.UnionType):
        options = [_field(a, info, n) for a in args if a is not type(None)]
        options = [o for o in options if o is not None]
        return st.one_of(*options) if options else None
    if origin in (list, tuple) and args and (len(args) == 1 or args[1] is Ellipsis):
        item = args[0]
        if item is int:
            inner = st.integers(0, 6)
        elif item is str:
            return st.lists(st.sampled_from(NAMES), min_size=n, max_size=n, unique=True).map(
                list if origin is list else tuple
            )
        else:
            inner = _field(item, info, n)
        if inner is None:
            return None
        return st.lists(inner, min_size=n, max_size=n).map(list if origin is list else tuple)
    return None


def inputs_strategy(model: type[BaseModel]) -> Any:
    """Raw what-if inputs for ``model`` (no aircraft references): every field the desk shows,
    within its bounds, optional fields sometimes left out."""
    from hypothesis import strategies as st

    def with_lists_of(n: int) -> Any:
        fields: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            if name in REFS:
                continue
            strat = _field(info.annotation, info, n)
            if strat is not None:
                fields[name] = strat if info.is_required() else st.one_of(st.just(None), strat)
        return st.fixed_dictionaries(fields)

    def drop_none(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if v is not None}

    if not any(_has_lists(info.annotation) for info in model.model_fields.values()):
        # no list to size: drawing a length would only draw each input again
        return with_lists_of(0).map(drop_none)
    # made once for each length, not at every draw (hypothesis builds and checks a strategy
    # anew each time: most of the kit's time, before)
    by_length = [with_lists_of(n) for n in range(5)]
    return st.integers(0, 4).flatmap(by_length.__getitem__).map(drop_none)


def _has_lists(annotation: Any) -> bool:
    """``annotation`` is, or holds, a list or tuple field (its length drawn)."""
    if typing.get_origin(annotation) in (list, tuple):
        return True
    return any(_has_lists(a) for a in typing.get_args(annotation))


# -- odds against resolve --------------------------------------------------------------------


def typed_outcomes(
    proc: Procedure, inputs: BaseModel, limit: int = 4000
) -> tuple[dict[str, Fraction], list[tuple[tuple[str, str], ...]]] | None:
    """What ``resolve`` does over every face of every die typed at the table (``TableDice``):
    outcome -> exact probability, and the rolls of each path as ``(spec, purpose)``. ``None``
    past ``limit`` sequences of faces."""
    out: dict[str, Fraction] = {}
    paths: list[tuple[tuple[str, str], ...]] = []
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    walked = 0
    #: a round of rolls that decided nothing and is rolled again (``reroll_until``): every
    #: round is the same roll afresh, so the walk keeps the first round, conditioned on it
    #: deciding
    cut = Fraction(0)
    while stack:
        prefix, p = stack.pop()
        walked += 1
        if walked > limit:
            return None
        dice = TableDice(prefix)
        try:
            res = proc.resolve(inputs, dice, Engagement())
        except DiceError:
            if not dice.ran_out or dice.wanted is None:
                raise
            if dice.rerolling:
                cut += p
                continue
            one = DiceSpec.parse(dice.wanted[0])
            for face in one.faces:
                stack.append(([*prefix, face], p / len(one.faces)))
            continue
        out[res.outcome] = out.get(res.outcome, Fraction(0)) + p
        paths.append(tuple((r.spec, r.purpose) for r in res.rolls))
    return {k: v / (1 - cut) for k, v in out.items()}, paths


class _EnoughDrawn(unittest.SkipTest):
    """Stops hypothesis drawing for a procedure (``DRAWS_PER_EXAMPLE``): a skip exception is
    the one it lets through at once, without shrinking."""


def _check_procedure(
    proc: Procedure,
    examples: int,
    limit: int,
    given_inputs: tuple[Mapping[str, Any], ...] = (),
) -> list[str]:
    """Check ``proc`` on ``given_inputs`` and on ``examples`` distinct generated inputs its
    rules accept: an input the rules refuse (or whose dice are too many to walk), or one
    drawn before, is not counted and another is drawn, ``DRAWS_PER_EXAMPLE`` draws at most
    per input claimed (``LEAST_DRAWS`` at least). Fewer accepted fails, naming the procedure
    and its refusals, unless hypothesis drew every input its ``Inputs`` allow (a small space:
    each one accepted was checked). A given input the rules refuse fails too: it checks
    nothing."""
    from hypothesis import HealthCheck, given, reject, settings
    from hypothesis.errors import Unsatisfiable

    where = f"procedure {proc.id!r}"
    refused: Counter[str] = Counter()
    accepted = 0  # distinct generated inputs accepted, and checked
    draws = 0
    seen: set[str] = set()  # the distinct generated inputs drawn
    most = max(examples * DRAWS_PER_EXAMPLE, LEAST_DRAWS)
    failing = False  # hypothesis is shrinking a failure: every draw is run as it comes

    def refuse(e: Exception) -> bool:
        text = str(e).splitlines()[0] if str(e) else type(e).__name__
        refused[f"{type(e).__name__}: {text[:160]}"] += 1
        return False

    def check(raw: dict[str, Any]) -> bool:
        """Check ``proc`` on ``raw``; False when the rules refuse it (or it cannot be walked)."""
        try:
            inputs = proc.parse(raw)
        except (ValidationError, RuleViolation) as e:
            return refuse(e)
        if isinstance(proc, Calculator):
            try:
                decision = proc.result(inputs)
            except RuleViolation as e:
                return refuse(e)
            assert isinstance(decision, Decision), (
                f"{where}: compute gave {decision!r}, not a Decision, for {raw}"
            )
            return True
        try:
            odds = proc.odds(inputs)
        except RuleViolation as e:
            return refuse(e)
        assert all(isinstance(v, Fraction) for v in odds.values()), (
            f"{where}: the odds for {raw} are not exact Fractions: {odds}"
        )
        assert sum(odds.values()) == 1, f"{where}: the odds for {raw} sum to {sum(odds.values())}"
        walked = typed_outcomes(proc, inputs, limit)
        if walked is None:
            refused[f"more than {limit} sequences of typed faces to walk"] += 1
            return False
        typed, paths = walked
        shown = {k: v for k, v in odds.items() if v}
        done = {k: v for k, v in typed.items() if v}
        assert shown == done, (
            f"{where}: the odds shown for {raw} are {shown}, but resolve over every typed "
            f"die gives {done}"
        )
        needed = [(DiceSpec.parse(s).name, p) for s, p in proc.dice_needed(inputs)]
        for path in paths:
            assert list(path[: len(needed)]) == needed, (
                f"{where}: for {raw} the desk asks first for the dice {needed}, but resolve "
                f"rolls {list(path)}"
            )
        return True

    @settings(
        max_examples=max(examples, 1),
        deadline=None,
        database=None,
        derandomize=True,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(raw=inputs_strategy(proc.Inputs))
    def run(raw: dict[str, Any]) -> None:
        nonlocal accepted, draws, failing
        if not failing:
            draws += 1
            if draws > most:
                raise _EnoughDrawn(f"{where}: {most} inputs drawn")
            key = repr(sorted(raw.items()))
            if key in seen:
                reject()  # drawn before: not counted twice
            seen.add(key)
        try:
            ok = check(dict(raw))
        except AssertionError:
            failing = True
            raise
        if not ok:
            reject()  # refused: another input is drawn in its place
        accepted += 1

    problems: list[str] = []
    try:
        for n, raw in enumerate(given_inputs):
            if not check(dict(raw)):
                [(why, _)] = refused.most_common(1)
                problems.append(
                    f"{where}: inputs[{n}] {dict(raw)} is refused ({why}): it checks nothing"
                )
                refused.clear()
        if examples > 0:
            run()
    except (Unsatisfiable, _EnoughDrawn):
        pass  # too few generated inputs accepted: said below, unless every one was drawn
    except AssertionError as e:
        return [str(e).splitlines()[0] if str(e) else f"{where}: failed"]
    if examples == 0 and len(problems) == len(given_inputs):
        problems.append(f"{where}: no generated input claimed and no input given: nothing checked")
    if accepted >= examples:
        return problems
    why = "; ".join(f"{n}x {r}" for r, n in refused.most_common(3)) or "none generated"
    if accepted == 0:
        problems.append(
            f"{where}: no generated input was accepted, so nothing was checked (refusals: "
            f"{why}); fill the tables it needs (fills=) or widen its Inputs' bounds"
        )
    elif draws > min(most, HYPOTHESIS_REJECTS):
        problems.append(
            f"{where}: only {accepted} of the {examples} generated inputs claimed were "
            f"accepted, in {len(seen)} distinct drawn (refusals: {why}); fill the tables it "
            "needs (fills=), bound its Inputs to what the rules accept, or claim fewer for it "
            "(examples_for=) and give inputs it accepts (inputs=)"
        )
    # else hypothesis drew every input its Inputs allow: each one accepted was checked
    return problems


# -- the catalogue ---------------------------------------------------------------------------


def _catalogue_problems(ruleset: Ruleset, details: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    e = Engagement().apply(GameCreated(ruleset=ruleset.id, title="kit"), 1)
    pilot = "average" if ruleset.uses_pilot_quality else None
    for n, type_id in enumerate(ruleset.aircraft, start=1):
        side = "Blue" if n % 2 else "Red"
        try:
            added = ruleset.new_aircraft(f"a{n}", f"A{n}", side, type_id, pilot, details)
            ruleset.check_events(e, [added])  # its initial attributes: a valid State
            e = e.apply(added, e.seq + 1)
            ruleset.card_spec(e.get(f"a{n}"), e)
        except RuleViolation as err:
            problems.append(
                f"aircraft {type_id!r}: cannot go on a roster ({err}); pass the Details it "
                "needs as details="
            )
        except Exception as err:  # noqa: BLE001 - the ruleset's own code: named
            problems.append(f"aircraft {type_id!r}: {type(err).__name__}: {err}")
    if not ruleset.aircraft:
        problems.append("aircraft: the catalogue is empty (ship at least one sample aircraft)")
    # what happens by itself at each step of the first turn, on that roster: valid events
    try:
        for step in range(len(ruleset.steps(e))):
            events = ruleset.on_clock(e, 1, step)
            ruleset.check_events(e, events)
            for ev in events:
                e = e.apply(ev, e.seq + 1)
    except RuleViolation as err:
        problems.append(f"on_clock: {err}")
    return problems


# -- the one call ----------------------------------------------------------------------------


def check_ruleset(
    ruleset: Ruleset,
    *,
    fills: Mapping[str, Mapping[str, Any]] | None = None,
    details: Mapping[str, Any] | None = None,
    examples: int = 12,
    most_sequences: int = 4000,
    procedures: tuple[str, ...] | None = None,
    inputs: Mapping[str, tuple[Mapping[str, Any], ...]] | None = None,
    examples_for: Mapping[str, int] | None = None,
) -> None:
    """Check ``ruleset``'s whole contract (see the module's text); ``ContractFailure`` lists
    every problem, each named. ``fills`` fill the tables' unprinted cells (file stem -> the
    override values), ``details`` the roster settings the catalogue check uses,
    ``examples`` the distinct generated inputs each procedure is checked on, all accepted by
    its rules (a refused one is not counted: another is drawn), ``procedures`` a subset to
    check (all by default), ``inputs`` raw inputs checked besides the generated ones
    (procedure id -> inputs: a calculator whose rules accept only a narrow geometry, say),
    ``examples_for`` how many accepted generated inputs such a procedure is checked on
    instead of ``examples`` (procedure id -> number, 0 for none: its given inputs only)."""
    problems = [
        f"{name}: {u!r} names no procedure"
        for name, given in (("inputs", inputs), ("examples_for", examples_for))
        for u in sorted(set(given or {}) - set(ruleset.procedures))
    ]
    if problems:
        raise ContractFailure(ruleset.id, problems)
    problems = ruleset_mistakes(ruleset)
    if problems:
        raise ContractFailure(ruleset.id, problems)
    problems += [
        f"table {where}: still marked missing; give it a value in fills="
        for where in missing_cells(ruleset, fills)
    ]
    if problems:
        raise ContractFailure(ruleset.id, problems)
    with filled_tables(ruleset, fills):
        problems += _catalogue_problems(ruleset, details or {})
        for pid, proc in ruleset.procedures.items():
            if procedures is None or pid in procedures:
                given_inputs = tuple((inputs or {}).get(pid, ()))
                claimed = (examples_for or {}).get(pid, examples)
                problems += _check_procedure(proc, claimed, most_sequences, given_inputs)
    if problems:
        raise ContractFailure(ruleset.id, problems)
