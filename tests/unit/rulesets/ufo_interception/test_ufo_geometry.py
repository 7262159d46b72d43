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


def test_forward_arc_width_filled_in_decides_the_cannon_box(_user_data: object) -> None:
    """UFO rules, Firing: "Cannon. Range 6 inches, forward arc of aircraft" -- the width is not
    printed; once the umpire fills it in (test value 90 degrees) the board says whether the
    target is inside (45 degrees off the nose: the edge, inside) and fills the cannon's box."""
    from app.core.data import save_override
    from app.core.ruleset import Piece
    from rulesets.ufo_interception.geometry import InchesGeometry

    geo = InchesGeometry()
    jet = Piece(0, 0, 0)
    edge, wide = Piece(3, 3, 180), Piece(0, 4, 180)
    assert "in_forward_arc" not in geo.relate(edge, jet).readings
    save_override("ufo_interception", "arcs", {"cannon_forward_arc_degrees": 90})
    assert geo.relate(edge, jet).readings["in_forward_arc"] is True
    assert geo.relate(wide, jet).readings["in_forward_arc"] is False
    assert dict(geo.relate(wide, jet).lines)["Cannon forward arc"] == "target outside"
