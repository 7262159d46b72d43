"""Nth Fleet data files: the air-to-air attack table (2.9), Defence Value Table (2.8),
attack value exceptions (2.6) and the aircraft catalogue (2.1, 2.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.data import catalogue_problems, save_override, user_data_dir
from app.core.errors import DataFileError, MissingTableValue
from rulesets.nth_fleet import RULESET
from rulesets.nth_fleet.card import catalogue
from rulesets.nth_fleet.tables import attack_exceptions, attack_table, defence_table


def test_2_9_only_the_printed_cells_are_shipped() -> None:
    """Nth Fleet 2.9: the text prints roll 5 on the 40 column (10) and 50 column (11)."""
    t = attack_table()
    assert t.columns == [40, 50]
    assert t.damage(40, 5) == 10
    assert t.damage(50, 5) == 11
    for column in (40, 50):
        for roll in range(11):
            if roll == 5:
                continue
            with pytest.raises(MissingTableValue) as e:
                t.damage(column, roll)
            assert e.value.cell == f"column {column}, roll {roll}"
            assert e.value.rule == "Nth Fleet 2.9"


def test_2_9_columns_below_40_are_missing() -> None:
    """Nth Fleet 2.9: totals under 40 need column headings the text does not print."""
    with pytest.raises(MissingTableValue) as e:
        attack_table().split(39)
    assert "below 40" in e.value.cell


def test_2_8_every_defence_value_is_missing() -> None:
    """Nth Fleet 2.8: the Defence Value Table is not printed, nor are umpire-added types."""
    t = defence_table()
    assert set(t.values) == set(catalogue())
    for type_id, card in catalogue().items():
        with pytest.raises(MissingTableValue, match="Defence Value Table"):
            t.defence(type_id, card.name)
    with pytest.raises(MissingTableValue, match="Kfir"):
        t.defence("kfir", "Kfir")


def test_2_6_attack_value_exceptions() -> None:
    """Nth Fleet 2.6: F15c 14, Tornado-F 13, matched however the card spells the name."""
    e = attack_exceptions()
    assert e.for_name("F-15C") == 14
    assert e.for_name("f15c") == 14
    assert e.for_name("Tornado-F") == 13
    assert e.for_name("Tornado F") == 13
    assert e.for_name("F-14A") is None


def test_umpire_values_fill_missing_cells() -> None:
    """The umpire's values are saved as an override and merged over the shipped file."""
    save_override("nth_fleet", "air_to_air_attack", {"cells": {"40": {"6": 12}}})
    save_override("nth_fleet", "defence_values", {"values": {"f15c": 5}})
    assert attack_table().damage(40, 6) == 12
    assert attack_table().damage(40, 5) == 10
    assert defence_table().defence("f15c", "F-15C") == 5


def test_malformed_table_names_file_and_field() -> None:
    save_override("nth_fleet", "air_to_air_attack", {"cells": {"40": {"5": -3}}})
    with pytest.raises(DataFileError) as e:
        attack_table()
    assert "air_to_air_attack.toml" in str(e.value)
    assert "cells.40.5" in str(e.value)


def test_malformed_lower_columns_and_unknown_rows_are_refused() -> None:
    save_override("nth_fleet", "air_to_air_attack", {"lower_columns": [10, 45]})
    with pytest.raises(DataFileError, match="below 40"):
        attack_table()
    save_override("nth_fleet", "air_to_air_attack", {"lower_columns": [10], "cells": {"60": {}}})
    with pytest.raises(DataFileError, match="not a column"):
        attack_table()


def test_malformed_defence_value_names_the_type() -> None:
    save_override("nth_fleet", "defence_values", {"values": {"mig29": 0}})
    with pytest.raises(DataFileError, match="values.mig29"):
        defence_table()


def test_catalogue_is_sample_data() -> None:
    cards = catalogue()
    assert cards
    assert all(c.sample for c in cards.values())
    assert cards["e2c"].unit_sides == 1
    assert cards["f15c"].unit_sides == 2


def test_malformed_aircraft_file_names_file_and_field() -> None:
    """A bad file of the umpire's is left out and named, file and field (issue 16); the
    shipped types stay."""
    d = user_data_dir() / "aircraft" / "nth_fleet"
    d.mkdir(parents=True)
    (d / "kfir.toml").write_text('name = "Kfir"\nrole = "fighter"\n', encoding="utf-8")
    types = catalogue()
    assert "kfir" not in types and types
    (problem,) = catalogue_problems("nth_fleet")
    assert "kfir.toml" in problem and "air_air" in problem
    (d / "kfir.toml").write_text('name = "Kfir"\nrole = "bomber"\nair_air = 5\n', encoding="utf-8")
    assert "kfir" not in catalogue()
    (problem,) = catalogue_problems("nth_fleet")
    assert "role" in problem


def test_table_files_are_the_shipped_tables() -> None:
    files = RULESET.table_files()
    assert {Path(p).name for p in files.values()} == {
        "air_to_air_attack.toml",
        "defence_values.toml",
        "attack_values.toml",
    }
    assert all(Path(p).exists() for p in files.values())
