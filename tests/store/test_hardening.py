"""Issue 16: odd file names address exactly that file; bad game files are refused (or opened
read-only) with one line naming the file and the reason, byte-for-byte unchanged, nothing left
beside them; the CLI prints that line, never a traceback."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.cli import main
from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.session import GameSession
from app.store import StoreError

ODD_NAMES = [
    "q?x.airboss",
    "p%41.airboss",
    "a#b.airboss",
    "budget?copy.airboss",
    "with space.airboss",
    "ünïcødé ✈ 空.airboss",
    "x?mode=memory.airboss",
]


def make_game(path: Path) -> GameSession:
    s = GameSession.create(path, ruleset="skirmish", title="Hardening")
    a = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1", pilot="ace")
    b = s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    s.perform("gun_attack", {"attacker": a, "target": b, "hit_number": 6}, TableDice([1]))
    return s


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", ODD_NAMES)
def test_odd_file_name_addresses_exactly_that_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    make_game(path).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    with GameSession.open(path) as s:
        assert s.title == "Hardening"
        s.clock.next_step()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_budget_file_beside_an_odd_name_is_never_touched(tmp_path: Path) -> None:
    budget = tmp_path / "budget"
    with sqlite3.connect(budget) as db:
        db.execute("CREATE TABLE money (amount INTEGER)")
    db.close()
    before = sha(budget)
    make_game(tmp_path / "budget?copy.airboss").close()
    assert sha(budget) == before
    with sqlite3.connect(budget) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    db.close()
    assert tables == {"money"}


# -- bad game files ---------------------------------------------------------------------------


def _sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    with db:
        for st in statements:
            db.execute(st)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _last_payload(path: Path) -> tuple[int, str]:
    db = sqlite3.connect(path)
    row = db.execute("SELECT seq, payload FROM event ORDER BY seq DESC LIMIT 1").fetchone()
    db.close()
    return int(row[0]), str(row[1])


def corrupt_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    page = 4096
    for off in range(page * 2, len(data), page):
        data[off : off + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def other_ruleset_created(path: Path) -> None:
    seq, _ = 1, None
    db = sqlite3.connect(path)
    payload = db.execute("SELECT payload FROM event WHERE seq = 1").fetchone()[0]
    db.close()
    doc = json.loads(payload)
    doc["ruleset"] = "phantoms"
    _sql(path, f"UPDATE event SET payload = '{json.dumps(doc)}' WHERE seq = {seq}")


def other_ruleset_procedure(path: Path) -> None:
    seq, payload = _last_payload(path)
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, payload FROM event WHERE kind='procedure_resolved'").fetchall()
    db.close()
    seq, payload = rows[-1]
    doc = json.loads(payload)
    doc["procedure"] = "phantoms_only_gun_attack"
    _sql(path, f"UPDATE event SET payload = '{json.dumps(doc)}' WHERE seq = {seq}")


def unknown_event_type(path: Path) -> None:
    seq, payload = _last_payload(path)
    doc = json.loads(payload)
    doc["kind"] = "teleported"
    _sql(path, f"UPDATE event SET payload = '{json.dumps(doc)}' WHERE seq = {seq}")


def garbage_payload(path: Path) -> None:
    seq, _ = _last_payload(path)
    _sql(path, f"UPDATE event SET payload = '{{{{not json' WHERE seq = {seq}")


def invalid_utf8(path: Path) -> None:
    seq, _ = _last_payload(path)
    _sql(path, f"UPDATE event SET payload = CAST(X'7B226B696E64223AFF' AS TEXT) WHERE seq={seq}")


def bad_snapshot(path: Path) -> None:
    _sql(path, "INSERT INTO snapshot (game_id, seq, data) SELECT id, 1, X'DEADBEEF' FROM game")


def undo_of_missing_action(path: Path) -> None:
    db = sqlite3.connect(path)
    row = db.execute("SELECT * FROM event ORDER BY seq DESC LIMIT 1").fetchone()
    cols = [d[0] for d in db.execute("SELECT * FROM event LIMIT 1").description]
    db.close()
    rec = dict(zip(cols, row, strict=True))
    seq = rec["seq"] + 1
    payload = json.dumps({"kind": "reverted", "action": 999})
    _sql(
        path,
        "INSERT INTO event (game_id, seq, action, time, actor, rule, narrative, kind, payload) "
        f"VALUES ('{rec['game_id']}', {seq}, {seq}, '{rec['time']}', 'umpire', '', 'Undone', "
        f"'reverted', '{payload}')",
    )


def garbage_variants(path: Path) -> None:
    _sql(path, "UPDATE game SET variants = '{\"no\": 1'")


BAD_FILES: dict[str, Callable[[Path], None]] = {
    "corrupt pages": corrupt_pages,
    "game_created of another ruleset": other_ruleset_created,
    "procedure of another ruleset": other_ruleset_procedure,
    "unknown event type": unknown_event_type,
    "garbage payload": garbage_payload,
    "invalid UTF-8": invalid_utf8,
    "undo of an action not in the log": undo_of_missing_action,
    "garbage variants": garbage_variants,
}


@pytest.fixture
def good_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "game.airboss"
    s = make_game(path)
    for _ in range(40):  # enough pages for the corruption to land in data
        s.add_aircraft(side="Blue", type_id="jet", name="Wing " + "x" * 200)
    s.close()
    yield path


@pytest.mark.parametrize("spoil", list(BAD_FILES), ids=list(BAD_FILES))
def test_bad_file_refused_unchanged_nothing_beside(
    good_file: Path, spoil: str, capsys: pytest.CaptureFixture[str]
) -> None:
    BAD_FILES[spoil](good_file)
    before = sha(good_file)
    with pytest.raises(StoreError) as e:
        GameSession.open(good_file)
    msg = str(e.value)
    assert "\n" not in msg and str(good_file) in msg
    assert sha(good_file) == before
    assert sorted(p.name for p in good_file.parent.iterdir()) == ["game.airboss"]
    # the CLI: one line, exit code 2, no traceback
    for argv in (["log", str(good_file)], ["cards", str(good_file), "--out", "x.pdf"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and str(good_file) in err
    assert sha(good_file) == before
    assert sorted(p.name for p in good_file.parent.iterdir()) == ["game.airboss"]


def test_a_bad_snapshot_is_said_and_left_out_the_game_opens_unchanged(good_file: Path) -> None:
    """Issue 46: a snapshot row that does not agree with its log (here: garbage) no longer
    makes the game unopenable; it is said, naming its event, and never used."""
    bad_snapshot(good_file)
    before = sha(good_file)
    with GameSession.open(good_file) as s:
        assert (
            len(s.log.problems) == 1 and "snapshot of this game at event seq 1" in s.log.problems[0]
        )
        assert s.engagement.aircraft
    assert sha(good_file) == before
    assert sorted(p.name for p in good_file.parent.iterdir()) == ["game.airboss"]


def test_read_only_file_opens_read_only(good_file: Path) -> None:
    good_file.chmod(stat.S_IRUSR | stat.S_IRGRP)
    before = sha(good_file)
    with GameSession.open(good_file) as s:
        assert s.read_only
        assert s.engagement.aircraft
        with pytest.raises(RuleViolation, match="read-only"):
            s.clock.next_step()
    assert sha(good_file) == before
    assert sorted(p.name for p in good_file.parent.iterdir()) == ["game.airboss"]


def test_good_game_in_read_only_folder(good_file: Path) -> None:
    folder = good_file.parent
    before = sha(good_file)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with GameSession.open(good_file) as s:
            assert s.read_only
            assert len(s.engagement.aircraft) > 2
        assert sorted(p.name for p in folder.iterdir()) == ["game.airboss"]
    finally:
        folder.chmod(stat.S_IRWXU)
    assert sha(good_file) == before


def test_asked_read_only(good_file: Path) -> None:
    before = sha(good_file)
    with GameSession.open(good_file, read_only=True) as s:
        assert s.read_only
        with pytest.raises(RuleViolation):
            s.add_aircraft(side="Blue", type_id="jet", name="Late")
    assert sha(good_file) == before


def test_foreign_sqlite_file_leaves_nothing_beside(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    before = sha(other)
    with pytest.raises(StoreError, match="not an Airboss game"):
        GameSession.open(other)
    assert sha(other) == before
    assert os.listdir(tmp_path) == ["other.db"]


def test_damage_found_beside_the_reading_is_said_first(
    good_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44: SQLite's check of every page runs in a thread while the game is read; when
    the reading fails too (here a garbage payload), the refusal says what the check found:
    damage explains what else failed."""
    import app.store.file_store as fs

    garbage_payload(good_file)
    monkeypatch.setattr(
        fs, "damaged", lambda db, path: StoreError(f"{path}: the file is damaged (test)")
    )
    before = sha(good_file)
    with pytest.raises(StoreError, match=r"the file is damaged \(test\)$"):
        GameSession.open(good_file)
    assert sha(good_file) == before
    assert sorted(p.name for p in good_file.parent.iterdir()) == ["game.airboss"]


def test_damage_the_reading_never_meets_is_refused_before_writing(
    good_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check made beside the reading is waited for before the file is opened for writing:
    damage where the opening reads nothing (here: the check says so) refuses the game and
    writes nothing."""
    import app.store.file_store as fs

    monkeypatch.setattr(
        fs, "damaged", lambda db, path: StoreError(f"{path}: the file is damaged (test)")
    )
    before = sha(good_file)
    with pytest.raises(StoreError, match="the file is damaged"):
        GameSession.open(good_file)
    assert sha(good_file) == before
    assert sorted(p.name for p in good_file.parent.iterdir()) == ["game.airboss"]
