"""Issue 43, Nth Fleet through the real desk at 1366x768, keys only, reading what is painted: a
mission launch is two keys (Enter on its line, Enter on Resolve) on the mission the counter
flies (2.2, 2.3), and the air combat's force lists show every counter the totals count (2.9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QListWidget

from app.core.events import ProcedureResolved
from app.session import GameSession
from tests.games import nth_fleet_strike
from tests.ui.test_dice_entry import open_desk, open_line
from tests.unit.rulesets.nth_fleet.conftest import fill_tables


def test_2_3_a_recon_launch_is_two_keys_on_its_own_mission(tmp_path: Path, qtbot: Any) -> None:
    """Nth Fleet 2.2, 2.3: Enter on 4 ODRAP's line, Enter: its 4 unused points fly recon (the
    Mission field reads "rcn" before the second key; it was "strike", and changing it took
    seven keys)."""
    s = GameSession.create(tmp_path / "n.airboss", "nth_fleet", "Recon")
    s.add_aircraft("Red", "tu95rt", "4 ODRAP", base="Olenya", unit_sides=1, units=2)
    window = open_desk(qtbot, tmp_path, s)
    before = len(s.events())
    open_line(qtbot, window, "4 ODRAP")  # key 1
    combat = window.panels["combat"]
    mission = combat.form.editor("mission")
    assert isinstance(mission, QComboBox) and mission.currentText() == "rcn"
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)  # key 2
    done = [e.event for e in s.events()[before:] if isinstance(e.event, ProcedureResolved)]
    assert [(e.procedure, e.inputs["mission"], e.inputs["points"]) for e in done] == [
        ("launch_mission", "rcn", 4)
    ]
    assert s.engagement.aircraft["4-odrap"].attributes["mission"] == "rcn"
    window.model.set_session(None)


def test_2_9_the_force_lists_show_every_counter_counted(tmp_path: Path, qtbot: Any) -> None:
    """Nth Fleet 2.9: the first force's total 104 is VF-1's 88 and VA-35's 16; both are
    ticked in its list as painted (VF-1, the Attacker, was counted but not listed), and the
    CAP's list ticks 1 GIAP, never 4 ODRAP out on recon."""
    fill_tables()
    s = nth_fleet_strike(tmp_path / "n.airboss")
    window = open_desk(qtbot, tmp_path, s)
    open_line(qtbot, window, "air combat")
    combat = window.panels["combat"]

    def ticked(name: str) -> list[str]:
        box = combat.form.editor(name)
        assert isinstance(box, QListWidget)
        return [
            box.item(i).text().split(" (")[0]
            for i in range(box.count())
            if box.item(i).checkState() == Qt.CheckState.Checked
        ]

    assert ticked("first") == ["VF-1", "VA-35"]
    assert ticked("second") == ["1 GIAP"]
    assert combat.form.editor("first_attack").text() == "104"
    assert combat.refusal.message == ""
    window.model.set_session(None)
