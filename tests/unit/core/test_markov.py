"""Issue 45: ``app.core.markov.absorb``, the exact solution of a chain of rolls, on small chains
whose answers are worked out by hand here: a roll that leads back to its own state (a fire
still burning), a cycle of several states (an aircraft out of control round the impulses),
labels set apart (``split``), and an earlier chain's answers reused (``memo``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.core.markov import Weighted, absorb

# A fire checked until it is out (the shape of Phantoms 9.0): a d10, 1-5 out, 6-8 still
# burning (the same state again), 9-10 a critical hit, which a d10 makes "lost" on 1-3.


def _fire(s: str) -> Weighted[str] | None:
    if s == "burning":
        return Weighted({"out": 5, "burning": 3, "critical": 2}, 10)
    if s == "critical":
        return Weighted({"lost": 3, "flying": 7}, 10)
    return None


def _labels(s: str) -> set[str]:
    return {"lost"} if s == "lost" else {"flying"}


def test_a_roll_that_leads_back_to_its_state_is_solved_exactly() -> None:
    # x = 3/10 x + 2/10 * 3/10  ->  x = (6/100) / (7/10) = 3/35
    got = absorb({"burning": Fraction(1)}, _fire, _labels)
    assert got.chances == {"lost": Fraction(3, 35), "flying": Fraction(32, 35)}
    assert got.states == 5 and not got.cut


def test_a_cycle_of_states_is_solved_exactly() -> None:
    """Two states that lead to each other: a at 1/2 to b, else out ("done"); b at 1/3 back to
    a, else lost. From a: x_a = 1/2 x_b + 1/2 * 0, x_b = 1/3 x_a + 2/3 -> x_a = 2/5."""

    def step(s: str) -> Weighted[str] | None:
        return {
            "a": Weighted({"b": 1, "done": 1}, 2),
            "b": Weighted({"a": 1, "lost": 2}, 3),
        }.get(s)

    got = absorb({"a": Fraction(1)}, step, lambda s: {s})
    assert got.chances == {"lost": Fraction(2, 5), "done": Fraction(3, 5)}


def test_labels_set_apart_are_certain_past_their_edge() -> None:
    """A roll that marks the aircraft ("hit", set apart by ``split``) and goes on as before:
    the chain is worked out without the mark, and the mark counts once for every path past it."""

    def step(s: str) -> Weighted[str] | None:
        if s == "start":
            return Weighted({"mid+hit": 1, "mid": 3}, 4)
        if s == "mid":
            return Weighted({"end": 1, "lost": 1}, 2)
        return None

    def split(s: str) -> tuple[str, frozenset[str]]:
        core, _, mark = s.partition("+")
        return core, frozenset({mark} if mark else ())

    got = absorb({"start": Fraction(1)}, step, lambda s: {s}, split=split)
    assert got.chances == {"hit": Fraction(1, 4), "end": Fraction(1, 2), "lost": Fraction(1, 2)}
    assert got.states == 4  # start, mid, end, lost: "mid+hit" is "mid"


def test_an_earlier_chains_answers_are_the_same_answers() -> None:
    memo: dict[str, Any] = {}
    first = absorb({"critical": Fraction(1)}, _fire, _labels, memo=memo)
    assert first.chances == {"lost": Fraction(3, 10), "flying": Fraction(7, 10)}
    rolled: list[str] = []

    def counted(s: str) -> Weighted[str] | None:
        rolled.append(s)
        return _fire(s)

    start = {"burning": Fraction(1, 2), "critical": Fraction(1, 2)}
    cold = absorb(start, counted, _labels)
    assert sorted(rolled) == ["burning", "critical", "flying", "lost", "out"]
    rolled.clear()
    warm = absorb(start, counted, _labels, memo=memo)
    assert sorted(rolled) == ["burning", "out"]  # "critical" and its ends known already
    assert warm.chances == cold.chances
    assert cold.chances["lost"] == Fraction(1, 2) * Fraction(3, 35) + Fraction(1, 2) * Fraction(
        3, 10
    )
