"""The Advanced Air Force card: sample catalogue, validation, printed card blocks."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w
from aaf_helpers import apply, game
from pydantic import ValidationError

from app.core.data import load_catalogue, read_toml
from app.core.dice import TableDice
from app.core.errors import DataFileError, RuleViolation
from app.core.ruleset import KeyValues, Table, Track
from rulesets.advanced_air_force import RULESET
from rulesets.advanced_air_force.card import AIRCRAFT_DIR, Card


def test_every_shipped_aircraft_is_a_marked_sample() -> None:
    cat = RULESET.aircraft
    assert set(cat) == {"spitfire_sample", "p47_sample", "bf110_sample", "b17_sample"}
    for card in cat.values():
        assert isinstance(card, Card)
        assert card.sample and "sample" in card.name.lower()


def test_rule_24_e_hit_rule_by_engines_and_named_types() -> None:
    rules = {k: Card.model_validate(v.model_dump()).e_hit_rule for k, v in RULESET.aircraft.items()}
    assert rules == {
        "spitfire_sample": "single_engine",
        "bf110_sample": "twin_engine",
        "p47_sample": "p_47_group",
        "b17_sample": None,
    }


def test_malformed_aircraft_file_names_file_and_field(tmp_path: Path) -> None:
    data = read_toml(AIRCRAFT_DIR / "spitfire_sample.toml")
    data["silhouette_modifier"] = "big"
    (tmp_path / "bad.toml").write_text(tomli_w.dumps(data))
    with pytest.raises(DataFileError) as e:
        load_catalogue(tmp_path, Card)
    assert "bad.toml" in str(e.value) and "silhouette_modifier" in str(e.value)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"hit_boxes": {"F": 1}}, "hit types"),
        ({"engine_rule": "twin_engine"}, "twin"),
        ({"stall_speed": 20}, "stall_speed"),
        ({"max_dive_speed": 5}, "max_dive_speed"),
    ],
)
def test_card_consistency_checks(change: dict[str, object], match: str) -> None:
    data = {**read_toml(AIRCRAFT_DIR / "spitfire_sample.toml"), **change}
    with pytest.raises(ValidationError, match=match):
        Card.model_validate(data)


def test_unknown_type_is_refused() -> None:
    with pytest.raises(RuleViolation, match="no aircraft type"):
        RULESET.new_aircraft("x", "X", "Blue", "zero", None, {})


def test_card_spec_shows_guns_boxes_and_losses() -> None:
    e = game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "bf110_sample"))
    gf = RULESET.procedures["gun_fire"]
    r = gf.resolve(
        gf.parse({"total_gun_factors": 8, "range_hexes": 2, "attacker": "blue", "target": "red"}),
        TableDice([5]),
        e,
    )
    e = apply(e, r)  # 2F2E on the twin-engine Bf 110
    spec = RULESET.card_spec(e.aircraft["red"], e)
    assert spec.title == "Bf 110 (sample)"
    data = next(b for b in spec.blocks if isinstance(b, KeyValues))
    values = dict(data.items)
    assert values["Power factors"] == "1 (card 2, -1)"
    assert values["Max. level speed"] == "9 (card 10, -1)"
    guns = next(b for b in spec.blocks if isinstance(b, Table))
    assert [row[1] for row in guns.rows] == ["FH", "F"]
    tracks = {b.title: b for b in spec.blocks if isinstance(b, Track)}
    assert (tracks["F hits"].total, tracks["F hits"].used) == (8, 2)
    assert (tracks["E hits"].total, tracks["E hits"].used) == (4, 2)
    assert tracks["Ammunition (fire resolutions)"].total == 6
