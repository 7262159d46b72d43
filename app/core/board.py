"""The board as the desk mirrors the table's map, without Qt: where a piece may stand and face
on the ruleset's grid (hex centres and sides, or free inches), and what the ruleset's geometry
reads off two aircraft that both have a position (issue 18: readings fill the forms).
"""

from __future__ import annotations

import math
from typing import Any

from app.core import hexgrid
from app.core.engagement import AircraftState, Engagement
from app.core.ruleset import Piece, Relation

#: the turn of one wheel notch or key press in a place where any facing goes
FREE_TURN = {"hex": 30, "inches": 15}


def to_physical(grid: str, x: float, y: float) -> tuple[float, float]:
    return hexgrid.physical(x, y) if grid == "hex" else (x, y)


def to_map(grid: str, px: float, py: float) -> tuple[float, float]:
    return (px / hexgrid.HALF_SQRT3, py) if grid == "hex" else (px, py)


def snap(grid: str, x: float, y: float) -> tuple[float, float]:
    """The nearest place a piece can stand: a hex centre, or a hex side when very near one."""
    if grid != "hex":
        return (round(x * 4) / 4, round(y * 4) / 4)
    px, py = hexgrid.physical(x, y)
    best: tuple[float, tuple[float, float]] | None = None
    for col in range(math.floor(x) - 1, math.floor(x) + 3):
        base = math.floor(y) if col % 2 == 0 else math.floor(y - 0.5) + 0.5
        for cy in (base - 1, base, base + 1, base + 2):
            cx_p, cy_p = hexgrid.physical(col, cy)
            d = math.hypot(cx_p - px, cy_p - py)
            if best is None or d < best[0]:
                best = (d, (float(col), float(cy)))
    assert best is not None
    centre = best[1]
    for n in hexgrid.neighbours(*centre):
        side = ((centre[0] + n[0]) / 2, (centre[1] + n[1]) / 2)
        sx, sy = hexgrid.physical(*side)
        if math.hypot(sx - px, sy - py) < 0.17:
            return side
    return centre


def facings(grid: str, x: float, y: float) -> tuple[int, ...]:
    """The facings a piece may take at ``(x, y)``, counter-clockwise from +x."""
    if grid == "hex":
        try:
            return hexgrid.valid_directions(x, y)
        except ValueError:
            return tuple(range(0, 360, 30))
    return tuple(range(0, 360, FREE_TURN["inches"]))


def nearest_facing(allowed: tuple[int, ...], facing: int) -> int:
    return min(allowed, key=lambda f: abs((f - facing + 180) % 360 - 180))


def turned(allowed: tuple[int, ...], facing: int, steps: int) -> int:
    """The facing ``steps`` allowed facings counter-clockwise (negative: clockwise)."""
    ordered = sorted(allowed)
    i = ordered.index(nearest_facing(allowed, facing))
    return ordered[(i + steps) % len(ordered)]


def piece_of(aircraft: AircraftState) -> Piece | None:
    """The aircraft as a board piece, or ``None`` while it has no position (its speed from its
    state when the ruleset keeps one)."""
    p = aircraft.position
    if p is None:
        return None
    speed = aircraft.attributes.get("speed", 0)
    speed = float(speed) if isinstance(speed, int | float) and not isinstance(speed, bool) else 0.0
    return Piece(p.x, p.y, p.facing, p.altitude, speed)


def reading(
    geometry: Any, engagement: Engagement, attacker: str | None, target: str | None
) -> Relation | None:
    """What the geometry says of ``attacker`` against ``target`` when both are on the board;
    ``None`` when the game has no geometry or either has no position."""
    if geometry is None or not attacker or not target:
        return None
    if not isinstance(attacker, str) or not isinstance(target, str):
        return None  # not aircraft ids: nothing on the board to read (issue 31)
    a, t = engagement.aircraft.get(attacker), engagement.aircraft.get(target)
    if a is None or t is None:
        return None
    pa, pt = piece_of(a), piece_of(t)
    if pa is None or pt is None:
        return None
    relation: Relation = geometry.relate(pt, pa)
    return relation
