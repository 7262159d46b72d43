"""Deterministic book-keeping procedures: the umpire reads the number instead of working it out.

A calculator's odds are ``{result: 1}``; resolving it logs the result and, for an aircraft,
may record the value on its state.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.events import AttributesSet, Event
from app.core.ruleset import Procedure, Resolution


@dataclass(frozen=True)
class Result:
    """A calculator's answer: the outcome label, the narrative line, values to record."""

    label: str
    narrative: str
    values: dict[str, Any] = field(default_factory=dict)


class Calculator(Procedure):
    """A procedure without dice whose one outcome is computed from the inputs."""

    @abstractmethod
    def compute(self, inputs: Any, engagement: Engagement | None) -> Result:
        """The result; ``RuleViolation`` if the rules forbid what the inputs describe."""

    def odds(self, inputs: Any) -> dict[str, Fraction]:
        return {self.compute(inputs, None).label: Fraction(1)}

    def resolve(
        self, inputs: Any, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        result = self.compute(inputs, engagement)
        events: list[Event] = [self.record(inputs, [], result.label)]
        aircraft = getattr(inputs, "aircraft", None)
        if aircraft is not None and engagement is not None and result.values:
            engagement.get(aircraft)
            events.append(AttributesSet(aircraft=aircraft, values=result.values))
        return Resolution(tuple(events), f"{result.narrative} ({self.rule})", result.label)
