"""The demo game's rows shipped with Airboss (issue 36, ``app.startup.demo_rows``): exactly the rows
of a demo game made now, and used only where nothing of the umpire's can change them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.resources import DEMO_ROWS
from app.startup.demo_rows import made_rows, shipped_rows


def test_the_shipped_rows_are_the_rows_of_a_demo_game_made_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails when the demo, its ruleset, its tables or aircraft, or the rows themselves change
    without ``python -m app.startup.demo_rows`` run again."""
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(tmp_path / "data"))
    made = json.loads(json.dumps(made_rows(tmp_path / "demo.airboss")))
    assert shipped_rows(tmp_path / "data") == made, "run: python -m app.startup.demo_rows"


@pytest.mark.parametrize("kind", ["tables", "aircraft"])
def test_not_used_where_the_umpires_files_could_change_them(tmp_path: Path, kind: str) -> None:
    """Table values or aircraft of the demo's ruleset in the data folder: not used (the demo
    game is then made before the paint); another ruleset's files change nothing."""
    assert shipped_rows(tmp_path) is not None
    (tmp_path / kind / "airpower").mkdir(parents=True)
    assert shipped_rows(tmp_path) is not None
    (tmp_path / kind / "phantoms").mkdir(parents=True)
    assert shipped_rows(tmp_path) is None


#: the shipped rows with the turn written as text: well formed JSON, not well formed rows
TURN_AS_TEXT = DEMO_ROWS.read_text().replace('"turn": 1', '"turn": "1"')


@pytest.mark.parametrize("text", ["", "{", "[]", '{"desk": {}}', TURN_AS_TEXT])
def test_a_missing_or_damaged_file_is_not_used(tmp_path: Path, text: str) -> None:
    assert shipped_rows(tmp_path, tmp_path / "missing.json") is None
    damaged = tmp_path / "rows.json"
    damaged.write_text(text)
    assert shipped_rows(tmp_path, damaged) is None


def test_not_used_where_the_data_folder_cannot_be_looked_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(self: Path, *args: object, **kwargs: object) -> bool:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "exists", refused)
    assert shipped_rows(tmp_path) is None
