"""The cards as the text prints them (UFO rules: Tornado, Small UFO; Damage for the sizes)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from ufo_helpers import game, standard

from app.core.data import load_catalogue
from app.core.errors import DataFileError, RuleViolation
from app.core.ruleset import KeyValues, Table
from rulesets.ufo_interception import RULESET
from rulesets.ufo_interception.card import Card, firing_initiative
from rulesets.ufo_interception.tables import DAMAGE_TABLE, DamageTable


def test_tornado_card_as_printed() -> None:
    """Tornado: Speed 8, DP 6; hit location 1 HP1 Cannon, 2-3 HP2 3 Sidewinder OOO,
    4 HP3 4 Amraam OOO +d6 DP if hit, 5-6 HP4 3 Sidewinder OOO."""
    t = RULESET.aircraft["tornado"]
    assert isinstance(t, Card)
    assert (t.kind, t.speed, t.damage_points) == ("fighter", 8, 6)
    rows = [
        (h.number, h.location, h.store, h.printed_count, h.boxes, h.extra_damage)
        for h in t.hard_points
    ]
    assert rows == [
        (1, [1], "cannon", None, 0, None),
        (2, [2, 3], "sidewinder", 3, 3, None),
        (3, [4], "amraam", 4, 3, "d6"),
        (4, [5, 6], "sidewinder", 3, 3, None),
    ]


def test_small_ufo_card_as_printed() -> None:
    """Small UFO: DP 10, Anti Grav 7, Ray Gun Power 9 Recharge d6, charge 1-9 -> 12-4."""
    u = RULESET.aircraft["small_ufo"]
    assert isinstance(u, Card)
    assert (u.kind, u.damage_points, u.anti_grav) == ("ufo", 10, 7)
    assert not isinstance(u.ray_guns, str)
    (gun,) = u.ray_guns
    assert (gun.power, gun.recharge_dice) == (9, 1)
    assert gun.initiative == {c: 13 - c for c in range(1, 10)}
    assert [firing_initiative(gun, c) for c in range(1, 10)] == [12, 11, 10, 9, 8, 7, 6, 5, 4]


def test_medium_and_large_ufo_from_damage_points() -> None:
    """Damage: Medium UFO 15DP, Large UFO 20DP; the text gives nothing else for them."""
    for type_id, dp in (("medium_ufo", 15), ("large_ufo", 20)):
        c = RULESET.aircraft[type_id]
        assert isinstance(c, Card)
        assert c.damage_points == dp and c.sample
        # not printed: marked missing, asked for at the UFO's first move (anti-grav) or said
        # on its firing line (ray guns)
        assert not isinstance(c.anti_grav, int) and isinstance(c.ray_guns, str)
    e = game(("Big", "large_ufo", {}))
    big = e.aircraft["big"]
    assert big.max_damage == 20
    assert set(big.ledgers) == {"max_speed"}


def test_starting_ledgers() -> None:
    """Damage points by type 6/10; missiles per hard point; ray guns start fully charged."""
    e = standard()
    b = e.aircraft["blue1"]
    assert b.max_damage == 6
    assert {k: v.value for k, v in b.ledgers.items()} == {
        "max_speed": 8,
        "hard_point_2": 3,
        "hard_point_3": 3,
        "hard_point_4": 3,
    }
    assert b.attributes["speed"] == 8 and b.details["reaction"] == 2
    u = e.aircraft["saucer"]
    assert u.max_damage == 10
    assert {k: v.value for k, v in u.ledgers.items()} == {
        "max_speed": 6,
        "anti_grav": 7,
        "ray_gun_1": 9,
    }


def test_four_amraam_variant_reads_the_printed_4() -> None:
    """The Tornado prints "4 Amraam" beside three boxes; a variant takes the 4."""
    rs = RULESET.bind(["four_amraam"])
    ev = rs.new_aircraft("t", "T", "Blue", "tornado", None, {})
    assert ev.ledgers["hard_point_3"] == Fraction(4)


def test_details_and_pilot() -> None:
    """Pilot reaction is a per-aircraft detail; there is no pilot quality."""
    assert RULESET.uses_pilot_quality is False
    assert RULESET.initiative_by == "aircraft"
    ev = RULESET.new_aircraft("t", "T", "Blue", "tornado", "ace", {"reaction": 3, "speed": 6})
    assert ev.pilot is None and ev.details == {"reaction": 3, "speed": 6}
    assert ev.attributes["speed"] == 6
    with pytest.raises(RuleViolation, match="reaction"):
        RULESET.new_aircraft("t", "T", "Blue", "tornado", None, {"reaction": -1})
    with pytest.raises(RuleViolation):
        RULESET.new_aircraft("t", "T", "Blue", "tornado", None, {"skill": 3})


def test_malformed_card_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text('name = "X"\nkind = "ufo"\nspeed = 6\ndamage_points = "ten"\nanti_grav = 3\n')
    with pytest.raises(DataFileError, match=r"broken\.toml.*damage_points"):
        load_catalogue(tmp_path, Card)
    bad.write_text(
        'name = "X"\nkind = "fighter"\nspeed = 8\ndamage_points = 6\n'
        '[[hard_points]]\nnumber = 1\nlocation = [1, 2]\nstore = "cannon"\n'
    )
    with pytest.raises(DataFileError, match="each d6 face"):
        load_catalogue(tmp_path, Card)


def test_malformed_damage_table_names_file_and_field(tmp_path: Path) -> None:
    from app.core.data import load_table

    text = DAMAGE_TABLE.read_text().replace('dp = "2d6"', 'dp = "3d6"')
    bad = tmp_path / "damage_table.toml"
    bad.write_text(text)
    with pytest.raises(DataFileError, match=r"damage_table\.toml.*rows\.10\.ufo\.dp"):
        load_table("ufo_interception", bad, DamageTable)
    assert RULESET.table_files()["damage_table"] == DAMAGE_TABLE


def test_card_spec_shows_the_printed_card() -> None:
    e = standard()
    spec = RULESET.card_spec(e.aircraft["blue1"], e)
    assert spec.title == "Tornado"
    table = next(b for b in spec.blocks if isinstance(b, Table))
    assert table.rows[2] == ("4", "Hard Point 3", "4 AMRAAM", "+d6 DP if hit")
    spec = RULESET.card_spec(e.aircraft["saucer"], e)
    gun = next(b for b in spec.blocks if isinstance(b, Table))
    assert gun.rows == (("Initiative", "12", "11", "10", "9", "8", "7", "6", "5", "4"),)
    data = next(b for b in spec.blocks if isinstance(b, KeyValues))
    assert ("Anti Grav", "7") in data.items and ("DP", "10") in data.items
