"""Issue 47: accessible names and descriptions on every panel's main widgets, found by walking
the widget tree of the desk with every panel built and on screen, for every ruleset.

A main widget is a list, table or tree (name and description), a field, box or button (a name:
Qt takes a button's own text, and a field's from the label it is the buddy of), a plot, or a
widget of Airboss's own that paints itself (the odds chart, the board: name and description).
Containers, scroll bars and headers are not asked.

The Combat and Initiative panels' form fields are named by their forms (issue 43); the walk
checks them as every other panel's.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QGraphicsView,
    QHeaderView,
    QLineEdit,
    QTabWidget,
    QWidget,
)

from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from tests.ui.test_desk_layout import RULESETS, eight_aircraft_game


def _painted_by_us(w: QWidget) -> bool:
    return any(c.__module__.startswith("app.") and "paintEvent" in vars(c) for c in type(w).__mro__)


def asks(w: QWidget) -> tuple[bool, bool]:
    """(needs a name, needs a description)."""
    if isinstance(w, QHeaderView) or w.objectName() == "qt_spinbox_lineedit":
        return False, False
    if isinstance(w, QAbstractItemView | QGraphicsView) or _painted_by_us(w):
        return True, True
    if isinstance(w, QLineEdit | QComboBox | QAbstractSpinBox | QAbstractButton):
        return True, False
    return False, False


def unnamed(panel: QWidget) -> list[str]:
    out = []
    for w in [panel, *panel.findChildren(QWidget)]:
        if not w.isVisibleTo(panel) and w is not panel:
            continue
        name, description = asks(w)
        if not name:
            continue
        face = QAccessible.queryAccessibleInterface(w)
        said = face.text(QAccessible.Text.Name) if face is not None else ""
        told = face.text(QAccessible.Text.Description) if face is not None else ""
        if not said or (description and not told):
            out.append(f"{type(w).__name__} {w.objectName()!r}: name {said!r}, says {told!r}")
    return out


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_panels_main_widgets_have_accessible_names(ruleset_id, tmp_path, qtbot):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(w)
    w.persist_layout = False
    w.open_game(eight_aircraft_game(tmp_path / "g.airboss", ruleset_id))
    w.resize(1600, 1000)
    w.show()
    w.build_panels()
    w.show_all_panels(untab=True)
    for name in w.docks:
        w.panel(name)
    after = w.panel("after_action")
    assert after.build() is not None
    qtbot.wait(20)
    missing: dict[str, list[str]] = {}
    for name, panel in w.panels.items():
        tabs = [t for t in panel.findChildren(QTabWidget) if t.isVisibleTo(panel)] or [None]
        for t in tabs:  # every tab of a panel with tabs (After-action's fight, luck, dice)
            for i in range(t.count() if t is not None else 1):
                if t is not None:
                    t.setCurrentIndex(i)
                for line in unnamed(panel):
                    if line not in missing.setdefault(name, []):
                        missing[name].append(line)
    assert not {k: v for k, v in missing.items() if v}, missing
    assert {"roster", "turn", "combat", "game_log", "ledgers", "after_action"} <= set(w.panels)
    w.model.set_session(None)


def test_the_odds_chart_says_its_bars():
    from fractions import Fraction

    from app.ui.widgets.odds_chart import OddsChart

    chart = OddsChart()
    assert chart.accessibleName() == "Odds chart"
    assert chart.accessibleDescription() == "No odds yet"
    chart.show_odds([("miss", Fraction(3, 4)), ("1 hit", Fraction(1, 4))])
    assert chart.accessibleDescription() == "miss: 75.0%; 1 hit: 25.0%"
