"""The Air Base Display (Nth Fleet 2.1): where each counter's air points are.

Each roster entry is one counter on one base's display; its ``tracks`` attribute says how many
of its air points are on each of the display's three tracks (unused, CAP, used) and how many
are aloft on a mission (on the strategic display, off the base display). The ``air_points``
ledger counts the points still in service; the four numbers always add up to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation

#: the three tracks of the Air Base Display (2.1), in display order
DISPLAY_TRACKS: tuple[str, ...] = ("unused", "cap", "used")
#: every place an air point can be: the display's tracks, or aloft on a mission
PLACES: tuple[str, ...] = ("unused", "aloft", "cap", "used")
Place = Literal["unused", "aloft", "cap", "used"]

TRACK_TITLES = {"unused": "Unused", "aloft": "Aloft", "cap": "CAP", "used": "Used"}


def tracks_of(a: AircraftState) -> dict[str, int]:
    """Where this counter's air points are: unused, aloft, cap, used."""
    raw: Mapping[str, Any] = a.attributes.get("tracks", {})
    return {p: int(raw.get(p, 0)) for p in PLACES}


def start_tracks(points: int, track: str) -> dict[str, int]:
    """A new counter: all its points on one track of the display (2.1)."""
    return {p: (points if p == track else 0) for p in PLACES}


def moved(a: AircraftState, source: str, dest: str, points: int) -> dict[str, int]:
    """The tracks after moving ``points`` from ``source`` to ``dest``; refused if too few."""
    if points < 0:
        raise RuleViolation("cannot move a negative number of air points")
    tracks = tracks_of(a)
    if tracks[source] < points:
        raise RuleViolation(
            f"{a.name} has only {tracks[source]} air point(s) {place_words(source)}, "
            f"not {points} (Nth Fleet 2.1)"
        )
    tracks[source] -= points
    tracks[dest] += points
    return tracks


def place_words(place: str) -> str:
    return "aloft" if place == "aloft" else f"on the {TRACK_TITLES[place]} track"


def base_of(a: AircraftState) -> str:
    return str(a.details.get("base", ""))


def base_display(engagement: Engagement) -> dict[str, dict[str, dict[str, int]]]:
    """Every base's display: base -> place -> {counter name: air points}, bases in roster order.

    Counters with no points in a place are left out of that place; ``aloft`` lists the points
    that belong to the base but are flying a mission.
    """
    out: dict[str, dict[str, dict[str, int]]] = {}
    for a in engagement.aircraft.values():
        if "tracks" not in a.attributes:
            continue
        display = out.setdefault(base_of(a), {p: {} for p in PLACES})
        for place, n in tracks_of(a).items():
            if n:
                display[place][a.name] = n
    return out


def base_totals(engagement: Engagement, base: str) -> dict[str, int]:
    """The number of air points on each track of one base's display, and aloft."""
    display = base_display(engagement).get(base)
    if display is None:
        raise RuleViolation(f"there is no air base {base!r} in this game")
    return {p: sum(display[p].values()) for p in PLACES}
