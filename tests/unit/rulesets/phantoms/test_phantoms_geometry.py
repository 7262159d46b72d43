"""Phantoms on the board (issue 18): range = hexes apart + altitude difference (7.1.1b), read
off the positions and filling the forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.core.ruleset import Piece
from app.session import GameSession
from rulesets.phantoms.geometry import (
    PhantomsGeometry,
    aspect,
    board_range,
    gun_position,
    in_radar_cone,
    sector,
)


def test_7_1_1b_the_texts_example_f15_at_4_and_mig21_at_1_three_hexes_away_is_range_6():
    f15 = Piece(0, 0, 90, altitude=4)
    mig = Piece(0, 3, 270, altitude=1)
    assert board_range(f15, mig) == (3, 3, 6)
    relation = PhantomsGeometry().relate(mig, f15)
    assert relation.readings["range_hexes"] == 6
    assert dict(relation.lines)["Range (7.1.1b)"] == "6 = 3 hexes + 3 levels"
    # a column over: each column step also moves half a hex
    assert board_range(Piece(0, 0, 90), Piece(2, 1, 90))[0] == 2


def test_aircraft_stand_in_hexes_facing_a_hex_side(tmp_path: Path):
    with GameSession.create(tmp_path / "b.airboss", "phantoms", "Board") as s:
        f15 = s.add_aircraft("USAF", "f15c", "Eagle")
        with pytest.raises(RuleViolation, match="not a hex centre"):
            s.roster.place(f15, 1, 0, 90, 4)  # a hex side
        with pytest.raises(RuleViolation, match="not towards a hex side"):
            s.roster.place(f15, 0, 0, 0, 4)


def test_the_board_fills_the_radar_lock_range_and_undo_of_a_move_restores_it(tmp_path: Path):
    with GameSession.create(tmp_path / "b.airboss", "phantoms", "Board") as s:
        f15 = s.add_aircraft("USAF", "f15c", "Eagle", altitude=4)
        mig = s.add_aircraft("VPAF", "mig21", "Fishbed", altitude=1)
        s.roster.place(f15, 0, 0, 90, 4)
        s.roster.place(mig, 0, 3, 270, 1)
        assert s.actions.board_readings({"attacker": f15, "target": mig})["range_hexes"] == 6
        lock = s.ruleset.procedures["radar_lock"]
        inputs = {k: v for k, v in lock.prefill(s.engagement, f15, mig).items()}
        res = s.perform("radar_lock", {**inputs, "attacker": f15, "target": mig}, TableDice([9, 1]))
        assert res.events[0].inputs["range_hexes"] == 6  # from the board, not typed
        with pytest.raises(RuleViolation, match="is not what the board says"):
            s.perform(
                "radar_lock",
                {**inputs, "attacker": f15, "target": mig, "range_hexes": 2},
                TableDice([9, 1]),
            )
        s.roster.place(mig, 0, 1, 270, 1)
        assert s.actions.board_readings({"attacker": f15, "target": mig})["range_hexes"] == 4
        s.undo()
        assert s.actions.board_readings({"attacker": f15, "target": mig})["range_hexes"] == 6


# --- the firing position and the radar cone (7.1.1a, 7.1.1b, 7.2) -------------------------------

#: a MiG at the centre facing north (90 degrees); attackers around it
MIG = Piece(0, 0, 90, altitude=2)


@pytest.mark.parametrize(
    ("x", "y", "expected", "radar"),
    [
        (0, 1, "head on", "front"),  # the hex ahead: 0 degrees off the nose
        (1, 0.5, "front quarter", "front"),  # the front-right hex row at 60 (row included)
        (2, 0, "beam", "side"),  # due east: 90 off the nose
        (1, -0.5, "rear quarter", "rear"),  # the rear-right row at 120 (row included)
        (0, -3, "dead astern", "rear"),  # three hexes straight behind
        (-2, -1, "rear quarter", "rear"),  # 150 off the nose, left side
    ],
)
def test_7_1_1a_sector_and_7_1_1b_aspect_from_the_targets_facing(
    x: float, y: float, expected: str, radar: str
) -> None:
    """The attacker's place relative to the target's facing: the hex rows at 60 and 120 off
    the nose bound the quarters (the desk's reading of the charts, which are pictures)."""
    attacker = Piece(x, y, 90, altitude=2)
    assert sector(MIG, attacker) == expected
    assert aspect(MIG, attacker) == radar


def test_7_2_gun_position_is_the_same_or_an_adjacent_hex() -> None:
    behind = Piece(0, -1, 90, altitude=2)
    assert gun_position(MIG, behind, 1, 0) == "adjacent, dead astern"
    assert gun_position(MIG, Piece(0, 0, 90), 0, 0) == "same hex, same altitude"
    assert gun_position(MIG, Piece(0, 0, 90), 0, 1) == "same hex, one level apart"
    assert gun_position(MIG, Piece(0, -2, 90), 2, 0) is None


def test_7_1_1b_radar_cone_edges_included() -> None:
    """A cone 120 degrees wide (test value) centred on the facing: the hex rows at 60 on either
    side are its edges, inside; due east of a north-facing fighter is outside."""
    f4 = Piece(0, 0, 90)
    assert in_radar_cone(f4, Piece(0, 3, 270), 120)
    assert in_radar_cone(f4, Piece(1, 0.5, 270), 120)  # on the 60-degree row
    assert not in_radar_cone(f4, Piece(2, 0, 270), 120)
    assert not in_radar_cone(f4, Piece(0, -2, 270), 120)


def test_the_board_fills_the_gun_position_number_and_the_radar_cone(
    tmp_path: Path, _user_data: Path
) -> None:
    """Once the umpire fills the Gun Firing Position Diagram and the cone's width (test
    values), the board fills the gun attack's position number and the lock's cone box; a lock
    on a target outside the cone is refused before any roll."""
    from app.core.data import save_override

    save_override(
        "phantoms",
        "positions",
        {"radar_cone": {"width_degrees": 60}, "gun": {"cells": {"adjacent, dead astern": 2}}},
    )
    with GameSession.create(tmp_path / "b.airboss", "phantoms", "Board") as s:
        f4 = s.add_aircraft("USAF", "f4e", "Olds", altitude=2)
        mig = s.add_aircraft("VPAF", "mig21", "Fishbed", altitude=2)
        s.roster.place(mig, 0, 0, 90, 2)
        s.roster.place(f4, 0, -1, 90, 2)  # right behind it, facing the same way
        said = s.actions.board_readings({"attacker": f4, "target": mig})
        assert said["gun_position"] == "adjacent, dead astern" and said["in_radar_cone"] is True
        gun = s.ruleset.procedures["gun_attack"]
        assert gun.board_inputs(said)["position_modifier"] == 2
        lock = s.ruleset.procedures["radar_lock"]
        assert lock.board_inputs(said)["in_radar_cone"] is True
        s.roster.place(f4, 2, 0, 90, 2)  # abeam, still facing north: the MiG is 90 off its nose
        beam = s.actions.board_readings({"attacker": f4, "target": mig})
        assert beam["sector"] == "beam" and beam["in_radar_cone"] is False
        inputs = {**lock.prefill(s.engagement, f4, mig), "attacker": f4, "target": mig}
        with pytest.raises(RuleViolation, match="outside the radar cone"):
            s.perform("radar_lock", inputs, TableDice([9, 1]))


def test_the_board_draws_the_firing_position_sectors_around_the_target() -> None:
    """The six sectors around a north-facing MiG, each 60 degrees, the attacker's one named as
    its sector (the beam to the right is centred on 0 degrees, due east)."""
    relation = PhantomsGeometry().relate(MIG, Piece(2, 0, 90, altitude=2))
    arcs = {name: (start, end) for name, start, end in relation.arcs}
    assert arcs["front quarter left"] == (90, 150)
    assert arcs["beam right"] == (330, 30)
    assert arcs["rear quarter left"] == (210, 270)
    assert len(arcs) == 6 and relation.readings["sector"] == "beam"


def test_6_2_movement_help_shows_where_each_maneuver_ends(tmp_path: Path) -> None:
    """6.2: from its hex, the F-4E at speed 4 (its card's Maneuver Chart, sample values: turn
    2, hard turn 2, slip 2, loop 3 hexes) ends a Straight one hex ahead, a turn at the marker
    turned one hexside, a hard turn two, a loop three; a slip moves one row over and back one
    hex (6.2.4). Loaded (11.0): one hex more, and no hard turn or loop."""
    with GameSession.create(tmp_path / "m.airboss", "phantoms", "Moves") as s:
        f4 = s.add_aircraft("USAF", "f4e", "Olds", speed=4)
        assert s.ruleset.movement_help(s.engagement, f4).ends == ()  # not on the board
        s.roster.place(f4, 0, 0, 90, 0)
        ends = {e[0]: e[1:] for e in s.ruleset.movement_help(s.engagement, f4).ends}
        assert ends["straight"] == (0, 1, 90)
        assert ends["turn left"] == (0, 2, 150) and ends["turn right"] == (0, 2, 30)
        assert ends["hard turn left"] == (0, 2, 210) and ends["hard turn right"] == (0, 2, 330)
        assert ends["slip right"] == (1, 1.5, 90) and ends["slip left"] == (-1, 1.5, 90)
        assert ends["loop"] == (0, 3, 270)
        loaded = s.add_aircraft("USAF", "f4e", "Bomb truck", speed=4, stores=True)
        s.roster.place(loaded, 4, 0, 90, 0)
        ends = {e[0]: e[1:] for e in s.ruleset.movement_help(s.engagement, loaded).ends}
        assert "loop" not in ends and "hard turn left" not in ends
        assert ends["turn left"] == (4, 3, 150)  # 2 + 1 hexes ahead
        s.perform("mark_maneuver", {"aircraft": f4, "maneuver": "turn left"})
        marked = s.ruleset.movement_help(s.engagement, f4)
        assert marked.ends == () and dict(marked.lines)["Maneuver marker (6.1)"] == (
            "turn left: 0 of 2 hexes"
        )


def test_7_1_1a_b_the_board_fills_the_missile_launchs_firing_position(
    tmp_path: Path, _user_data: Path
) -> None:
    """The launch's firing position is the board's sector off the target's facing: a
    heat-seeker's number comes from its aspect chart (7.1.1a; HW, filled with a test value,
    dead astern), a radar-guided missile's from the aspect the sector falls in (7.1.1b: "from
    target's side aspect" -2, front -3, rear 0), and a narrow-aspect missile (HN: dead astern
    and rear quarter only) cannot fire from the beam."""
    from app.core.data import save_override
    from rulesets.phantoms.missiles import launch_position_modifier

    assert launch_position_modifier("radar", "beam") == -2
    assert launch_position_modifier("radar", "head on") == -3
    assert launch_position_modifier("radar", "front quarter") == -3
    assert launch_position_modifier("radar", "dead astern") == 0
    assert launch_position_modifier("radar", "side") == -2  # typed aspects still read
    with pytest.raises(RuleViolation, match="cannot be fired from there"):
        launch_position_modifier("HN", "beam")
    save_override("phantoms", "positions", {"heat_wide": {"cells": {"dead astern": 1}}})
    with GameSession.create(tmp_path / "l.airboss", "phantoms", "Launch") as s:
        f4 = s.add_aircraft("USAF", "f4e", "Olds", altitude=2)
        mig = s.add_aircraft("VPAF", "mig21", "Fishbed", altitude=2)
        s.roster.place(mig, 0, 0, 90, 2)
        s.roster.place(f4, 0, -3, 90, 2)  # three hexes behind it, facing the same way
        said = s.actions.board_readings({"attacker": f4, "target": mig})
        launch = s.ruleset.procedures["missile_launch"]
        filled = launch.board_inputs(said)
        assert filled["position"] == "dead astern" and filled["range_hexes"] == 3
        s.perform(
            "missile_launch",
            {**filled, "attacker": f4, "target": mig, "missile": "aim9j"},
            TableDice([]),
        )
        (m,) = s.engagement.attributes["missiles_in_flight"]
        assert m["hit"] == 5 + 1  # the AIM-9J's Hit # 5 and the filled-in dead-astern number


def test_7_1_1b_the_board_draws_the_radar_cone_on_the_attackers_facing(_user_data: Path) -> None:
    """While the cone's width is missing nothing is drawn around the attacker; once the umpire
    fills it (120 degrees, a test value) the cone spans 60 either side of the facing."""
    from app.core.data import save_override
    from rulesets.phantoms.geometry import radar_cone_arc

    f4 = Piece(0, -3, 90, altitude=2)
    assert PhantomsGeometry().relate(MIG, f4).attacker_arcs == ()
    assert radar_cone_arc(Piece(0, 0, 30), 120) == ("radar cone", 330, 90)
    save_override("phantoms", "positions", {"radar_cone": {"width_degrees": 120}})
    relation = PhantomsGeometry().relate(MIG, f4)
    assert relation.attacker_arcs == (("radar cone", 30, 150),)
    assert relation.readings["in_radar_cone"] is True
