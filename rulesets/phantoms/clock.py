"""The sequence-of-play clock (3.0): a turn's steps are the Set Speed and Break-Off Check
Phases, then ten impulses of segments a-j; a step index reads as (impulse, segment), and
impulses are counted from the start of the game for missiles in flight and maneuvers."""

from __future__ import annotations

from app.core.engagement import Engagement

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
