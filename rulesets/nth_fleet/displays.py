"""The Air Base Display (Nth Fleet 2.1): where each counter's air points are.

Each roster entry is one counter on one base's display; its typed state's ``tracks`` say how many
of its air points are on each of the display's three tracks (unused, CAP, used) and how many
are aloft on a mission (on the strategic display, off the base display). The ``air_points``
ledger counts the points still in service; the four numbers always add up to it. ``displays``
is what the desk's Displays panel shows: each base's display with its totals.
"""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.ruleset import CardBlock, Table
from rulesets.nth_fleet.card import Details, Track
from rulesets.nth_fleet.state import PLACES, Place, Tracks, state_of

__all__ = [
    "DISPLAY_TRACKS",
    "PLACES",
    "TRACK_TITLES",
    "Place",
    "base_display",
    "base_of",
    "base_totals",
    "displays",
    "moved",
    "place_words",
    "start_tracks",
    "tracks_of",
]

#: the three tracks of the Air Base Display (2.1), in display order
DISPLAY_TRACKS: tuple[Track, ...] = ("unused", "cap", "used")

TRACK_TITLES = {"unused": "Unused", "aloft": "Aloft", "cap": "CAP", "used": "Used"}


def tracks_of(a: AircraftState) -> Tracks:
    """Where this counter's air points are: unused, aloft, cap, used."""
    return state_of(a).tracks


def start_tracks(points: int, track: Track) -> Tracks:
    """A new counter: all its points on one track of the display (2.1)."""
    return Tracks.model_validate({track: points})


def moved(a: AircraftState, source: Place, dest: Place, points: int) -> Tracks:
    """The tracks after moving ``points`` from ``source`` to ``dest``; refused if too few."""
    if points < 0:
        raise RuleViolation("cannot move a negative number of air points")
    tracks = tracks_of(a)
    if tracks.at(source) < points:
        raise RuleViolation(
            f"{a.name} has only {tracks.at(source)} air point(s) {place_words(source)}, "
            f"not {points} (Nth Fleet 2.1)"
        )
    return tracks.moved(source, dest, points)


def place_words(place: Place) -> str:
    return "aloft" if place == "aloft" else f"on the {TRACK_TITLES[place]} track"


def base_of(a: AircraftState) -> str:
    """The air base whose display the counter is kept on (2.1)."""
    return a.typed(Details, "details").base


def base_display(engagement: Engagement) -> dict[str, dict[str, dict[str, int]]]:
    """Every base's display: base -> place -> {counter name: air points}, bases in roster order.

    Counters with no points in a place are left out of that place; ``aloft`` lists the points
    that belong to the base but are flying a mission.
    """
    out: dict[str, dict[str, dict[str, int]]] = {}
    for a in engagement.aircraft.values():
        display = out.setdefault(base_of(a), {p: {} for p in PLACES})
        tracks = tracks_of(a)
        for place in PLACES:
            n = tracks.at(place)
            if n:
                display[place][a.name] = n
    return out


def base_totals(engagement: Engagement, base: str) -> dict[str, int]:
    """The number of air points on each track of one base's display, and aloft."""
    display = base_display(engagement).get(base)
    if display is None:
        raise RuleViolation(f"there is no air base {base!r} in this game")
    return {p: sum(display[p].values()) for p in PLACES}


def displays(engagement: Engagement) -> list[CardBlock]:
    """Each base's Air Base Display (2.1): its counters' air points per track, with totals."""
    out: list[CardBlock] = []
    header = ("Counter", *(TRACK_TITLES[p] for p in PLACES))
    for base, places in base_display(engagement).items():
        names = list(dict.fromkeys(n for p in PLACES for n in places[p]))
        rows = [(n, *(str(places[p].get(n, 0)) for p in PLACES)) for n in names]
        rows.append(("Total", *(str(sum(places[p].values())) for p in PLACES)))
        out.append(Table(f"Air Base Display: {base} (2.1)", header, tuple(rows)))
    return out
