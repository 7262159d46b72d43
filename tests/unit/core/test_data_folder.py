"""Where the umpire's own files live (``app.core.paths``): the platform's folder is asked once
for each value of the variables it is made from (issue 36), and follows them when they change."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.core.data import load_table, override_path
from app.core.paths import user_data_dir

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the XDG folders are Linux's"
)


def test_the_data_folder_follows_its_variables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("AIRBOSS_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "one"))
    assert user_data_dir() == tmp_path / "one" / "airboss"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "two"))
    assert user_data_dir() == tmp_path / "two" / "airboss"
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(tmp_path / "mine"))
    assert user_data_dir() == tmp_path / "mine"
    assert override_path("phantoms", "tables") == tmp_path / "mine/tables/phantoms/tables.toml"


def test_a_table_read_follows_the_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The override file's name is made once per data folder: another folder's override is
    read at the next load."""
    from rulesets.phantoms.tables import TABLES_FILE, Tables

    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(tmp_path / "a"))
    shipped = load_table("phantoms", TABLES_FILE, Tables)
    row = list(shipped.break_off.text_turns)
    changed = [row[0] + 1, *row[1:]]
    over = tmp_path / "b" / "tables" / "phantoms" / "tables.toml"
    over.parent.mkdir(parents=True)
    over.write_text(f"[break_off]\ntext_turns = {changed}\n")
    assert load_table("phantoms", TABLES_FILE, Tables).break_off.text_turns == row
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(tmp_path / "b"))
    assert load_table("phantoms", TABLES_FILE, Tables).break_off.text_turns == changed
