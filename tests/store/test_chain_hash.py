"""Issue 31: the chain of hashes (issue 30) is worked out in one go for a row as a game file
stores it, which opening a long log with no snapshot does for every event; it must read
exactly as the hash worked out cell by cell, for any row."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from app.store.chain import _hash_cells, check_rows, event_hash

texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
cells = st.one_of(st.none(), texts, st.integers(), st.booleans(), st.floats(allow_nan=False))


@given(
    prev=st.one_of(st.just(""), st.text("0123456789abcdef", min_size=64, max_size=64)),
    game=texts,
    seq=st.integers(min_value=0),
    action=st.integers(min_value=0),
    when=st.sampled_from(
        ["2026-11-26 22:52:01.123456", datetime(2026, 11, 26, 22, 52, tzinfo=UTC), "x"]
    ),
    strings=st.lists(texts, min_size=5, max_size=5),
    uid=st.one_of(st.none(), texts),
)
def test_a_stored_row_hashes_as_cell_by_cell(prev, game, seq, action, when, strings, uid) -> None:
    if when == "x":
        when = "2026-11-26T22:52:01+01:00"
    row = [game, seq, action, when, *strings, uid]
    assert event_hash(prev, row) == _hash_cells(prev, row)


@given(row=st.lists(cells, min_size=10, max_size=10))
def test_any_other_row_hashes_cell_by_cell(row) -> None:
    row[3] = "2026-11-26 22:52:01.000000"
    assert event_hash("", row) == _hash_cells("", row)


def test_the_hash_of_a_known_row_is_unchanged() -> None:
    """The hash of files written before: a row and the digest the cell-by-cell hash gave."""
    row = [
        "g1",
        7,
        5,
        "2026-11-26 22:52:01.123456",
        "umpire",
        "",
        "Blue 1 moves",
        "clock_set",
        '{"kind":"clock_set","turn":2,"step":0}',
        None,
    ]
    assert _hash_cells("", row) == event_hash("", row)
    text = (
        "0:|2:g1|1:7|1:5|26:2026-11-26 22:52:01.123456|6:umpire|0:|12:Blue 1 moves|"
        '9:clock_set|38:{"kind":"clock_set","turn":2,"step":0}|-|'
    )
    assert event_hash("", row) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def _reference(prev: str, expected: int, rows: list) -> tuple[int | None, str]:
    """The chain checked row by row as ``Store.check_chain`` checked it before issue 31."""
    for r in rows:
        seq = int(r[1])
        if seq != expected:
            return expected, prev
        if r[10] != _hash_cells(prev, r[:10]):
            return seq, prev
        prev, expected = str(r[10]), seq + 1
    return None, prev


@given(
    cells=st.lists(st.tuples(texts, texts, st.one_of(st.none(), texts)), min_size=1, max_size=6),
    change=st.one_of(
        st.none(),
        st.tuples(
            st.integers(0, 5),
            st.integers(0, 10),
            st.one_of(texts, st.integers(0, 9), st.none(), st.binary(max_size=3)),
        ),
    ),
    when=st.sampled_from(["2026-11-26 22:52:01.123456", "2026-11-26T22:52:01"]),
)
def test_check_rows_finds_the_first_break_as_row_by_row(cells, change, when) -> None:
    rows, prev = [], ""
    for n, (narrative, payload, uid) in enumerate(cells, start=1):
        row = ["g", n, n, when, "umpire", "", narrative, "clock_set", payload, uid]
        prev = _hash_cells(prev, row)
        rows.append([*row, prev])
    if change is not None:
        at, column, value = change
        rows[at % len(rows)][column] = value
    try:
        expected = _reference("", 1, rows)
    except (TypeError, ValueError):
        return  # a seq no number reads (nor did it before)
    assert check_rows("", 1, rows) == expected
