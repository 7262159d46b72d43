"""The chain of hashes of a long game file checked in a process of its own (issue 31), on
the second core while the first decodes and replays the log: ``python -c`` runs ``main``
with the file's SQLite URI and the game's id, and it prints one line of JSON, ``{"seq": N,
"hash": H}`` (the newest event, the chain whole up to it) or ``{"broken": N}`` (the first
event that breaks it). It imports only ``sqlite3`` and ``app.store.chain``."""

from __future__ import annotations

import json
import sqlite3
import sys

from app.store.chain import check_rows

#: the game's rows in the order the file keeps them, which is the order Airboss appended
#: them: read straight through, without the index (a row out of its place breaks the chain
#: here, and the opening process then checks the chain in order itself)
ROWS = (
    "SELECT game_id, seq, action, time, actor, rule, narrative, kind, payload, uid, hash "
    "FROM event NOT INDEXED WHERE game_id = ? ORDER BY id"
)

RUN = "import sys; from app.store.chain_worker import main; main(sys.argv[1:])"


def check(uri: str, game_id: str, page: int = 5000) -> dict[str, object]:
    """The verdict on the whole chain of ``game_id`` in the database at ``uri``."""
    db = sqlite3.connect(uri, uri=True)
    try:
        db.execute("PRAGMA query_only=ON")
        rows = db.execute(ROWS, (game_id,))
        prev, expected = "", 1
        while True:
            batch = rows.fetchmany(page)
            broken, prev = check_rows(prev, expected, batch)
            if broken is not None:
                return {"broken": broken}
            expected = int(batch[-1][1]) + 1 if batch else expected
            if len(batch) < page:
                return {"seq": expected - 1, "hash": prev}
    finally:
        db.close()


def main(argv: list[str]) -> None:
    uri, game_id = argv
    sys.stdout.write(json.dumps(check(uri, game_id)) + "\n")
