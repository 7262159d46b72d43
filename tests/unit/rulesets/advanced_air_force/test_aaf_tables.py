"""Advanced Air Force fire tables (rules text page 1): every transcribed cell against the text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.errors import DataFileError
from rulesets.advanced_air_force.hits import parse_hit_code
from rulesets.advanced_air_force.tables import FIRE_TABLES, load_fire_tables

# The range table exactly as printed: Total Gun Factors | columns for 1..6 hexes.
RANGE_TEXT = """
| 1-2 | 1 | 0 | -1 | -2 | -3 | -3 |
| 3-4 | 2 | 1 | 0 | -1 | -2 | -3 |
| 5-6 | 4 | 3 | 2 | 1 | -1 | -3 |
| 7-8 | 5 | 4 | 3 | 2 | 0 | -2 |
| 9-10 | 8 | 6 | 5 | 3 | 1 | -1 |
| 11-12 | 10 | 8 | 6 | 4 | 2 | 0 |
| 13-15 | 11 | 9 | 7 | 6 | 3 | 1 |
| 16-18 | 15 | 12 | 9 | 7 | 4 | 2 |
| 19-23 | 16 | 13 | 10 | 7 | 5 | 2 |
| 24-28 | 18 | 16 | 12 | 8 | 5 | 3 |
| 29+ | 19 | 17 | 14 | 9 | 7 | 4 |
"""

# The result table exactly as printed, row by row (roll 1..6), columns -3..9 ...
RESULT_TEXT_A = """
| 1 | 2F | 2F | 2F | 2F | 3F | 3F | 3F | 4F | 4F | 4F | 4F | 4FW | 4FW |
| 2 | FWL | 2FWL | 2FWL | 2FWL | 2FW2L | 2FW2L | 2FW2L | 3FW2L | 3FW2L | 3FW2L | 3FW2L | 3F2W2L | 3F2W2L |
| 3 | FWL | F2WL | F2WL | F2WL | F2W2L | F2W2L | F2W2L | F3W2L | F3W2L | F3W2L | F3W2L | 2F3W2L | 2F3W2L |
| 4 | FWG | FWG | FWG | F2WG | F2WG | F2WG | F3WG | F3WG | F3WG | F3WG | F4WG | F4WG | F4WG |
| 5 | FE | FE | FE | FE | F2E | F2E | F2E | 2F2E | 2F2E | 2F2E | 2F2E | 3F2E | 3F2E |
| 6 | WCE | WCEL | WCEL | WCEL | 2WCEL | 2WCEL | 2WCEL | 3WCEL | 3WCEL | 3WCEL | 3WCEL | 3W2CEL | 3W2CEL |
"""  # noqa: E501

# ... and its continuation, columns 10..19 (no roll column printed).
RESULT_TEXT_B = """
| 4FW | 4FW | 4FWE | 5FWE | 5F2WE | 5F2W2E | 6F2W2E | 6F3W2E | 6F3W3E | 7F3W3E |
| 3F2W2L | 3F2W2L | 3F2W3L | 3F2W4L | 4F2W4L | 4F3W4L | 4F3WE4L | 4F3W2E4L | 5F3W2E4L | 5F3W3E4L |
| 2F3W2L | 2F3W2L | 3F3W2L | 4F3W2L | 5F3W2L | 5F3W3L | 5F4W3L | 5F4W4L | 6F4W4L | 6F5W4L |
| F4WG | 2F4WG | 2F4WG | 2F4WGL | 2F5WGL | 3F5WGL | 3F5WG2L | 3F6WG2L | 3F7WG2L | 3F8WG2L |
| 3F2E | 4F2E | 4F3E | 5F3E | 6F3E | 6F4E | 7F4E | 8F4E | 9F4E | 9F5E |
| 3W2CEL | 3W2CEL | 4W2CEL | 4W2CEL | 5W2CEL | 5W2CE2L | 5W2C2E2L | 5W2C2E3L | 5W2C2E4L | 6W2C2E4L |
"""  # noqa: E501


def _rows(text: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in text.strip().splitlines()
    ]


def _range_cells() -> list[tuple[str, int, int]]:
    out = []
    for row in _rows(RANGE_TEXT):
        for rng, col in enumerate(row[1:], start=1):
            out.append((row[0], rng, int(col)))
    return out


def _result_cells() -> list[tuple[int, int, str]]:
    out = []
    for row in _rows(RESULT_TEXT_A):
        roll = int(row[0])
        for col, code in zip(range(-3, 10), row[1:], strict=True):
            out.append((col, roll, code))
    for roll, row in enumerate(_rows(RESULT_TEXT_B), start=1):
        for col, code in zip(range(10, 20), row, strict=True):
            out.append((col, roll, code))
    return out


@pytest.mark.parametrize(("band", "range_hexes", "column"), _range_cells())
def test_range_table_cell_matches_text(band: str, range_hexes: int, column: int) -> None:
    """Fire table: every band x range cell; both ends of each band give the printed column."""
    tables = load_fire_tables()
    low, _, high = band.rstrip("+").partition("-")
    ends = [int(low), int(high)] if high else [int(low), int(low) + 40]
    for factors in ends:
        assert tables.fire_column(factors, range_hexes) == column


def test_range_table_has_exactly_the_printed_bands() -> None:
    tables = load_fire_tables()
    assert [b.label for b in tables.range_table.bands] == [r[0] for r in _rows(RANGE_TEXT)]


@pytest.mark.parametrize(("column", "roll", "code"), _result_cells())
def test_result_table_cell_matches_text(column: int, roll: int, code: str) -> None:
    assert load_fire_tables().result(column, roll) == code


def test_result_table_has_columns_minus_3_to_19_with_six_rolls() -> None:
    cols = load_fire_tables().result_table.columns
    assert sorted(cols) == list(range(-3, 20))
    assert len(_result_cells()) == 23 * 6
    assert all(len(v) == 6 for v in cols.values())


def test_out_of_table_values_are_refused() -> None:
    tables = load_fire_tables()
    with pytest.raises(ValueError, match="1 to 6 hexes"):
        tables.fire_column(8, 7)
    with pytest.raises(ValueError, match="starts at 1"):
        tables.fire_column(0, 1)
    with pytest.raises(ValueError, match="1 to 6"):
        tables.result(3, 7)


def test_malformed_table_file_names_file_and_field(tmp_path: Path) -> None:
    text = FIRE_TABLES.read_text().replace('"-3" = ["2F"', '"-3" = ["2X"', 1)
    bad = tmp_path / "fire_tables.toml"
    bad.write_text(text)
    with pytest.raises(DataFileError) as e:
        load_fire_tables(bad)
    assert str(bad) in str(e.value)
    assert "result_table.columns" in str(e.value)
    assert "column -3, roll 1" in str(e.value)


def test_table_with_a_gap_in_the_bands_is_refused(tmp_path: Path) -> None:
    text = FIRE_TABLES.read_text().replace("low = 3\nhigh = 4", "low = 4\nhigh = 4", 1)
    bad = tmp_path / "fire_tables.toml"
    bad.write_text(text)
    with pytest.raises(DataFileError, match="range_table"):
        load_fire_tables(bad)


# --- the hit-code parser on every code in the table -------------------------------------


def _expected(code: str) -> dict[str, int]:
    """Independent reading of the note under the table, by hand-walking the characters."""
    out: dict[str, int] = {}
    digits = ""
    for ch in code:
        if ch.isdigit():
            digits += ch
        else:
            out[ch] = int(digits or "1")
            digits = ""
    return out


@pytest.mark.parametrize("code", sorted({c for _, _, c in _result_cells()}))
def test_parser_reads_every_code_in_the_table(code: str) -> None:
    """Note under the table: a number refers only to the type of hit that is the first to follow."""
    parsed = parse_hit_code(code)
    assert parsed == _expected(code)
    assert set(parsed) <= set("FWLGEC")


@pytest.mark.parametrize(
    ("code", "hits"),
    [
        ("3F2W2L", {"F": 3, "W": 2, "L": 2}),
        ("FWL", {"F": 1, "W": 1, "L": 1}),
        ("5W2C2E4L", {"W": 5, "C": 2, "E": 2, "L": 4}),
        ("4F3WE4L", {"F": 4, "W": 3, "E": 1, "L": 4}),
        ("3F8WG2L", {"F": 3, "W": 8, "G": 1, "L": 2}),
    ],
)
def test_parser_hand_worked_examples(code: str, hits: dict[str, int]) -> None:
    assert parse_hit_code(code) == hits


@pytest.mark.parametrize("bad", ["", "3", "F3", "3X", "FF", "0F", "f", "3F 2W", "2W-1L"])
def test_parser_refuses_what_is_not_a_code(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_hit_code(bad)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.sampled_from("FWLGEC"), st.integers(min_value=1, max_value=12), min_size=1)
)
def test_parser_reads_any_written_code(hits: dict[str, int]) -> None:
    """Any code written the table's way (count omitted for one) reads back to its counts."""
    code = "".join(("" if n == 1 else str(n)) + letter for letter, n in hits.items())
    assert parse_hit_code(code) == hits


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=120), st.integers(min_value=1, max_value=6))
def test_more_gun_factors_never_lower_the_column(factors: int, rng: int) -> None:
    """The printed range table never gives a lower column for more factors or less range."""
    t = load_fire_tables()
    assert t.fire_column(factors + 1, rng) >= t.fire_column(factors, rng)
    if rng < 6:
        assert t.fire_column(factors, rng) >= t.fire_column(factors, rng + 1)
