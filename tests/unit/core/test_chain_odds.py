"""Issue 45: odds to the end of the chain, exact, complete and checked against an enumeration
written from the rules texts alone (``tests/chain_oracles.py``: every table typed in again,
every face of every die), over the sweep of ``tests/chain_sweep.py``.

Each case compares ``app.core.chain_odds.chain_odds`` with the enumeration exactly, fact by
fact, as ``Fraction``s: UFO close-range cannon, missiles of both games, two firings asked as
one question, damaged start states.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.chain_odds import ChainOdds, chain_odds
from tests.chain_sweep import Case, fill_tables, sweep


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    return {c.id: c for c in sweep(tmp_path_factory.mktemp("sweep"))}


def _chain(c: Case) -> ChainOdds:
    fill_tables()  # this test's data folder (each test has its own)
    return chain_odds(c.session.ruleset, c.engagement, c.procedure, c.inputs, then=c.then)


def test_the_sweep_has_96_chains_of_four_games(cases: dict[str, Case]) -> None:
    games = ("ufo_interception", "advanced_air_force", "phantoms", "airpower")
    by = {r: sum(1 for c in cases.values() if c.ruleset == r) for r in games}
    assert by == {"ufo_interception": 42, "advanced_air_force": 23, "phantoms": 21, "airpower": 10}
    checked = {r: sum(1 for c in cases.values() if c.ruleset == r and c.expect) for r in games}
    assert all(n >= 10 for n in checked.values()), checked


def test_every_chain_of_the_sweep_answers_exactly(cases: dict[str, Case]) -> None:
    """Every chain ends (nothing cut, no table missing) and answers "out of the fight"."""
    for c in cases.values():
        got = _chain(c)
        assert got.exact and not got.cut and not got.missing, (c.id, got.lines())
        assert "out of the fight" in got.chances, c.id
        assert all(0 <= p <= 1 for p in got.chances.values()), c.id


@pytest.mark.parametrize("game", ["phantoms", "ufo_interception", "advanced_air_force", "airpower"])
def test_chains_equal_the_enumeration_from_the_texts(cases: dict[str, Case], game: str) -> None:
    """Fact by fact, exactly: a fact the enumeration names and the chain does not list is 0."""
    wrong = []
    for c in cases.values():
        if c.ruleset != game or c.expect is None:
            continue
        got = _chain(c)
        want = {k: v for k, v in c.expect().items() if v}
        have = {k: v for k, v in got.chances.items() if v}
        if have != want:
            diff = {
                k: (have.get(k, Fraction(0)), want.get(k, Fraction(0)))
                for k in set(have) | set(want)
                if have.get(k) != want.get(k)
            }
            wrong.append((c.id, diff))
    assert not wrong, wrong


def test_the_close_range_cannon_against_an_undamaged_tornado(cases: dict[str, Case]) -> None:
    """The heaviest chains of the sweep, which the test above leaves to this one: the cannon at
    0 and 1 inch (up to 7 and 6 damage rolls, each with its hard points and "+d6 DP") and twice
    at 0 inches in one turn (up to 14), against the enumeration from the text."""
    from tests import chain_oracles as o

    expected = {
        "ufo cannon at 0 inches, Tornado": (o.cannon_hits(0), None),
        "ufo cannon at 1 inches, Tornado": (o.cannon_hits(1), None),
        "ufo cannon twice (0 then 0 inches), Tornado": (o.cannon_hits(0), o.cannon_hits(0)),
    }
    for cid, (first, second) in expected.items():
        got = _chain(cases[cid])
        want = {k: v for k, v in o.ufo_chain(first, o.Plane(0), second).items() if v}
        assert {k: v for k, v in got.chances.items() if v} == want, cid
        assert got.exact and got.chances["out of the fight"] > 0
