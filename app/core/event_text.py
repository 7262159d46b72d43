"""One line of text for one event, as a ruling lists what an action caused (issue 34).

Aircraft are said by their names (an id in a state value too); long values are cut short.
Pure Python: no Qt, no store.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from app.core.events import (
    AircraftAdded,
    AircraftRemoved,
    AttributesSet,
    ClockSet,
    CriticalHit,
    DamageTaken,
    Event,
    GameAttributesSet,
    GameCreated,
    InitiativeSet,
    LedgerAdded,
    LedgerChanged,
    LedgerLimitChanged,
    PositionSet,
    StatusChanged,
)
from app.core.text import shown

__all__ = ["PRIVATE_EVENTS", "event_text", "kind_title", "said"]

#: the events the Player display never shows: the umpire's records of positions and state
PRIVATE_EVENTS = (PositionSet, AttributesSet, GameAttributesSet)


def said(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, list | tuple):
        return ", ".join(said(v) for v in value)
    return str(value)


def kind_title(ev: Event) -> str:
    return ev.kind.replace("_", " ").capitalize()


def event_text(ev: Event, names: Mapping[str, str]) -> str:
    """What ``ev`` did, in one line."""
    aircraft = ev.__dict__.get("aircraft")
    who = names.get(aircraft, aircraft) if isinstance(aircraft, str) else ""
    text: str
    if isinstance(ev, LedgerChanged):
        why = f" ({shown(ev.reason)})" if ev.reason else ""  # an older file's: escaped
        text = f"{who}: {ev.ledger} {_signed(ev.delta)}{why}"
    elif isinstance(ev, LedgerAdded):
        why = f" ({shown(ev.reason)})" if ev.reason else ""
        text = f"{who}: {ev.ledger} starts at {ev.value}{why}"
    elif isinstance(ev, LedgerLimitChanged):
        text = f"{who}: {ev.ledger} at most {ev.maximum}"
    elif isinstance(ev, DamageTaken):
        parts = [f"{ev.points} damage"] if ev.points else []
        parts += [f"{box} {n:+d}" for box, n in ev.boxes.items()]
        src = f" from {names.get(ev.source, ev.source)}" if ev.source else ""
        text = f"{who}: {', '.join(parts) or 'no damage'}{src}"
    elif isinstance(ev, CriticalHit):
        roll = f"roll {ev.roll}: " if ev.roll is not None else ""
        effect = f" — {ev.effect}" if ev.effect else ""
        rule = f" ({ev.rule})" if ev.rule else ""
        text = f"{who}: critical hit, {roll}{ev.result}{effect}{rule}"
    elif isinstance(ev, StatusChanged):
        parts = [f"now {', '.join(ev.set)}"] if ev.set else []
        parts += [f"no longer {', '.join(ev.cleared)}"] if ev.cleared else []
        text = f"{who}: {'; '.join(parts)}"
    elif isinstance(ev, AttributesSet):
        text = f"{who}: " + ", ".join(f"{k} = {_brief(v, names)}" for k, v in ev.values.items())
    elif isinstance(ev, GameAttributesSet):
        text = "game: " + ", ".join(f"{k} = {_brief(v, names)}" for k, v in ev.values.items())
    elif isinstance(ev, PositionSet):
        text = (
            f"{who}: taken off the board"
            if ev.x is None
            else f"{who}: at ({ev.x:g}, {ev.y:g}) facing {ev.facing}, altitude {ev.altitude}"
        )
    elif isinstance(ev, AircraftAdded):
        printed = ev.card.get("name")  # the card's printed name, as the Roster says it
        text = f"{ev.name} ({printed if isinstance(printed, str) else ev.type_id}, {ev.side}) added"
    elif isinstance(ev, AircraftRemoved):
        text = f"{who}: removed"
    elif isinstance(ev, InitiativeSet):
        order = ", ".join(names.get(o, o) for o in ev.order)
        text = f"initiative order: {order}"
    elif isinstance(ev, ClockSet):
        text = f"turn {ev.turn}, step {ev.step + 1}"
    elif isinstance(ev, GameCreated):
        text = f"game created: {ev.title}"
    else:
        text = kind_title(ev)
    return text


def _signed(value: Fraction) -> str:
    v = Fraction(value)
    shown = str(v.numerator) if v.denominator == 1 else f"{float(v):g}"
    return shown if v < 0 else f"+{shown}"


def _brief(value: Any, names: Mapping[str, str]) -> str:
    """A state value in a line: an aircraft's id said as its name, a long value cut short."""
    if isinstance(value, str) and value in names:
        return names[value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = [names.get(v, v) for v in value]
    text = said(value) if not isinstance(value, dict) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."
