"""The store's statements as SQLAlchemy Core constructs built from the SQLModel tables, for
the server store (issue 36: the server reads and writes through SQLModel/SQLAlchemy).

``Store`` and the modules beside it (``outline``, ``bounds``) hand a statement to ``_rows`` or
``_write`` as the plain SQL the file path runs on Python's ``sqlite3`` (a game file never loads
SQLAlchemy, issue 20); ``ServerStore`` runs, for each of them, the construct ``STATEMENTS``
holds under that very text: its tables and columns are the ``app.store.tables`` declarations
(a column renamed there breaks this module at import, not a station at a club), every value
a bound parameter of the same name the SQL text uses. ``tests/store/test_server_sql.py``
checks that every statement the stores run is here and that each construct gives the rows its
SQL text gives.

What SQLAlchemy has no construct for stays out: ``LISTEN`` (``server_store._listen_sql``,
the channel quoted by psycopg as an identifier). PostgreSQL's own functions and views
(``pg_notify``, ``pg_terminate_backend``, ``pg_stat_activity``, ``pg_stat_user_tables``) are
constructs too, with bound values.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    Executable,
    Integer,
    LargeBinary,
    Table,
    Text,
    and_,
    bindparam,
    case,
    cast,
    column,
    func,
    insert,
    or_,
    select,
    table,
)
from sqlalchemy.dialects.postgresql import JSONB

from app.store import bounds, outline
from app.store import store as s
from app.store.tables import EventRow, GameRow, SnapshotRow

EVENT: Table = EventRow.__table__  # type: ignore[attr-defined]
GAME: Table = GameRow.__table__  # type: ignore[attr-defined]
SNAPSHOT: Table = SnapshotRow.__table__  # type: ignore[attr-defined]


def _p(name: str, type_: Any = None) -> Any:
    """A bound parameter named as in the SQL text."""
    return bindparam(name, type_=type_)


_GAME_IS = EVENT.c.game_id == _p("game")
_SNAPSHOT_OF = SNAPSHOT.c.game_id == _p("game")
_PAGE = _p("page", Integer)
#: one event's stored columns, in the order every reader takes them
_EVENTS = select(*(EVENT.c[name] for name in s.EVENT_COLUMNS))

#: the SQL text a ``Store`` runs -> the construct a server runs for it
STATEMENTS: dict[str, Executable] = {
    # games
    s._SELECT_GAMES: select(*(GAME.c[name] for name in s._GAME_COLUMNS)).order_by(GAME.c.created),
    s.INSERT_GAME: insert(GAME),
    # the log
    s.INSERT_EVENT: insert(EVENT),
    s._SELECT_HASH: select(EVENT.c.hash).where(_GAME_IS, EVENT.c.seq == _p("seq")),
    s._SELECT_COUNT: select(func.count(), func.max(EVENT.c.seq)).where(_GAME_IS),
    s._SELECT_UID: select(EVENT.c.seq).where(EVENT.c.uid == _p("uid")),
    s._PAGE_FORWARD: _EVENTS.where(_GAME_IS, EVENT.c.seq > _p("start"))
    .order_by(EVENT.c.seq.asc())
    .limit(_PAGE),
    s._PAGE_BACKWARD: _EVENTS.where(_GAME_IS, EVENT.c.seq < _p("start"))
    .order_by(EVENT.c.seq.desc())
    .limit(_PAGE),
    s._SELECT_ACTION: _EVENTS.where(_GAME_IS, EVENT.c.action == _p("action")).order_by(EVENT.c.seq),
    s._SELECT_LOG: _EVENTS.where(_GAME_IS).order_by(EVENT.c.seq),
    s._SELECT_SEQS: select(EVENT.c.seq).where(_GAME_IS).order_by(EVENT.c.seq),
    s._SELECT_LAST_SEQ: select(func.max(EVENT.c.seq)).where(_GAME_IS),
    s._SELECT_LAST_TIME: select(func.max(EVENT.c.time)).where(_GAME_IS),
    # snapshots
    s.INSERT_SNAPSHOT: insert(SNAPSHOT).values(
        game_id=_p("game"), seq=_p("seq"), data=_p("data"), head=_p("head")
    ),
    s._SELECT_ANCHOR: select(SNAPSHOT.c.seq, SNAPSHOT.c.head)
    .where(_SNAPSHOT_OF, SNAPSHOT.c.head.is_not(None))
    .order_by(SNAPSHOT.c.seq.desc())
    .limit(1),
    s._SELECT_SNAPSHOT: select(SNAPSHOT.c.seq, SNAPSHOT.c.data)
    .where(_SNAPSHOT_OF)
    .order_by(SNAPSHOT.c.seq.desc())
    .limit(1),
    # the log in outline (``app.store.outline``): the payload only of the stacks' kinds
    outline._OUTLINE: select(
        EVENT.c.seq,
        EVENT.c.action,
        case(
            (
                EVENT.c.kind.in_([_p(f"k{i}") for i in range(len(outline.STACK_KINDS))]),
                EVENT.c.payload,
            )
        ),
    )
    .where(_GAME_IS, EVENT.c.seq > _p("start"))
    .order_by(EVENT.c.seq)
    .limit(_PAGE),
    # the documented limits, checked at open (``app.store.bounds``): lengths, never values
    bounds._GAME_SIZES: select(
        func.substr(GAME.c.id, 1, 40),
        func.length(GAME.c.id),
        func.length(GAME.c.ruleset),
        func.length(GAME.c.title),
        func.length(GAME.c.variants),
    ),
    bounds._EVENT_SIZES: select(
        EVENT.c.seq,
        func.length(EVENT.c.payload),
        func.length(EVENT.c.narrative),
        func.length(EVENT.c.actor),
        func.length(EVENT.c.rule),
    )
    .where(
        _GAME_IS,
        or_(
            func.length(EVENT.c.payload) > _p("payload", Integer),
            func.length(EVENT.c.narrative) > _p("text", Integer),
            func.length(EVENT.c.actor) > _p("text", Integer),
            func.length(EVENT.c.rule) > _p("text", Integer),
        ),
    )
    .order_by(EVENT.c.seq)
    .limit(1),
    bounds._SNAPSHOT_SIZE: select(SNAPSHOT.c.seq, func.length(SNAPSHOT.c.data))
    .where(_SNAPSHOT_OF)
    .order_by(SNAPSHOT.c.seq.desc())
    .limit(1),
}

# -- the server's own: PostgreSQL's functions and statistics ----------------------------------

_ACTIVITY = table(
    "pg_stat_activity", column("pid"), column("usename"), column("datname"), column("query")
)
_TABLE_STATS = table(
    "pg_stat_user_tables", column("relname"), column("n_tup_upd"), column("n_tup_del")
)

#: the server's own functions (``app.store.server_functions``), the only way a station writes
APPEND = select(func.airboss_append(_p("game"), cast(_p("events", Text), JSONB)))
ADD_GAME = select(
    func.airboss_add_game(_p("id"), _p("ruleset"), _p("title"), _p("variants"), _p("created"))
)
SAVE_SNAPSHOT = select(
    func.airboss_save_snapshot(_p("game"), _p("seq", Integer), _p("data", LargeBinary))
)
#: ends the server's process of a lost connection (its open transaction rolled back)
TERMINATE = select(func.pg_terminate_backend(_ACTIVITY.c.pid, 3000)).where(
    and_(_ACTIVITY.c.pid == _p("pid"), _ACTIVITY.c.usename == func.current_user())
)
#: how many connections have ``listen`` (a game's LISTEN) as their last statement, counted
#: by the server's own function (a station reads no other connection's statements)
WATCHING = select(func.airboss_watching(_p("listen")))
#: the events changed or removed on the server since it started, by anyone
EDITS = select(
    func.coalesce(func.sum(_TABLE_STATS.c.n_tup_upd + _TABLE_STATS.c.n_tup_del), 0)
).where(_TABLE_STATS.c.relname == EVENT.name)
