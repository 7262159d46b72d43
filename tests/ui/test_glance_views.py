"""Issue 20: the Roster and the Turn panel as light views filled from a glance.

When the desk closes, each of the two panels records what it shows as plain data (``glance``);
at the next start the window is painted first with a ``RosterView`` and a ``TurnView`` filled
from it (``show_glance``), before pydantic, the game's models and the ruleset are imported. The
view must look exactly like the live panel did: here both are grabbed at the same size and
compared pixel for pixel, after the glance has been through JSON as the desk stores it.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.roster import STATUS, STATUS_ROLE, RosterDock
from app.ui.docks.roster_view import RosterView
from app.ui.docks.turn import TurnDock
from app.ui.docks.turn_view import TurnView
from app.ui.model import EngagementModel

ROOT = Path(__file__).resolve().parents[2]


def through_json(glance: dict[str, Any]) -> dict[str, Any]:
    """The glance as the desk reads it back from its settings: JSON and nothing else."""
    return json.loads(json.dumps(glance))


def filled(
    qtbot, view: RosterView | TurnView, glance: dict[str, Any], size: tuple[int, int], first: bool
) -> QWidget:
    """A fresh view showing ``glance``: filled before it is first shown (``first``: as the desk
    does at start-up) or once on screen."""
    if first:
        view.resize(*size)
        view.show_glance(glance)
        return shown(qtbot, view, *size)
    shown(qtbot, view, *size)
    view.show_glance(glance)
    return view


def shown(qtbot, widget: QWidget, width: int, height: int) -> QWidget:
    """On screen at a fixed size, laid out and painted once. Not activated: a view painted at
    start-up has no keyboard focus either, so neither draws a focus frame."""
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    widget.grab()  # the first paint lays the items out (and settles the scroll bars)
    return widget


def differing_pixels(a: QImage, b: QImage) -> list[tuple[int, int]]:
    assert a.size() == b.size()
    return [
        (x, y)
        for y in range(a.height())
        for x in range(a.width())
        if a.pixel(x, y) != b.pixel(x, y)
    ]


def assert_same_picture(qtbot, live: QWidget, view: QWidget) -> None:
    """Both painted alike, once the view has done what filling it queued (the lists lay their
    items out and set their scroll bars on the next turn of the event loop, as they do at the
    desk before the umpire sees them)."""

    def same() -> bool:
        return live.grab().toImage() == view.grab().toImage()

    try:
        qtbot.waitUntil(same, timeout=2000)
    except AssertionError:
        diff = differing_pixels(live.grab().toImage(), view.grab().toImage())
        raise AssertionError(f"{len(diff)} pixels differ, first {diff[:5]}") from None


# -- the roster ------------------------------------------------------------------------------


@pytest.fixture
def roster_game(tmp_path):
    """Two sides; Red 1 on fire and wounded, Red 2 destroyed (out of play, greyed)."""
    s = GameSession.create(tmp_path / "glance.airboss", "skirmish", "Glance")
    for n in range(1, 5):
        s.add_aircraft("Blue", "jet", f"Blue {n}", "ace" if n == 1 else "average")
        s.add_aircraft("Red", "prop", f"Red {n}", "green")
    s.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([1]))
    s.perform("critical_hit", {"aircraft": "red-1"}, TableDice([2]))
    s.perform("critical_hit", {"aircraft": "red-1"}, TableDice([4]))
    for _ in range(3):  # a prop takes 3
        s.perform("gun_attack", {"attacker": "blue-2", "target": "red-2"}, TableDice([1]))
    yield s
    s.close()


@pytest.mark.parametrize("first", [True, False], ids=["filled-then-shown", "shown-then-filled"])
@pytest.mark.parametrize(
    "size, scroll",
    [((700, 400), 0), ((640, 150), 3)],
    ids=["all-rows", "scrolled"],
)
def test_a_roster_view_from_a_glance_looks_like_the_live_roster(
    roster_game, qtbot, size, scroll, first
):
    dock = shown(qtbot, RosterDock(EngagementModel(roster_game)), *size)
    dock.select(["red-1", "blue-2"])
    if scroll:
        dock.tree.verticalScrollBar().setValue(scroll)
        assert dock.tree.verticalScrollBar().value() == scroll
    glance = through_json(dock.glance())

    view = filled(qtbot, RosterView(), glance, size, first)
    assert_same_picture(qtbot, dock, view)
    assert view.tree.verticalScrollBar().value() == scroll
    assert view.glance() == glance  # and it would record the same again


def test_the_roster_glance_keeps_the_badges_ids_refusal_and_enabled_actions(roster_game, qtbot):
    dock = shown(qtbot, RosterDock(EngagementModel(roster_game)), 700, 400)
    dock.select(["red-1"])
    dock.message.show_refusal("Red 2 is destroyed")
    glance = through_json(dock.glance())
    red = glance["tree"]["items"][1]
    red1 = red["children"][0]
    assert red["cells"][0]["text"] == "Red" and red["cells"][0]["font"]["bold"] is True
    assert red1["selected"] is True and red1["cells"][0]["roles"] == {"256": "red-1"}
    assert red1["cells"][STATUS]["roles"] == {str(int(STATUS_ROLE)): "on_fire,wounded"}
    assert red1["cells"][STATUS]["tip"] == "on fire, wounded"
    assert "fg" in red["children"][1]["cells"][0]  # destroyed: greyed
    assert glance["message"]["text"] == "Red 2 is destroyed"
    assert glance["enabled"] == {"add": True, "rename": True, "remove": True, "pilot": True}

    view = shown(qtbot, RosterView(), 700, 400)
    view.show_glance(glance)
    assert view.message.text() == "Red 2 is destroyed" and not view.message.isHidden()
    assert view.rename_action.isEnabled() and view.add_action.isEnabled()
    assert [i.data(0, 256) for i in view.tree.selectedItems()] == ["red-1"]
    assert_same_picture(qtbot, dock, view)


def test_with_the_keyboard_focus_in_the_tree_both_draw_the_same_focus_frame(roster_game, qtbot):
    """Each grabbed while its window is active and its tree has the focus: the current row
    (the glance keeps it) is framed alike. Only one window can be active at a time, so the
    live roster is grabbed before the view's window is activated."""
    dock = shown(qtbot, RosterDock(EngagementModel(roster_game)), 700, 400)
    dock.select(["red-1"])
    dock.activateWindow()
    qtbot.waitUntil(dock.isActiveWindow)
    dock.tree.setFocus()
    qtbot.waitUntil(dock.tree.hasFocus)
    assert dock.tree.currentItem() is not None  # focus makes the first row current
    live = dock.grab().toImage()
    glance = through_json(dock.glance())

    view = filled(qtbot, RosterView(), glance, (700, 400), True)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    view.tree.setFocus()
    qtbot.waitUntil(view.tree.hasFocus)
    qtbot.waitUntil(lambda: view.grab().toImage() == live, timeout=2000)


def test_a_roster_view_needs_no_game_and_does_nothing(qtbot):
    view = RosterView()
    qtbot.addWidget(view)
    view.add_action.trigger()  # connected to nothing: no dialog, no error
    assert view.tree.topLevelItemCount() == 0
    assert list(view.pilot_actions) == ["green", "inexperienced", "average", "experienced", "ace"]


# -- the turn --------------------------------------------------------------------------------


def turn_game(path: Path, ruleset_id: str, steps: int) -> GameSession:
    """Two aircraft a side (UFO: two Tornados and a Small UFO, initiative rolled), then
    ``steps`` steps of the sequence of play."""
    s = GameSession.create(path, ruleset_id, "Turn glance")
    if ruleset_id == "ufo_interception":
        s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
        s.add_aircraft("NATO", "tornado", "Blue 2", reaction=1)
        s.add_aircraft("Visitors", "small_ufo", "Saucer")
        planes = {"planes": ["blue-1", "blue-2"], "reactions": [2, 1]}
        s.perform("initiative", planes, TableDice([3, 6]))  # both lines ticked off
    elif ruleset_id == "skirmish":
        s.add_aircraft("Blue", "jet", "Blue 1")
        s.add_aircraft("Red", "jet", "Red 1")
        s.perform("initiative", {"sides": ["Blue", "Red"]}, TableDice([2, 6]))  # ★ marker
    else:
        types = list(s.ruleset.aircraft)
        for n in (1, 2):
            for side, t in (("Blue", types[0]), ("Red", types[1 % len(types)])):
                s.add_aircraft(side, t, f"{side} {n}")
    for _ in range(steps):
        s.next_step()
    if ruleset_id == "skirmish" and steps == 2:  # combat: Blue 1 has fired, its line ticked
        s.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
    return s


@pytest.mark.parametrize("first", [True, False], ids=["filled-then-shown", "shown-then-filled"])
@pytest.mark.parametrize(
    "ruleset_id, steps, size",
    [
        ("skirmish", 0, (420, 520)),
        ("skirmish", 2, (420, 520)),
        ("ufo_interception", 0, (420, 520)),
        ("ufo_interception", 3, (420, 520)),
        ("phantoms", 4, (420, 520)),
        ("phantoms", 9, (360, 300)),  # the sequence of play scrolled to its current step
    ],
)
def test_a_turn_view_from_a_glance_looks_like_the_live_turn_panel(
    tmp_path, qtbot, ruleset_id, steps, size, first
):
    session = turn_game(tmp_path / "turn.airboss", ruleset_id, steps)
    try:
        dock = shown(qtbot, TurnDock(EngagementModel(session)), *size)
        assert dock.acting.count() > 0 and dock.heading.text().startswith("Turn ")
        glance = through_json(dock.glance())

        view = filled(qtbot, TurnView(), glance, size, first)
        assert_same_picture(qtbot, dock, view)
        assert view.glance() == glance
        assert view.acting.currentRow() == dock.acting.currentRow()
    finally:
        session.close()


def test_the_turn_glance_keeps_the_current_step_ticks_and_tooltips(tmp_path, qtbot):
    session = turn_game(tmp_path / "turn.airboss", "skirmish", 2)
    try:
        dock = shown(qtbot, TurnDock(EngagementModel(session)), 420, 520)
        dock.message.show_refusal("Red 1 has no ammunition left")
        glance = through_json(dock.glance())
    finally:
        session.close()
    here = [i for i in glance["steps"]["items"] if i["text"].startswith("▶")]
    assert len(here) == 1 and here[0]["font"]["bold"] and "bg" in here[0] and "fg" in here[0]
    acting = glance["acting"]["items"]
    # Red won the initiative (it holds the marker): Red 1 first, then Blue 1, who has fired
    assert [i["text"][:2] for i in acting] == ["1.", "✓ "]
    assert "fg" in acting[1] and "fg" not in acting[0]  # ticked off: greyed
    assert acting[0]["tip"].startswith("Double-click or Enter: open")
    assert glance["acting"]["current"] == 0  # the next line still to act
    assert glance["heading"]["text"].startswith("Turn 1 — ")
    assert glance["message"]["text"] == "Red 1 has no ammunition left"
    assert glance["enabled"] == {"previous": True, "next": True}

    view = shown(qtbot, TurnView(), 420, 520)
    view.show_glance(glance)
    assert view.message.text() == "Red 1 has no ammunition left"
    assert view.acting.item(0).toolTip() == acting[0]["tip"]
    assert view.acting.currentRow() == 0 and view.acting.item(0).isSelected()


def test_a_turn_view_without_a_game_open_shows_it(tmp_path, qtbot):
    """The glance of a desk closed with no game: heading only, Previous and Next disabled."""
    glance = {
        "kind": "turn",
        "version": 1,
        "heading": {"text": "No game open", "style": "", "hidden": False},
        "what": {"text": "", "style": "", "hidden": False},
        "acting_title": {"text": "<b>Who acts now, in order</b>", "style": "", "hidden": False},
        "message": {"text": "", "style": "", "hidden": True},
        "steps": {"items": [], "current": -1},
        "acting": {"items": [], "current": -1},
        "enabled": {"previous": False, "next": False},
    }
    view = shown(qtbot, TurnView(), 400, 400)
    view.show_glance(glance)
    assert view.heading.text() == "No game open"
    assert not view.next_button.isEnabled() and not view.previous_button.isEnabled()


# -- malformed glances -----------------------------------------------------------------------


@pytest.fixture
def roster_glance(roster_game, qtbot):
    dock = shown(qtbot, RosterDock(EngagementModel(roster_game)), 700, 400)
    dock.select(["red-1"])
    return through_json(dock.glance())


def broken(glance: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    """A copy of the glance with the entry at ``path`` replaced (or deleted when ``...``)."""
    out = copy.deepcopy(glance)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    if value is ...:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


ROSTER_BREAKAGES = [
    ([], None),  # not a mapping at all
    (["kind"], "turn"),
    (["version"], 99),
    (["tree"], ...),
    (["tree"], []),
    (["tree", "items"], "Blue"),
    (["tree", "items", 0], 7),
    (["tree", "items", 0, "cells"], [{"text": "too few"}]),
    (["tree", "items", 0, "cells", 0, "text"], 3),
    (["tree", "items", 0, "cells", 0, "fg"], "not a colour"),
    (["tree", "items", 0, "cells", 0, "roles"], {"9999": "x"}),
    (["tree", "items", 0, "cells", 0, "roles"], {"256": ["not", "plain"]}),
    (["tree", "items", 0, "cells", 0, "font"], {"bold": "yes"}),
    (["tree", "items", 0, "flags"], "enabled"),
    (["tree", "items", 0, "flags"], 2**70),
    (["tree", "items", 0, "children"], {"a": 1}),
    (["tree", "header", "widths"], [1, 2]),
    (["tree", "header", "widths", 0], 2**70),
    (["tree", "current"], [5, 5, 5]),
    (["tree", "current"], ["a"]),
    (["tree", "scroll"], "top"),
    (["tree", "scroll", "v"], 1.5),
    (["message"], {"text": "x"}),
    (["enabled", "pilot"], "no"),
    (["enabled"], ...),
]


@pytest.mark.parametrize("path, value", ROSTER_BREAKAGES)
def test_a_malformed_roster_glance_is_refused_with_a_value_error(roster_glance, qtbot, path, value):
    data = value if path == [] else broken(roster_glance, path, value)
    view = RosterView()
    qtbot.addWidget(view)
    with pytest.raises(ValueError, match="glance"):
        view.show_glance(data)


TURN_BREAKAGES = [
    ([], "turn"),
    (["kind"], "roster"),
    (["heading"], ...),
    (["heading", "text"], None),
    (["steps", "items"], None),
    (["steps", "current"], 99),
    (["steps", "current"], True),
    (["steps", "items", 0, "bg"], "#nope"),
    (["acting", "items", 0], "1. Blue 1"),
    (["acting", "items", 0, "flags"], -(2**70)),
    (["enabled"], {"next": True}),
]


@pytest.mark.parametrize("path, value", TURN_BREAKAGES)
def test_a_malformed_turn_glance_is_refused_with_a_value_error(tmp_path, qtbot, path, value):
    session = turn_game(tmp_path / "turn.airboss", "ufo_interception", 0)
    try:
        dock = shown(qtbot, TurnDock(EngagementModel(session)), 420, 520)
        glance = through_json(dock.glance())
    finally:
        session.close()
    data = value if path == [] else broken(glance, path, value)
    view = TurnView()
    qtbot.addWidget(view)
    with pytest.raises(ValueError, match="glance"):
        view.show_glance(data)


# -- light to import -------------------------------------------------------------------------

HEAVY = ("pydantic", "app.core.engagement", "app.core.ruleset", "app.core.data", "app.ui.forms")


def heavy_imported_by(code: str) -> list[str]:
    """The heavy modules loaded in a fresh process by ``code``."""
    probe = code + f"\nimport sys\nprint([m for m in {HEAVY!r} if m in sys.modules])\n"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.strip().replace("'", '"')))


VIEWS = "import app.ui.docks.roster_view, app.ui.docks.turn_view"


def test_the_views_import_no_game_models_ruleset_or_pydantic():
    """Issue 20: the desk paints its last game's roster and turn before those are loaded."""
    assert heavy_imported_by(VIEWS) == []
