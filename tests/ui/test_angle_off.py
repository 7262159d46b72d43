"""The angle-off board against a small fake geometry: place, drag, turn, fields, roster."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from app.core import hexgrid
from app.core.board import snap
from app.core.ruleset import Piece, Relation
from app.session import GameSession
from app.ui.docks.angle_off import AngleOffDock
from app.ui.model import EngagementModel


class FakeGeometry:
    """Reports the distance and bearing, a rear arc, and allows an attack within 3 units."""

    grid = "hex"

    def __init__(self):
        self.calls = []

    def relate(self, target: Piece, attacker: Piece) -> Relation:
        self.calls.append((target, attacker))
        if target.x == attacker.x and target.y == attacker.y:
            raise ValueError("both pieces are in the same place")
        tx, ty = hexgrid.physical(target.x, target.y)
        ax, ay = hexgrid.physical(attacker.x, attacker.y)
        dist = math.hypot(ax - tx, ay - ty)
        bearing = round(math.degrees(math.atan2(ay - ty, ax - tx))) % 360
        rear = (target.facing + 150) % 360
        return Relation(
            lines=(
                ("Range", f"{dist:.2f}"),
                ("Bearing", str(bearing)),
                ("Facing", str(target.facing)),
                ("Altitude difference", str(attacker.altitude - target.altitude)),
                ("Speeds", f"{target.speed:g}/{attacker.speed:g}"),
            ),
            arcs=(("rear", rear, rear + 60),),
            attack_allowed=dist <= 3,
            why_not="" if dist <= 3 else "out of range",
        )


@pytest.fixture
def game(tmp_path):
    s = GameSession.create(tmp_path / "g.airboss", "skirmish", "Board test")
    s.add_aircraft("Blue", "jet", "Blue 1")
    s.add_aircraft("Red", "prop", "Red 1")
    yield s
    s.close()


@pytest.fixture
def geometry(game):
    g = FakeGeometry()
    game.ruleset.geometry = g  # this game's bound ruleset only
    return g


@pytest.fixture
def dock(qtbot, game, geometry):
    d = AngleOffDock(EngagementModel(game))
    qtbot.addWidget(d)
    d.resize(520, 760)
    d.show()
    qtbot.waitExposed(d)
    return d


def view_pos(dock, x, y):
    return dock.board.mapFromScene(dock.board.scene_point("hex", x, y))


def test_without_geometry_the_dock_says_so(qtbot, game):
    d = AngleOffDock(EngagementModel(game))
    qtbot.addWidget(d)
    assert d.panel.isHidden()
    assert "Skirmish (test ruleset) has no board geometry" in d.no_geometry.text()


def test_shows_what_the_geometry_reports_with_the_arc_drawn(dock, geometry):
    lines = dock.relation_lines()
    assert lines["Range"] == "2.00" and lines["Bearing"] == "270"
    assert dock.verdict.text() == "Attack allowed"
    arcs = [i for i in dock.board._arc_items if i.toolTip().startswith("rear")]
    assert arcs and arcs[0].toolTip() == "rear: 240 to 300 degrees"
    assert dock.board.attacker_arcs == ["rear"]  # the attacker sits behind, at 270
    dock.set_piece("attacker", x=0.0, y=2.0)
    assert dock.board.attacker_arcs == []
    assert geometry.calls[-1][0] == Piece(0.0, 0.0, 90, 0, 0)


def test_click_places_the_chosen_piece_snapped_to_a_hex(qtbot, dock):
    qtbot.mouseClick(dock.board.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(dock, 4.1, 2.9))
    a = dock.pieces["attacker"]
    assert (a.x, a.y) == (4.0, 3.0)
    assert dock.verdict.text() == "No attack: out of range"
    assert dock.fields["attacker"].x_box.value() == 4.0
    qtbot.mouseClick(dock.place_target, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dock.board.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(dock, 3, 2.5))
    assert (dock.pieces["target"].x, dock.pieces["target"].y) == (3.0, 2.5)
    assert dock.relation_lines()["Range"] == "1.00"


def test_drag_moves_a_piece(qtbot, dock):
    vp = dock.board.viewport()
    start, end = view_pos(dock, 0, -2), view_pos(dock, 2, 1)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(vp, start + QPoint(5, 5))
    qtbot.mouseMove(vp, end)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    a = dock.pieces["attacker"]
    assert (a.x, a.y) == (2.0, 1.0)
    assert dock.relation_lines()["Bearing"] == str(
        round(math.degrees(math.atan2(1, 2 * hexgrid.HALF_SQRT3)))
    )


def test_keys_and_wheel_turn_the_chosen_piece(qtbot, dock):
    dock.place_target.setChecked(True)
    dock.board.setFocus()
    qtbot.keyClick(dock.board, Qt.Key.Key_BracketLeft)
    assert dock.pieces["target"].facing == 120
    assert dock.relation_lines()["Facing"] == "120"
    qtbot.keyClick(dock.board, Qt.Key.Key_BracketRight)
    qtbot.keyClick(dock.board, Qt.Key.Key_BracketRight)
    assert dock.pieces["target"].facing == 60
    # the wheel turns a piece once it is selected (clicked): issue 29
    qtbot.mouseClick(dock.board.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(dock, 0, 0))
    assert dock.board.selected == "target"
    wheel(dock, -120)
    assert dock.pieces["target"].facing == 30
    assert dock.fields["target"].facing.value() == 30
    assert dock.board.pieces["target"].rotation() == -30


def test_a_piece_on_a_hex_side_turns_along_the_side(dock):
    dock.set_piece("attacker", x=0.0, y=0.5)  # the side between (0, 0) and (0, 1)
    assert dock.pieces["attacker"].facing in (0, 180)
    dock.turn_active(1)
    assert dock.pieces["attacker"].facing in (0, 180)


def test_altitude_and_speed_fields_reach_the_geometry(qtbot, dock):
    alt = dock.fields["attacker"].altitude
    alt.selectAll()
    qtbot.keyClicks(alt, "3")
    qtbot.keyClick(alt, Qt.Key.Key_Return)
    speed = dock.fields["target"].speed
    speed.selectAll()
    qtbot.keyClicks(speed, "4")
    qtbot.keyClick(speed, Qt.Key.Key_Return)
    assert dock.relation_lines()["Altitude difference"] == "3"
    assert dock.relation_lines()["Speeds"] == "4/0"


def test_an_invalid_place_is_reported_not_raised(dock):
    dock.set_piece("attacker", x=0.0, y=0.0)
    assert dock.verdict.text() == "Cannot measure: both pieces are in the same place"
    assert dock.relation_lines() == {}


def test_pieces_follow_roster_aircraft(qtbot, dock, game):
    combo = dock.fields["attacker"].aircraft
    combo.setCurrentIndex(combo.findText("Blue 1 (Blue)"))
    assert dock.pieces["attacker"].speed == 6  # the jet's speed attribute
    game.perform("afterburner", {"aircraft": "blue-1"})
    assert dock.pieces["attacker"].speed == 7
    dock.show_selection(["red-1", "blue-1"])
    assert dock.pieces["attacker"].speed == 5
    assert dock.pieces["target"].speed == 7


def test_snap_prefers_centres_and_takes_sides_when_near():
    assert snap("hex", 0.1, 0.2) == (0.0, 0.0)
    assert snap("hex", 0.0, 0.5) == (0.0, 0.5)
    assert snap("hex", 1.05, 0.45) == (1.0, 0.5)
    assert snap("inches", 1.13, 2.6) == (1.25, 2.5)


def test_screenshot(dock, tmp_path):
    dock.set_piece("attacker", x=2.0, y=-1.0, facing=120)
    assert dock.grab().save(str(tmp_path.parent / "angle_off.png"))


def test_a_piece_that_follows_an_aircraft_puts_it_on_the_board_undoably(qtbot, dock, game):
    """Issue 18: placing, moving or turning an aircraft on the board is an event in the log."""
    combo = dock.fields["attacker"].aircraft
    combo.setCurrentIndex(combo.findText("Blue 1 (Blue)"))
    assert game.engagement.get("blue-1").position is None  # following alone writes nothing
    qtbot.mouseClick(dock.board.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(dock, 4.1, 2.9))
    pos = game.engagement.get("blue-1").position
    assert (pos.x, pos.y) == (4.0, 3.0)
    assert "Blue 1 at (4, 3)" in game.events()[-1].narrative
    dock.board.setFocus()
    qtbot.keyClick(dock.board, Qt.Key.Key_BracketLeft)  # turn left: a second event
    turned = game.engagement.get("blue-1").position.facing
    assert turned != pos.facing
    game.undo()  # the turn is undone: the piece goes back to the logged facing
    assert dock.pieces["attacker"].facing == pos.facing
    qtbot.mouseClick(dock.fields["attacker"].off, Qt.MouseButton.LeftButton)
    assert game.engagement.get("blue-1").position is None


def test_the_board_reads_the_pair_from_their_positions(dock, game, geometry):
    from app.core.board import reading

    game.roster.place("blue-1", 0, -2, 90, 0)
    assert reading(geometry, game.engagement, "blue-1", "red-1") is None  # red-1 is not placed
    game.roster.place("red-1", 0, 0, 90, 0)
    rel = reading(geometry, game.engagement, "blue-1", "red-1")
    assert dict(rel.lines)["Range"] == "2.00"
    dock.show_pair("blue-1", "red-1")
    assert dock.pieces["attacker"].y == -2 and dock.pieces["target"].y == 0


def test_the_board_prints_as_a_page(dock, tmp_path):
    out = tmp_path / "board.pdf"
    dock.board_pdf(str(out))
    assert out.read_bytes()[:5] == b"%PDF-"


def test_phantoms_board_shows_the_moves_of_the_chosen_aircraft(qtbot, tmp_path):
    """Issue 18, movement help: choosing an aircraft of a Phantoms game that stands on the
    board draws where each maneuver it may mark ends (6.2) and lists them beside the readings."""
    s = GameSession.create(tmp_path / "p.airboss", "phantoms", "Moves")
    try:
        f4 = s.add_aircraft("USAF", "f4e", "Olds", speed=4)
        mig = s.add_aircraft("VPAF", "mig21", "Red")
        s.roster.place(f4, 0, 0, 90, 0)
        s.roster.place(mig, 2, 3, 270, 0)
        d = AngleOffDock(EngagementModel(s))
        qtbot.addWidget(d)
        d.resize(520, 760)
        d.show()
        d.show_pair(f4, mig)
        assert "straight" in d.board.move_labels and "loop" in d.board.move_labels
        lines = d.relation_lines()
        assert lines["Speed (6.0)"] == "4"
        assert "turn left" in lines["Maneuvers it may mark (6.2)"]
        assert lines["Firing position (7.1.1a)"] and lines["Radar aspect (7.1.1b)"]
        assert d.grab().save(str(tmp_path.parent / "board_phantoms_moves.png"))
    finally:
        s.close()


def test_phantoms_board_draws_the_radar_cone_in_use(qtbot, tmp_path, _user_data):
    """Issue 18: with the cone's width filled in (120 degrees, a test value) the board draws
    the attacker's radar cone, held strongly when the target is in it (7.1.1b)."""
    from app.core.data import save_override

    save_override("phantoms", "positions", {"radar_cone": {"width_degrees": 120}})
    s = GameSession.create(tmp_path / "c.airboss", "phantoms", "Cone")
    try:
        f4 = s.add_aircraft("USAF", "f4e", "Olds", speed=4)
        mig = s.add_aircraft("VPAF", "mig21", "Red")
        s.roster.place(mig, 0, 0, 90, 0)
        s.roster.place(f4, 0, -3, 90, 0)
        d = AngleOffDock(EngagementModel(s))
        qtbot.addWidget(d)
        d.resize(520, 760)
        d.show()
        d.show_pair(f4, mig)
        assert d.board.cone_arcs == ["radar cone"]
        s.roster.place(f4, 0, -3, 270, 0)  # turned away: the MiG is behind it
        d.show_pair(f4, mig)
        assert d.board.cone_arcs == []
        assert d.grab().save(str(tmp_path.parent / "board_phantoms_cone.png"))
    finally:
        s.close()


def wheel(dock, delta: int, x: float = 3, y: float = 3) -> bool:
    """One wheel notch over the board; whether the board took it."""
    pos = QPointF(view_pos(dock, x, y))
    event = QWheelEvent(
        pos,
        dock.board.viewport().mapToGlobal(pos),
        QPoint(),
        QPoint(0, delta),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(dock.board.viewport(), event)
    return event.isAccepted()


def test_the_wheel_scrolls_past_a_piece_not_selected(qtbot, dock):
    """Issue 29: the wheel over the board turns nothing until the umpire picks a piece (it is
    left to scroll the panel), nor once the board has lost the keyboard."""
    before = dict(dock.pieces)
    assert not wheel(dock, -120, 0, 0)  # right over the target, never picked
    assert not wheel(dock, -120, 0, -2)  # and over the attacker
    assert dock.pieces == before
    qtbot.mouseClick(dock.board.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(dock, 0, 0))
    dock.fields["target"].altitude.setFocus()  # the umpire goes elsewhere
    assert not wheel(dock, -120, 0, 0)
    assert dock.pieces == before


def follow_both(dock) -> None:
    for role, name in (("attacker", "Blue 1 (Blue)"), ("target", "Red 1 (Red)")):
        combo = dock.fields[role].aircraft
        combo.setCurrentIndex(combo.findText(name))


def test_both_aircraft_placed_and_faced_in_four_actions(qtbot, dock, game):
    """Issue 29: click (the attacker), a compass key for its facing, click (the target), a
    key for its facing: both aircraft on the board, each action one entry in the log."""
    follow_both(dock)
    before = len({e.action for e in game.events()})
    vp = dock.board.viewport()
    qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, pos=view_pos(dock, 4, 3))  # 1
    qtbot.keyClick(dock.board, Qt.Key.Key_6)  # 2: the attacker faces right (east)
    qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, pos=view_pos(dock, 2, 1))  # 3
    qtbot.keyClick(dock.board, Qt.Key.Key_2)  # 4: the target faces down
    blue, red = game.engagement.get("blue-1").position, game.engagement.get("red-1").position
    assert (blue.x, blue.y, blue.facing) == (4, 3, 0)
    assert (red.x, red.y, red.facing) == (2, 1, 270)
    assert len({e.action for e in game.events()}) - before == 4


def test_one_wheel_gesture_is_one_undoable_action(qtbot, dock, game):
    """Issue 29: three notches of the wheel over the selected piece turn it three facings at
    once, and are one action in the log once the wheel stops; one undo undoes the turn."""
    follow_both(dock)
    vp = dock.board.viewport()
    qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, pos=view_pos(dock, 4, 3))
    placed = game.engagement.get("blue-1").position
    before = len(game.events())
    for _ in range(3):
        assert wheel(dock, 120, 4, 3)
    assert dock.pieces["attacker"].facing != placed.facing  # turned at once on the board
    assert len(game.events()) == before  # the gesture is not over yet
    qtbot.waitUntil(lambda: len(game.events()) == before + 1)
    turned = game.engagement.get("blue-1").position.facing
    assert turned == dock.pieces["attacker"].facing != placed.facing
    game.undo()
    assert game.engagement.get("blue-1").position.facing == placed.facing
