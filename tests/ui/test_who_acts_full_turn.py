"""Issue 14: "who acts now" walked through one full turn of each ruleset's sequence of play, step
by step with the Turn panel's Next button: every line is checked against the rules' sequence, and
each line that names a procedure opens it for its aircraft when the umpire presses Enter on it
(the Combat panel on that procedure and aircraft, with no refusal; the initiative roll in the
Initiative panel, never a second form in Combat)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from tests.games import build

Line = tuple[str, str | None]  # the line as shown, the procedure it opens (or None)


def both(what: str, proc: str | None) -> list[Line]:
    return [(f"1. Blue 1 — {what}", proc), (f"2. Red 1 — {what}", proc)]


NOBODY: list[Line] = [("nobody acts in this step", None)]

# UFO rules, Turn Order: initiative d6 + reaction; the UFO moves; planes move in two halves,
# lowest initiative first; cannon fire at the half way point and at the end, highest first;
# missile firing highest first, the UFO at 13 - its ray gun charge (9: 4).
UFO: list[tuple[str, list[Line]]] = [
    (
        "Roll Initiative",
        [  # rolled when the game was built: ticked off (issue 29)
            ("✓ 1. Blue 1 — rolls d6 + pilot reaction 2", "initiative"),
            ("✓ 2. Blue 2 — rolls d6 + pilot reaction 1", "initiative"),
        ],
    ),
    (
        "UFO Moves",
        [
            (
                "1. Saucer — moves up to 6 inches (may change direction up to 90 degrees first)",
                "ufo_move",
            )
        ],
    ),
    (
        "Move first half",
        [
            ("1. Blue 1 — moves first half of its move (4 inches) (initiative 5)", "aircraft_move"),
            ("2. Blue 2 — moves first half of its move (4 inches) (initiative 7)", "aircraft_move"),
        ],
    ),
    (
        "Cannon firing, at the half way point",
        [
            ("1. Blue 2 — may fire its cannon (initiative 7)", "cannon"),
            ("2. Blue 1 — may fire its cannon (initiative 5)", "cannon"),
        ],
    ),
    (
        "Move second half",
        [
            # only opened here, never moved in the first half: said on the line (issue 29)
            (
                "1. Blue 1 — moves second half of its move (4 inches) (initiative 5) — cannot: "
                "Blue 1 has not made the first half of its move",
                "aircraft_move",
            ),
            (
                "2. Blue 2 — moves second half of its move (4 inches) (initiative 7) — cannot: "
                "Blue 2 has not made the first half of its move",
                "aircraft_move",
            ),
        ],
    ),
    (
        "Cannon firing, at the end of the move",
        [
            ("1. Blue 2 — may fire its cannon (initiative 7)", "cannon"),
            ("2. Blue 1 — may fire its cannon (initiative 5)", "cannon"),
        ],
    ),
    (
        "Missile Firing",
        [
            (
                "1. Blue 2 — fires 1 or 2 missiles of one type, or guns once (initiative 7)",
                "missile_launch",
            ),
            (
                "2. Blue 1 — fires 1 or 2 missiles of one type, or guns once (initiative 5)",
                "missile_launch",
            ),
            ("3. Saucer — fires its ray gun or recharges (initiative 4)", "ray_gun"),
        ],
    ),
]

# Air Power, Sequence of Play: flight (attacks after an FP: each aircraft's gun attack is a
# line of its own after its flight), missile launch, Genie scatter and detonation (nothing in
# flight: nobody), administration (speeds for the next turn).
FLIGHT = "flies its move FP by FP; gun or rocket attacks after an FP"
AIRPOWER = [
    (
        "Flight phase",
        [
            (f"1. Blue 1 — {FLIGHT}", "flight"),
            ("2. Blue 1 — may make a gun attack after an FP (Gun Combat)", "gun_attack"),
            (f"3. Red 1 — {FLIGHT}", "flight"),
            ("4. Red 1 — may make a gun attack after an FP (Gun Combat)", "gun_attack"),
        ],
    ),
    ("Air-to-air missile launch phase", NOBODY),
    ("Genie scatter and detonation", NOBODY),
    ("Aircraft administrative phase", both("sets its speed for the next game turn", None)),
]

# Nth Fleet 2.2: strategic missions, then activation (strike, escort, CAP), then return to
# base (nobody has flown yet).
NTH_FLEET = [
    ("Strategic air phase", both("may fly a strategic mission (2.2)", "launch_mission")),
    ("Activation phase", both("may launch a strike, escort or CAP (2.2)", "launch_mission")),
    ("Return to base phase", NOBODY),
]

# Advanced Air Force, the Game-Turn: plot and move, Advantage, fire.
AAF = [
    ("Plot and move", both("writes its movement secretly (airspeed)", "speed_change")),
    (
        "Advantage determination",
        [
            # a line that cannot act says so (issue 29): Blue 1 is the B-17 sample
            (
                "1. Blue 1 — may declare an Advantage (pursuer within 1200 ft) — cannot: rule "
                "2: Blue 1 is not a fighter and has no fixed guns: no Advantage",
                "declare_advantage",
            ),
            ("2. Red 1 — may declare an Advantage (pursuer within 1200 ft)", "declare_advantage"),
        ],
    ),
    ("Fire resolution", both("may fire", "gun_fire")),
]

#: Phantoms 6.0 Movement Impulse Chart as printed: impulse -> the speeds that move in it
IMPULSE_CHART = {
    1: (4, 5, 6, 7, 8, 9, 10),
    2: (3, 7, 9, 10),
    3: (2, 6, 8, 9, 10),
    4: (4, 5, 7, 8, 9, 10),
    5: (1, 3, 5, 6, 7, 8, 10),
    6: (7, 8, 9, 10),
    7: (4, 5, 6, 8, 9, 10),
    8: (2, 8, 9, 10),
    9: (3, 6, 7, 9, 10),
    10: (4, 5, 6, 7, 8, 9, 10),
}


def phantoms(speeds: dict[str, int]) -> list[tuple[str, list[Line]]]:
    """Phantoms 5.0: set speed, break-off, then ten impulses; an aircraft moves and may fire its
    guns only in the impulses its speed is marked in (6.0)."""

    def movers(impulse: int, what: str, proc: str | None) -> list[Line]:
        moving = [n for n in ("Blue 1", "Red 1") if speeds[n] in IMPULSE_CHART[impulse]]
        return [(f"{i}. {n} — {what}", proc) for i, n in enumerate(moving, 1)] or NOBODY

    out = [
        ("Set speed", both("sets speed (5.0)", "set_speed")),
        ("Break-off check", both("may attempt to break off (10.0)", "break_off")),
    ]
    for impulse in range(1, 11):
        out += [
            ("Movement", movers(impulse, "moves one hex (6.0)", None)),
            ("Fire check", NOBODY),
            ("Afterburner", both("may use its afterburner (6.5)", "afterburner")),
            ("Spotting (optional)", NOBODY),
            ("Missile impact", NOBODY),
            ("Gun", movers(impulse, "may fire guns (7.2)", "gun_attack")),
            (
                "Break lock / missile launch",
                both("may break lock or launch a missile (7.1.1c, 7.1.2)", "missile_launch"),
            ),
            ("Radar lock", both("may attempt radar lock-on (7.1.1b)", "radar_lock")),
            ("Maneuver marking", both("places its maneuver marker (6.1)", "mark_maneuver")),
            ("Impulse end", NOBODY),
        ]
    return out


@pytest.fixture
def window(tmp_path, qtbot):
    def make(ruleset_id: str) -> MainWindow:
        settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
        w = MainWindow(EngagementModel(), settings)
        qtbot.addWidget(w)
        w.open_game(build(tmp_path / f"{ruleset_id}.airboss", ruleset_id))
        w.resize(1366, 768)
        w.show()
        qtbot.waitExposed(w)
        w.activateWindow()
        qtbot.waitUntil(w.isActiveWindow)
        return w

    return make


def on_screen(widget) -> bool:
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def open_line(qtbot, w: MainWindow, row: int, proc: str, who: str) -> None:
    """Enter on the line: its procedure opens for its aircraft; a line that says it cannot
    act says why in the form too (issue 29), any other opens with nothing refused."""
    turn, combat = w.panels["turn"], w.panels["combat"]
    _, _, cannot = turn.acting.item(row).text().partition(" — cannot: ")
    turn.acting.setCurrentRow(row)
    turn.acting.setFocus()
    qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    QApplication.processEvents()
    rs = w.model.session.ruleset
    if proc == rs.initiative:
        assert on_screen(w.panels["initiative"]), "the Initiative panel is in front"
        assert combat.procedure.findData(proc) < 0  # never a second initiative form
        return
    assert on_screen(combat)
    assert combat.procedure.currentData() == proc
    chosen = combat.attacker if combat.attacker.isVisible() else combat.aircraft
    assert chosen.currentData() == who
    if cannot:
        assert cannot in combat.refusal.message, (cannot, combat.refusal.message)
    else:
        assert combat.refusal.message == "", combat.refusal.message


def walk_one_turn(qtbot, w: MainWindow, expected: list[tuple[str, list[Line]]]) -> None:
    turn = w.panels["turn"]
    s = w.model.session
    assert (s.engagement.turn, s.engagement.step) == (1, 0)
    seen = []
    for title, lines in expected:
        if not on_screen(turn):  # rolling initiative brought its tab (beside Turn) in front
            w.docks["turn"].raise_()
            QApplication.processEvents()
        assert turn.heading.text() == f"Turn 1 — {title}", (len(seen), turn.heading.text())
        shown = turn.acting_lines()
        assert shown == [text for text, _ in lines], (title, len(seen))
        for row, (_text, proc) in enumerate(lines):
            item = turn.acting.item(row)
            target = item.data(Qt.ItemDataRole.UserRole)
            assert (target[0] if target else None) == proc, (title, row)
            if proc is not None:
                open_line(qtbot, w, row, proc, target[1])
        seen.append(title)
        qtbot.mouseClick(turn.next_button, Qt.MouseButton.LeftButton)
    # one full turn: the next step is the first of turn 2
    assert (s.engagement.turn, s.engagement.step) == (2, 0), "the turn has more steps"
    assert turn.heading.text() == f"Turn 2 — {expected[0][0]}"


@pytest.mark.parametrize(
    ("ruleset_id", "expected"),
    [
        ("ufo_interception", UFO),
        ("airpower", AIRPOWER),
        ("nth_fleet", NTH_FLEET),
        ("advanced_air_force", AAF),
    ],
)
def test_one_full_turn_of_who_acts_now(qtbot, window, ruleset_id, expected):
    w = window(ruleset_id)
    walk_one_turn(qtbot, w, expected)


def test_one_full_turn_of_who_acts_now_phantoms(qtbot, window):
    w = window("phantoms")
    e = w.model.session.engagement
    from rulesets.phantoms.state import state_of

    speeds = {a.name: state_of(a).speed for a in e.aircraft.values()}
    walk_one_turn(qtbot, w, phantoms(speeds))


def test_the_ufo_combat_panel_opens_on_no_refusal(qtbot, window):
    """The UFO game's Combat panel starts on a procedure the chosen aircraft can do (the UFO's
    move for the UFO), not a red refusal, and offers no second initiative form."""
    w = window("ufo_interception")
    combat = w.panels["combat"]
    assert combat.refusal.message == ""
    assert combat.procedure.findData("initiative") < 0
