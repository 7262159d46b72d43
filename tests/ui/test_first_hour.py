"""Issue 47: the first hour of a new umpire, and the conventions of a desktop program.

The first window on a small screen, Space at the first start, Ctrl+I, Qt's standard keys, F1's
user guide, table mode at 1366x768 with a title bar, cards printed from the command line, and
the After-action panel's word while it loads. (The log file, the crash dialog and a start with
no display are in ``tests/e2e/test_first_start.py``: they need a process of their own.)
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QScrollArea,
    QWidget,
)

from app.session import GameSession
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import TITLE_BAR, MainWindow, first_geometry
from tests.ui.test_desk_layout import RULESETS, _truncated, eight_aircraft_game

SCREENS = [(1366, 768), (1280, 720)]
StandardKey = QKeySequence.StandardKey


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def demo_desk(tmp_path, settings, qtbot):
    """The desk on the demo engagement, as on the very first start (the dice not asked)."""
    session = create_demo_game(tmp_path / "demo.airboss")
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.persist_layout = False
    window.show_session(session)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    yield window
    window.model.set_session(None)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_first_window_fits_the_screen_centred(screen):
    width, height = screen
    available = QRect(0, 0, width, height)
    g = first_geometry(available)
    assert g.width() <= width and g.height() + TITLE_BAR <= height  # never larger
    assert available.contains(g) and g.top() >= TITLE_BAR  # the title bar on screen too
    assert abs((g.left() - 0) - (width - g.right() - 1)) <= 1  # centred
    big = first_geometry(QRect(0, 0, 2560, 1440))
    assert (big.width(), big.height()) == (1400, 900)  # a large screen: the usual size
    assert big.center().x() in (1279, 1280)


def _reachable(window: MainWindow) -> list[str]:
    """The controls of the panels in front that cannot be reached: outside the window, or
    cut off by their panel and in no scroll area that would bring them into view."""
    out: list[str] = []
    frame = window.rect()
    kinds = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView)
    for name, dock in window.docks.items():
        panel = dock.widget()
        if panel is None or not dock.isVisible() or panel.visibleRegion().isEmpty():
            continue
        for w in panel.findChildren(QWidget):
            if not isinstance(w, kinds) or not w.isVisibleTo(panel) or not w.isEnabled():
                continue
            if w.focusPolicy() == Qt.FocusPolicy.NoFocus and not isinstance(w, QAbstractButton):
                continue
            scrolled = w.parentWidget()
            while scrolled is not None and not isinstance(scrolled, QScrollArea):
                scrolled = scrolled.parentWidget()
            if scrolled is not None and panel.isAncestorOf(scrolled):
                continue  # a scroll bar brings it into view
            top_left = w.mapTo(window, w.rect().topLeft())
            rect = QRect(top_left, w.size())
            in_panel = QRect(panel.mapTo(window, panel.rect().topLeft()), panel.size())
            if not frame.contains(rect) or not in_panel.contains(rect):
                out.append(f"{name}: {type(w).__name__} {w.objectName() or w.accessibleName()}")
    return out


@pytest.mark.parametrize("screen", SCREENS)
def test_at_a_small_screen_every_docks_controls_can_be_reached(screen, tmp_path, settings, qtbot):
    """The window as ``first_geometry`` makes it on a 1366x768 or 1280x720 screen: no larger
    than asked (the panels' minimum sizes fit), the status bar (with the first start's
    question) on screen, and every control of every panel in front within its panel or in a
    scroll area; then each tab group's other panels brought forward in turn."""
    session = GameSession.open(eight_aircraft_game(tmp_path / "eight.airboss", "phantoms"))
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.persist_layout = False
    window.show_session(session)
    g = first_geometry(QRect(0, 0, *screen))
    window.setGeometry(g)
    window.show()
    qtbot.waitExposed(window)
    window.build_panels()
    qtbot.wait(50)
    assert window.size() == g.size(), (window.size(), window.minimumSizeHint())
    bar = window.statusBar()
    assert window.rect().contains(QRect(bar.mapTo(window, bar.rect().topLeft()), bar.size()))
    assert window.dice_question is not None and window.dice_question.isVisible()
    seen: set[str] = set()
    for name in window.docks:
        if not window.docks[name].isVisible() and name not in ("initiative", "angle_off"):
            continue
        window.bring_forward(name)
        window.panel(name)
        qtbot.wait(20)
        seen.add(name)
        assert not _reachable(window), _reachable(window)
    assert {"roster", "turn", "combat", "initiative", "game_log", "ledgers"} <= seen
    window.model.set_session(None)


def test_space_at_the_first_start_moves_the_turn_on(demo_desk, qtbot):
    """Issue 47: the first Space answered the dice question (its button had the focus)."""
    w = demo_desk
    assert w.dice_question is not None and w.dice_question.isVisible()
    turn = w.panels["turn"]
    assert turn.isAncestorOf(w.focusWidget())  # the keyboard starts in "who acts now"
    before = w.model.session.engagement.step
    qtbot.keyClick(w.focusWidget(), Qt.Key.Key_Space)
    assert w.model.session.engagement.step == before + 1
    assert not w.model.dice_mode.asked  # the question waits for its own answer
    turn.previous_button.setFocus()  # any widget of the Turn panel: Space is Next step
    qtbot.keyClick(turn.previous_button, Qt.Key.Key_Space)
    assert w.model.session.engagement.step == before + 2
    # the question takes its own keys: Alt+O, "Airb&oss rolls" (a button's click is animated)
    qtbot.keyClick(w.focusWidget(), Qt.Key.Key_O, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: w.model.dice_mode.asked)
    assert not w.model.dice_mode.players_roll


def test_ctrl_i_brings_the_initiative_panel_forward(demo_desk, qtbot):
    """Issue 47: with the players rolling, Ctrl+I showed nothing (Initiative behind Turn)."""
    w = demo_desk
    w.model.dice_mode.choose(True)
    w.build_panels()
    initiative = w.panel("initiative")
    w.bring_forward("turn")
    qtbot.wait(20)
    assert initiative.visibleRegion().isEmpty()  # tabbed behind the Turn panel
    logged = w.model.session.engagement.seq
    qtbot.keyClick(w.focusWidget(), Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not initiative.visibleRegion().isEmpty())
    assert initiative.isAncestorOf(w.focusWidget())  # the cursor where the dice are typed
    assert w.model.session.engagement.seq == logged  # nothing rolled: the dice are typed


def test_the_standard_keys_are_qts_own(demo_desk):
    w = demo_desk
    for action, key in (
        (w.new_action, StandardKey.New),
        (w.open_action, StandardKey.Open),
        (w.close_action, StandardKey.Close),
        (w.save_action, StandardKey.Save),
        (w.copy_action, StandardKey.SaveAs),
        (w.undo_action, StandardKey.Undo),
        (w.redo_action, StandardKey.Redo),
        (w.print_action, StandardKey.Print),
        (w.find_action, StandardKey.Find),
        (w.guide_action, StandardKey.HelpContents),
        (w.quit_action, StandardKey.Quit),
    ):
        platform = QKeySequence.keyBindings(key)
        assert action.shortcuts() == (platform or [QKeySequence("Ctrl+Q")]), action.text()


def test_ctrl_s_says_the_game_is_saved_and_ctrl_f_finds_an_aircraft(demo_desk, qtbot):
    w = demo_desk
    qtbot.keyClick(w.focusWidget(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "saved the moment it is made" in w.statusBar().toolTip()  # whole; the bar may cut it
    found = w.find_aircraft("red 2")
    assert [w.model.engagement.aircraft[i].name for i in found] == ["Red 2"]
    assert w.model.selection == found
    assert w.panels["roster"].tree.hasFocus()


def test_f1_opens_the_user_guide_in_the_desk(demo_desk, qtbot):
    w = demo_desk
    qtbot.keyClick(w.focusWidget(), Qt.Key.Key_F1)
    guide = w.user_guide
    qtbot.waitUntil(guide.isVisible)
    text = guide.text()
    assert "Using the desk" in text and "Printing control cards" in text
    assert "Why each dependency is there" not in text  # the developers' sections left out
    guide.find_box.setText("Table mode")
    assert guide.find_next()
    assert "Table mode" in guide.browser.textCursor().selectedText()
    guide.close()


def test_help_about_names_the_log_file(demo_desk):
    from app.log_file import log_path

    assert str(log_path()) in demo_desk.about_text()
    assert log_path().name == "airboss.log"


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_table_mode_at_1366x768_with_a_title_bar_shows_every_aircraft_and_line(
    ruleset_id, tmp_path, settings, qtbot
):
    """Issue 47: at 1366x768 with a title bar (the window 1366x736), table mode shows every
    aircraft of an eight-aircraft game, and every line of "who acts now" in every step of the
    first turn, each with its whole height (Air Power's first step: 13 lines for 8 aircraft);
    no text is cut short."""
    w = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(w)
    w.persist_layout = False
    w.open_game(eight_aircraft_game(tmp_path / f"{ruleset_id}.airboss", ruleset_id))
    w.setGeometry(first_geometry(QRect(0, 0, 1366, 768)))
    assert w.height() == 768 - TITLE_BAR
    w.show()
    qtbot.waitExposed(w)
    w.reset_layout()
    w.table_mode_action.trigger()
    qtbot.wait(50)
    assert not _truncated(w), _truncated(w)
    roster = w.panels["roster"]
    tree, viewport = roster.tree, roster.tree.viewport().rect()
    for aircraft_id, item in roster._items.items():
        assert viewport.contains(tree.visualItemRect(item)), aircraft_id
        for col in range(tree.columnCount()):  # no name or printed type cut short
            need = tree.fontMetrics().horizontalAdvance(item.text(col))
            indent = tree.indentation() if col == 0 else 0
            assert need + indent <= tree.header().sectionSize(col), (aircraft_id, item.text(col))
    turn, session = w.panels["turn"], w.model.session
    assert not turn.step_list.isVisible()
    for step in range(len(session.clock.steps())):
        lines = turn.acting
        room = lines.viewport().rect()
        for row in range(lines.count()):
            r = lines.visualItemRect(lines.item(row))
            assert room.top() <= r.top() and r.bottom() <= room.bottom(), (step, row, r, room)
        session.clock.next_step()
        qtbot.wait(5)
    w.table_mode_action.trigger()
    assert turn.step_list.isVisible()
    w.model.set_session(None)


def test_cards_printed_from_the_command_line_are_said_by_print_cards(tmp_path, qtbot):
    """Issue 47: after ``airboss cards``, Ctrl+P offered "Changed since last printed (0)",
    chosen, with an empty preview. It now says when and where they were printed, offers all
    the cards, and the changed ones only when there are any."""
    from app.ui.cards import cards_command
    from app.ui.cards.printing import PrintCardsDialog

    game = tmp_path / "demo.airboss"
    create_demo_game(game).close()
    out = tmp_path / "cards.pdf"
    assert cards_command(str(game), str(out)) == 0
    with GameSession.open(game) as s:
        model = EngagementModel(s)
        dialog = PrintCardsDialog(model)
        qtbot.addWidget(dialog)
        changed = dialog._radios["changed"]
        assert not changed.isEnabled() and not changed.isChecked()
        assert "none; last printed" in changed.text() and f"to {out}" in changed.text()
        assert "airboss cards" in changed.text()
        assert dialog.which() == "all" and len(dialog.faces()) == 8
        ids = list(s.engagement.aircraft)
        s.roster.change_aircraft(ids[0], name="Olds 9")
        dialog._refresh()
        assert changed.isEnabled() and changed.text().startswith("Changed since last printed (1;")
        dialog.close()
        model.set_session(None)
    with GameSession.open(game) as s:
        said = [e.narrative for e in s.events() if e.narrative.startswith("Cards printed")]
        assert said == [f"Cards printed: 8 aircraft, to {out} (airboss cards)"]


def test_the_after_action_panel_says_it_is_loading(demo_desk, qtbot):
    from app.ui.docks.after_action import LOADING

    w = demo_desk
    w.build_panels()
    panel = w.panel("after_action")
    assert panel.view is None
    w.docks["after_action"].show()
    w.docks["after_action"].raise_()  # the dock comes into view: the words, then the plots
    assert panel.waiting.text() == LOADING
    qtbot.waitUntil(lambda: panel.view is not None)
