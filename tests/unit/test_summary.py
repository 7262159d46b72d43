"""The rows the desk draws, kept in the game file beside its log (issue 36).

Kept by the model after a change, in one statement that writes nothing unless the log still
ends where the rows say; read at start-up with plain sqlite3 and json, and used only when
current: the same game, the same Airboss, the log's last sequence number. Everything else is
refused, and the desk opens the game before it paints.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from app import __version__
from app.session import GameSession
from app.startup.summary import kept_rows, well_formed
from app.startup.summary_file import PREFIX, keep_summary, read_summary
from app.ui.model import EngagementModel


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "kept.airboss"
    with GameSession.create(path, "skirmish", "Kept") as s:
        s.add_aircraft("Blue", "jet", "Blue 1", "ace")
        s.add_aircraft("Red", "prop", "Red 1")
    forget_rows(path)  # as an Airboss before issue 36 left it: the session kept them as it closed
    return path


def forget_rows(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM airboss_info WHERE key LIKE 'summary:%'")


def desk_on(path: Path, qapp, act=None) -> None:
    """A desk's model on the game, an action taken, the game closed as the desk closes it."""
    model = EngagementModel(GameSession.open(path))
    if act is not None:
        model.attempt(lambda: act(model.session))
    model.set_session(None)


def stored(path: Path) -> dict:
    with sqlite3.connect(path) as db:
        (gid,) = db.execute("SELECT id FROM game").fetchone()
        (value,) = db.execute(
            "SELECT value FROM airboss_info WHERE key = ?", (PREFIX + gid,)
        ).fetchone()
    return json.loads(value)


def test_a_desk_keeps_the_rows_of_its_game_and_they_are_read_back(game, qapp) -> None:
    assert read_summary(str(game), __version__) is None  # none kept yet
    desk_on(game, qapp, lambda s: s.clock.next_step())
    rows = kept_rows(str(game))
    assert rows is not None and well_formed(rows)
    with GameSession.open(game) as s:
        assert stored(game)["seq"] == s.engagement.seq == s.store.last_seq(s.game_id)
    assert [a["name"] for a in rows["roster"]["aircraft"]] == ["Blue 1", "Red 1"]
    assert rows["roster"]["sides"][0] == {"side": "Blue", "in_play": 1, "of": 1}
    assert rows["desk"]["title"] == "Kept" and rows["desk"]["ruleset"] == "skirmish"
    assert rows["turn"]["current"] == 1 and rows["turn"]["steps"]


def test_rows_are_kept_for_every_change_undo_included(game, qapp) -> None:
    model = EngagementModel(GameSession.open(game))
    model.attempt(lambda: model.session.roster.change_aircraft("blue-1", name="Leader"))
    model.keep_summary()
    assert kept_rows(str(game))["roster"]["aircraft"][0]["name"] == "Leader"
    model.attempt(model.session.undo)
    model.keep_summary()
    assert kept_rows(str(game))["roster"]["aircraft"][0]["name"] == "Blue 1"
    model.set_session(None)


def test_rows_of_a_log_that_went_on_are_not_used(game, qapp) -> None:
    """A program that keeps no rows (an Airboss before issue 36) appended since: the rows are
    older than the log."""
    desk_on(game, qapp)
    assert kept_rows(str(game)) is not None
    with GameSession.open(game) as s:
        s.clock.next_step()
        s.rows.kept = s.engagement.seq  # (this session keeps none as it closes)
    assert read_summary(str(game), __version__) is None


def test_rows_are_never_kept_for_a_log_that_went_on_meanwhile(game, qapp) -> None:
    """The write itself checks the log: rows made before another window's action are not
    written over the log's end."""
    with GameSession.open(game) as s, GameSession.open(game) as other:
        seq = s.engagement.seq
        other.clock.next_step()
        keep_summary(s.store, s.game_id, seq, __version__, {"desk": {}})
        assert read_summary(str(game), __version__) is None
        with sqlite3.connect(game) as db:
            assert db.execute(
                "SELECT count(*) FROM airboss_info WHERE key LIKE 'summary:%'"
            ).fetchone() == (0,)
    # the window that played on kept its own as it closed; the other's closing kept nothing
    assert stored(game)["seq"] == seq + 1 and kept_rows(str(game)) is not None


def test_rows_of_another_version_or_format_or_game_are_not_used(game, qapp) -> None:
    desk_on(game, qapp)
    assert read_summary(str(game), "0.0.0-other") is None
    record = stored(game)
    for key, value in (("format", 2), ("game", "another"), ("seq", record["seq"] - 1)):
        bad = {**record, key: value}
        with sqlite3.connect(game) as db:
            db.execute(
                "UPDATE airboss_info SET value = ? WHERE key LIKE 'summary:%'", (json.dumps(bad),)
            )
        assert read_summary(str(game), __version__) is None, key


@pytest.mark.parametrize(
    "value",
    [
        "{not json",
        "[]",
        json.dumps({"roster": {"sides": [], "aircraft": [{"id": 1}]}}),
    ],
)
def test_damaged_rows_are_not_used(game, qapp, value) -> None:
    desk_on(game, qapp)
    record = stored(game)
    if value.startswith('{"'):
        value = json.dumps({**record, **json.loads(value)})
    with sqlite3.connect(game) as db:
        db.execute("UPDATE airboss_info SET value = ? WHERE key LIKE 'summary:%'", (value,))
    assert kept_rows(str(game)) is None


def test_no_rows_for_a_server_a_missing_file_a_folder_or_a_fifo(tmp_path) -> None:
    assert read_summary("postgresql://host/db", __version__) is None
    assert read_summary(str(tmp_path / "missing.airboss"), __version__) is None
    assert read_summary(str(tmp_path), __version__) is None
    fifo = tmp_path / "pipe.airboss"
    os.mkfifo(fifo)
    assert read_summary(str(fifo), __version__) is None  # never blocks on it
    junk = tmp_path / "junk.airboss"
    junk.write_bytes(b"not a database at all" * 100)
    assert read_summary(str(junk), __version__) is None


def test_reading_the_rows_writes_nothing_beside_the_file(game, qapp) -> None:
    desk_on(game, qapp)
    before = sorted(p.name for p in game.parent.iterdir())
    mtime = game.stat().st_mtime_ns
    assert kept_rows(str(game)) is not None
    assert sorted(p.name for p in game.parent.iterdir()) == before
    assert game.stat().st_mtime_ns == mtime


def test_a_read_only_game_keeps_nothing(game, qapp) -> None:
    model = EngagementModel(GameSession.open(game, read_only=True))
    model.keep_summary()
    model.set_session(None)
    assert read_summary(str(game), __version__) is None


def test_the_kept_rows_are_small(tmp_path, qapp) -> None:
    """Sixty aircraft: about half a kilobyte per aircraft, nothing of the log."""
    path = tmp_path / "sixty.airboss"
    with GameSession.create(path, "phantoms", "Sixty") as s:
        types = list(s.ruleset.aircraft)
        for i in range(60):
            s.add_aircraft("Blue" if i % 2 else "Red", types[i % len(types)], f"Jet {i}")
    desk_on(path, qapp)
    size = len(json.dumps(stored(path)))
    assert kept_rows(str(path)) is not None
    assert size < 32_000, size


def test_the_rows_of_a_sequence_of_play_are_made_again_only_when_its_steps_change(
    monkeypatch,
) -> None:
    """Issue 48: a ruleset gives the same printed steps at every step of a turn; their rows
    (a hundred in Phantoms) are made once, and made again from steps that differ."""
    from dataclasses import replace

    from app.core.ruleset import Step
    from app.startup import summary

    made: list[Step] = []
    label = summary.step_label
    monkeypatch.setattr(summary, "step_label", lambda s: made.append(s) or label(s))
    steps = [Step(phase="Impulse 1", title=f"Step {n}", rule=f"{n}.0") for n in range(5)]
    first = summary.step_rows(steps)
    again = summary.step_rows(list(steps))
    assert (
        again == first == [{"label": f"Impulse 1 · Step {n}", "rule": f"{n}.0"} for n in range(5)]
    )
    assert len(made) == 5  # the same steps: no row made again
    changed = [*steps[:2], replace(steps[2], title="Gunfire"), *steps[3:]]
    assert summary.step_rows(changed)[2] == {"label": "Impulse 1 · Gunfire", "rule": "2.0"}
    assert summary.step_rows(steps[:3]) == first[:3]
