"""Issue 45: a chain that is cut is said as bounds ("at least 79%"), never as exact fractions,
and its chances are lower bounds of the whole chain's; no built-in chain of the sweep is cut
(tests/unit/core/test_chain_odds.py)."""

from __future__ import annotations

import re
from pathlib import Path

from app.core.chain_odds import chain_odds
from app.session import GameSession


def _cannon(tmp_path: Path) -> tuple[GameSession, object, str]:
    s = GameSession.create(tmp_path / "u.airboss", "ufo_interception", "cut")
    t1 = s.add_aircraft("RAF", "tornado", "T1")
    t2 = s.add_aircraft("Rogue", "tornado", "T2")
    for _ in range(3):
        s.clock.next_step()
    inputs = s.ruleset.procedures["cannon"].parse({"attacker": t1, "target": t2, "range_inches": 0})
    return s, inputs, t2


def test_a_cut_chain_is_a_lower_bound_said_as_at_least(tmp_path: Path) -> None:
    s, inputs, _ = _cannon(tmp_path)
    whole = chain_odds(s.ruleset, s.engagement, "cannon", inputs)
    s.ruleset._chain = None  # type: ignore[attr-defined] # noqa: SLF001 - nothing known yet
    cut = chain_odds(s.ruleset, s.engagement, "cannon", inputs, most_states=4)
    assert whole.exact and not whole.cut
    assert not cut.exact and cut.cut and cut.unknown > 0
    for fact, p in cut.chances.items():
        assert p <= whole.chances[fact], fact
    lines = cut.lines()
    facts = [line for line in lines if line.split(" at least")[0] in cut.chances]
    assert facts and all(" at least " in line for line in facts), lines
    assert not any(re.search(r"\d+/\d+", line) for line in facts), lines
    assert "out of the fight at least" in " · ".join(lines)
    assert any("cut short" in line for line in lines)
    assert cut.text_of("destroyed").startswith("at least ")
    s.close()


def test_a_cut_chain_leaves_nothing_for_the_next_one(tmp_path: Path) -> None:
    """What a cut chain worked out is not kept: the next question is answered whole."""
    s, inputs, _ = _cannon(tmp_path)
    chain_odds(s.ruleset, s.engagement, "cannon", inputs, most_states=4)
    again = chain_odds(s.ruleset, s.engagement, "cannon", inputs)
    assert again.exact and not again.cut
    s.close()
