"""Issue 31 at the real desk: a ruleset is a guest. The hostile test ruleset ``guest``
(tests/fixtures/hostile_site/airboss_hostile/guest.py) misbehaves in one method at a time
(steps, acting, on_clock, prefill, decide, odds, cards) in every way (raises, SystemExit,
KeyboardInterrupt, hangs, returns the wrong type), and the umpire drives the real MainWindow
through it: it opens, he presses Next step, opens the gun line, reads the odds, resolves,
looks at the cards. The desk survives every case, shows the message where he looks, writes
nothing, and a hang ends within the (shortened) time limit while the desk keeps turning.

The desk's waits here are timed on a ``LoopClock`` (tests/ui/loop_clock.py), which moves only
as the desk's event loop turns: a time limit ends, and the waiting dialog appears, after so
many turns of the loop, on a loaded machine as on an idle one."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication

import app.core.card_face
import app.session.guard
from app.core.dice import SeededDice
from app.core.ruleset import Lines
from app.session import GameSession
from app.ui.action_form.chain_odds import ChainOddsLine
from app.ui.model import EngagementModel
from app.ui.shell import guest_worker
from app.ui.shell.main_window import MainWindow
from app.ui.widgets.message_bar import MessageBar
from tests.ui.loop_clock import STEP, LoopClock

#: the desk's own ``ANSWER_LATER_AFTER`` (the suite's conftest sets a long one elsewhere)
DESK_ANSWER_LATER_AFTER = guest_worker.ANSWER_LATER_AFTER

NAME = "Guest (hostile test ruleset) (guest)"
#: the time limit of slow ruleset calls in these tests (the desk's own is 5 s)
LIMIT = 0.5
HOWS = ("raise", "exit", "interrupt", "hang", "wrong_type")
#: the guarded call that works out whether each "who acts now" line can act
LINES = "who acts now (can each line act)"
#: how long a test waits for what the desk does at its own pace (an answer, a time limit on
#: the loop clock, the window system's activation): generous, the pace is not what is tested
WITHIN_MS = 30_000


def said(how: str, call: str) -> str:
    """The start of the message the umpire reads when ``call`` misbehaves ``how``."""
    if how == "hang":
        return f"the ruleset {NAME} did not answer in {LIMIT:g} s ({call})"
    return f"the ruleset {NAME} failed in {call}: "


def detail(how: str, method: str) -> str:
    """What the message says of the error itself."""
    return {
        "raise": f"ZeroDivisionError: the guest's {method} divides by zero",
        "exit": f"SystemExit: the guest's {method} exits",
        "interrupt": "KeyboardInterrupt",
        "hang": "nothing was recorded",
        "wrong_type": "",
    }[how]


@pytest.fixture(autouse=True)
def _no_desk_left() -> Iterator[None]:
    """A test's desk is let go of its game when the test ends, and the odds to the end of the
    chain it queued (worked out in a pool of their own, at the rules' pace) are done with: a
    desk left following its game (another station acted) would prepare and work out a chain
    on into the next test, meet that test's misbehaviour and hold its ruleset."""
    yield
    for w in QApplication.topLevelWidgets():
        if isinstance(w, MainWindow):
            w.model.set_session(None)
    for w in QApplication.allWidgets():
        if isinstance(w, ChainOddsLine):
            w._pool.clear()  # noqa: SLF001
            w._pool.waitForDone()  # noqa: SLF001


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoopClock]:
    """The desk's waits for the ruleset timed on the event loop's turns (``LoopClock``)."""
    loop_clock = LoopClock().install(monkeypatch)
    yield loop_clock
    loop_clock.stop()


@pytest.fixture
def game(
    hostile_site: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: LoopClock
) -> Iterator[GameSession]:
    """A guest game in its Combat step (who acts now: each aircraft may fire its guns)."""
    monkeypatch.setattr(app.session.guard, "TIME_LIMIT", LIMIT)
    monkeypatch.setattr(app.core.card_face, "TIME_LIMIT", LIMIT)  # the cards (issue 48: moved)
    # the desk's own wait before an action is left to be done again once the ruleset answered
    monkeypatch.setattr(guest_worker, "ANSWER_LATER_AFTER", DESK_ANSWER_LATER_AFTER)
    s = GameSession.create(tmp_path / "guest.airboss", ruleset="guest", title="Guest")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    s.clock.next_step()
    s.clock.next_step()
    yield s
    s.close()


def log(s: GameSession) -> list[tuple[int, str]]:
    return [(env.seq, env.narrative) for env in s.events()]


def open_desk(qtbot: Any, tmp_path: Path, session: GameSession) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.show_session(session)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.build_panels()
    answered(qtbot)
    question = window.dice_question
    if question is not None and question.isVisible():
        qtbot.mouseClick(question.airboss, Qt.MouseButton.LeftButton)  # Airboss rolls
    assert not window.model.dice_mode.players_roll
    return window


def answered(qtbot: Any) -> None:
    """Wait until no action of the desk waits for the ruleset (it answered, or was given up
    at its time limit): the desk's event loop turned meanwhile (issue 44)."""
    qtbot.waitUntil(lambda: not guest_worker.waiting, timeout=WITHIN_MS)


def click(qtbot: Any, button: Any) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    answered(qtbot)


def acting_lines(window: MainWindow) -> list[str]:
    return window.panels["turn"].acting_lines()


def open_gun_line(qtbot: Any, window: MainWindow) -> Any:
    """Enter on Blue 1's gun line in who acts now: the Combat panel opens on it."""
    acting = window.panels["turn"].acting
    row = next(i for i in range(acting.count()) if "Blue 1 — may fire" in acting.item(i).text())
    acting.setFocus()
    acting.setCurrentRow(row)
    qtbot.keyClick(acting, Qt.Key.Key_Return)
    answered(qtbot)
    return window.panel("combat")


def settle(hostile_site: ModuleType) -> None:
    """The ruleset behaves again: hanging calls released and returned."""
    from app.core import guest

    hostile_site.MISBEHAVE.clear()
    hostile_site.RELEASE.set()
    assert guest.settle()
    hostile_site.RELEASE.clear()


def wait_for_odds_message(qtbot: Any, combat: Any, text: str) -> None:
    qtbot.waitUntil(lambda: text in combat.odds_message.text(), timeout=WITHIN_MS)


@pytest.mark.parametrize("how", HOWS)
def test_steps(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str, monkeypatch
) -> None:
    """Opened with ``steps`` broken: the status bar says so; Next step says so and moves
    nothing. (A hung ruleset also keeps the Combat form's chain odds from answering, and that
    refusal may come after, in the same bar: every refusal the bar showed is read.)"""
    before, clock = log(game), (game.engagement.turn, game.engagement.step)
    hostile_site.MISBEHAVE["steps"] = how
    shown: list[str] = []
    show = MessageBar.show_refusal

    def shows(bar: MessageBar, text: str) -> None:
        shown.append(text)
        show(bar, text)

    monkeypatch.setattr(MessageBar, "show_refusal", shows)
    window = open_desk(qtbot, tmp_path, game)
    call = "steps (sequence of play)"
    assert any(said(how, call) in text for text in shown), shown
    turn = window.panels["turn"]
    click(qtbot, turn.next_button)
    assert said(how, call) in turn.message.message
    assert detail(how, "steps") in turn.message.message
    assert log(game) == before
    assert (game.engagement.turn, game.engagement.step) == clock


@pytest.mark.parametrize("how", HOWS)
def test_acting(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    """Opened with ``acting`` broken: who acts now says why it cannot be shown."""
    before = log(game)
    hostile_site.MISBEHAVE["acting"] = how
    window = open_desk(qtbot, tmp_path, game)
    [line] = acting_lines(window)
    assert line.startswith("who acts now cannot be shown: " + said(how, "acting (who acts now)"))
    assert detail(how, "acting") in line
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_on_clock(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    """Next step with ``on_clock`` broken: refused with the message, the clock unmoved."""
    before, clock = log(game), (game.engagement.turn, game.engagement.step)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["on_clock"] = how
    turn = window.panels["turn"]
    click(qtbot, turn.next_button)
    message = turn.message.message
    assert said(how, "on_clock (what happens by itself)") in message
    assert detail(how, "on_clock") in message
    assert log(game) == before
    assert (game.engagement.turn, game.engagement.step) == clock
    assert turn.heading.text() == "Turn 1 — Combat"


@pytest.mark.parametrize("how", HOWS)
def test_prefill(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    """``prefill`` broken: the gun lines say they cannot act and why, and opened, the Combat
    panel says it too; broken while a form is open, the next keystroke is refused with the
    message, and Resolve writes nothing."""
    before = log(game)
    hostile_site.MISBEHAVE["prefill"] = how
    window = open_desk(qtbot, tmp_path, game)
    expected = said(how, "prepare Gun attack")
    on_lines = said(how, LINES) if how == "hang" else expected
    lines = acting_lines(window)
    assert all(f"— cannot: {on_lines}" in line for line in lines), lines
    combat = open_gun_line(qtbot, window)
    assert expected in combat.refusal.message
    assert detail(how, "prefill") in combat.refusal.message
    if how == "wrong_type":
        assert "TypeError: prefill returned list, not a mapping" in combat.refusal.message
    assert log(game) == before

    settle(hostile_site)  # a form opened while the ruleset behaves, then it breaks
    combat = open_gun_line(qtbot, window)
    assert combat.prepared is not None and combat.prepared.roles["attacker"] == "blue-1"
    hostile_site.MISBEHAVE["prefill"] = how
    spin = combat.form.editor("modifier")
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "1")
    answered(qtbot)
    assert combat.prepared is None
    assert f"Cannot prepare Gun attack: {expected}" in combat.refusal.message
    click(qtbot, combat.resolve_button)
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_decide(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    """``decide`` broken: it runs when a line is prepared (a dry run finds its dice, issue
    32), so the line says it cannot act and opening it says why; a decide that returns the
    wrong type is caught by the odds and by Resolve; nothing is written."""
    before = log(game)
    hostile_site.MISBEHAVE["decide"] = how
    window = open_desk(qtbot, tmp_path, game)
    combat = open_gun_line(qtbot, window)
    if how == "wrong_type":
        wait_for_odds_message(qtbot, combat, said(how, "odds of Gun attack"))
        assert combat.odds_table.rowCount() == 0 and combat.chart.labels == []
        click(qtbot, combat.resolve_button)
        message = combat.refusal.message
        assert said(how, "resolve Gun attack") in message
        assert "'str' object has no attribute" in message
    else:
        on_line = LINES if how == "hang" else "prepare Gun attack"
        assert all(said(how, on_line) in line for line in acting_lines(window))
        assert combat.prepared is None
        assert said(how, "prepare Gun attack") in combat.refusal.message
        assert detail(how, "decide") in combat.refusal.message
        click(qtbot, combat.resolve_button)
        assert said(how, "prepare Gun attack") in combat.refusal.message
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_odds(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    """``odds`` broken: the odds part of the Combat panel says so, no bar is drawn from the
    plugin's data (labels that are not text never reach the chart), nothing is written."""
    before = log(game)
    hostile_site.MISBEHAVE["odds"] = how
    window = open_desk(qtbot, tmp_path, game)
    combat = open_gun_line(qtbot, window)
    expected = said(how, "odds of Gun attack")
    wait_for_odds_message(qtbot, combat, expected)
    message = combat.odds_message.text()
    assert message.startswith(f"No odds for these inputs: {expected}")
    assert detail(how, "odds") in message
    if how == "wrong_type":
        assert "returned the outcome label int 1, not text" in message
    assert combat.odds_table.rowCount() == 0 and combat.chart.labels == []
    assert not combat.chart.grab().isNull()
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_cards(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    """``card_spec`` broken: File > Print cards shows each card saying why it could not be
    drawn, and paints; nothing is written."""
    from app.ui.cards import PrintCardsDialog

    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["card_spec"] = how
    dialog = PrintCardsDialog(window.model, [], window)  # as File > Print cards makes it
    qtbot.addWidget(dialog)
    dialog.show()
    answered(qtbot)  # its preview drawn (the ruleset's calls answered or given up)
    faces = dialog.faces()
    assert [f.name for f in faces] == ["Blue 1", "Red 1"]
    for face in faces:
        [block] = face.blocks
        assert isinstance(block, Lines) and block.title == "This card could not be drawn"
        [text] = block.lines
        assert said(how, "card_spec (control card)") in text
        assert detail(how, "card_spec") in text
        if how == "wrong_type":
            assert "returned str 'a card', not a CardSpec" in text
    assert not dialog.preview.grab().isNull()
    assert log(game) == before


def test_the_desk_keeps_turning_while_a_ruleset_hangs(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, clock: LoopClock
) -> None:
    """Next step into a ruleset that hangs in ``on_clock``: the desk's event loop keeps
    turning (a timer ticks all along) until the time limit ends the wait, and then the
    message is shown. The time limit is on the ``LoopClock``, which only the event loop
    moves: a desk that waited for the call without turning its loop would never reach the
    limit on it (it would end the wait by the real time, with the clock where it was)."""
    window = open_desk(qtbot, tmp_path, game)
    turn = window.panels["turn"]
    hostile_site.MISBEHAVE["on_clock"] = "hang"
    start, ticks = clock.monotonic(), clock.ticks
    click(qtbot, turn.next_button)
    took = clock.monotonic() - start
    # the loop turned the whole time limit's worth while the ruleset hung, and the wait
    # ended soon after it (within 300 turns of the loop)
    assert LIMIT <= took < LIMIT + 3, took
    assert clock.ticks - ticks >= LIMIT / STEP
    assert said("hang", "on_clock (what happens by itself)") in turn.message.message
    # the same call again while the ruleset still hangs: said at once, no second wait
    start = clock.monotonic()
    click(qtbot, turn.next_button)
    assert clock.monotonic() - start < LIMIT
    assert "and is still busy with it" in turn.message.message
    settle(hostile_site)  # the ruleset answers at last: the desk asks it again
    click(qtbot, turn.next_button)
    assert game.engagement.turn == 2 and turn.message.message == ""


def test_odds_are_worked_out_off_the_gui_thread(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, long_limit, monkeypatch
) -> None:
    """Odds that hang: while the ruleset is in them, the Combat panel says it is working them
    out and the umpire types on meanwhile; after the time limit (the desk's own, 5 s: the
    panel is looked at well within it on a loaded machine too) it says the ruleset did not
    answer; nothing is written."""
    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hanging: list[str] = []  # the odds the ruleset is in, as it enters them
    misbehave = hostile_site._misbehave  # noqa: SLF001

    def entered(method: str) -> Any:
        if hostile_site.MISBEHAVE.get(method) == "hang":
            hanging.append(method)
        return misbehave(method)

    monkeypatch.setattr(hostile_site, "_misbehave", entered)
    hostile_site.MISBEHAVE["odds"] = "hang"
    combat = open_gun_line(qtbot, window)
    qtbot.waitUntil(lambda: "odds" in hanging, timeout=WITHIN_MS)
    # the panel opened and says so while the ruleset is in the odds (not after their limit)
    assert combat.odds_message.text() == "Working out the odds…"
    spin = combat.form.editor("modifier")
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "2")  # the desk takes the umpire's typing while the odds hang
    assert spin.text() == "2" and combat.prepared.value("modifier").value == 2
    expected = f"the ruleset {NAME} did not answer in {long_limit:g} s (odds of Gun attack)"
    qtbot.waitUntil(lambda: expected in combat.odds_message.text(), timeout=WITHIN_MS)
    assert combat.odds_table.rowCount() == 0
    assert log(game) == before


def test_the_game_does_not_change_under_a_ruleset_call(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, monkeypatch
) -> None:
    """While Resolve waits for a slow ruleset the desk keeps turning, but another station's
    action is taken in only after the call: the result worked out on the game as it was is
    refused as "another station or window acted first", and nothing of it is written. The
    ruleset's roll answers only once the other station has acted (whatever the machine's
    pace, the station acts while the desk waits for it)."""
    monkeypatch.setattr(app.session.guard, "TIME_LIMIT", 5)
    window = open_desk(qtbot, tmp_path, game)
    combat = open_gun_line(qtbot, window)
    gun = game.ruleset.procedures["gun_attack"]
    real = gun.decide
    rolling, acted = threading.Event(), threading.Event()

    def slow(inputs: Any, dice: Any, draft: Any) -> Any:
        if isinstance(dice, SeededDice):  # Resolve's roll (not the odds' walks over the dice)
            rolling.set()
            acted.wait(WITHIN_MS / 1000)
        return real(inputs, dice, draft)

    monkeypatch.setattr(gun, "decide", slow)
    station = GameSession.open(game.store.where)
    seen: list[int] = []

    def elsewhere() -> None:
        if not rolling.is_set() or acted.is_set():
            return
        station.roster.adjust_ledger("red-1", "ammunition", -1, "another station")
        window.model.follow()  # asked while the ruleset works: taken in after it
        seen.append(game.engagement.seq)
        acted.set()

    before = game.engagement.seq
    refused: list[str] = []  # as the Combat panel said it (the station's action taken in next)
    combat.draft.refused.connect(refused.append)
    poke = QTimer()  # the other station acts once the desk waits for the roll
    poke.setInterval(10)
    poke.timeout.connect(elsewhere)
    poke.start()
    click(qtbot, combat.resolve_button)
    poke.stop()
    station.close()
    assert acted.is_set() and seen == [before]
    assert any("another station or window acted first" in r for r in refused), refused
    said = [narrative for _, narrative in log(game)]
    assert said[-1].startswith("Red 1 spends 1") and not any("gun roll" in n for n in said)


class StopWaiting:
    """Watches for the desk's "Waiting for the ruleset" dialogs from a timer (the desk's event
    loop turns while it waits) and, ``press``, gives up on each with a click on Stop waiting
    or Esc (once ``ready()``: what the test does while the dialog is up is done); notes what
    the umpire saw. Times are on the desk's ``clock``."""

    def __init__(
        self,
        qtbot: Any,
        clock: LoopClock,
        press: str | None = "click",
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        self.qtbot, self.press, self.clock, self.ready = qtbot, press, clock, ready
        self.seen: list[str] = []  # each dialog's first text
        self.appeared_after: list[float] = []  # each dialog: s from the start of its wait
        self.modal: list[bool] = []
        self._dialogs: list[Any] = []
        self._pressed: list[Any] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._look)
        self.timer.start()

    def _look(self) -> None:
        from PySide6.QtWidgets import QApplication

        from app.ui.shell import guest_worker

        dialog = guest_worker.shown
        if dialog is None or not dialog.isVisible():
            return
        if dialog not in self._dialogs:
            self._dialogs.append(dialog)
            self.seen.append(dialog.label.text())
            self.appeared_after.append(self.clock.monotonic() - dialog.since)
            self.modal.append(QApplication.activeModalWidget() is dialog and dialog.isModal())
        if self.press is None or dialog in self._pressed or not self.ready():
            return
        self._pressed.append(dialog)
        if self.press == "click":
            self.qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
        else:
            self.qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    def stop(self) -> None:
        self.timer.stop()


def stopped(call: str) -> str:
    """The message of a call the umpire stopped waiting for (the seconds left out)."""
    return f"s ({call}): the umpire stopped waiting; nothing was recorded"


@pytest.fixture
def long_limit(monkeypatch: pytest.MonkeyPatch) -> float:
    """The desk's own time limit (5 s): the umpire gives up well before it."""
    from app.core.guest import TIME_LIMIT

    monkeypatch.setattr(app.session.guard, "TIME_LIMIT", TIME_LIMIT)
    return TIME_LIMIT


def assert_gave_up_soon(watch: StopWaiting, took: float, limit: float, call: str) -> None:
    watch.stop()
    assert watch.appeared_after and all(after < 1.0 for after in watch.appeared_after)
    assert all(watch.modal)  # his clicks and keys reach the dialog and nothing else
    assert watch.seen[0].startswith(f"Waiting for the ruleset {NAME} ({call})… "), watch.seen
    assert took < limit - 2, took  # well before the time limit


@pytest.mark.parametrize("press", ["click", "escape"])
def test_stop_waiting_for_steps(
    hostile_site: ModuleType,
    game: GameSession,
    qtbot,
    tmp_path,
    long_limit,
    clock: LoopClock,
    press,
) -> None:
    """``steps`` hangs as the desk opens: the waiting dialog appears within a second, Stop
    waiting (or Esc) ends the wait at once, the desk says which ruleset and call; nothing is
    written."""
    before = log(game)
    hostile_site.MISBEHAVE["steps"] = "hang"
    watch = StopWaiting(qtbot, clock, press)
    start = clock.monotonic()
    window = open_desk(qtbot, tmp_path, game)
    took = clock.monotonic() - start
    call = "steps (sequence of play)"
    assert_gave_up_soon(watch, took, long_limit, call)
    assert f"the ruleset {NAME} did not answer in " in window.refusal.message
    assert stopped(call) in window.refusal.message
    assert log(game) == before


def test_stop_waiting_for_acting(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, long_limit, clock: LoopClock
) -> None:
    """``acting`` hangs as the desk opens: Stop waiting, and who acts now says why it cannot
    be shown."""
    before = log(game)
    hostile_site.MISBEHAVE["acting"] = "hang"
    watch = StopWaiting(qtbot, clock)
    start = clock.monotonic()
    window = open_desk(qtbot, tmp_path, game)
    took = clock.monotonic() - start
    call = "acting (who acts now)"
    assert_gave_up_soon(watch, took, long_limit, call)
    [line] = acting_lines(window)
    assert line.startswith(f"who acts now cannot be shown: the ruleset {NAME} did not answer")
    assert stopped(call) in line
    assert log(game) == before


def test_stop_waiting_for_prepare(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, long_limit, clock: LoopClock
) -> None:
    """``prefill`` hangs when the umpire opens the gun line: Stop waiting, and the Combat
    panel says the ruleset did not answer in preparing the form."""
    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["prefill"] = "hang"
    watch = StopWaiting(qtbot, clock)
    start = clock.monotonic()
    combat = open_gun_line(qtbot, window)
    took = clock.monotonic() - start
    call = "prepare Gun attack"
    assert_gave_up_soon(watch, took, long_limit, call)
    assert f"the ruleset {NAME} did not answer in " in combat.refusal.message
    assert stopped(call) in combat.refusal.message
    assert log(game) == before


def test_stop_waiting_for_resolve(
    hostile_site: ModuleType,
    game: GameSession,
    qtbot,
    tmp_path,
    long_limit,
    clock: LoopClock,
    monkeypatch,
) -> None:
    """The gun attack's ``resolve`` hangs when the umpire presses Resolve: Stop waiting, the
    Combat panel says so, nothing is written; the desk's Next step is not reached while the
    dialog is up (a click on it goes nowhere)."""
    from PySide6.QtTest import QTest

    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    combat = open_gun_line(qtbot, window)
    assert combat.prepared is not None
    gun = game.ruleset.procedures["gun_attack"]

    def hang(*args: Any, **kwargs: Any) -> Any:
        hostile_site.RELEASE.wait()
        raise RuntimeError("released")

    monkeypatch.setattr(gun, "resolve", hang)
    turn = window.panels["turn"]
    clicked_next: list[str] = []

    def click_next_while_waiting() -> None:
        from app.ui.shell import guest_worker

        if guest_worker.shown is not None and guest_worker.shown.isVisible():
            # as the window system delivers it: the desk's window is blocked by the dialog
            where = turn.next_button.mapTo(window, turn.next_button.rect().center())
            QTest.mouseClick(window.windowHandle(), Qt.MouseButton.LeftButton, pos=where)
            clicked_next.append(turn.heading.text())

    poke = QTimer()
    poke.setInterval(10)
    poke.timeout.connect(click_next_while_waiting)
    poke.start()
    # Stop waiting once a click on Next step was tried while the dialog is up (both timers
    # may fire in the same turn of the loop)
    watch = StopWaiting(qtbot, clock, ready=lambda: bool(clicked_next))
    start = clock.monotonic()
    click(qtbot, combat.resolve_button)
    took = clock.monotonic() - start
    poke.stop()
    call = "resolve Gun attack"
    assert_gave_up_soon(watch, took, long_limit, call)
    assert clicked_next and set(clicked_next) == {"Turn 1 — Combat"}  # clicks went nowhere
    assert turn.heading.text() == "Turn 1 — Combat" and game.engagement.turn == 1
    assert f"the ruleset {NAME} did not answer in " in combat.refusal.message
    assert stopped(call) in combat.refusal.message
    assert log(game) == before


def test_stop_waiting_for_on_clock(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, long_limit, clock: LoopClock
) -> None:
    """Next step into an ``on_clock`` that hangs: Esc on the dialog, the clock unmoved, and
    the desk's window and the widget the umpire was on have the focus again."""
    from PySide6.QtWidgets import QApplication

    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["on_clock"] = "hang"
    turn = window.panels["turn"]
    window.activateWindow()
    turn.next_button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is turn.next_button, timeout=WITHIN_MS)
    watch = StopWaiting(qtbot, clock, "escape")
    start = clock.monotonic()
    qtbot.keyClick(turn.next_button, Qt.Key.Key_Space)  # Next step from the keyboard
    answered(qtbot)
    took = clock.monotonic() - start
    call = "on_clock (what happens by itself)"
    assert_gave_up_soon(watch, took, long_limit, call)
    assert stopped(call) in turn.message.message
    assert turn.heading.text() == "Turn 1 — Combat"
    assert log(game) == before
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WITHIN_MS)
    assert QApplication.focusWidget() is turn.next_button


def test_a_call_answered_within_the_delay_shows_no_dialog(
    hostile_site: ModuleType,
    game: GameSession,
    qtbot,
    tmp_path,
    long_limit,
    clock: LoopClock,
    monkeypatch,
) -> None:
    """A gun attack that takes a tenth of a second (under ``DIALOG_AFTER_MS``) resolves
    with no waiting dialog; one that takes longer shows it until it answers, and resolves.
    Both take their time on the desk's clock: the event loop turns that long meanwhile."""
    from app.ui.shell import guest_worker

    window = open_desk(qtbot, tmp_path, game)
    gun = game.ruleset.procedures["gun_attack"]
    real = gun.resolve
    pause = [0.1]

    def slow(*args: Any, **kwargs: Any) -> Any:
        clock.hold(pause[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(gun, "resolve", slow)
    assert pause[0] * 1000 < guest_worker.DIALOG_AFTER_MS
    for wait, dialog in ((0.1, False), (guest_worker.DIALOG_AFTER_MS / 1000 + 0.5, True)):
        pause[0] = wait
        before = len(log(game))
        combat = open_gun_line(qtbot, window)
        assert combat.prepared is not None
        # the umpire's click on Resolve activates the desk's window first (the test's click
        # does not: it waits for the window system to give it back after the line's own wait)
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WITHIN_MS)
        watch = StopWaiting(qtbot, clock, press=None)
        click(qtbot, combat.resolve_button)
        watch.stop()
        assert bool(watch.seen) is dialog, watch.seen
        assert guest_worker.shown is None
        assert any("gun roll" in narrative for _, narrative in log(game)[before:])
        # the desk has the keyboard back: the next key goes to its window (activated by the
        # window system in an event of its own, which comes before the next key)
        qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=WITHIN_MS)
        focus = QApplication.focusWidget()
        assert focus is not None and focus.window() is window, focus
