"""A small stand-in for GameSession: fold a procedure's events into an engagement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.events import ClockSet, Event
from app.core.ruleset import Resolution
from rulesets.ufo_interception import RULESET


def fold(e: Engagement, events: Sequence[Event]) -> Engagement:
    for ev in events:
        e = e.apply(ev, e.seq + 1)
    return e


def game(*pieces: tuple[str, str, Mapping[str, Any]]) -> Engagement:
    """An engagement with ``(name, type_id, details)`` pieces; ids are the names lower-cased."""
    e = Engagement(ruleset="ufo_interception")
    for name, type_id, details in pieces:
        side = "Red" if "ufo" in type_id else "Blue"
        ev = RULESET.new_aircraft(name.lower(), name, side, type_id, None, details)
        e = fold(e, [ev])
    return e


def standard() -> Engagement:
    """Two Tornados (reactions 2 and 1) against a Small UFO."""
    return game(
        ("Blue1", "tornado", {"reaction": 2}),
        ("Blue2", "tornado", {"reaction": 1}),
        ("Saucer", "small_ufo", {}),
    )


def at(e: Engagement, step: int, turn: int | None = None) -> Engagement:
    return fold(e, [ClockSet(turn=e.turn if turn is None else turn, step=step)])


def perform(
    e: Engagement,
    procedure: str,
    inputs: Mapping[str, Any],
    dice: Sequence[int] = (),
    variants: Sequence[str] = (),
) -> tuple[Engagement, Resolution]:
    """Validate, resolve with the typed ``dice`` (under the game's ``variants``), and fold, as
    the session does."""
    proc = (RULESET.bind(variants) if variants else RULESET).procedures[procedure]
    source = TableDice(list(dice))
    res = proc.resolve(proc.parse(inputs), source, e)
    assert source.unused == [], f"unused dice {source.unused}"
    return fold(e, res.events), res
