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
