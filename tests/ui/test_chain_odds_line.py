"""Issue 34: the Combat panel shows the odds to the end of the chain beside the odds of the
roll -- "destroyed 13/200 (6.5%)" -- worked out off the GUI thread, equal to
``app.core.chain_odds`` for the action on the form."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.core.chain_odds import chain_odds
from app.core.ruling import odds_text
from app.session import GameSession
from app.ui.docks.combat import CombatDock
from app.ui.model import EngagementModel


@pytest.fixture
def phantoms(tmp_path):
    s = GameSession.create(tmp_path / "chain.airboss", "phantoms", "Chain")
    s.add_aircraft("USAF", "f4e", "Olds 1")
    s.add_aircraft("VPAF", "mig21", "Red 1")
    yield s
    s.close()


def test_the_chain_line_beside_the_odds(phantoms, qtbot):
    model = EngagementModel(phantoms)
    dock = CombatDock(model)
    qtbot.addWidget(dock)
    dock.resize(520, 1000)
    dock.show()
    qtbot.waitExposed(dock)
    olds, red = list(phantoms.engagement.aircraft)
    dock.open_for("gun_attack", olds, red)
    position = dock.form.editor("position_modifier")
    position.setFocus()
    qtbot.keyClicks(position, "0")
    qtbot.keyClick(position, Qt.Key.Key_Tab)
    assert dock.odds  # the roll's own odds first
    qtbot.waitUntil(lambda: dock.chain.result is not None, timeout=30_000)
    p = dock.prepared
    assert p is not None and p.inputs is not None
    want = chain_odds(phantoms.ruleset, phantoms.engagement, "gun_attack", p.inputs)
    assert dock.chain.result == want
    text = dock.chain.text()
    assert "Gun attack → Critical hit" in text
    assert f"destroyed {odds_text(want.chances['destroyed'])}" in text
    assert "pilot killed" in text and "ejected" in text and "fire" in text
    dock.chain.wait()


def test_compare_keeps_columns_side_by_side_logs_nothing_and_escape_clears(phantoms, qtbot):
    """Compare: the odds kept as a column; the position changed, then the target: up to four
    columns beside the form as it is now; nothing logged; Escape clears them."""
    red2 = phantoms.add_aircraft("VPAF", "mig21", "Red 2")
    model = EngagementModel(phantoms)
    dock = CombatDock(model)
    qtbot.addWidget(dock)
    dock.resize(600, 1100)
    dock.show()
    qtbot.waitExposed(dock)
    olds, red = list(phantoms.engagement.aircraft)[:2]
    before = len(phantoms.events())
    dock.open_for("gun_attack", olds, red)
    position = dock.form.editor("position_modifier")
    position.setFocus()
    qtbot.keyClicks(position, "0")
    assert dock.odds
    first = dict(dock.odds)
    compare = dock.compare
    assert compare.button.isEnabled() and compare.table.isHidden()
    qtbot.mouseClick(compare.button, Qt.MouseButton.LeftButton)
    assert len(compare.kept) == 1 and compare.table.isVisibleTo(dock)

    position.selectAll()
    qtbot.keyClicks(position, "5")
    assert dock.odds != first
    cols = compare.columns()
    assert len(cols) == 2
    assert cols[0][0].startswith("Kept 1") and cols[1][0].startswith("Now")
    assert cols[0][1]["Gun Firing Position Diagram"] == "0"
    assert cols[1][1]["Gun Firing Position Diagram"] == "5"
    assert compare.cell(0, "miss") == odds_text(first["miss"])
    assert compare.cell(1, "miss") == odds_text(dock.odds["miss"])
    qtbot.mouseClick(compare.button, Qt.MouseButton.LeftButton)

    # another target: a third column, named by the target
    dock.target.setCurrentIndex(dock.target.findData(red2))
    assert dock.odds
    cols = compare.columns()
    assert len(cols) == 3 and "Red 2" in cols[2][0] and "Red 1" in cols[0][0]
    assert [c[1]["Target"] for c in cols] == ["Red 1", "Red 1", "Red 2"]
    for _ in range(4):
        qtbot.mouseClick(compare.button, Qt.MouseButton.LeftButton)
    assert len(compare.kept) == 4  # the oldest goes beyond four
    assert len(compare.columns()) == 5
    qtbot.waitUntil(lambda: dock.chain.result is not None, timeout=30_000)
    assert any(k.startswith("chain: destroyed") for k in compare.columns()[-1][1])

    assert len(phantoms.events()) == before  # nothing logged
    position.setFocus()
    qtbot.keyClick(position, Qt.Key.Key_Escape)
    assert compare.kept == [] and compare.table.isHidden()
    dock.chain.wait()


def test_a_cut_chain_is_painted_as_at_least(phantoms, qtbot):
    """Issue 45: a chain cut short is painted "at least ..." on the Combat panel's line, never
    as a fraction."""
    import re

    from app.ui.action_form.chain_odds import ChainOddsLine

    olds, red = list(phantoms.engagement.aircraft)
    p = phantoms.actions.prepare(
        "gun_attack", {"attacker": olds, "target": red}, {"position_modifier": 0}
    )
    assert p.inputs is not None

    class Cut:
        def chain_odds(self, prepared):
            return chain_odds(
                phantoms.ruleset, phantoms.engagement, "gun_attack", prepared.inputs, most_states=2
            )

    phantoms.ruleset._chain = None  # nothing known from an earlier chain
    line = ChainOddsLine()
    qtbot.addWidget(line)
    line.show_for(Cut(), p)
    qtbot.waitUntil(lambda: line.result is not None, timeout=30_000)
    text = line.text()
    assert not line.result.exact
    assert "at least" in text and "out of the fight at least" in text
    assert not re.search(r"\d+/\d+", text), text
    line.wait()
