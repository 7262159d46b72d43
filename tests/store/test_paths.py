"""Issue 31: odd paths. Symbolic links are followed before anything else (following the game,
``immutable`` and the write-ahead log use the real file); a link to nothing is refused, also
when creating (nothing is written through it); a file copied without its write-ahead log, and
a log without its index in a folder that cannot be written, each get their own true message.
Refused files keep their sha256."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.session import GameSession
from app.store import StoreError, file_store

SHOT = {"attacker": "blue-1", "target": "red-1"}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def new_game(path: Path) -> GameSession:
    s = GameSession.create(path, ruleset="skirmish", title="Paths")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    return s


def test_a_game_opened_through_a_link_is_the_real_file(tmp_path: Path) -> None:
    real = tmp_path / "games" / "real.airboss"
    new_game(real).close()
    link = tmp_path / "link.airboss"
    link.symlink_to(real)
    with GameSession.open(link) as desk, GameSession.open(real) as station:
        assert desk.store.path == real
        desk.perform("gun_attack", SHOT, TableDice([3]))
        assert station.log.follow()
        assert station.engagement.seq == desk.engagement.seq
        station.perform("gun_attack", SHOT, TableDice([4]))
        assert desk.log.follow()
        desk.perform("gun_attack", SHOT, TableDice([5]))  # no false "another station acted"
        assert station.log.follow()
        assert station.engagement == desk.engagement


def test_a_read_only_desk_opened_before_a_station_follows_it(tmp_path: Path) -> None:
    real = tmp_path / "real.airboss"
    new_game(real).close()
    link = tmp_path / "link.airboss"
    link.symlink_to(real)
    before = sha(real)
    with GameSession.open(link, read_only=True) as desk:
        assert sha(real) == before and not Path(f"{real}-wal").exists()
        assert desk.log.follow() == []
        with GameSession.open(real) as station:  # the station comes later: a -wal appears
            station.perform("gun_attack", SHOT, TableDice([3]))
            seen = desk.log.follow()
            assert seen and desk.engagement == station.engagement
            station.perform("gun_attack", SHOT, TableDice([4]))
            assert desk.log.follow() and desk.engagement == station.engagement


@pytest.mark.parametrize("read_only", [False, True])
def test_a_link_to_nothing_is_refused_naming_it(tmp_path: Path, read_only: bool) -> None:
    link = tmp_path / "game.airboss"
    link.symlink_to(tmp_path / "gone.airboss")
    with pytest.raises(
        StoreError,
        match=r"game\.airboss: a symbolic link to .*gone\.airboss, "
        "which does not exist; nothing was opened",
    ):
        GameSession.open(link, read_only=read_only)
    loop = tmp_path / "loop.airboss"
    loop.symlink_to(loop)
    with pytest.raises(StoreError, match="loop.airboss"):
        GameSession.open(loop, read_only=read_only)


def test_creating_through_a_link_to_nothing_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "target.airboss"
    link = tmp_path / "new.airboss"
    link.symlink_to(target)
    with pytest.raises(
        StoreError,
        match="a symbolic link to .*target.airboss, which does not exist; no game was written",
    ):
        GameSession.create(link, ruleset="skirmish", title="Through a link")
    assert not target.exists() and not target.parent.exists()
    assert link.is_symlink() and os.readlink(link) == str(target)
    real = tmp_path / "real.airboss"
    new_game(real).close()
    before = sha(real)
    good = tmp_path / "good.airboss"
    good.symlink_to(real)
    with pytest.raises(StoreError, match="exists already"):
        GameSession.create(good, ruleset="skirmish", title="Over a game")
    assert sha(real) == before


def test_a_file_copied_without_its_log_says_so(tmp_path: Path) -> None:
    s = new_game(tmp_path / "open.airboss")  # open: the game is still in its -wal
    try:
        copy = tmp_path / "copy" / "copy.airboss"
        copy.parent.mkdir()
        shutil.copyfile(s.store.path, copy)
    finally:
        s.close()
    before = sha(copy)
    for read_only in (False, True):
        with pytest.raises(StoreError) as e:
            GameSession.open(copy, read_only=read_only)
        assert "holds no game, and no write-ahead log (copy.airboss-wal) lies beside it" in str(
            e.value
        )
        assert "name one" not in str(e.value)
    assert sha(copy) == before
    assert sorted(p.name for p in copy.parent.iterdir()) == ["copy.airboss"]


def test_a_log_without_its_index_on_a_read_only_mount_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = new_game(tmp_path / "open.airboss")
    try:
        mount = tmp_path / "cdrom"
        mount.mkdir()
        for suffix in ("", "-wal"):  # the index (-shm) left behind
            shutil.copyfile(f"{s.store.path}{suffix}", f"{mount / 'game.airboss'}{suffix}")
    finally:
        s.close()
    game = mount / "game.airboss"
    sums = {p.name: sha(p) for p in mount.iterdir()}
    writable = file_store._can_write
    # a read-only mount, as the store sees one (this test may run as root, whom no folder
    # permission stops)
    monkeypatch.setattr(file_store, "_can_write", lambda p: p != mount and writable(p))
    for read_only in (False, True):
        with pytest.raises(StoreError) as e:
            GameSession.open(game, read_only=read_only)
        text = str(e.value)
        assert "its write-ahead log (game.airboss-wal)" in text
        assert "without its index (game.airboss-shm)" in text and "cannot be written" in text
    assert {p.name: sha(p) for p in mount.iterdir()} == sums
