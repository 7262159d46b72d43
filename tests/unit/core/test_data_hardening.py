"""Issue 16 (user data) and 19 (one cached table loader): a malformed aircraft file of the
umpire's never disables the catalogue; each bad file is reported (file, field, reason)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from app.core.data import (
    DataFileError,
    catalogue_problems,
    load_catalogue,
    load_table,
    read_toml,
    save_override,
)


class Card(BaseModel):
    name: str
    crew: int = 1


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    d = tmp_path / "shipped"
    d.mkdir()
    (d / "jet.toml").write_text('name = "Jet"\ncrew = 2\n')
    return d


def own_dir(user_data: Path) -> Path:
    d = user_data / "aircraft" / "testrs"
    d.mkdir(parents=True)
    return d


def test_bad_user_files_are_left_out_and_reported(
    shipped: Path, _user_data: Path, tmp_path: Path
) -> None:
    own = own_dir(_user_data)
    (own / "good.toml").write_text('name = "Good"\n')
    (own / "syntax.toml").write_text("name = \n")
    (own / "field.toml").write_text('name = "F"\ncrew = "many"\n')
    (own / "latin1.toml").write_bytes('name = "Mirage caf\xe9"\n'.encode("latin-1"))
    (own / "empty_name.toml").write_text('name = "  "\n')
    (own / "huge.toml").write_text(f'name = "Huge"\ncrew = {2**63 - 1}\n')
    (own / "dangling.toml").symlink_to(tmp_path / "nowhere.toml")
    cat = load_catalogue(shipped, Card, "testrs")
    assert sorted(cat) == ["good", "jet"]
    problems = catalogue_problems("testrs")
    assert len(problems) == 6
    text = "\n".join(problems)
    assert all("\n" not in p for p in problems)
    for stem, reason in [
        ("syntax", "not valid TOML"),
        ("field", "crew"),
        ("latin1", "not a UTF-8"),
        ("empty_name", "empty name"),
        ("huge", "beyond any aircraft"),
        ("dangling", "does not exist"),
    ]:
        line = next(p for p in problems if f"{stem}.toml" in p)
        assert reason in line, (stem, line)
    assert "good.toml" not in text


def test_no_problems_when_all_good(shipped: Path, _user_data: Path) -> None:
    own = own_dir(_user_data)
    (own / "good.toml").write_text('name = "Good"\n')
    load_catalogue(shipped, Card, "testrs")
    assert catalogue_problems("testrs") == []


def test_non_utf8_shipped_file_is_a_data_file_error(tmp_path: Path) -> None:
    p = tmp_path / "x.toml"
    p.write_bytes(b'name = "\xff"\n')
    with pytest.raises(DataFileError, match="UTF-8"):
        read_toml(p)


class Table(BaseModel):
    hit: int


def test_cached_table_sees_a_saved_override_at_once(tmp_path: Path) -> None:
    path = tmp_path / "guns.toml"
    path.write_text("hit = 4\n")
    first = load_table("testrs", path, Table)
    assert first.hit == 4
    assert load_table("testrs", path, Table) is first  # cached: no re-read
    save_override("testrs", "guns", {"hit": 6})
    assert load_table("testrs", path, Table).hit == 6
