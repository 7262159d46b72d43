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
from typing import Generic, TypeVar

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
    #: each state met as a next state, without the labels it has for good (``split``), once
    parts_of: dict[S, tuple[S, frozenset[Label]]] = {}
    start_parts: dict[tuple[S, frozenset[Label]], Fraction] = {}
    for s0, p in start.items():
        key = cut_up(s0)
        start_parts[key] = start_parts.get(key, Fraction(0)) + p
    deadline = time.perf_counter() + seconds
    known: Mapping[S, tuple[Value, frozenset[Hashable]]] = memo if memo is not None else {}
    edges: dict[S, _Edges[S]] = {}
    terminal: dict[S, Value] = {}
    order: list[S] = []
    todo = [core for core, _ in start_parts]
    while todo:
        s = todo.pop()
        if s in edges or s in terminal or s in known:
            continue
        if len(edges) + len(terminal) >= most_states or time.perf_counter() > deadline:
            terminal[s] = ({CUT: 1}, 1)
            continue
        try:
            nxt = step(s)
        except MissingTableValue as e:
            terminal[s] = ({Unknown(f"{e.table} ({e.cell})"): 1}, 1)
            continue
        except NotWorkedOut as e:
            terminal[s] = ({Unknown(str(e)): 1}, 1)
            continue
        if nxt is None:
            terminal[s] = (dict.fromkeys(end(s), 1), 1)
            continue
        w = nxt if isinstance(nxt, Weighted) else _weighted(nxt)
        parts: dict[tuple[S, frozenset[Label]], int] = {}
        for t, n in w.ways.items():
            key = parts_of.get(t)
            if key is None:
                key = parts_of[t] = cut_up(t)
            parts[key] = parts.get(key, 0) + n
        e = _Edges(tuple((c, lab, n) for (c, lab), n in parts.items()), w.den)
        edges[s] = e
        order.append(s)
        todo.extend(c for c in e.targets if c not in edges and c not in terminal)
    value: dict[S, Value] = {s: v for s, (v, _) in known.items()}
    value.update(terminal)
    tags: dict[S, frozenset[Hashable]] = {s: t for s, (_, t) in known.items()}
    tags.update((s, frozenset()) for s in terminal)
    for component in _components(order, edges):
        _solve(component, edges, value)
        met = {tag(s) for s in component} if tag is not None else set()
        for s in component:
            for t in edges[s].targets:
                got = tags.get(t)
                if got:
                    met.update(got)
        found = frozenset(met)
        for s in component:
            tags[s] = found
    total: dict[Label, Fraction] = {}
    for (core, certain), p in start_parts.items():
        nums, den = value[core]
        for k, n in nums.items():
            if k not in certain:
                total[k] = total.get(k, Fraction(0)) + p * Fraction(n, den)
        for k in certain:
            total[k] = total.get(k, Fraction(0)) + p
    cut = any(CUT in v[0] for v in terminal.values())
    if memo is not None and not cut:
        memo.update((s, (value[s], tags[s])) for s in (*edges, *terminal))
    met_all = frozenset().union(*(tags[core] for core, _ in start_parts))
    return Absorbed({k: v for k, v in total.items() if v}, len(edges) + len(terminal), met_all)


class _Edges(Generic[S]):
    """A state's next states (without their labels set apart), those labels, and ways."""

    __slots__ = ("den", "parts", "targets")

    def __init__(self, parts: tuple[tuple[S, frozenset[Label], int], ...], den: int) -> None:
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


def _components(nodes: list[S], edges: Mapping[S, _Edges[S]]) -> list[list[S]]:
    """Tarjan's strongly connected components of the non-end states, each after every
    component it leads to (so solved in the order given), without recursion."""
    index: dict[S, int] = {}
    low: dict[S, int] = {}
    on_stack: set[S] = set()
    stack: list[S] = []
    out: list[list[S]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[S, list[S]]] = [(root, [t for t in edges[root].targets if t in edges])]
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
                component: list[S] = []
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


def _solve(component: list[S], edges: Mapping[S, _Edges[S]], value: dict[S, Value]) -> None:
    """The answer of each state of one component, every state it leads out to known."""
    if len(component) == 1:
        (s,) = component
        e = edges[s]
        stay = 0
        parts: list[tuple[int, Value, frozenset[Label]]] = []
        for t, lab, n in e.parts:
            if t == s:
                if lab:
                    raise ValueError(f"a chain state leads to itself with a label set apart: {s!r}")
                stay += n
            else:
                parts.append((n, value[t], lab))
        if stay == e.den:
            raise ValueError(f"a chain state leads only to itself: {s!r}")
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
            raise ValueError(f"chain states that never end: {component!r}")
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
