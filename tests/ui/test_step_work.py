"""Issue 48 ("Fast"): a step on does its work once. The ruleset is asked for the steps and
for who acts now once per change of the game, the Turn panel's rows are made once, and the
initiative roll is not prepared while no panel shows it: it is prepared when shown, on the
game as it is then. What the umpire sees is the same as a panel drawn afresh."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QEvent, QObject, QRect, QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QListWidget,
    QStyledItemDelegate,
)

from app.startup.demo import create_demo_game
from app.ui.docks.turn import TurnDock
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow


@pytest.fixture
def desk(tmp_path, qtbot):
    """The Phantoms demo (8 aircraft) on the desk at 1366x768, in its default layout."""
    session = create_demo_game(tmp_path / "demo.airboss")
    model = EngagementModel(session)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(model, settings)
    w.persist_layout = False
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.reset_layout()
    qtbot.wait(50)
    yield w
    w.close()
    model.set_session(None)


def counting(obj, name: str, counts: Counter, key=lambda *a, **k: "") -> None:
    """Count the calls of ``obj.name`` (by ``key`` of their arguments), calling it still."""
    fn = getattr(obj, name)

    def counted(*args, **kwargs):
        counts[(name, key(*args, **kwargs))] += 1
        return fn(*args, **kwargs)

    setattr(obj, name, counted)


def test_a_step_asks_the_ruleset_for_the_steps_and_who_acts_once(desk):
    """Each game a step on leaves is asked for its steps and who acts now once, wherever
    that is (the work ahead of the step, ``app.session.ahead``, or the step itself)."""
    session = desk.model.session
    asked: list[tuple[str, object]] = []
    for name in ("steps", "acting"):
        real = getattr(session.ruleset, name)

        def spy(engagement, *args, _real=real, _name=name):
            asked.append((_name, engagement))
            return _real(engagement, *args)

        setattr(session.ruleset, name, spy)
    games = []
    for _ in range(5):
        work = session.clock.look_ahead()  # (the desk starts it itself a moment after a change)
        assert work is not None and work.wait(30)
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        games.append(session.engagement)
    # (the first step's game may have been worked out before the spies were set)
    for game in games[1:]:
        assert [name for name, e in asked if e is game] == ["acting", "steps"]


def test_the_turn_panel_after_steps_is_drawn_as_afresh(tmp_path, qtbot):
    """The step's marker moves in the sequence of play drawn once; what shows is what a
    Turn panel drawn afresh shows, line by line, across a turn's end."""
    model = EngagementModel(create_demo_game(tmp_path / "demo.airboss"))
    turn = TurnDock(model)
    qtbot.addWidget(turn)
    steps = len(model.session.clock.steps())

    def lines(dock):
        items = [dock.step_list.item(i) for i in range(dock.step_list.count())]
        return [(it.text(), it.font().bold(), it.background().color().name()) for it in items]

    for n in range(steps + 2):
        turn.next_step()
        if 3 <= n < steps - 2:
            continue  # the first steps, and the turn's end
        fresh = TurnDock(model)
        qtbot.addWidget(fresh)
        assert lines(turn) == lines(fresh)
        assert turn.acting_lines() == fresh.acting_lines()
        assert turn.heading.text() == fresh.heading.text()
        fresh.deleteLater()
    assert sum(turn.step_list.item(i).text().startswith("▶") for i in range(steps)) == 1
    model.set_session(None)


def test_the_initiative_roll_out_of_view_is_prepared_when_shown(desk):
    session = desk.model.session
    initiative = session.ruleset.initiative
    panel, dock = desk.panels["initiative"], desk.docks["initiative"]
    desk.docks["turn"].raise_()  # Initiative is tabbed behind the Turn panel
    QApplication.processEvents()
    assert not panel.when_shown.on_screen
    counts: Counter = Counter()
    # (on the game as it is: the next step's work ahead prepares a shown form's action on the
    # game after it, ``at``)
    counting(
        session.actions,
        "prepare",
        counts,
        key=lambda procedure, *a, at=None, **k: procedure if at is None else "ahead",
    )
    session.clock.next_step()
    session.clock.next_step()
    assert counts[("prepare", initiative)] == 0  # no panel shows it: not prepared
    dock.raise_()
    QApplication.processEvents()
    assert panel.when_shown.on_screen
    assert counts[("prepare", initiative)] == 1  # shown: prepared once, on the game now
    p = panel.prepared
    assert p is not None
    afresh = session.actions.prepare(initiative, {}, {}, check=True)
    assert [(v.name, v.value, v.source) for v in p.values] == [
        (v.name, v.value, v.source) for v in afresh.values
    ]
    assert p.inputs == afresh.inputs


class Measuring(QStyledItemDelegate):
    """The list's delegate, counting the lines it measures (those with no size of their own:
    a line with one is laid out without measuring its text)."""

    def __init__(self) -> None:
        super().__init__()
        self.measured = 0

    def sizeHint(self, option, index):  # noqa: N802 - Qt's name
        if index.data(Qt.ItemDataRole.SizeHintRole) is None:
            self.measured += 1
        return super().sizeHint(option, index)


def measured_sizes(view) -> list[tuple[int, int]]:
    """Each line's size as the list's own delegate measures it now (its kept size set aside)."""
    sizes = []
    for i in range(view.count()):
        item = view.item(i).clone()
        item.setData(Qt.ItemDataRole.SizeHintRole, None)
        plain = QListWidget()
        plain.setFont(view.font())
        plain.addItem(item)
        sizes.append(plain.sizeHintForIndex(plain.model().index(0, 0)).toTuple())
        plain.deleteLater()
    return sizes


def test_a_step_measures_only_the_lines_it_changes(desk):
    """A step on moves the marker in the sequence of play (about a hundred lines in
    Phantoms): the two lines it changes are measured, not the whole turn at every step; each
    line shown keeps the size the list would measure for it."""
    turn = desk.panels["turn"]
    steps = Measuring()
    turn.step_list.setItemDelegate(steps)
    assert turn.step_list.count() > 50
    for _ in range(4):
        steps.measured = 0
        turn.next_step()
        QApplication.processEvents()
        turn.repaint()
        assert steps.measured <= 2
    for view in (turn.step_list, turn.acting):
        assert [view.item(i).sizeHint().toTuple() for i in range(view.count())] == (
            measured_sizes(view)
        )


def test_larger_type_measures_the_lines_again(desk):
    """Table mode's larger type: every line's kept size is measured again in it."""
    turn = desk.panels["turn"]
    before = turn.step_list.item(0).sizeHint().height()
    desk.set_table_mode(True)
    QApplication.processEvents()
    turn.set_compact(False)  # the sequence of play shown, as out of table mode
    for view in (turn.step_list, turn.acting):
        assert [view.item(i).sizeHint().toTuple() for i in range(view.count())] == (
            measured_sizes(view)
        )
    assert turn.step_list.item(0).sizeHint().height() > before
    desk.set_table_mode(False)


def test_another_lines_roll_takes_the_die_fields_there_are(desk):
    """Opening another line of the same roll (a page's dice taken, line after line) builds no
    die field: the fields take the line's slots, and show what fields made afresh show."""
    from app.ui.action_form.dice import DieField

    model = desk.model
    combat = desk.panels["combat"]
    desk.panels["turn"].next_step()  # Phantoms' break-off step: a roll per aircraft
    QApplication.processEvents()
    rows = model.turn_rows()
    lines = [r for r in rows["acting"] if r["procedure"] and not r["done"]]
    assert len(lines) >= 2
    fields = None
    for line in lines[:3]:
        model.request_procedure(line["procedure"], line["who"], line["target"] or "")
        QApplication.processEvents()
        shown = combat.dice_fields
        assert shown and line["name"] in shown[0].purpose
        if fields is None:
            fields = list(shown)
        assert shown == fields  # the same widgets
        for f, slot in zip(shown, model.draft.slots, strict=True):
            fresh = DieField(slot)
            assert (f.title.text(), f.edit.placeholderText(), f.edit.accessibleName()) == (
                fresh.title.text(),
                fresh.edit.placeholderText(),
                fresh.edit.accessibleName(),
            )
            assert f.edit.maximumWidth() == fresh.edit.maximumWidth()
            fresh.deleteLater()


class Counting(QObject):
    """Counts the events of these types its widgets get."""

    def __init__(self, kinds) -> None:
        super().__init__()
        self.kinds, self.seen = kinds, Counter()

    def eventFilter(self, watched, event):  # noqa: N802 - Qt's name
        if event.type() in self.kinds:
            self.seen[watched.objectName() or type(watched).__name__] += 1
        return False


def test_a_step_does_not_enable_and_disable_the_forms_picks_again(desk):
    """The Combat form painted again on a step: a pick the rules lock stays disabled, never
    enabled and disabled again (each a repaint), and what shows is the same."""
    combat = desk.panels["combat"]
    widgets = [row.widget for row in combat.form._rows.values()]
    assert widgets
    before = [(w.objectName(), w.isEnabled()) for w in widgets]
    counting = Counting({QEvent.Type.EnabledChange})
    for w in widgets:
        w.installEventFilter(counting)
    for _ in range(3):
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        now = [(w.objectName(), w.isEnabled()) for w in widgets]
        if now == before:
            assert not counting.seen, counting.seen
        before = now
        counting.seen.clear()


def test_the_same_odds_are_not_painted_again(qtbot):
    from fractions import Fraction

    from app.ui.widgets.odds_chart import OddsChart

    chart = OddsChart()
    qtbot.addWidget(chart)
    chart.show()
    qtbot.waitExposed(chart)
    odds = [("hit", Fraction(1, 3)), ("miss", Fraction(2, 3))]
    chart.show_odds(odds)
    QApplication.processEvents()
    counting = Counting({QEvent.Type.Paint})
    chart.installEventFilter(counting)
    chart.show_odds(list(odds))
    QApplication.processEvents()
    assert not counting.seen
    chart.show_odds([("hit", Fraction(1, 2)), ("miss", Fraction(1, 2))])
    QApplication.processEvents()
    assert counting.seen["odds_chart"] + counting.seen["OddsChart"] >= 1
    assert chart.toolTip() == "hit: 50.0%\nmiss: 50.0%"


def test_the_desk_keeps_the_bars_of_its_panels(desk):
    """Every panel's scroll bars are kept (issue 48): the Combat form's, painted whole at
    every change it shows, is drawn once and shows what Qt draws."""
    from app.ui.widgets.kept_scroll_bar import KeptScrollBars
    from tests.ui.test_kept_scroll_bar import drawn_by_qt, picture_of

    w = desk
    keeper = QApplication.instance().findChild(KeptScrollBars)
    combat = w.panels["combat"]
    bars = [
        bar
        for area in combat.findChildren(QAbstractScrollArea)
        for bar in (area.verticalScrollBar(), area.horizontalScrollBar())
    ]
    assert bars and all(bar in keeper.pictures for bar in bars)
    shown = [bar for bar in bars if bar.isVisible()]
    assert shown  # the Combat form is taller than its dock at 1366x768
    for bar in shown:
        assert picture_of(bar) == drawn_by_qt(bar)
    dock = w.docks["combat"]
    kept = dock.grab().toImage()
    for bar in shown:
        bar.removeEventFilter(keeper)
    assert dock.grab().toImage() == kept  # the panel as Qt draws it
    for bar in shown:
        bar.installEventFilter(keeper)
    drawn = KeptScrollBars.drawn
    w.docks["combat"].repaint()
    assert KeptScrollBars.drawn == drawn


def form_shown(combat) -> list[tuple[str, ...]]:
    """What the Combat form paints: the pickers, each field (text, lock, error, note), the dice
    and the odds' words."""
    form = combat.form
    pickers = [
        (c.currentText(), *(c.itemText(i) for i in range(c.count())))
        for c in (combat.procedure, combat.attacker, combat.target, combat.aircraft)
    ]
    fields = [
        (form.title(n), form.shown_text(n), str(form.is_locked(n)), form.error_text(n))
        + (form.note_text(n),)
        for n in form.names
    ]
    dice = [(f.title.text(), f.edit.displayText()) for f in combat.dice_fields]
    return [*pickers, *fields, *dice, (combat.odds_message.text(),)]


def test_a_step_that_leaves_the_form_as_it_is_does_not_paint_it_again(desk):
    """Issue 48: a step on prepares the open action again on the game as it is (what resolves
    is the new game's), but a form that shows the same is not painted again (2 ms of every
    step's frame); its odds follow the game. What shows is what a paint afresh shows."""
    model, combat = desk.model, desk.panels["combat"]
    assert model.draft.procedure  # the demo opens a gun attack
    for _ in range(3):  # past the impulse's movement (aircraft moved: the form follows)
        desk.panels["turn"].next_step()
        QApplication.processEvents()
    counts: Counter = Counter()
    for part in (combat.form, combat.dice):
        counting(part, "paint", counts)
    for _ in range(4):  # fire check, afterburner, spotting, missile impact: nothing moves
        seq, aircraft = model.draft.prepared.seq, model.session.engagement.aircraft
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        assert model.session.engagement.aircraft is aircraft
        assert model.draft.prepared.seq > seq  # prepared again on the game after the step
        assert combat.odds_view.prepared is model.draft.prepared
    assert counts == Counter()
    shown = form_shown(combat)
    combat.paint()
    assert form_shown(combat) == shown


def test_a_step_that_moves_aircraft_leaves_the_form_as_painted(desk):
    """Issue 48: aircraft that move at a step are listed in the form's pickers as before (by
    name and side, in play): when the open action shows the same, the form is not painted
    again (about 2 ms of the step). What shows is what a paint afresh shows."""
    model, combat = desk.model, desk.panels["combat"]
    counts: Counter = Counter()
    for part in (combat.form, combat.dice):
        counting(part, "paint", counts)
    moved = 0
    for _ in range(12):
        aircraft, look, painted = model.session.engagement.aircraft, model.draft.look(), +counts
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        if model.session.engagement.aircraft is not aircraft and model.draft.look() == look:
            moved += 1
            assert counts == painted, model.session.engagement.step
        shown = form_shown(combat)
        combat.paint()
        assert form_shown(combat) == shown
    assert moved


def test_a_step_that_changes_the_form_paints_it(desk):
    """A break-off check's game turn is read off the game (Phantoms 10.0): at the turn's end
    the form shows the new turn. At every step the form shows what a paint afresh shows."""
    model, combat = desk.model, desk.panels["combat"]
    model.request_procedure("break_off", "olds-1")
    QApplication.processEvents()
    assert combat.form.shown_text("turn") == "1"
    steps = len(model.session.clock.steps())
    for _ in range(steps):
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        shown = form_shown(combat)
        combat.paint()
        assert form_shown(combat) == shown, model.session.engagement.step
    assert model.session.engagement.turn == 2
    assert combat.form.shown_text("turn") == "2"
    assert model.draft.prepared.value("turn").value == 2


def test_a_renamed_aircraft_shows_in_the_forms_pickers(desk):
    """A change of an aircraft the action does not read leaves the action as it was, but the
    pickers list every aircraft: they show the new name."""
    model, combat = desk.model, desk.panels["combat"]
    session = model.session
    other = next(
        a for a in session.engagement.aircraft.values() if a.id not in model.draft.roles.values()
    )
    session.roster.change_aircraft(other.id, name="Renamed Jet")
    QApplication.processEvents()
    listed = [combat.attacker.itemText(i) for i in range(combat.attacker.count())]
    assert any("Renamed Jet" in t for t in listed), listed


def test_a_step_does_not_lay_out_the_status_bar_again(desk):
    """Issue 48: the status bar's step and segment keep the widest of their words in the game,
    so a step's other words are painted in place: the bar is not laid out again and the labels
    beside them are not moved and painted. Every label shows its words whole."""
    bar = desk.statusBar()
    labels = desk.status_labels
    steps = len(desk.model.session.clock.steps())
    for _ in range(steps):  # a whole turn: every step's words seen once
        desk.panels["turn"].next_step()
        QApplication.processEvents()
    laid_out = Counting({QEvent.Type.LayoutRequest})
    bar.installEventFilter(laid_out)
    painted = Counting({QEvent.Type.Paint, QEvent.Type.Move})
    for label in labels.values():
        label.installEventFilter(painted)
    for _ in range(12):
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        desk_rows = desk.model.desk_rows()
        assert labels["phase"].text() == desk_rows["phase"]
        assert labels["segment"].text() == desk_rows["segment"]
        for label in labels.values():
            assert label.width() >= label.sizeHint().width(), label.objectName()
    assert not laid_out.seen, laid_out.seen
    assert painted.seen["status-game"] == painted.seen["status-ruleset"] == 0, painted.seen
    assert painted.seen["status-segment"] > 0  # its words changed: painted in place


def test_a_step_does_not_resize_the_turn_panels_lists(desk):
    """Issue 48: the step's words keep two lines, so a step of one line after one of two does
    not lay the Turn panel out again (its lists resized, laid out and painted whole). The words
    show whole."""
    turn = desk.panels["turn"]
    counting = Counting({QEvent.Type.Resize})
    for view in (turn.acting, turn.step_list):
        view.installEventFilter(counting)
    lines = set()
    for _ in range(12):
        turn.next_step()
        QApplication.processEvents()
        what = turn.what
        words = what.fontMetrics().boundingRect(
            QRect(0, 0, what.contentsRect().width(), 10_000), Qt.TextFlag.TextWordWrap, what.text()
        )
        assert what.contentsRect().height() >= words.height(), what.text()
        lines.add(words.height() // what.fontMetrics().lineSpacing())
    assert lines == {1, 2}  # steps of one line and of two
    assert not counting.seen, counting.seen


def drawn_by_qt(dock):
    """The dock as Qt draws it, its title included."""
    dock.keeps_title = False
    try:
        return dock.grab().toImage()
    finally:
        dock.keeps_title = True


def test_the_desks_docks_keep_their_titles_as_qt_draws_them(desk):
    """Issue 48: a dock's title bar is drawn from its last picture while it looks the same
    (Fusion's drawing of it, about 800,000 instructions, at every paint of a dock), and the
    picture is the one Qt draws, pixel for pixel."""
    from app.ui.widgets.kept_title_dock import KeptTitleDock

    docks = [d for d in desk.findChildren(KeptTitleDock) if not d.visibleRegion().isEmpty()]
    assert {d.objectName() for d in docks} >= {"turn", "roster", "combat"}
    for dock in docks:
        assert dock.grab().toImage() == drawn_by_qt(dock), dock.objectName()


def test_a_title_unchanged_is_put_back_and_a_changed_one_drawn_again(qtbot):
    from PySide6.QtWidgets import QLabel, QMainWindow

    from app.ui.widgets.kept_title_dock import KeptTitleDock

    window = QMainWindow()
    qtbot.addWidget(window)
    dock = KeptTitleDock("Turn", window)
    dock.setWidget(QLabel("the sequence of play"))
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    window.resize(500, 300)
    window.show()
    qtbot.waitExposed(window)
    first = dock.grab().toImage()
    drawn = KeptTitleDock.drawn
    dock.repaint()
    assert dock.grab().toImage() == first
    assert KeptTitleDock.drawn == drawn  # unchanged: the picture put back
    dock.setWindowTitle("Who acts now")
    QApplication.processEvents()
    retitled = dock.grab().toImage()
    assert KeptTitleDock.drawn > drawn  # another title: drawn again
    drawn = KeptTitleDock.drawn
    assert dock.grab().toImage() == retitled
    assert KeptTitleDock.drawn == drawn
    assert retitled != first and retitled == drawn_by_qt(dock)
    dock.setEnabled(False)  # its look changes with its state: drawn again, as Qt draws it
    QApplication.processEvents()
    assert dock.grab().toImage() == drawn_by_qt(dock)
    font = dock.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)  # table mode's larger type
    dock.setFont(font)
    QApplication.processEvents()
    assert dock.grab().toImage() == drawn_by_qt(dock)


def test_a_step_does_not_lay_out_the_turn_panel_again(desk):
    """Issue 48: the Turn panel's heading and step words, which change at every step, are in
    frames of their own, and the title of who acts now is muted by its colour, not a style
    sheet: a step that needs no other height lays out neither the panel nor, through it, the
    dock and the main window. The words show whole, where Qt puts them."""
    turn = desk.panels["turn"]
    steps = len(desk.model.session.clock.steps())
    for _ in range(steps):  # a whole turn: every step's words seen once
        turn.next_step()
        QApplication.processEvents()
    laid_out = Counting({QEvent.Type.LayoutRequest})
    turn.installEventFilter(laid_out)
    nobody = set()
    for _ in range(12):
        turn.next_step()
        QApplication.processEvents()
        for label in (turn.heading, turn.what):
            assert label.height() >= label.heightForWidth(label.width()), label.text()
        nobody.add(turn.acting_lines() == ["nobody acts in this step"])
    assert nobody == {True, False}  # the title muted and not
    assert not laid_out.seen, laid_out.seen


def test_the_muted_title_is_drawn_as_its_style_sheet_drew_it(desk):
    """The title of who acts now, muted while nobody acts, is the same pixels as with the
    style sheet that muted it before (the placeholder text's colour)."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QLabel

    turn = desk.panels["turn"]
    title = turn.acting_title
    for on in (True, False, True):
        turn._mute_title(on)
        QApplication.processEvents()
        sheet = QLabel(title.text(), turn)
        sheet.setGeometry(title.geometry())
        if on:
            colour = turn.palette().color(QPalette.ColorRole.PlaceholderText).name()
            sheet.setStyleSheet(f"color: {colour}")
        sheet.show()
        QApplication.processEvents()
        assert title.grab().toImage() == sheet.grab().toImage(), on
        sheet.deleteLater()


def test_the_status_bars_words_are_measured_once(desk):
    """Issue 48: a status bar label measures each of its words once (Qt measures a label's
    new words three times over, at every step's segment): after a turn, a step measures
    none, and every label is as wide as its words need, as Qt measures them now."""
    labels = desk.status_labels
    steps = len(desk.model.session.clock.steps())
    for _ in range(steps):  # a whole turn: every step's words seen once
        desk.panels["turn"].next_step()
        QApplication.processEvents()
    counts: Counter = Counter()
    for key, label in labels.items():
        counting(label, "sizeHint", counts, key=lambda *a, key=key: key)
    for _ in range(12):
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        assert labels["segment"].text() == desk.model.desk_rows()["segment"]
    assert counts == Counter(), counts
    for label in labels.values():
        assert label.width() >= type(label).sizeHint(label).width(), label.objectName()
    font = labels["segment"].font()
    font.setPointSizeF(font.pointSizeF() * 1.5)  # table mode's larger type: measured afresh
    desk.statusBar().setFont(font)
    QApplication.processEvents()
    assert counts["sizeHint", "segment"] >= 1
    for label in labels.values():
        assert label.width() >= type(label).sizeHint(label).width(), label.objectName()


def test_a_paint_of_the_panel_below_draws_no_title(desk, monkeypatch):
    """Issue 48: a dock's own paint is its title bar; the Turn panel's words changing paint the
    panel below it alone, and the dock then puts back no title (Qt's would be clipped away).
    What shows is what Qt draws."""
    import app.ui.widgets.kept_title_dock as kept

    dock = desk.docks["turn"]
    looked: list[object] = []
    background = kept.background

    def counted(widget):
        looked.append(widget)
        return background(widget)

    monkeypatch.setattr(kept, "background", counted)
    title = dock.widget().geometry()
    title.setTop(0)
    title.setBottom(dock.widget().geometry().top() - 1)
    body = dock.widget().geometry()
    dock.update(body)
    QApplication.processEvents()
    assert not looked  # the panel below only: no title put back
    for _ in range(2):
        desk.panels["turn"].next_step()
        QApplication.processEvents()
    assert not looked
    dock.update(title)
    QApplication.processEvents()
    assert looked  # the title's own paint
    assert dock.grab().toImage() == drawn_by_qt(dock)


def test_who_acts_now_measures_only_lines_it_has_not_had(desk):
    """Issue 48: who acts now is made afresh at every step, mostly of lines it had before: a
    line of the same words in the same type keeps the size measured the first time. After a
    turn, the steps of the next measure none of its lines; every line keeps the size the
    list would measure for it."""
    turn = desk.panels["turn"]
    steps = len(desk.model.session.clock.steps())
    for _ in range(steps):  # a whole turn: its lines seen once
        turn.next_step()
        QApplication.processEvents()
    acting = Measuring()
    turn.acting.setItemDelegate(acting)
    shown = 0
    for _ in range(8):
        turn.next_step()
        QApplication.processEvents()
        shown += turn.acting.count()
        assert [turn.acting.item(i).sizeHint().toTuple() for i in range(turn.acting.count())] == (
            measured_sizes(turn.acting)
        )
    assert shown > 8 and acting.measured == 0


def test_a_step_works_out_the_status_bar_once(desk, monkeypatch):
    """Issue 48: the main window hears of a step twice (the append, then the clock's change):
    the status bar's rows are made once a step and each label given its words once; the
    words are the step's."""
    import app.startup.summary as rows_of

    counts: Counter = Counter()
    made = rows_of.desk_rows

    def desk_rows(*args):
        counts["rows"] += 1
        return made(*args)

    monkeypatch.setattr(rows_of, "desk_rows", desk_rows)
    for name, label in desk.status_labels.items():
        if name != "role":  # (read-only or not: said again after the panels' refresh)
            counting(label, "setText", counts, key=lambda *_a, n=name: n)
    for _ in range(3):
        desk.panels["turn"].next_step()
        QApplication.processEvents()
        rows = desk.model.desk_rows()
        assert desk.status_labels["segment"].text() == rows["segment"]
    assert counts["rows"] == 3
    set_text = {k[1]: n for k, n in counts.items() if k[0] == "setText"}
    assert set_text and max(set_text.values()) <= 3, set_text
