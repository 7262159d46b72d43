"""The modifiers that entered a roll's number, each with its rule and its sign (issue 45).

A procedure's ``decide`` names every term it adds to a die (or to the number a die must reach)
as a ``Term``, sums them, and hands them back in its ``Decision``; ``resolve`` keeps them with
the log record, and the ruling lists them: "attacker: Ace pilot +4 (7.2)". So the logged
reckoning ("gun attack: attacker 7+13 = 20") can be rebuilt from the ruling alone: the die
that ``Term.die`` names, plus the sum of its terms. Pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Term", "by_die", "sides_total", "summed", "terms_of_record", "total", "worked"]


@dataclass(frozen=True)
class Term:
    """One modifier: what it is, its signed value as it entered the number, the rule that
    gives it, and the die it is added to (the roll's purpose, as the dice record names it;
    ``""`` for a number no die is added to)."""

    what: str
    value: int
    rule: str
    die: str = ""

    @property
    def text(self) -> str:
        return f"{self.what} {self.value:+d} ({rule_cited(self.rule)})"

    def as_record(self) -> dict[str, Any]:
        return {"what": self.what, "value": self.value, "rule": self.rule, "die": self.die}


def rule_cited(rule: str) -> str:
    """A rule as the ruling and the log cite it: a bare number is "rule 7.2"; a name ("Critical
    Hit Table #4", "rules 2, 16-21, 29", "UFO rules, Damage") stands as it is."""
    return f"rule {rule}" if rule[:1].isdigit() else rule


def total(terms: Iterable[Term]) -> int:
    return sum(t.value for t in terms)


def worked(first: int, terms: Iterable[Term]) -> str:
    """The reckoning as the log line says it: a die's face (or a number's first term) and the
    sum of the terms added to it, "7+3 = 10" ("7+0 = 7" when they cancel)."""
    rest = total(terms)
    return f"{first}{rest:+d} = {first + rest}"


def summed(terms: Sequence[Term]) -> str:
    """A number no die is added to, as the log line says it: its first term and the rest,
    "5-2 = 3"; a number of one term is that number alone."""
    if not terms:
        return "0"
    if len(terms) == 1:
        return str(terms[0].value)
    return worked(terms[0].value, terms[1:])


def sides_total(terms: Iterable[Term]) -> tuple[int, int]:
    """An opposed roll's two totals: the terms of the attacker's die (its purpose ends
    ": attacker") and those of the target's (": target")."""
    items = list(terms)
    return (
        total(t for t in items if t.die.endswith(": attacker")),
        total(t for t in items if t.die.endswith(": target")),
    )


def by_die(terms: Sequence[Term]) -> dict[str, list[Term]]:
    """The terms grouped by the die they are added to, in the order first named."""
    out: dict[str, list[Term]] = {}
    for t in terms:
        out.setdefault(t.die, []).append(t)
    return out


def terms_of_record(records: Iterable[dict[str, Any]]) -> tuple[Term, ...]:
    """The terms as the log keeps them (``ProcedureResolved.modifiers``)."""
    return tuple(
        Term(
            str(r.get("what", "")),
            int(r.get("value", 0)),
            str(r.get("rule", "")),
            str(r.get("die", "")),
        )
        for r in records
    )
