"""Issue 31 at the desk: File > New, the Rulesets and About boxes list the rulesets that work
and the hostile ones as broken (exit, os._exit, KeyboardInterrupt or a hang at import end
nothing); the odds chart refuses data of the wrong type before Qt paints it."""

from __future__ import annotations

from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from app.ui.dialogs.new_game import NewGameDialog
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from app.ui.widgets.odds_chart import OddsChart

HOSTILE = (
    "hostile_sys_exit",
    "hostile_os_exit",
    "hostile_interrupt",
    "hostile_hang",
    "hostile_not_a_ruleset",
    "hostile_bad_title",
)


def test_new_game_lists_the_hostile_rulesets_as_broken(hostile_site: ModuleType, qtbot) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    ids = [dialog.ruleset_box.itemData(i) for i in range(dialog.ruleset_box.count())]
    assert {"guest", "skirmish", "phantoms"} <= set(ids)
    assert not set(HOSTILE) & set(ids)
    text = dialog.broken_label.text()
    assert all(f"• {rid}: " in text for rid in HOSTILE)
    assert "ended the process (exit code 7)" in text and "KeyboardInterrupt" in text
    assert not dialog.broken_label.isHidden()


def test_the_desk_lists_them_too(hostile_site: ModuleType, qtbot, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(w)
    text = w.rulesets_text()
    assert "Guest (hostile test ruleset)" in text
    for rid in HOSTILE:
        assert f"<li><b>{rid}</b>: " in text
    assert "did not finish importing" in text
    assert "(guest)" in w.about_text()


@pytest.mark.parametrize(
    "odds",
    [
        [(1, Fraction(1, 2)), (None, Fraction(1, 2))],
        [(b"hit", Fraction(1))],
        [("hit", "50%")],
        [("hit", 0.5)],
        [("hit", True)],
        [("hit", Fraction(3, 2))],
        [("hit",)],
        "hit",
        {"hit": Fraction(1)},
        None,
    ],
)
def test_odds_chart_refuses_data_of_the_wrong_type_before_qt(qtbot, odds: Any) -> None:
    chart = OddsChart()
    qtbot.addWidget(chart)
    chart.show_odds([("hit", Fraction(1, 3)), ("miss", Fraction(2, 3))])
    with pytest.raises(TypeError):
        chart.show_odds(odds)
    assert chart.labels == [] and chart.heights == []
    chart.resize(320, 160)
    chart.grab()  # paints: nothing of the refused data reaches the painter
    chart.show_odds([("hit", Fraction(1, 3)), ("miss", Fraction(2, 3))])
    assert chart.labels == ["hit", "miss"]
    assert not chart.grab().isNull()
