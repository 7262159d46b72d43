"""Pure helpers for hex maps of flat-topped hexes in vertical columns.

The coordinates are the map's own: ``x`` is the column number and ``y`` the position up the
column. Hex centres lie at even ``x`` with whole ``y`` and at odd ``x`` with ``y`` ending in .5;
a hex side is the midpoint of two adjacent centres (so ``(1, 0)`` is the side between
``(1, -0.5)`` and ``(1, 0.5)``). Adjacent centres are one unit apart: the physical position of
``(x, y)`` is ``(x * sqrt(3) / 2, y)``.

Directions are degrees counter-clockwise from +x. From a hex centre the directions 30, 90, 150,
210, 270 and 330 face hex sides (the neighbouring centres) and 0, 60, 120 ... face hex corners.
A piece on a hex side lies along it, so its direction is parallel to the side.

Every function here is generic to any game played on such a map; a game's own angle rules live
in its ruleset.
"""

from __future__ import annotations

import math
from typing import Literal

__all__ = [
    "HALF_SQRT3",
    "Kind",
    "bearing",
    "direction",
    "hex_distance",
    "is_centre",
    "is_side",
    "kind",
    "location_distance",
    "mirror",
    "neighbours",
    "normalize",
    "physical",
    "rotate",
    "side_directions",
    "side_hexes",
    "step",
    "valid_directions",
]

HALF_SQRT3 = math.sqrt(3) / 2
Kind = Literal["centre", "side"]
_EPS = 1e-9


def _whole(v: float) -> bool:
    return abs(v - round(v)) < _EPS


def _snap(v: float) -> float:
    """Map coordinates are quarters; snap away floating-point noise from rotations."""
    return round(v * 4) / 4


def normalize(degrees: float) -> float:
    """An angle in ``[0, 360)``."""
    d = math.fmod(degrees, 360.0)
    return d + 360.0 if d < 0 else d


def is_centre(x: float, y: float) -> bool:
    """Whether ``(x, y)`` is a hex centre."""
    if not _whole(x):
        return False
    return _whole(y) if round(x) % 2 == 0 else _whole(y - 0.5)


def side_hexes(x: float, y: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two hex centres whose midpoint is the hex side ``(x, y)``; ``ValueError`` if none."""
    candidates: list[tuple[tuple[float, float], tuple[float, float]]] = [
        ((x, y - 0.5), (x, y + 0.5)),
        ((x - 0.5, y - 0.25), (x + 0.5, y + 0.25)),
        ((x - 0.5, y + 0.25), (x + 0.5, y - 0.25)),
    ]
    for a, b in candidates:
        if is_centre(*a) and is_centre(*b):
            return a, b
    raise ValueError(f"({x}, {y}) is not a hex side")


def is_side(x: float, y: float) -> bool:
    """Whether ``(x, y)`` is the midpoint of a hex side."""
    try:
        side_hexes(x, y)
    except ValueError:
        return False
    return True


def kind(x: float, y: float) -> Kind:
    """``"centre"`` or ``"side"``; ``ValueError`` for a point that is neither."""
    if is_centre(x, y):
        return "centre"
    if is_side(x, y):
        return "side"
    raise ValueError(
        f"({x}, {y}) is neither a hex centre (even x with whole y, odd x with y ending in .5) "
        "nor a hex side (the midpoint of two adjacent centres)"
    )


def physical(x: float, y: float) -> tuple[float, float]:
    """Cartesian position, adjacent hex centres one unit apart."""
    return (x * HALF_SQRT3, y)


def direction(degrees: float) -> tuple[float, float]:
    """Unit vector of a direction in degrees counter-clockwise from +x."""
    r = math.radians(degrees)
    return (math.cos(r), math.sin(r))


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """Direction in degrees ``[0, 360)`` from the first location to the second."""
    p0, p1 = physical(x0, y0), physical(x1, y1)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    if abs(dx) < _EPS and abs(dy) < _EPS:
        raise ValueError("the two locations are the same: no bearing")
    return normalize(math.degrees(math.atan2(dy, dx)))


def side_directions(x: float, y: float) -> tuple[int, int]:
    """The two directions along the hex side ``(x, y)`` (both ends of the side)."""
    a, b = side_hexes(x, y)
    across = bearing(*a, *b)
    along = int(round(normalize(across + 90))) % 360
    return (along % 180, along % 180 + 180)


def valid_directions(x: float, y: float) -> tuple[int, ...]:
    """The facings a piece may have here: multiples of 30 in a centre, along the side on a side."""
    if kind(x, y) == "centre":
        return tuple(range(0, 360, 30))
    return side_directions(x, y)


def neighbours(x: float, y: float) -> tuple[tuple[float, float], ...]:
    """The six hex centres adjacent to the hex centre ``(x, y)``, counter-clockwise from 30."""
    if not is_centre(x, y):
        raise ValueError(f"({x}, {y}) is not a hex centre")
    return (
        (x + 1, y + 0.5),
        (x, y + 1),
        (x - 1, y + 0.5),
        (x - 1, y - 0.5),
        (x, y - 1),
        (x + 1, y - 0.5),
    )


def step(x: float, y: float, facing: int) -> tuple[float, float]:
    """The next location straight ahead: the next centre when facing a hex side, the next
    hex side or centre (half a corner-to-corner line) when facing a hex corner."""
    if facing % 30:
        raise ValueError(f"facing {facing} is not a multiple of 30 degrees")
    f = facing % 360
    if kind(x, y) == "centre" and f % 60 == 30:
        dx, dy = direction(f)
        return (_snap(x + dx / HALF_SQRT3), _snap(y + dy))
    if f % 60 == 30:
        raise ValueError(f"a piece on hex side ({x}, {y}) cannot face {f}")
    dx, dy = direction(f)
    # half the distance between two centres on a corner line: sqrt(3)/2 physically
    return (_snap(x + dx), _snap(y + dy * HALF_SQRT3))


def hex_distance(a: tuple[float, float], b: tuple[float, float]) -> int:
    """The number of hexes from centre ``a`` to centre ``b`` (0 for the same hex)."""
    for p in (a, b):
        if not is_centre(*p):
            raise ValueError(f"{p} is not a hex centre")
    dx = abs(round(b[0] - a[0]))
    dy = abs(b[1] - a[1])
    # each column step also moves half a hex up or down the column
    return int(dx + max(0, round(dy - dx / 2)))


def location_distance(a: tuple[float, float], b: tuple[float, float]) -> int:
    """Hexes between two locations (centres or sides): the nearest pair of hexes they occupy,
    and at least 1 when the locations differ. A piece on a hex side occupies both hexes."""
    if abs(a[0] - b[0]) < _EPS and abs(a[1] - b[1]) < _EPS:
        kind(*a)
        return 0

    def hexes(p: tuple[float, float]) -> tuple[tuple[float, float], ...]:
        return (p,) if kind(*p) == "centre" else side_hexes(*p)

    nearest = min(hex_distance(h, k) for h in hexes(a) for k in hexes(b))
    return max(1, nearest)


def rotate(
    x: float, y: float, sixths: int, about: tuple[float, float] = (0.0, 0.0)
) -> tuple[float, float]:
    """The location ``(x, y)`` turned by ``sixths`` x 60 degrees counter-clockwise about the
    hex centre ``about``; the grid maps onto itself."""
    if not is_centre(*about):
        raise ValueError(f"{about} is not a hex centre")
    px, py = physical(x - about[0], y - about[1])
    c, s = direction(60 * sixths)
    rx, ry = px * c - py * s, px * s + py * c
    return (_snap(rx / HALF_SQRT3 + about[0]), _snap(ry + about[1]))


def mirror(x: float, y: float) -> tuple[float, float]:
    """The location reflected in the x axis (``y`` -> ``-y``); the grid maps onto itself."""
    return (x, -y if y else 0.0)
