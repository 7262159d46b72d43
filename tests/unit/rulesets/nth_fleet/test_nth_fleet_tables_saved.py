"""Issue 14: the umpire's 2.9 values, saved as the Tables editor saves them, are what the very
next air attack reads (through ``GameSession``), and the tables are loaded once and cached."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from app.core.data import override_path, save_override
from app.core.dice import TableDice, distribution
from app.core.errors import MissingTableValue
from app.session import GameSession
from rulesets.nth_fleet.tables import ATTACK_TABLE, attack_table


def save_as_the_editor(s: GameSession, table: Path, values: dict) -> Path:
    """What ``TablesEditor.save`` does: the override is named after the shipped file."""
    (name,) = [n for n, p in s.ruleset.table_files().items() if p == table]
    return save_override(s.ruleset.id, s.ruleset.table_files()[name].stem, values)


def test_2_9_a_saved_attack_value_changes_the_next_air_attack(tmp_path: Path) -> None:
    """Nth Fleet 2.9: 40 points roll on the 40 column. The text prints only roll 5 (10); a
    cell the umpire saves is used by the very next attack, its odds and its outcome."""
    s = GameSession.create(tmp_path / "t.airboss", ruleset="nth_fleet", title="2.9")
    p = s.ruleset.procedures["air_attack"]
    attack = {"attack_total": 40}
    with pytest.raises(MissingTableValue, match="column 40, roll 6"):
        s.perform("air_attack", attack, TableDice([3, 3]))

    path = save_as_the_editor(s, ATTACK_TABLE, {"cells": {"40": {str(r): r for r in range(11)}}})
    assert path == override_path("nth_fleet", ATTACK_TABLE.stem)
    assert s.perform("air_attack", attack, TableDice([3, 3])).outcome == "6 damage points"
    two_d5 = distribution("2d5")
    assert p.odds(p.parse(attack))["6 damage points"] == two_d5[6]

    save_as_the_editor(s, ATTACK_TABLE, {"cells": {"40": {"6": 12}}})
    assert s.perform("air_attack", attack, TableDice([3, 3])).outcome == "12 damage points"
    odds = p.odds(p.parse(attack))
    assert "6 damage points" not in odds
    assert odds["12 damage points"] == two_d5[6]
    assert sum(odds.values()) == Fraction(1)
    s.close()


def test_the_attack_table_is_loaded_once_and_again_after_a_save() -> None:
    """One cached loader (``app.core.data.load_table``): the same table object until the
    umpire saves, then the new values."""
    first = attack_table()
    assert attack_table() is first
    save_override("nth_fleet", ATTACK_TABLE.stem, {"cells": {"40": {"6": 12}}})
    again = attack_table()
    assert again is not first
    assert again.damage(40, 6) == 12
    assert attack_table() is again
