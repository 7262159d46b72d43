"""app.core.hexgrid: flat-topped hexes in vertical columns (API.md "HexPosition" conventions)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core import hexgrid


def test_centres_and_sides_follow_the_map_conventions() -> None:
    assert hexgrid.is_centre(0, 0) and hexgrid.is_centre(1, 0.5) and hexgrid.is_centre(2, -3)
    assert not hexgrid.is_centre(1, 0) and not hexgrid.is_centre(0, 0.5)
    # API.md: (1, 0) is the side between (1, -0.5) and (1, 0.5); (0, 0.5) between (0,0), (0,1)
    assert hexgrid.side_hexes(1, 0) == ((1, -0.5), (1, 0.5))
    assert hexgrid.side_hexes(0, 0.5) == ((0, 0), (0, 1))
    assert set(hexgrid.side_hexes(0.5, 0.25)) == {(0, 0), (1, 0.5)}
    assert hexgrid.kind(0.5, -0.25) == "side"
    for bad in [(0.25, 0), (0, 0.25), (1, 0.25), (0.5, 0.5)]:
        with pytest.raises(ValueError):
            hexgrid.kind(*bad)


def test_facings_in_a_centre_and_along_a_side() -> None:
    assert hexgrid.valid_directions(0, 0) == tuple(range(0, 360, 30))
    assert hexgrid.valid_directions(1, 0) == (0, 180)
    assert hexgrid.valid_directions(0.5, 0.25) == (120, 300)
    assert hexgrid.valid_directions(0.5, -0.25) == (60, 240)


def test_neighbours_are_one_unit_away() -> None:
    for n in hexgrid.neighbours(0, 0):
        px, py = hexgrid.physical(*n)
        assert math.hypot(px, py) == pytest.approx(1)
        assert hexgrid.hex_distance((0, 0), n) == 1


def test_steps_forward() -> None:
    # facing a hex side: the next centre; facing a corner: the next side, then the next centre
    assert hexgrid.step(0, 0, 90) == (0, 1)
    assert hexgrid.step(0, 0, 30) == (1, 0.5)
    assert hexgrid.step(0, 0, 0) == (1, 0)
    assert hexgrid.step(1, 0, 0) == (2, 0)
    assert hexgrid.step(0, 0, 60) == (0.5, 0.75)
    with pytest.raises(ValueError):
        hexgrid.step(1, 0, 90)


def test_distances() -> None:
    assert hexgrid.hex_distance((0, 0), (0, 3)) == 3
    assert hexgrid.hex_distance((0, 0), (4, 0)) == 4
    assert hexgrid.hex_distance((0, 0), (2, 3)) == 4
    assert hexgrid.hex_distance((0, 0), (3, 0.5)) == 3
    assert hexgrid.location_distance((1, 0), (1, 0)) == 0
    assert hexgrid.location_distance((1, 0), (1, 0.5)) == 1
    assert hexgrid.location_distance((1, 0), (4, 0)) == 3
    assert hexgrid.bearing(0, 0, 2, 3) == pytest.approx(60)


centres = st.builds(
    lambda x, y: (float(x), y + (0.5 if x % 2 else 0.0)),
    st.integers(-6, 6),
    st.integers(-6, 6),
)


@settings(max_examples=60)
@given(centres, st.integers(0, 5))
def test_rotation_and_mirror_keep_the_grid(p: tuple[float, float], k: int) -> None:
    r = hexgrid.rotate(*p, k)
    assert hexgrid.is_centre(*r)
    assert hexgrid.hex_distance((0, 0), r) == hexgrid.hex_distance((0, 0), p)
    assert hexgrid.is_centre(*hexgrid.mirror(*p))
    for n in hexgrid.neighbours(*p):
        side = ((p[0] + n[0]) / 2, (p[1] + n[1]) / 2)
        assert hexgrid.is_side(*hexgrid.rotate(*side, k))
        assert hexgrid.is_side(*hexgrid.mirror(*side))
