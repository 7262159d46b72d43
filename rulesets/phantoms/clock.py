"""Shared pieces of the Phantoms procedures: the d10, aircraft state helpers, and
the sequence-of-play clock (3.0)."""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import Event, GameAttributesSet, StatusChanged
from app.core.procedure import Draft
from rulesets.phantoms.state import Loss, game_of, state_of

D10 = "d10"

#: 3.0 Impulse Phase segments, in order
SEGMENTS: tuple[tuple[str, str, str], ...] = (
    ("a", "Movement", "6.0"),
    ("b", "Fire check", "9.0"),
    ("c", "Afterburner", "6.5"),
    ("d", "Spotting (optional)", "13.0"),
    ("e", "Missile impact", "7.1.3"),
    ("f", "Gun", "7.2"),
    ("g", "Break lock / missile launch", "7.1.1c, 7.1.2"),
    ("h", "Radar lock", "7.1.1b"),
    ("i", "Maneuver marking", "6.1"),
    ("j", "Impulse end", "3.0"),
)
PRE_IMPULSE_STEPS = 2  # Set Speed Phase, Break-Off Check Phase
IMPULSES = 10


def clock_of(step: int) -> tuple[int | None, str | None]:
    """(impulse 1-10, segment letter) of a step index; (None, None) before the impulses."""
    if step < PRE_IMPULSE_STEPS:
        return None, None
    i = step - PRE_IMPULSE_STEPS
    return i // len(SEGMENTS) + 1, SEGMENTS[i % len(SEGMENTS)][0]


def step_of(impulse: int, segment: str) -> int:
    """The step index of an impulse's segment."""
    letters = [s[0] for s in SEGMENTS]
    return PRE_IMPULSE_STEPS + (impulse - 1) * len(SEGMENTS) + letters.index(segment)


def absolute_impulse(turn: int, impulse: int) -> int:
    """Impulses counted from the start of the game (turn 1 impulse 1 = 1)."""
    return (turn - 1) * IMPULSES + impulse


def now_impulse(engagement: Engagement) -> int | None:
    """The current impulse counted from the start of the game, or None between impulses."""
    impulse, _ = clock_of(engagement.step)
    return None if impulse is None else absolute_impulse(engagement.turn, impulse)


def pilot_of(a: AircraftState) -> str:
    return a.pilot or "average"


def maneuver_now(engagement: Engagement, a: AircraftState) -> str | None:
    """The maneuver an aircraft is flying this impulse: its marker's kind, or the one it
    completed in this impulse's movement ("just did", 7.1.3; the same reading for the firing
    aircraft's -3/-1 of 7.2 unless ``maneuver_ends_at_marker``)."""
    st = state_of(a)
    kind = st.maneuver.kind if st.maneuver is not None else None
    if kind is None and st.completed_at == now_impulse(engagement):
        kind = st.last_maneuver
    return kind


def is_loaded(a: AircraftState) -> bool:
    """11.0: carrying stores (not jettisoned) or damage beyond the maximum (8.0)."""
    return (
        Status.LOADED in a.status
        or state_of(a).stores
        or (a.max_damage is not None and a.damage > a.max_damage)
    )


def engine_damaged(a: AircraftState) -> bool:
    return Status.ENGINE_DAMAGED in a.status


def subject(draft: Draft, aircraft_id: str | None, choose: str) -> AircraftState | None:
    """The aircraft a procedure acts on. ``None`` in a what-if (an engagement without
    aircraft: the odds before a choice); refused in a game when none is chosen."""
    if aircraft_id:
        return draft.get(aircraft_id)
    if draft.engagement.aircraft:
        raise RuleViolation(f"choose {choose}")
    return None


def in_play(a: AircraftState) -> None:
    if not a.in_play:
        raise RuleViolation(f"{a.name} is out of the game")


def other_sides(engagement: Engagement, side: str) -> list[str]:
    return [s for s in engagement.sides if s != side]


def loss_events(
    engagement: Engagement, a: AircraftState, flags: tuple[str, ...], cause: str
) -> list[Event]:
    """The aircraft is lost: its status flags, and a kill credited to the other side (6.4.3)."""
    game = game_of(engagement)
    others = other_sides(engagement, a.side)
    credit = others[0] if len(others) == 1 else f"enemies of {a.side}"
    kills = {**game.kills, credit: game.kills.get(credit, 0) + 1}
    log = [*game.losses, Loss(aircraft=a.id, cause=cause, credited=credit)]
    return [
        StatusChanged(aircraft=a.id, set=flags),
        GameAttributesSet(values={"kills": kills, "losses": [x.model_dump() for x in log]}),
    ]
