"""Issue 14: each game's desk shows the panels its ruleset uses, with room for the roster."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from app.plugins import load_ruleset as get_ruleset
from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.shell.desk_layout import used_panels
from app.ui.shell.main_window import MainWindow

RULESETS = ("phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception")


def eight_aircraft_game(path, ruleset_id):
    rs = get_ruleset(ruleset_id)
    types = list(rs.aircraft)
    with GameSession.create(path, ruleset_id, "Eight") as s:
        for i in range(8):
            side = "Blue" if i % 2 else "Red"
            extra = {"base": f"{side} carrier"} if ruleset_id == "nth_fleet" else {}
            s.add_aircraft(side, types[i % len(types)], f"{side} {i}", **extra)
    return path


@pytest.fixture
def desk(tmp_path, qtbot):
    def make(ruleset_id, size=(1366, 768)):
        settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
        w = MainWindow(EngagementModel(), settings)
        qtbot.addWidget(w)
        w.open_game(eight_aircraft_game(tmp_path / f"{ruleset_id}.airboss", ruleset_id))
        w.resize(*size)
        w.show()
        qtbot.waitExposed(w)
        w.reset_layout()
        qtbot.wait(50)
        return w

    yield make


def test_panels_follow_what_the_ruleset_declares():
    assert "angle_off" in used_panels(get_ruleset("phantoms"))  # its board (issue 18)
    assert "angle_off" in used_panels(get_ruleset("advanced_air_force"))
    assert "angle_off" not in used_panels(get_ruleset("nth_fleet"))
    assert "angle_off" in used_panels(get_ruleset("airpower"))
    assert "critical_log" not in used_panels(get_ruleset("nth_fleet"))
    assert "initiative" not in used_panels(get_ruleset("nth_fleet"))
    assert "initiative" in used_panels(get_ruleset("phantoms"))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_aircraft_of_an_eight_aircraft_game_shows_at_1366x768(desk, ruleset_id):
    w = desk(ruleset_id)
    used = used_panels(w.model.session.ruleset)
    for name, dock in w.docks.items():
        assert dock.isVisible() == (name in used) or w.tabifiedDockWidgets(dock), name
    tree = w.panels["roster"].tree
    viewport = tree.viewport().rect()
    for aircraft_id, item in w.panels["roster"]._items.items():
        rect = tree.visualItemRect(item)
        assert viewport.contains(rect), f"{aircraft_id} cut off: {rect} not in {viewport}"


def test_table_mode_is_a_layout_and_leaving_it_restores_the_desk(desk):
    w = desk("phantoms")
    assert w.dockWidgetArea(w.docks["game_log"]) == w.dockWidgetArea(w.docks["combat"])
    w.table_mode_action.trigger()
    assert w.tabifiedDockWidgets(w.docks["combat"])  # the rest tabbed behind Combat
    assert w.font().pointSizeF() > w._base_font.pointSizeF()
    w.table_mode_action.trigger()
    assert not w.tabifiedDockWidgets(w.docks["roster"])
    assert w.font().pointSizeF() == w._base_font.pointSizeF()


def test_a_tabbed_away_panel_does_no_work_until_shown(desk):
    """Issue 20: a Game log tabbed away is not redrawn on each action; shown, it is whole."""
    w = desk("phantoms")
    log_dock, log = w.docks["game_log"], w.panels["game_log"]
    w.docks["ledgers"].raise_()  # the umpire looks at the ledgers: the log is tabbed away
    QApplication.processEvents()
    assert not log.when_shown.on_screen
    before = log.lines()
    w.model.session.clock.next_step()
    w.model.session.clock.next_step()
    assert log.lines() == before and log.when_shown.stale
    log_dock.raise_()
    QApplication.processEvents()
    assert log.when_shown.on_screen and not log.when_shown.stale
    assert "(2 steps from " in log.lines()[-1]


def _truncated(w) -> list[str]:
    """Every visible label, button, check box and table heading whose text does not fit (an
    elided text counts as cut off)."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QCheckBox,
        QHeaderView,
        QLabel,
        QPushButton,
        QRadioButton,
        QToolButton,
    )

    def seen(widget) -> bool:
        """On screen: a panel tabbed away is moved off the window, not hidden."""
        return widget.isVisible() and not widget.visibleRegion().isEmpty()

    def elided(widget, text: str) -> bool:
        """Shortened with "…" (its tooltip holds the whole text); "Export CSV…" is whole."""
        tip = widget.toolTip()
        return text.endswith("…") and len(tip) > len(text) and tip.startswith(text[:-1])

    out: list[str] = []
    for label in w.findChildren(QLabel):
        text = label.text()
        if not seen(label) or not text or label.wordWrap() or "<" in text:
            continue
        if label.pixmap() is not None and not label.pixmap().isNull():
            continue
        plain = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
        need = label.fontMetrics().horizontalAdvance(plain)
        room = label.contentsRect().width() - 2 * label.margin() - label.indent() * 0
        if elided(label, text) or need > room:
            out.append(f"label {label.objectName() or plain!r}: {need} > {room}")
    for button in w.findChildren(QAbstractButton):
        text = button.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if not seen(button) or not text:
            continue
        if (
            isinstance(button, QToolButton)
            and button.toolButtonStyle().name == "ToolButtonIconOnly"
        ):
            continue
        need = button.fontMetrics().horizontalAdvance(text)
        if isinstance(button, QCheckBox | QRadioButton):
            room = (
                button.width()
                - button.style().pixelMetric(button.style().PixelMetric.PM_IndicatorWidth)
                - 8
            )
        elif isinstance(button, QPushButton):
            room = button.width() - 12
        else:
            room = button.width() - 6
        if elided(button, text) or need > room:
            out.append(f"button {button.objectName() or text!r}: {need} > {room}")
    for header in w.findChildren(QHeaderView):
        if not seen(header) or header.orientation().name != "Horizontal":
            continue
        model = header.model()
        if model is None:
            continue
        for section in range(header.count()):
            if header.isSectionHidden(section) or header.sectionSize(section) == 0:
                continue
            text = str(model.headerData(section, header.orientation()) or "")
            if not text:
                continue
            need = header.fontMetrics().horizontalAdvance(text) + 8
            room = header.sectionSize(section)
            if need > room:
                out.append(f"heading {text!r} of {header.parent().objectName()}: {need} > {room}")
    return out


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_table_mode_at_1366x768_cuts_nothing_off_and_shows_every_aircraft(desk, qtbot, ruleset_id):
    """Issue 14: Table mode is a layout for arm's length, not only a font size: at 1366x768
    every visible text fits its widget and the roster shows every aircraft of an 8-aircraft
    game."""
    w = desk(ruleset_id)
    w.table_mode_action.trigger()
    qtbot.wait(50)
    assert w.table_mode
    cut = _truncated(w)
    assert not cut, "\n".join(cut)
    tree = w.panels["roster"].tree
    viewport = tree.viewport().rect()
    assert len(w.panels["roster"]._items) == 8
    for aircraft_id, item in w.panels["roster"]._items.items():
        rect = tree.visualItemRect(item)
        assert viewport.contains(rect), f"{aircraft_id} cut off: {rect} not in {viewport}"
