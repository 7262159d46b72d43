"""Fixtures for the Phantoms tests: an engagement built from the ruleset's own events."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.events import ClockSet, Event
from app.core.ruleset import Resolution
from rulesets.phantoms import RULESET
from rulesets.phantoms.ruleset import Phantoms


class Game:
    """A tiny stand-in for the session: resolve, apply, keep the state."""

    def __init__(self, variants: Sequence[str] = ()) -> None:
        self.rs: Phantoms = RULESET.bind(variants)  # type: ignore[assignment]
        self.e = Engagement(ruleset="phantoms", variants=tuple(variants))

    def apply(self, events: Iterable[Event]) -> None:
        for ev in events:
            self.e = self.e.apply(ev, self.e.seq + 1)

    def add(self, aid: str, side: str, type_id: str, pilot: str = "average", **details: Any) -> str:
        self.apply([self.rs.new_aircraft(aid, aid, side, type_id, pilot, details)])
        return aid

    def do(self, pid: str, inputs: dict[str, Any], dice: Sequence[int] = ()) -> Resolution:
        proc = self.rs.procedures[pid]
        r = proc.resolve(proc.parse(inputs), TableDice(list(dice)), self.e)
        self.apply(r.events)
        return r

    def clock(self, turn: int, step: int) -> None:
        """Advance like the session does: set the clock, then the ruleset's automatic events."""
        self.apply([ClockSet(turn=turn, step=step)])
        self.apply(self.rs.on_clock(self.e, turn, step))

    def a(self, aid: str) -> Any:
        return self.e.get(aid)


@pytest.fixture
def game() -> Callable[..., Game]:
    return Game
