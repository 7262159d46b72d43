"""Issue 46: every store error reaches the umpire as one sentence naming the file and what
happened. A full disk is made here as SQLite meets one (its ``max_page_count``: the same
"database or disk is full" a full disk gives), at a game's creation and in the middle of one;
and a hand-edited log's refusal names the seq."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.session import GameSession
from app.store import StoreError, file_store
from tests.older_file import rechain


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> dict[str, int | None]:
    """``disk["pages"]``: the most pages any game file written now may hold (None: no limit)."""
    limit: dict[str, int | None] = {"pages": None}
    real = file_store.connect

    def connect(path: Path, read_only: bool = False, create: bool = False) -> sqlite3.Connection:
        db = real(path, read_only, create)
        if not read_only and limit["pages"] is not None:
            db.execute(f"PRAGMA max_page_count = {int(limit['pages'])}")
        return db

    monkeypatch.setattr(file_store, "connect", connect)
    return limit


def _one_sentence(text: str, path: Path) -> None:
    assert "\n" not in text and str(path) in text
    assert "OperationalError" not in text and "sqlite" not in text.lower()


@pytest.mark.parametrize("pages", [2, 9, 12])
def test_create_on_a_full_disk_says_so_and_leaves_no_file(tmp_path: Path, disk, pages: int) -> None:
    """Full while the schema is made (2 pages), while the game's row is written (9), or its
    first event (12): one sentence, no file left behind."""
    disk["pages"] = pages
    path = tmp_path / "g.airboss"
    with pytest.raises(StoreError) as e:
        GameSession.create(path, ruleset="skirmish", title="Full")
    _one_sentence(str(e.value), path)
    assert "the disk is full" in str(e.value)
    assert list(tmp_path.iterdir()) == []


def test_an_action_on_a_full_disk_says_so_and_the_game_goes_on(tmp_path: Path, disk) -> None:
    path = tmp_path / "g.airboss"
    s = GameSession.create(path, ruleset="skirmish", title="Full")
    blue = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    red = s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    s.close()
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]
    disk["pages"] = pages
    s = GameSession.open(path)
    before = len(s.events())
    with pytest.raises(StoreError) as e:
        for _ in range(200):  # until the file needs a page more than the disk has
            s.perform("gun_attack", {"attacker": blue, "target": red}, TableDice([9]))
    _one_sentence(str(e.value), path)
    assert "could not write (the disk is full); nothing was written" in str(e.value)
    written = len(s.events())
    assert written >= before
    disk["pages"] = None  # room again: the game goes on from where it was
    s.close()
    with GameSession.open(path) as again:
        assert len(again.events()) == written
        again.clock.next_step()


def test_a_hand_edited_logs_refusal_names_the_seq(tmp_path: Path) -> None:
    """An event edited by hand, the chain made again (as the file's holder can): its game
    created for another ruleset is refused naming the seq; an event that cannot happen is
    left out, said with its seq, and the game opens."""
    path = tmp_path / "g.airboss"
    s = GameSession.create(path, ruleset="skirmish", title="Edited")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.clock.next_step()
    s.close()
    db = sqlite3.connect(path)
    with db:
        db.execute(
            "UPDATE event SET payload = ? WHERE seq = 3",
            (json.dumps({"kind": "aircraft_removed", "aircraft": "nobody"}),),
        )
        rechain(db)
    db.close()
    with GameSession.open(path) as opened:
        [said] = opened.log.problems
        assert "event seq 3 was left out (no aircraft 'nobody' in this game)" in said
        assert opened.engagement.aircraft
    db = sqlite3.connect(path)
    with db:
        payload = db.execute("SELECT payload FROM event WHERE seq = 1").fetchone()[0]
        doc = json.loads(payload)
        doc["ruleset"] = "phantoms"
        db.execute("UPDATE event SET payload = ? WHERE seq = 1", (json.dumps(doc),))
        rechain(db)
    db.close()
    with pytest.raises(StoreError, match="event seq 1 says the log was created for ruleset"):
        GameSession.open(path)
