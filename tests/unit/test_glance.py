"""The desk's glance at its last game is shown only while it is proven current (issue 20):
the game file's size, modification time, event count and last sequence number are what they
were when the glance was kept, no write-ahead log lies beside it, and Airboss is the same
version. Anything else, including a damaged glance file, means no glance."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.session import GameSession
from app.ui.glance import GLANCE_NAME, forget_glance, load_glance, log_mark, save_glance

SHOWN = {"title": "Glance test — Airboss", "roster": {"rows": [["Jet 1", "F-4E"]]}}


@pytest.fixture
def game(tmp_path: Path) -> str:
    path = tmp_path / "glance.airboss"
    s = GameSession.create(path, ruleset="phantoms", title="Glance test")
    s.add_aircraft(side="Blue", type_id=next(iter(s.ruleset.aircraft)), name="Jet 1")
    s.close()
    return str(path)


def test_a_glance_kept_after_closing_is_shown_while_the_file_is_unchanged(
    game: str, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    assert save_glance(folder, game, "1.0", SHOWN)
    assert load_glance(folder, game, "1.0") == SHOWN
    # the same file named another way is the same game
    relative = os.path.relpath(game)
    assert load_glance(folder, relative, "1.0") == SHOWN


def test_the_mark_counts_the_log(game: str) -> None:
    mark = log_mark(game)
    assert mark is not None
    assert mark["events"] == 2  # the game created, one aircraft added
    assert mark["last_seq"] >= 2
    assert mark["size"] == Path(game).stat().st_size


def test_an_action_after_the_glance_makes_it_stale(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    save_glance(folder, game, "1.0", SHOWN)
    s = GameSession.open(game)
    s.add_aircraft(side="Red", type_id=next(iter(s.ruleset.aircraft)), name="Jet 2")
    s.close()
    assert load_glance(folder, game, "1.0") is None


def test_a_file_touched_or_open_elsewhere_is_not_trusted(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    save_glance(folder, game, "1.0", SHOWN)
    wal = Path(f"{game}-wal")
    wal.write_bytes(b"")
    assert load_glance(folder, game, "1.0") is None  # another program has it open
    wal.unlink()
    assert load_glance(folder, game, "1.0") == SHOWN
    st = Path(game).stat()
    os.utime(game, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    assert load_glance(folder, game, "1.0") is None


def test_another_version_another_game_or_a_server_game_has_no_glance(
    game: str, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    save_glance(folder, game, "1.0", SHOWN)
    assert load_glance(folder, game, "1.1") is None
    other = tmp_path / "other.airboss"
    GameSession.create(other, ruleset="phantoms", title="Other").close()
    assert load_glance(folder, str(other), "1.0") is None
    assert log_mark("postgresql://club/airboss") is None
    assert not save_glance(folder, "postgresql://club/airboss", "1.0", SHOWN)
    assert not (folder / GLANCE_NAME).exists()  # a game without a glance forgets the last


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[]",
        '{"format": 2}',
        '{"format": 1, "version": "1.0", "game": "x", "mark": {}, "shown": []}',
        "\udc80",
    ],
)
def test_a_damaged_glance_file_is_no_glance(game: str, tmp_path: Path, text: str) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / GLANCE_NAME).write_text(text, encoding="utf-8", errors="surrogateescape")
    assert load_glance(folder, game, "1.0") is None


def test_a_glance_whose_record_names_this_file_but_not_its_mark_is_refused(
    game: str, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    save_glance(folder, game, "1.0", SHOWN)
    record = json.loads((folder / GLANCE_NAME).read_text())
    record["mark"]["events"] += 1
    (folder / GLANCE_NAME).write_text(json.dumps(record))
    assert load_glance(folder, game, "1.0") is None
    forget_glance(folder)
    forget_glance(folder)  # forgetting twice is harmless
    assert load_glance(folder, game, "1.0") is None


def test_a_missing_or_foreign_file_has_no_mark(tmp_path: Path) -> None:
    assert log_mark(str(tmp_path / "gone.airboss")) is None
    foreign = tmp_path / "notes.airboss"
    foreign.write_text("not a database")
    assert log_mark(str(foreign)) is None


def test_reading_a_glance_loads_neither_qt_nor_pydantic_nor_the_game_models() -> None:
    code = (
        "import sys, app.ui.glance; "
        "print(','.join(m for m in ('PySide6', 'pydantic', 'app.core.events', 'app.session') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
