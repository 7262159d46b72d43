"""Phantoms on the board (issue 18): range = hexes apart + altitude difference (7.1.1b), read
off the positions and filling the forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.core.ruleset import Piece
from app.session import GameSession
from rulesets.phantoms.geometry import PhantomsGeometry, board_range


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
            s.place(f15, 1, 0, 90, 4)  # a hex side
        with pytest.raises(RuleViolation, match="not towards a hex side"):
            s.place(f15, 0, 0, 0, 4)


def test_the_board_fills_the_radar_lock_range_and_undo_of_a_move_restores_it(tmp_path: Path):
    with GameSession.create(tmp_path / "b.airboss", "phantoms", "Board") as s:
        f15 = s.add_aircraft("USAF", "f15c", "Eagle", altitude=4)
        mig = s.add_aircraft("VPAF", "mig21", "Fishbed", altitude=1)
        s.place(f15, 0, 0, 90, 4)
        s.place(mig, 0, 3, 270, 1)
        assert s.board_readings({"attacker": f15, "target": mig})["range_hexes"] == 6
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
        s.place(mig, 0, 1, 270, 1)
        assert s.board_readings({"attacker": f15, "target": mig})["range_hexes"] == 4
        s.undo()
        assert s.board_readings({"attacker": f15, "target": mig})["range_hexes"] == 6
