"""Issue 48 ("Fast"): "who acts now" changes only the lines that differ. A step on (or a page's
dice arriving) used to clear the list and fill it again, so Qt laid out and painted every
line at every step; the list shows exactly what a Turn panel drawn afresh shows: the words,
what each line opens, its tooltip and colour, its size, the cursor and the selection."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.core.dice import TableDice
from app.startup.demo import create_demo_game
from app.ui.docks.turn import TurnDock
from app.ui.model import EngagementModel


@pytest.fixture
def rolled(tmp_path, qtbot):
    """A Turn panel on the Phantoms demo, its initiative rolled (eight aircraft)."""
    session = create_demo_game(tmp_path / "demo.airboss")
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    model = EngagementModel(session)
    turn = TurnDock(model)
    qtbot.addWidget(turn)
    yield turn
    model.set_session(None)


def shown(dock: TurnDock) -> tuple[list[tuple[object, ...]], int, list[int]]:
    """Every line as drawn, the cursor's line and the selected lines."""
    acting = dock.acting
    lines = []
    for i in range(acting.count()):
        item = acting.item(i)
        fg = item.data(Qt.ItemDataRole.ForegroundRole)
        lines.append(
            (
                item.text(),
                item.data(Qt.ItemDataRole.UserRole),
                item.toolTip(),
                fg.color().name() if fg is not None else None,
                item.sizeHint().toTuple(),
            )
        )
    selected = sorted(acting.row(it) for it in acting.selectedItems())
    return lines, acting.currentRow(), selected


def changes(dock: TurnDock) -> Counter:
    """What the list's model tells its view from now on."""
    seen: Counter = Counter()
    model = dock.acting.model()
    for name in ("modelReset", "rowsInserted", "rowsRemoved", "dataChanged"):
        getattr(model, name).connect(lambda *_a, n=name: seen.update([n]))
    return seen


def afresh(reference: TurnDock) -> tuple[list[tuple[object, ...]], int, list[int]]:
    """What a Turn panel shows of who acts now when its list is filled from empty."""
    reference.acting.clear()
    reference._refresh_acting()  # noqa: SLF001 - the panel's own drawing of the rows
    return shown(reference)


def test_who_acts_now_after_steps_is_drawn_as_afresh(tmp_path, qtbot):
    """Phantoms' first steps: eight lines, one ("nobody acts"), eight again, four; each line
    as a list filled afresh draws it, the cursor on the same line, the same line selected."""
    model = EngagementModel(create_demo_game(tmp_path / "demo.airboss"))
    turn, reference = TurnDock(model), TurnDock(model)
    qtbot.addWidget(turn)
    qtbot.addWidget(reference)
    counts = []
    for n in range(13):
        if n:
            turn.next_step()
        lines, current, selected = shown(turn)
        assert (lines, current, selected) == afresh(reference), n
        assert selected == ([current] if current >= 0 else [])
        counts.append(len(lines))
    assert {1, 4, 8} <= set(counts) and counts[-1] != counts[-2]
    model.set_session(None)


def test_who_acts_now_changed_in_place_paints_as_afresh(tmp_path, qtbot):
    """The list on screen, its lines changed in place, paints pixel for pixel what the same
    list cleared and filled afresh paints (the cursor's line, the muted lines)."""
    model = EngagementModel(create_demo_game(tmp_path / "demo.airboss"))
    turn = TurnDock(model)
    qtbot.addWidget(turn)
    turn.resize(520, 560)
    turn.show()
    qtbot.waitExposed(turn)
    counts = set()
    for _ in range(6):
        turn.next_step()
        QApplication.processEvents()
        kept = turn.acting.grab().toImage()
        counts.add(turn.acting.count())
        turn.acting.clear()
        turn._refresh_acting()  # noqa: SLF001 - the panel's own drawing of the rows
        QApplication.processEvents()
        assert turn.acting.grab().toImage() == kept
    assert {1, 8} <= counts
    model.set_session(None)


def test_lines_ticked_off_leave_no_cursor_as_afresh(tmp_path, qtbot):
    """UFO Interception, its initiative rolled when the game was built: every line of the
    step ticked off and muted, no cursor; the next steps' lines as drawn afresh."""
    from app.session import GameSession
    from tests.games import build

    session = GameSession.open(build(tmp_path / "ufo.airboss", "ufo_interception"))
    model = EngagementModel(session)
    turn, reference = TurnDock(model), TurnDock(model)
    qtbot.addWidget(turn)
    qtbot.addWidget(reference)
    lines, current, selected = shown(turn)
    assert all(line[0].startswith("✓") and line[3] is not None for line in lines)
    assert (current, selected) == (-1, [])
    for n in range(3):
        assert shown(turn) == afresh(reference), n
        turn.next_step()
    assert shown(turn)[1] >= 0
    model.set_session(None)
    session.close()


def test_a_step_that_leaves_the_lines_as_they_were_changes_none(rolled):
    """Two steps in a row where nobody acts: the list is not cleared and filled again (laid
    out and painted whole); the line stays as it was."""
    turn = rolled
    nobody = ["nobody acts in this step"]
    while turn.acting_lines() != nobody:
        turn.next_step()
    turn.next_step()  # Phantoms: afterburner (6.5), then spotting and missile impact
    assert turn.acting_lines() != nobody
    while turn.acting_lines() != nobody:
        turn.next_step()
    before = shown(turn)
    seen = changes(turn)
    turn.next_step()
    assert turn.acting_lines() == nobody
    assert shown(turn) == before
    assert not seen, seen


def test_a_step_of_as_many_lines_changes_them_in_place(rolled):
    """Eight lines after eight (guns, then break lock and missiles): the lines' words change in
    place, no line taken out or put in."""
    turn = rolled
    while "may fire guns" not in turn.acting_lines()[0]:
        turn.next_step()
    count = len(turn.acting_lines())
    seen = changes(turn)
    turn.next_step()
    assert len(turn.acting_lines()) == count == 8
    assert "may break lock or launch a missile" in turn.acting_lines()[0]
    assert seen["dataChanged"] > 0
    assert seen["modelReset"] == seen["rowsInserted"] == seen["rowsRemoved"] == 0, seen
