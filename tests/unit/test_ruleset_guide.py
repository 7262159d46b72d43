"""The smallest useful ruleset of docs/ruleset-guide.md runs and stays under 60 lines (19)."""

from __future__ import annotations

import re
import sys
import types
from fractions import Fraction
from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.core.errors import RuleViolation

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "ruleset-guide.md"


@pytest.fixture(scope="module")
def duel() -> types.ModuleType:
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert code is not None
    assert len(code.group(1).splitlines()) < 60
    module = types.ModuleType("duel_from_the_guide")
    sys.modules[module.__name__] = module  # pydantic resolves annotations through it
    exec(compile(code.group(1), str(GUIDE), "exec"), module.__dict__)
    return module


def test_the_guides_odds_are_exact(duel):
    shot = duel.RULESET.procedures["shot"]
    # rule 1: 2d6 + 3 - 1 >= 10 means 2d6 >= 8: 15 of 36
    assert shot.odds(shot.Inputs(guns=3, range_hexes=1)) == {
        "miss": Fraction(21, 36),
        "hit": Fraction(15, 36),
    }


def test_the_guides_procedure_spends_and_damages(duel):
    rs = duel.RULESET
    from app.core.engagement import Engagement

    e = Engagement()
    for n, (aid, side) in enumerate((("a", "Blue"), ("b", "Red")), start=1):
        e = e.apply(rs.new_aircraft(aid, aid.upper(), side, "jet", None, {}), n)
    shot = rs.procedures["shot"]
    inputs = shot.Inputs(attacker="a", target="b", **shot.prefill(e, "a", "b"), range_hexes=1)
    res = shot.resolve(inputs, TableDice([4, 5]), e)
    assert res.outcome == "hit" and "(1)" in res.narrative
    for ev in res.events:
        e = e.apply(ev, e.seq + 1)
    assert e.get("b").damage == 1 and e.get("a").ledger("ammunition") == 3
    for _ in range(3):
        for ev in shot.resolve(inputs, TableDice([1, 1]), e).events:
            e = e.apply(ev, e.seq + 1)
    with pytest.raises(RuleViolation, match="cannot pay"):
        shot.resolve(inputs, TableDice([6, 6]), e)


EXAMPLE = GUIDE.parents[1] / "examples" / "duel"


def test_the_guides_walkthrough_shows_the_example_files_exactly() -> None:
    """Issue 32: each file the guide walks through (a block headed by its path) is the file of
    examples/duel, which tests/unit/test_example_ruleset.py installs and checks with the kit."""
    text = GUIDE.read_text(encoding="utf-8")
    shown = dict(re.findall(r"^`([\w/.]+)`:\n\n```\w+\n(.*?)^```$", text, re.S | re.M))
    assert set(shown) == {
        "pyproject.toml",
        "airboss_duel/__init__.py",
        "airboss_duel/card.py",
        "airboss_duel/tables.py",
        "airboss_duel/guns.py",
        "airboss_duel/ruleset.py",
        "airboss_duel/tables/ranges.toml",
        "airboss_duel/aircraft/jet.toml",
        "tests/test_duel.py",
    }
    for path, body in shown.items():
        assert body == (EXAMPLE / path).read_text(encoding="utf-8"), path
    assert "pip install -e duel/" in text
