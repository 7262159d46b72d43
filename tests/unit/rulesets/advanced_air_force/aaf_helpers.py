"""Helpers for the Advanced Air Force tests: a projection built from events, as a session would."""

from __future__ import annotations

from collections.abc import Iterable

from app.core.engagement import Engagement
from app.core.events import ClockSet, Event, GameCreated
from app.core.ruleset import Resolution
from rulesets.advanced_air_force import RULESET


def game(*aircraft: tuple[str, str, str]) -> Engagement:
    """A game with ``(id, side, type_id)`` aircraft on the roster."""
    e = Engagement().apply(GameCreated(ruleset=RULESET.id, title="test"), 1)
    for aid, side, type_id in aircraft:
        e = e.apply(RULESET.new_aircraft(aid, aid.title(), side, type_id, None, {}), e.seq + 1)
    return e


def apply(e: Engagement, events: Iterable[Event] | Resolution) -> Engagement:
    evs = events.events if isinstance(events, Resolution) else events
    for ev in evs:
        e = e.apply(ev, e.seq + 1)
    return e


def next_turn(e: Engagement) -> Engagement:
    return e.apply(ClockSet(turn=e.turn + 1, step=0), e.seq + 1)


#: a V. Dive's inputs (test values): 1200 ft black Max. Dive, Max. Dive Sp. 16, 6 W left
VDIVE = {
    "current_speed": 6,
    "max_dive_ft": 1200,
    "max_dive_speed": 16,
    "v_dive_requirement": 2,
    "remaining_w_hits": 6,
}
