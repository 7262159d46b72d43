"""Issue 31 (user data): the umpire's table overrides are checked against the shipped table
(the same kind of value where it prints one, no number beyond reason) and then by the table's
model with the rules' own bounds, each error naming the file, the field and the reason; an
override that is a link to nothing is named, not skipped; a table or aircraft file that is a
FIFO, a folder or far too large is refused at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from app.core.data import (
    DataFileError,
    catalogue_problems,
    load_catalogue,
    load_table,
    override_path,
    read_toml,
)
from rulesets.phantoms.tables import TABLES_FILE, Tables


class Table(BaseModel):
    hit: int = Field(ge=1, le=10)  # the rules' bound: a d10 hit number
    pilots: dict[str, int]
    note: str = ""
    open_cell: int | str = "missing"


SHIPPED = 'hit = 4\nnote = "as printed"\nopen_cell = "missing"\n[pilots]\nace = 2\ngreen = -2\n'


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "guns.toml"
    path.write_text(SHIPPED)
    return path


def write_override(text: str) -> Path:
    over = override_path("testrs", "guns")
    over.parent.mkdir(parents=True, exist_ok=True)
    over.write_text(text)
    return over


@pytest.mark.parametrize(
    ("override", "field", "reason"),
    [
        ("hit = 1000000000\n", "hit", "beyond any table (at most 1,000,000)"),
        ("hit = nan\n", "hit", "beyond any table"),
        ('hit = "six"\n', "hit", "the table holds a number here, not text"),
        ("hit = true\n", "hit", "the table holds a number here, not true or false"),
        ("note = 3\n", "note", "the table holds text here, not a number"),
        ("pilots = 3\n", "pilots", "the table holds a table here, not a number"),
        ('[pilots]\nace = "x"\n', "pilots.ace", "not text"),
        ("[pilots]\nnew = 99999999\n", "pilots.new", "beyond any table"),
        ("hit = 11\n", "hit", "less than or equal to 10"),
        ("hit = 0\n", "hit", "greater than or equal to 1"),
        ("open_cell = [1, 2]\n", "open_cell", "open_cell"),
    ],
)
def test_absurd_or_malformed_overrides_name_file_field_and_reason(
    table: Path, override: str, field: str, reason: str
) -> None:
    over = write_override(override)
    with pytest.raises(DataFileError) as e:
        load_table("testrs", table, Table)
    text = str(e.value)
    assert str(over) in text and field in text and reason in text, text


def test_good_overrides_still_load(table: Path) -> None:
    write_override('hit = 6\nopen_cell = 7\nnote = "house rule"\n[pilots]\nace = 3\n')
    t = load_table("testrs", table, Table)
    assert (t.hit, t.open_cell, t.note, t.pilots) == (6, 7, "house rule", {"ace": 3, "green": -2})


def test_a_dangling_override_is_named(table: Path, tmp_path: Path) -> None:
    over = override_path("testrs", "guns")
    over.parent.mkdir(parents=True)
    over.symlink_to(tmp_path / "moved" / "guns.toml")
    with pytest.raises(DataFileError) as e:
        load_table("testrs", table, Table)
    assert str(e.value) == (
        f"{over}: a link to {tmp_path / 'moved' / 'guns.toml'}, a file that does not exist"
    )


def test_a_real_rules_table_refuses_an_absurd_override() -> None:
    over = override_path("phantoms", TABLES_FILE.stem)
    over.parent.mkdir(parents=True)
    over.write_text("[initiative]\nace = 123456789\n")
    with pytest.raises(DataFileError, match=r"initiative\.ace: 123456789 is beyond any table"):
        load_table("phantoms", TABLES_FILE, Tables)
    over.write_text('[initiative]\nace = "two"\n')
    with pytest.raises(DataFileError, match=r"initiative\.ace: the table holds a number here"):
        load_table("phantoms", TABLES_FILE, Tables)
    over.write_text("[impulse_chart.speeds]\n1 = [11]\n")
    with pytest.raises(DataFileError, match=r"with overrides from .*speeds run 1 to 10"):
        load_table("phantoms", TABLES_FILE, Tables)


def test_a_fifo_folder_or_huge_data_file_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(DataFileError, match="pipe.toml: not a regular file"):
        read_toml(fifo)  # would block on open
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(DataFileError, match="folder.toml: not a regular file"):
        read_toml(folder)
    huge = tmp_path / "huge.toml"
    huge.write_text('name = "' + "x" * 2_000_000 + '"\n')
    with pytest.raises(DataFileError, match=r"huge.toml: 2,000,010 bytes; .* at most 1,000,000"):
        read_toml(huge)


class Card(BaseModel):
    name: str


def test_the_umpires_aircraft_files_that_are_not_files_are_reported(
    _user_data: Path, tmp_path: Path
) -> None:
    own = _user_data / "aircraft" / "testrs"
    own.mkdir(parents=True)
    (own / "good.toml").write_text('name = "Good"\n')
    os.mkfifo(own / "pipe.toml")
    (own / "huge.toml").write_text('name = "' + "x" * 2_000_000 + '"\n')
    (own / "gone.toml").symlink_to(tmp_path / "gone" / "jet.toml")
    assert sorted(load_catalogue(tmp_path / "none", Card, "testrs")) == ["good"]
    problems = "\n".join(catalogue_problems("testrs"))
    assert "pipe.toml: not a regular file" in problems
    assert "huge.toml: 2,000,010 bytes" in problems
    assert (
        f"gone.toml: a link to {tmp_path / 'gone' / 'jet.toml'}, a file that does not" in problems
    )
