"""Advanced Air Force on the board (issue 18): hexes apart, altitude difference in feet and
the attacker's clock position on the target (rule 12's High Deflection at 2, 4, 8, 10)."""

from __future__ import annotations

from pathlib import Path

from app.core.ruleset import Piece
from app.session import GameSession
from rulesets.advanced_air_force.geometry import AdvancedAirForceGeometry, clock


def test_the_clock_of_the_attacker_on_the_target():
    nose_up = Piece(0, 0, 90)  # the target flies towards +y
    at = {p: clock(nose_up, Piece(*p)) for p in [(0, 2), (2, 1), (2, 0), (2, -1), (0, -2), (-2, 0)]}
    assert at == {(0, 2): 12, (2, 1): 2, (2, 0): 3, (2, -1): 4, (0, -2): 6, (-2, 0): 9}


def test_high_deflection_is_said_and_the_readings_fill_gun_range_and_gun_fire(tmp_path: Path):
    rel = AdvancedAirForceGeometry().relate(Piece(0, 0, 90, 9000), Piece(2, 1, 90, 9300))
    assert rel.readings == {
        "horizontal_hexes": 2,
        "altitude_difference_ft": -300,
        "target_clock": 2,
        "target_straight_ahead": False,
        "target_at_12_oclock": False,
    }
    assert dict(rel.lines)["Attacker at the target's"] == "2 o'clock (High Deflection, rule 12)"
    with GameSession.create(tmp_path / "b.airboss", "advanced_air_force", "Board") as s:
        spit = s.add_aircraft("Blue", "spitfire_sample", "Spit")
        bf = s.add_aircraft("Red", "bf110_sample", "Bf 110")
        s.roster.place(bf, 0, 0, 90, 9000)
        s.roster.place(spit, 2, 1, 90, 9300)
        said = s.actions.board_readings({"attacker": spit, "target": bf})
        assert said["target_clock"] == 2 and said["horizontal_hexes"] == 2
        res = s.perform("gun_range", {"attacker": spit, "target": bf})  # nothing typed
        assert res.events[0].inputs["horizontal_hexes"] == 2
        assert res.events[0].inputs["altitude_difference_ft"] == -300


def test_the_board_draws_the_twelve_clock_positions_around_the_target() -> None:
    """Rule 12's clock: twelve 30-degree sectors centred on the hours, 12 dead ahead of a
    north-facing target (75 to 105 degrees), 3 o'clock to its right (345 to 15)."""
    from rulesets.advanced_air_force.geometry import clock_arcs

    arcs = {name: (start, end) for name, start, end in clock_arcs(Piece(0, 0, 90))}
    assert arcs["12"] == (75, 105) and arcs["3"] == (345, 15) and len(arcs) == 12


def test_the_board_reads_a_target_straight_ahead_for_fixed_guns() -> None:
    """Rule 2: fixed guns need the target "directly ahead in a straight path of hexes" (or in
    the 12 o'clock): read off the board for the gunfire form."""
    geo = AdvancedAirForceGeometry()
    target = Piece(0, 0, 90, 9000)
    behind = geo.relate(target, Piece(0, -2, 90, 9000)).readings  # two hexes astern, nose on
    assert behind["target_straight_ahead"] and behind["target_at_12_oclock"]
    assert behind["target_clock"] == 6
    aside = geo.relate(target, Piece(0, -2, 30, 9000)).readings  # astern, turned away
    assert not aside["target_straight_ahead"] and not aside["target_at_12_oclock"]
    corner = geo.relate(Piece(2, 0, 90), Piece(0, 0, 0)).readings  # a corner line of hexes
    assert corner["target_straight_ahead"]
