"""An absorbing Markov chain solved exactly (issue 45): the odds to the end of a chain of rolls.

A chain of rolls is a walk over *states* -- what the rules still read of an aircraft: its
damage, its boxes, its flags, the rolls it still owes. From a state, the next roll owed leads
to each next state with an exact chance (``step``); a state that owes nothing is an end, and
``end`` names what came of the chain there (its labels: the facts). Two paths that reach the
same state share one answer, so the work is the number of states, not the number of paths.

The answer of a state is, for each label, the chance that the chain ends with it. It is kept
as whole numbers over one denominator per state (a roll's chances are ways out of its dice's
faces), so the sums are integer sums; ``Fraction`` appears only at the end.

A roll may lead back to a state already on the way (a fire still burning, an aircraft still
out of control at the next impulse of its cycle): the states that reach each other form a
strongly connected component, and its answer is the exact solution of its linear equations
(``x = P x + b``, Gauss-Jordan over ``Fraction``). So a fire checked "until it is out" is exact.

Nothing is cut unless the chain has more states than ``most_states`` or takes longer than
``seconds``: the states not looked at then end in ``CUT``, and every chance found is a lower
bound (the caller says "at least"). A state whose next roll needs a table cell the rules text
does not print ends in an ``Unknown`` naming it. Pure Python, no Qt.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Any, Generic, TypeVar

from app.core.errors import MissingTableValue

__all__ = ["CUT", "Absorbed", "NotWorkedOut", "Unknown", "Weighted", "absorb"]

S = TypeVar("S", bound=Hashable)

#: the most states a chain may have before it is cut (no built-in chain comes near it)
MOST_STATES = 200_000


class NotWorkedOut(Exception):
    """A roll of the chain that cannot be worked out (it could not be prepared): its branch
    ends in an ``Unknown`` saying why, not a guess."""


@dataclass(frozen=True)
class Unknown:
    """An end that was not worked out: why (a table not printed, or ``CUT``)."""

    why: str


#: the end of the states not looked at when a chain is cut
CUT = Unknown("cut")


@dataclass(frozen=True)
class Weighted(Generic[S]):
    """A roll's next states as whole numbers of ways out of ``den`` (summing to ``den``)."""

    ways: Mapping[S, int]
    den: int


Label = Hashable
#: a state's answer: label -> ways, over one denominator
Value = tuple[dict[Label, int], int]


@dataclass(frozen=True)
class Absorbed(Generic[S]):
    """The chance that the chain ends with each label (a fact, or an ``Unknown``) and how
    many states it took."""

    chances: Mapping[Label, Fraction]
    states: int
    #: the tags of the states the chain can go through (the rolls owed: see ``absorb``)
    tags: frozenset[Hashable] = frozenset()

    @property
    def cut(self) -> bool:
        return CUT in self.chances

    @property
    def unknown(self) -> Fraction:
        """The chance of the ends not worked out (cut, or a table not printed)."""
        return sum((p for k, p in self.chances.items() if isinstance(k, Unknown)), Fraction(0))


def absorb(
    start: Mapping[S, Fraction],
    step: Callable[[S], Mapping[S, Fraction] | Weighted[S] | None],
    end: Callable[[S], Iterable[Label]],
    *,
    split: Callable[[S], tuple[S, frozenset[Label]]] | None = None,
    tag: Callable[[S], Hashable] | None = None,
    memo: dict[S, tuple[Value, frozenset[Hashable]]] | None = None,
    most_states: int = MOST_STATES,
    seconds: float = float("inf"),
) -> Absorbed[S]:
    """The exact chance of each label at the end of the chain that starts in ``start``
    (state -> chance).

    ``step(s)`` is ``None`` for an end (no roll owed), else each next state with its chance
    (summing to 1, as ``Fraction``s or ``Weighted``; ``s`` itself may be among them); it may
    raise ``MissingTableValue`` or ``NotWorkedOut``. ``end(s)`` gives an end state's labels.

    ``split(s)`` may set apart labels a state already has for good and that change nothing
    to come (a hard point lost): ``(the state without them, them)``. The chain is then worked
    out over the states without them, and each such label is certain past its edge.
    ``tag(s)`` names what a state that is not an end does (the roll it owes): the answer says
    which tags the chain can meet. ``memo``: answers (and tags) of states from earlier chains
    of the same rules, used and added to (not by a chain that was cut)."""
    cut_up = split or _whole
    deadline = time.perf_counter() + seconds
    known: Mapping[S, tuple[Value, frozenset[Hashable]]] = memo if memo is not None else {}
    # the states met, each by its number (no state hashed again past its first meeting):
    # the state, its answer and tags once known, and its next states once rolled
    states: list[S] = []
    ids: dict[S, int] = {}
    value: list[Value] = []
    tags: list[frozenset[Hashable]] = []
    edges: dict[int, _Edges] = {}
    terminal: list[int] = []
    todo: list[int] = []

    def number(core: S) -> int:
        """``core``'s number, met now for the first time or before; a new one is to be
        rolled unless an earlier chain knows its answer."""
        i = ids[core] = len(states)
        states.append(core)
        found = known.get(core)
        if found is None:
            value.append(_NONE)
            tags.append(_NO_TAGS)
            todo.append(i)
        else:
            value.append(found[0])
            tags.append(found[1])
        return i

    start_parts: dict[tuple[int, frozenset[Label]], Fraction] = {}
    for s0, p in start.items():
        core, certain = cut_up(s0)
        i = ids.get(core)
        key = (number(core) if i is None else i, certain)
        start_parts[key] = start_parts.get(key, Fraction(0)) + p
    #: each next state met, as (its number without the labels set apart, those labels)
    parts_of: dict[S, tuple[int, frozenset[Label]]] = {}
    while todo:
        i = todo.pop()
        s = states[i]
        if len(edges) + len(terminal) >= most_states or time.perf_counter() > deadline:
            value[i] = ({CUT: 1}, 1)
            terminal.append(i)
            continue
        try:
            nxt = step(s)
        except MissingTableValue as e:
            nxt, value[i] = None, ({Unknown(f"{e.table} ({e.cell})"): 1}, 1)
        except NotWorkedOut as e:
            nxt, value[i] = None, ({Unknown(str(e)): 1}, 1)
        else:
            if nxt is None:
                value[i] = (dict.fromkeys(end(s), 1), 1)
        if nxt is None:
            terminal.append(i)
            continue
        w = nxt if isinstance(nxt, Weighted) else _weighted(nxt)
        parts: dict[tuple[int, frozenset[Label]], int] = {}
        for t, n in w.ways.items():
            got = parts_of.get(t)
            if got is None:
                core, certain = cut_up(t)
                j = ids.get(core)
                got = parts_of[t] = (number(core) if j is None else j, certain)
            parts[got] = parts.get(got, 0) + n
        edges[i] = _Edges(tuple((j, lab, n) for (j, lab), n in parts.items()), w.den)
    for component in _components(list(edges), edges):
        _solve(component, edges, value, states)
        met = {tag(states[i]) for i in component} if tag is not None else set()
        for i in component:
            for j in edges[i].targets:
                if tags[j]:
                    met.update(tags[j])
        found = frozenset(met)
        for i in component:
            tags[i] = found
    total: dict[Label, Fraction] = {}
    for (i, certain), p in start_parts.items():
        nums, den = value[i]
        for k, n in nums.items():
            if k not in certain:
                total[k] = total.get(k, Fraction(0)) + p * Fraction(n, den)
        for k in certain:
            total[k] = total.get(k, Fraction(0)) + p
    cut = any(CUT in value[i][0] for i in terminal)
    if memo is not None and not cut:
        memo.update((states[i], (value[i], tags[i])) for i in (*edges, *terminal))
    met_all = frozenset().union(*(tags[i] for i, _ in start_parts))
    return Absorbed({k: v for k, v in total.items() if v}, len(edges) + len(terminal), met_all)


#: a state's answer and tags before they are known
_NONE: Value = ({}, 0)
_NO_TAGS: frozenset[Hashable] = frozenset()


class _Edges:
    """A state's next states (by number, without their labels set apart), those labels, and
    ways."""

    __slots__ = ("den", "parts", "targets")

    def __init__(self, parts: tuple[tuple[int, frozenset[Label], int], ...], den: int) -> None:
        self.parts = parts
        self.den = den
        #: the next states, in the order of ``parts``
        self.targets = [t for t, _, _ in parts]


def _whole(s: S) -> tuple[S, frozenset[Label]]:
    return s, frozenset()


def _weighted(dist: Mapping[S, Fraction]) -> Weighted[S]:
    den = lcm(*(Fraction(p).denominator for p in dist.values())) if dist else 1
    ways = {t: int(p * den) for t, p in dist.items()}
    if sum(ways.values()) != den:
        raise ValueError(f"a roll's chances sum to {sum(dist.values())}, not 1")
    return Weighted(ways, den)


def _components(nodes: list[int], edges: Mapping[int, _Edges]) -> list[list[int]]:
    """Tarjan's strongly connected components of the non-end states (by number), each after
    every component it leads to (so solved in the order given), without recursion."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[int, list[int]]] = [(root, [t for t in edges[root].targets if t in edges])]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            if children:
                w = children.pop()
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, [t for t in edges[w].targets if t in edges]))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                component: list[int] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                out.append(component)
    return out


def _combine(parts: list[tuple[int, Value, frozenset[Label]]], den: int) -> Value:
    """``sum(ways * value) / den`` over the parts (each label in a part's certain set counted
    as 1), as whole numbers over one denominator."""
    dens = {v[1] for _, v, _ in parts}
    common = dens.pop() if len(dens) == 1 else lcm(*dens)
    nums: dict[Label, int] = {}
    get = nums.get
    for ways, (vn, vd), certain in parts:
        scale = ways * (common // vd)
        if certain:
            for k, n in vn.items():
                if k not in certain:
                    nums[k] = get(k, 0) + scale * n
            whole = ways * common
            for k in certain:
                nums[k] = get(k, 0) + whole
        else:
            for k, n in vn.items():
                nums[k] = get(k, 0) + scale * n
    den *= common
    g = gcd(den, *nums.values())
    if g > 1:
        return {k: n // g for k, n in nums.items() if n}, den // g
    return {k: n for k, n in nums.items() if n}, den


def _solve(
    component: list[int], edges: Mapping[int, _Edges], value: list[Value], states: list[Any]
) -> None:
    """The answer of each state of one component (by number: ``states`` names them), every
    state it leads out to known."""
    if len(component) == 1:
        (s,) = component
        e = edges[s]
        stay = 0
        parts: list[tuple[int, Value, frozenset[Label]]] = []
        for t, lab, n in e.parts:
            if t == s:
                if lab:
                    raise ValueError(
                        f"a chain state leads to itself with a label set apart: {states[s]!r}"
                    )
                stay += n
            else:
                parts.append((n, value[t], lab))
        if stay == e.den:
            raise ValueError(f"a chain state leads only to itself: {states[s]!r}")
        value[s] = _combine(parts, e.den - stay)
        return
    # x_s - sum_{t inside} P[s][t] x_t = b_s, one column per label
    inside = set(component)
    n = len(component)
    at = {s: i for i, s in enumerate(component)}
    rows: list[list[Fraction]] = []
    rhs: list[dict[Label, Fraction]] = []
    for s in component:
        e = edges[s]
        row = [Fraction(0)] * n
        row[at[s]] += 1
        b: dict[Label, Fraction] = {}
        for t, lab, ways in e.parts:
            p = Fraction(ways, e.den)
            if t in inside:
                if lab:
                    raise ValueError("labels set apart inside a cycle of chain states")
                row[at[t]] -= p
            else:
                vn, vd = value[t]
                for k, m in vn.items():
                    if k not in lab:
                        b[k] = b.get(k, Fraction(0)) + p * Fraction(m, vd)
                for k in lab:
                    b[k] = b.get(k, Fraction(0)) + p
        rows.append(row)
        rhs.append(b)
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            raise ValueError(f"chain states that never end: {[states[s] for s in component]!r}")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
        lead = rows[col][col]
        if lead != 1:
            rows[col] = [x / lead for x in rows[col]]
            rhs[col] = {k: v / lead for k, v in rhs[col].items()}
        for r in range(n):
            f = rows[r][col]
            if r != col and f:
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[col], strict=True)]
                for k, v in rhs[col].items():
                    rhs[r][k] = rhs[r].get(k, Fraction(0)) - f * v
    for s in component:
        answer = {k: v for k, v in rhs[at[s]].items() if v}
        den = lcm(*(v.denominator for v in answer.values())) if answer else 1
        value[s] = ({k: int(v * den) for k, v in answer.items()}, den)
