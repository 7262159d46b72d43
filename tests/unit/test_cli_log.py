"""``airboss log GAME``: one narrative line per event, undone actions marked, read a page at a
time (issue 20: a long log is never in memory as events)."""

from __future__ import annotations

from app.cli import main
from app.core.dice import TableDice
from app.session import GameSession
from app.session.log import GameLog


def test_the_log_prints_every_narrative_and_marks_undone_actions(tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.airboss"
    with GameSession.create(path, ruleset="skirmish", title="Log test") as s:
        s.add_aircraft("Blue", "jet", "Blue 1")
        s.add_aircraft("Red", "jet", "Red 1")
        s.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
        s.undo()
        when = s.events()[-1].time

    def whole_log(self):
        raise AssertionError("the whole log was read into a list")

    monkeypatch.setattr(GameLog, "events", whole_log)
    assert main(["log", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    shot = "Blue 1 — Gun attack on Red 1: gun roll 3: hit (Skirmish 1)"
    assert [line[18:] for line in lines] == [
        "New Skirmish (test ruleset) game 'Log test'",
        "Blue 1 (Test Jet, average pilot) joins Blue",
        "Red 1 (Test Jet, average pilot) joins Red",
        "[undone] " + shot,
        "Undone: " + shot,
    ]
    assert lines[-1][:18] == f"{lines[-1].split()[0]:>6}  {when:%H:%M:%S}  "


def test_a_redone_action_is_not_marked_and_times_are_the_stored_utc(tmp_path, capsys):
    """Issue 31: the log is printed from its rows, the undone actions read from the undo and
    redo records alone; each time is the stored one (UTC), whatever the computer's zone."""
    path = tmp_path / "g.airboss"
    with GameSession.create(path, ruleset="skirmish", title="Log test") as s:
        s.add_aircraft("Blue", "jet", "Blue 1")
        s.add_aircraft("Red", "jet", "Red 1")
        s.undo()
        s.redo()
        s.clock.next_step()
        s.undo()
        stored = {e.seq: e.time for e in s.events()}
    assert main(["log", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    marked = [line[18:] for line in lines if "[undone]" in line]
    assert len(lines) == len(stored) and len(marked) == 1 and "Turn" in marked[0]
    for line in lines:
        seq = int(line.split()[0])
        assert line[8:16] == f"{stored[seq]:%H:%M:%S}"  # a file stores UTC, without a zone
