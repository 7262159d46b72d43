"""Odds and resolve cannot disagree (issue 19): for every procedure of every ruleset, on
generated inputs, the odds shown before a roll equal what ``resolve`` does over every sequence
of dice typed at the table, face by face.

``odds`` walks ``decide`` over the *totals* of each roll; this test walks ``resolve`` with
``TableDice`` over every *face* of every die, an independent path through the same rule. A
procedure that read single faces of a summed roll, or whose odds were written apart from its
resolve, fails here.
"""

from __future__ import annotations

import types
import typing
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from pydantic import BaseModel, ValidationError

from app.core.dice import DiceError, DiceSpec, TableDice
from app.core.engagement import Engagement
from app.core.errors import MissingTableValue, RuleViolation
from app.core.procedure import Procedure
from app.plugins import load_ruleset

RULESETS = ("phantoms", "airpower", "advanced_air_force", "ufo_interception", "nth_fleet")
REFS = {"attacker", "target", "aircraft"}
#: typed-dice sequences walked per example, at most (the walk per face is the slow path)
MOST_SEQUENCES = 4000


def procedures() -> list[tuple[str, str]]:
    return [(rid, pid) for rid in RULESETS for pid in load_ruleset(rid).procedures]


def _bounds(info: Any) -> tuple[int, int]:
    lo, hi = -6, 12
    for m in info.metadata:
        for name, value in (("ge", 0), ("gt", 1), ("le", 0), ("lt", -1)):
            if hasattr(m, name):
                v = getattr(m, name) + value
                lo, hi = (max(lo, v), hi) if name in ("ge", "gt") else (lo, min(hi, v))
    if lo > hi:  # a range outside the window: stay at its near end
        hi = lo
    return lo, min(hi, lo + 30)


#: ids for list-of-names fields (the UFO game's planes rolling initiative, say)
NAMES = tuple(f"p{i}" for i in range(1, 7))


def field_strategy(annotation: Any, info: Any, n: int) -> st.SearchStrategy[Any] | None:
    """Values for one field; list fields get ``n`` items, so that lists meant to go together
    (planes and their pilot reactions) have the same length."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        lo, hi = _bounds(info)
        return st.integers(lo, hi)
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (typing.Union, types.UnionType):
        options = [field_strategy(a, info, n) for a in args if a is not type(None)]
        options = [o for o in options if o is not None]
        return st.one_of(*options) if options else None
    if origin is list and args == (int,):
        return st.lists(st.integers(0, 6), min_size=n, max_size=n)
    if origin is list and args == (str,):
        return st.lists(st.sampled_from(NAMES), min_size=n, max_size=n, unique=True)
    return None


def inputs_strategy(model: type[BaseModel]) -> st.SearchStrategy[dict[str, Any]]:
    def with_lists_of(n: int) -> st.SearchStrategy[dict[str, Any]]:
        fields: dict[str, st.SearchStrategy[Any]] = {}
        for name, info in model.model_fields.items():
            if name in REFS:
                continue
            strat = field_strategy(info.annotation, info, n)
            if strat is not None:
                fields[name] = strat if info.is_required() else st.one_of(st.just(None), strat)
        return st.fixed_dictionaries(fields)

    return (
        st.integers(1, 4)
        .flatmap(with_lists_of)
        .map(lambda d: {k: v for k, v in d.items() if v is not None})
    )


def typed_outcomes(proc: Procedure, inputs: BaseModel) -> dict[str, Fraction] | None:
    """Every sequence of typed faces through ``resolve``; ``None`` past MOST_SEQUENCES. A
    procedure whose round of rolls starts over when it decides nothing (``round_rolls``: a tie
    re-rolled) is walked over its first round, conditioned on that round deciding."""
    out: dict[str, Fraction] = {}
    cut = Fraction(0)
    walked = 0
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        walked += 1
        if walked > MOST_SEQUENCES:
            return None
        try:
            res = proc.resolve(inputs, TableDice(prefix), Engagement())
        except DiceError as e:
            if "no value typed" not in str(e):
                raise
            if proc.round_rolls is not None and len(prefix) >= proc.round_rolls:
                cut += p
                continue
            spec = DiceSpec.parse(str(e).split(" for ")[0])
            for face in spec.faces:
                stack.append(([*prefix, face], p / len(spec.faces)))
            continue
        out[res.outcome] = out.get(res.outcome, Fraction(0)) + p
    return {k: v / (1 - cut) for k, v in out.items()}


@pytest.mark.parametrize(("ruleset", "procedure"), procedures())
def test_odds_equal_resolve_over_every_typed_die(ruleset: str, procedure: str) -> None:
    proc = load_ruleset(ruleset).procedures[procedure]
    assert isinstance(proc, Procedure)

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(raw=inputs_strategy(proc.Inputs))
    def check(raw: dict[str, Any]) -> None:
        try:
            inputs = proc.parse(raw)
            odds = proc.odds(inputs)
        except (ValidationError, RuleViolation, MissingTableValue):
            assume(False)
            return
        assert sum(odds.values()) == 1
        typed = typed_outcomes(proc, inputs)
        assume(typed is not None)
        assert {k: v for k, v in odds.items() if v} == {k: v for k, v in typed.items() if v}

    try:
        check()
    except Unsatisfiable:
        # every input needs a table cell the rules text does not print (shipped "missing"):
        # the ruleset's own odds test checks these procedures on filled-in tables
        pytest.skip(f"{ruleset}.{procedure}: no generated input avoids an unprinted table cell")
