"""``airboss ruling GAME SEQ`` (issue 34): the ruling of a log entry as text -- procedure and
rule, every input and its source, the odds stored before the roll, the dice, the outcome and
what it caused; ``--public`` only what the players may see; an unknown entry said."""

from __future__ import annotations

from app.cli import main
from app.core.dice import TableDice
from app.session import GameSession


def test_the_ruling_of_a_log_entry_is_printed(tmp_path, capsys):
    path = tmp_path / "g.airboss"
    with GameSession.create(path, ruleset="phantoms", title="Ruling") as s:
        types = list(s.ruleset.aircraft)
        blue = s.add_aircraft("Blue", types[0], "Blue 1")
        red = s.add_aircraft("Red", types[1], "Red 1")
        s.perform(
            "radar_lock", {"attacker": blue, "target": red, "range_hexes": 5}, TableDice([9, 2])
        )
        seq = s.events()[-1].action
        s.undo()
    assert main(["ruling", str(path), str(seq)]) == 0
    out = capsys.readouterr().out
    assert "Radar lock-on (rule 7.1.1b)" in out
    assert "attacker: Blue 1, target: Red 1" in out
    assert "Range: 5 — typed" in out and "card and state" in out
    assert "as stored with the event before the roll" in out and "lock: 11/20 (55%)" in out
    assert "d10 9 (typed at the table)" in out and "Outcome: lock" in out
    assert "UNDONE" in out and "by umpire" in out
    assert main(["ruling", str(path), str(seq), "--public"]) == 0
    public = capsys.readouterr().out
    assert "by umpire" not in public and "Not shown to the players" in public
    assert main(["ruling", str(path), "999"]) == 2
    assert "has no log entry 999" in capsys.readouterr().err
