"""Issue 35: the After-action panel on the demo engagement after a played turn; its exports;
``airboss report``; and the desk's first paint without pyqtgraph or numpy.

The played part of turn 1 (Phantoms, every die typed; tests/e2e/test_phantoms_demo_two_turns.py
has the rules record): initiative 4 v 9; Red 1 guns Olds 2 (8, 2): 4 hits; a critical hit on
Olds 2 (7): engine hit; Olds 1 guns Red 1 (6, 5): 2 hits; Eagle 1 locks Red 3 (3, 5): lock.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

from app.cli import main
from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.after_action import AfterActionDock
from app.ui.model import EngagementModel
from rulesets.phantoms.clock import step_of

ROOT = Path(__file__).parents[2]
DEMO = ROOT / "app" / "resources" / "demo.toml"
SITE = ROOT / "tests" / "fixtures" / "site"


def play_part_of_turn_one(s: GameSession) -> dict[str, str]:
    demo = tomllib.loads(DEMO.read_text())
    ids = {
        p["name"]: s.add_aircraft(
            side=p["side"], type_id=p["type"], name=p["name"], pilot=p["pilot"]
        )
        for p in demo["aircraft"]
    }

    def do(proc: str, attacker: str | None, target: str | None, dice: list[int], **kw) -> str:
        p = s.ruleset.procedures[proc]
        inputs = {**p.prefill(s.engagement, attacker, target), **kw}
        inputs.update({k: v for k, v in (("attacker", attacker), ("target", target)) if v})
        return s.perform(proc, inputs, TableDice(dice)).outcome

    def goto(turn: int, step: int) -> None:
        while (s.engagement.turn, s.engagement.step) != (turn, step):
            s.clock.next_step()

    assert do("initiative", None, None, [4, 9]) == "VPAF holds the marker"
    goto(1, step_of(1, "f"))
    assert do("gun_attack", ids["Red 1"], ids["Olds 2"], [8, 2], position_modifier=0) == "4 hits"
    assert s.perform("critical_hit", {"aircraft": ids["Olds 2"]}, TableDice([7])).outcome == (
        "engine hit"
    )
    assert do("gun_attack", ids["Olds 1"], ids["Red 1"], [6, 5], position_modifier=2) == "2 hits"
    goto(1, step_of(1, "h"))
    assert do("radar_lock", ids["Eagle 1"], ids["Red 3"], [3, 5], range_hexes=6) == "lock"
    return ids


@pytest.fixture
def played(tmp_path: Path):
    s = GameSession.create(tmp_path / "demo.airboss", ruleset="phantoms", title="Demo")
    ids = play_part_of_turn_one(s)
    yield s, ids
    s.close()


@pytest.fixture
def panel(played, qtbot):
    s, _ = played
    model = EngagementModel(s)
    p = AfterActionDock(model)
    qtbot.addWidget(p)
    p.resize(900, 650)
    p.show()
    qtbot.waitExposed(p)
    assert p.view is not None  # built when first shown
    yield p
    model.set_session(None)


def counts(items) -> dict[str, int]:
    return {s.name: len(dots.points()) for s, _curve, dots in items}


def test_the_panel_plots_the_fight_per_side_and_per_aircraft(panel):
    view = panel.view
    assert view.quantity.currentData() == "damage"
    # per side: a point at each moment the side's damage changed (its four aircraft joining
    # at the start, then the 4 hits on Olds 2 in impulse 1 f; Red 1's 2 hits for VPAF)
    assert counts(view.fight_items) == {"USAF": 2, "VPAF": 2}
    (usaf, curve, dots) = view.fight_items[0]
    assert [int(v) for v in usaf.values] == [0, 4]
    assert len(curve.getData()[0]) == 2 * 2 - 1  # the stepped line through the two points
    view.per.setCurrentIndex(view.per.findData("aircraft"))
    got = counts(view.fight_items)
    assert got["Olds 2"] == 2 and got["Red 1"] == 2 and got["Olds 1"] == 1 and len(got) == 8
    # ammunition: Olds 1 fired once (5 -> 4); speed and altitude, tracked by Phantoms, are there
    view.quantity.setCurrentIndex(view.quantity.findData("ledger:gun_ammunition"))
    olds1 = next(s for s, _c, _d in view.fight_items if s.name == "Olds 1")
    assert [int(v) for v in olds1.values] == [5, 4]
    assert {"speed", "altitude"} <= {
        view.quantity.itemData(i) for i in range(view.quantity.count())
    }


def test_hover_shows_the_value_and_the_log_line_and_a_click_shows_and_sends_it(panel, qtbot):
    view = panel.view
    view.per.setCurrentIndex(view.per.findData("aircraft"))
    _s, _c, dots = next(t for t in view.fight_items if t[0].name == "Olds 2")
    hit = dots.points()[1]
    action, tip = hit.data()
    assert tip.startswith("Olds 2: Damage 4\n") and "Red 1" in tip and "4 hits" in tip
    with qtbot.waitSignal(panel.log_line) as sent:
        dots.sigClicked.emit(dots, [hit], None)
    assert sent.args == [action]
    assert view.line.text().startswith(f"Turn 1, Impulse 1, f) Gun, #{action}: Red 1")


def test_the_mouse_hovers_clicks_zooms_and_pans_a_plot(panel, qtbot):
    """Real mouse events on the plot: hovering a point shows its value and log line as a
    tip, clicking it sends its action, the wheel zooms and a drag pans (pyqtgraph's own)."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    view = panel.view
    view.per.setCurrentIndex(view.per.findData("aircraft"))
    _s, _c, dots = next(t for t in view.fight_items if t[0].name == "Olds 2")
    hit = dots.points()[1]
    plot, box = view.fight_plot, view.fight_plot.getViewBox()
    qtbot.wait(50)  # the plot laid out with its new items
    at = plot.mapFromScene(dots.mapToScene(hit.pos()))
    for dx in (0, 1):  # (pyqtgraph takes a mouse move at most every few milliseconds)
        qtbot.wait(40)
        qtbot.mouseMove(plot.viewport(), at + QPoint(dx, 0))
    tip = box.toolTip()
    assert tip.startswith("Olds 2: Damage 4\nTurn 1, Impulse 1, f) Gun, #") and "4 hits" in tip
    with qtbot.waitSignal(panel.log_line) as sent:
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert sent.args == [hit.data()[0]]
    (x0, x1), _ = box.viewRange()
    centre = QPointF(plot.viewport().rect().center())
    wheel = QWheelEvent(
        centre, plot.viewport().mapToGlobal(centre), QPoint(0, 0), QPoint(0, 240),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
        False,
    )  # fmt: skip
    QApplication.sendEvent(plot.viewport(), wheel)
    (z0, z1), _ = box.viewRange()
    assert z1 - z0 < (x1 - x0) * 0.9  # zoomed in
    start = plot.viewport().rect().center()
    qtbot.mousePress(plot.viewport(), Qt.MouseButton.LeftButton, pos=start)
    for dx in (10, 40, 80):
        qtbot.wait(40)
        qtbot.mouseMove(plot.viewport(), start + QPoint(dx, 0))
    qtbot.mouseRelease(plot.viewport(), Qt.MouseButton.LeftButton, pos=start + QPoint(80, 0))
    (p0, p1), _ = box.viewRange()
    assert p0 < z0 and p1 - p0 == pytest.approx(z1 - z0)  # panned left, same width


def test_luck_tab_per_side_with_its_band_and_one_number_per_side(panel, played):
    view = panel.view
    view.tabs.setCurrentIndex(1)
    text = view.luck_text.text()
    assert "VPAF's rolls were luckier than 86% of games with these odds" in text
    assert "USAF's rolls were luckier than 68% of games with these odds" in text
    view.side.setCurrentIndex(view.side.findData("side:USAF"))
    items = view.luck_items
    assert {"band", "expected", "actual", "points"} <= set(items)
    assert len(items["points"].points()) == 2  # Olds 1's gun attack and Eagle 1's lock
    assert view.luck_table.rowCount() == 3
    # one aircraft's luck, cumulative: Olds 1's one gun attack, 2 hits
    _s, ids = played
    view.side.setCurrentIndex(view.side.findData(f"aircraft:{ids['Olds 1']}"))
    assert view.luck_plot.plotItem.titleLabel.text.startswith("Olds 1: hits")
    (hit,) = view.luck_items["points"].points()
    assert hit.pos().y() == 2 and "Olds 1: Gun attack on Red 1: 2 hits" in hit.data()[1]


def test_dice_tab_shows_each_die_against_fair_and_how_many_rolls_the_test_needs(panel):
    view = panel.view
    view.tabs.setCurrentIndex(2)
    assert view.die.currentData() == "d10"
    bars = view.dice_items["bars"]
    assert len(bars.opts["x"]) == 10 and sum(bars.opts["height"]) == 9  # nine typed d10s
    assert "too few to judge: the test needs 50" in view.dice_text.text()


def test_exports_png_svg_csv_and_a_pdf_naming_the_aircraft(panel, tmp_path):
    view = panel.view
    png = view.export_plot(tmp_path / "fight.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    view.tabs.setCurrentIndex(1)
    svg = view.export_plot(tmp_path / "luck.svg")
    assert b"<svg" in svg.read_bytes()[:2000]
    csv = view.export_csv(tmp_path / "data.csv").read_text(encoding="utf-8")
    assert (
        "series per aircraft,damage" in csv and "roll,gun_attack" in csv and "typed die,d10" in csv
    )
    pdf = view.export_report(tmp_path / "report.pdf")
    text = " ".join(re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(str(pdf)).pages)
    for name in ("Olds 1", "Olds 2", "Eagle 1", "Red 1", "Red 3"):
        assert name in text, name
    assert "luckier than" in text and "Dice at the table" in text


def test_airboss_report_writes_the_pdf_without_a_window(played, tmp_path, capsys):
    game = tmp_path / "demo.airboss"  # (the played game, still open: read beside it)
    out = tmp_path / "report.pdf"
    assert main(["report", str(game), "--out", str(out)]) == 0
    assert "after-action report" in capsys.readouterr().out
    assert "Olds 1" in PdfReader(str(out)).pages[0].extract_text().replace("\t", " ")
    assert main(["report", str(game), "--out", str(tmp_path / "nowhere" / "r.pdf")]) == 2


def test_the_panel_follows_the_game_and_an_undo(panel, played, qtbot):
    s, ids = played
    view = panel.view
    lock = s.ruleset.procedures["radar_lock"].prefill(s.engagement, ids["Eagle 2"], ids["Red 4"])
    lock.update(attacker=ids["Eagle 2"], target=ids["Red 4"], range_hexes=6)
    s.perform("radar_lock", lock, TableDice([3, 5]))
    qtbot.waitUntil(
        lambda: view.reading is not None and view.reading.series.last_seq == s.engagement.seq
    )
    last = view.reading.series.last_seq
    s.undo()
    qtbot.waitUntil(lambda: view.reading.series.last_seq > last)
    assert [c.rolls for c in view.reading.dice] == [9]  # the lock's two dice undone


def test_the_desks_first_paint_imports_neither_pyqtgraph_nor_numpy(demo_game_file):
    """The desk paints, builds the panels in view (After-action is a tab behind the Game log):
    no pyqtgraph, no numpy; bringing the After-action panel forward loads them."""
    code = (
        f"import sys\nsys.path.insert(0, {str(SITE)!r})\n"
        "from PySide6.QtCore import QSettings\n"
        "from app.ui.shell.application import application, start_game\n"
        "from app.ui.shell.main_window import MainWindow\n"
        "from app.ui.model import EngagementModel\n"
        "app = application()\n"
        f"s, _ = start_game({str(demo_game_file)!r}, None, QSettings())\n"
        "w = MainWindow(EngagementModel(s), QSettings(), panels_later=True)\n"
        "w.persist_layout = False\n"
        "w.show(); app.processEvents()\n"
        "heavy = ('pyqtgraph', 'numpy')\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "w.build_panels(); app.processEvents()\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "d = w.docks['after_action']; d.show(); d.raise_(); app.processEvents()\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "s.close()\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["[]", "[]", "['pyqtgraph', 'numpy']"]


def test_without_pyqtgraph_the_panel_says_so_and_the_desk_carries_on(played, qtbot, monkeypatch):
    """An installation without pyqtgraph or numpy (the frozen bundle has both since issue 35,
    tests/e2e/test_packaging.py): the panel says what is missing instead of failing."""
    monkeypatch.setitem(sys.modules, "pyqtgraph", None)  # import pyqtgraph -> ImportError
    monkeypatch.delitem(sys.modules, "app.ui.after_action.view", raising=False)
    monkeypatch.delitem(sys.modules, "app.ui.after_action.plots", raising=False)
    monkeypatch.delitem(sys.modules, "app.ui.after_action.export", raising=False)
    s, _ = played
    model = EngagementModel(s)
    p = AfterActionDock(model)
    qtbot.addWidget(p)
    p.show()
    assert p.view is None and "need pyqtgraph and numpy" in p.waiting.text()
    model.set_session(None)


def test_a_point_clicked_brings_its_line_forward_in_the_game_log(played, qtbot, tmp_path):
    """Issue 35: a click on a plot point jumps to its log line: the desk raises the Game log
    with that action's line selected (through the model's ``log_line_requested``)."""
    from PySide6.QtCore import QSettings, Qt

    from app.ui.shell.main_window import MainWindow

    s, _ = played
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.show_session(s)
    window.show()
    window.build_panels()
    after = window.panel("after_action")
    window.docks["after_action"].show()
    window.docks["after_action"].raise_()
    qtbot.waitUntil(lambda: after.view is not None)
    view = after.view
    view.per.setCurrentIndex(view.per.findData("aircraft"))
    _s, _c, dots = next(t for t in view.fight_items if t[0].name == "Olds 2")
    hit = dots.points()[1]
    action, _tip = hit.data()
    dots.sigClicked.emit(dots, [hit], None)
    log = window.panels["game_log"]
    rows = log.list.selectionModel().selectedRows()
    assert [log.lines_model.line(r.row()).actions for r in rows] and any(
        action in log.lines_model.line(r.row()).actions for r in rows
    )
    assert not window.docks["game_log"].visibleRegion().isEmpty()
    # and its ruling, one click further (issue 34): the same action's procedure and dice
    assert view.ruling_button.isEnabled()
    qtbot.mouseClick(view.ruling_button, Qt.MouseButton.LeftButton)
    ruling = after.ruling_window.ruling
    assert (ruling.seq, ruling.procedure) == (action, "gun_attack"), ruling
    assert "Olds 2" in dict(ruling.roles).values()
    window.model.set_session(None)
    window.docks["after_action"].raise_()  # the panel catches up when it is seen again
    qtbot.waitUntil(lambda: not view.ruling_button.isEnabled())


def test_the_umpire_names_a_sides_dice_and_the_rolls_typed_after_are_checked_per_die(
    panel, played, qtbot, tmp_path
):
    """Issue 35: on the Dice tab the umpire says once which physical dice a side (or a
    player's aircraft) rolls; the log records it, and the rolls typed from then on get their
    own histogram and test, those before stay with the die's label."""
    from PySide6.QtCore import Qt

    s, ids = played
    view = panel.view
    view.tabs.setCurrentIndex(2)
    assert "No dice named" in view.dice_named_text.text()
    assert [view.dice_who.itemText(i).strip() for i in range(3)] == ["USAF", "Olds 1", "Olds 2"]
    view.dice_who.setCurrentIndex(view.dice_who.findData("side:USAF"))
    qtbot.keyClicks(view.dice_name, "the red d10s")
    qtbot.mouseClick(view.dice_set_button, Qt.MouseButton.LeftButton)
    assert s.events()[-1].narrative == "Dice at the table: USAF rolls the red d10s"
    assert view.line.text() == "Dice named for USAF: the red d10s."
    lock = s.ruleset.procedures["radar_lock"].prefill(s.engagement, ids["Eagle 2"], ids["Red 4"])
    lock.update(attacker=ids["Eagle 2"], target=ids["Red 4"], range_hexes=6)
    s.perform("radar_lock", lock, TableDice([3, 5]))  # USAF's two d10s
    qtbot.waitUntil(
        lambda: view.reading is not None and view.reading.series.last_seq == s.engagement.seq
    )
    assert [(c.label, c.rolls) for c in view.reading.dice] == [("d10", 9), ("d10, the red d10s", 2)]
    assert "USAF: the red d10s" in view.dice_named_text.text()
    view.die.setCurrentIndex(view.die.findData("d10, the red d10s"))
    bars = view.dice_items["bars"]
    assert list(bars.opts["height"]) == [0, 0, 1, 0, 1, 0, 0, 0, 0, 0]
    # a player's own dice: typed with Enter in the name box
    view.dice_who.setCurrentIndex(view.dice_who.findData(f"aircraft:{ids['Olds 2']}"))
    view.dice_name.clear()
    qtbot.keyClicks(view.dice_name, "Anna")
    qtbot.keyPress(view.dice_name, Qt.Key.Key_Return)
    assert s.events()[-1].narrative == "Dice at the table: Olds 2 rolls Anna"
    qtbot.waitUntil(lambda: view.reading.series.last_seq == s.engagement.seq)
    pdf = view.export_report(tmp_path / "report.pdf")
    text = " ".join(re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(str(pdf)).pages)
    assert "d10, the red d10s: 2 typed, too few to judge" in text
    assert (
        "Dice named at the table (for the rolls typed after): USAF: the red d10s; Olds 2: Anna"
        in text
    )


def test_a_loss_is_a_cross_on_its_line_and_the_kill_a_star_on_the_killers(qtbot, tmp_path):
    """Kills and losses as markers: Blue 1's third hit destroys Red 1 (Skirmish: a prop has
    three damage boxes); per aircraft the cross is on Red 1's damage line at 3, the star on
    Blue 1's at 0; per side on the sides' lines; each with its log line."""
    s = GameSession.create(tmp_path / "kill.airboss", "skirmish", "Kill")
    b1 = s.add_aircraft("Blue", "jet", "Blue 1")
    r1 = s.add_aircraft("Red", "prop", "Red 1")
    for die in (1, 2, 3):
        s.perform("gun_attack", {"attacker": b1, "target": r1}, TableDice([die]))
    model = EngagementModel(s)
    p = AfterActionDock(model)
    qtbot.addWidget(p)
    p.resize(900, 650)
    p.show()
    qtbot.waitExposed(p)
    view = p.view

    def marks(name: str):
        (item,) = [i for i in view.fight_plot.plotItem.items if i.objectName() == name]
        (spot,) = item.points()
        return spot.pos().y(), spot.data()[1]

    for per in ("aircraft", "side"):  # (Blue took no damage: its line stays at 0)
        view.per.setCurrentIndex(view.per.findData(per))
        y, tip = marks("losses")
        assert y == 3 and tip.startswith("Red 1 (Red) lost: destroyed; last attacked by Blue 1")
        y, tip = marks("kills")
        assert y == 0 and tip.startswith("Blue 1 (Blue) kill: Red 1 (Red), destroyed\nTurn 1,")
        assert tip.split("\n")[1].endswith(s.events()[-4].narrative)
    model.set_session(None)
    s.close()
