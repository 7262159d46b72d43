"""Inches on the table: range and bearing for the angle-off board (UFO rules, Firing)."""

from __future__ import annotations

from app.core.ruleset import Piece
from rulesets.ufo_interception import RULESET
from rulesets.ufo_interception.geometry import off_the_nose


def test_range_and_weapon_reach() -> None:
    """Cannon 6 inches, Sidewinder 12, AMRAAM 24; a ray gun loses a die per inch."""
    geo = RULESET.geometry
    assert geo is not None and geo.grid == "inches"
    rel = geo.relate(Piece(x=8, y=6), Piece(x=0, y=0, facing=0))
    lines = dict(rel.lines)
    assert lines["Range"] == "10.0 in"
    assert lines["Cannon"] == "out of range (6 in)"
    assert lines["Sidewinder"] == "in range (12 in)"
    assert lines["AMRAAM"] == "in range (24 in)"
    assert lines["Ray gun"] == "charge minus 10 dice (any direction)"
    assert rel.attack_allowed is None and "forward arc" in rel.why_not


def test_bearing_off_the_nose() -> None:
    assert off_the_nose(Piece(x=5, y=0), Piece(x=0, y=0, facing=0)) == 0
    assert off_the_nose(Piece(x=0, y=5), Piece(x=0, y=0, facing=0)) == 90
    assert off_the_nose(Piece(x=-5, y=0), Piece(x=0, y=0, facing=90)) == 90
    assert off_the_nose(Piece(x=0, y=-5), Piece(x=0, y=0, facing=90)) == -180
