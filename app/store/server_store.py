"""Games on a club's PostgreSQL server, through SQLAlchemy and psycopg (issue 17).

Every station appends in one transaction that also announces the append (``NOTIFY`` on the
game's channel), and follows the others by ``LISTEN``ing on a connection of its own.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import create_engine, insert, make_url, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from app.store.errors import ConcurrentAppend, StoreError
from app.store.migrate import migrate
from app.store.store import Batch, Params, Store, channel
from app.store.tables import EventRow


def _engine(url: str) -> Any:
    """A server database; a plain ``postgresql://`` URL uses psycopg (version 3)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    try:
        # a connection the server dropped (restarted, a network blip) is replaced before use
        return create_engine(url, pool_pre_ping=True)
    except ModuleNotFoundError as e:
        raise StoreError(
            f"the database driver {e.name!r} is not installed: pip install 'airboss[postgres]'"
        ) from None


def _problem(where: str, e: DBAPIError) -> str:
    """One line for the umpire about a server that refused or could not be reached."""
    first = str(e.orig).strip().splitlines()[0] if e.orig is not None else str(e)
    low = first.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        why = "the server refused the user name or password"
    elif "does not exist" in low and "database" in low:
        why = f"the server has no such database ({first})"
    elif "connection" in low and ("failed" in low or "refused" in low or "bad" in low):
        why = f"cannot reach the server: is it running, and is the address right? ({first})"
    else:
        why = first
    return f"{where}: {why}. Nothing was changed."


def _listen_sql(game_id: str) -> Any:
    """``LISTEN`` on a game's channel, the channel's name quoted by psycopg as an identifier
    (never put into SQL text by hand: a game id is data, issue 30)."""
    from psycopg import sql

    return sql.SQL("LISTEN {}").format(sql.Identifier(channel(game_id)))


class ServerStore(Store):
    """Any number of games in one server database."""

    def __init__(self, url: str, read_only: bool = False) -> None:
        """The server at ``url``, its schema checked (and made, in an empty database); one
        clear line for a server that cannot be reached, a refused password or a database
        that is not Airboss's. The URL in messages never shows a password."""
        self.engine = _engine(url)
        super().__init__(make_url(url).render_as_string(hide_password=True), read_only)
        #: the connection that LISTENs for other stations' appends
        self._listen: Any = None
        self._notices = 0
        try:
            migrate(self.engine, self.where)
        except DBAPIError as e:
            self.close()
            raise StoreError(_problem(self.where, e)) from None

    def close(self) -> None:
        if self._listen is not None:
            self._listen.close()
            self._listen = None
        self.engine.dispose()

    def _rows(self, sql: str, params: Params) -> list[tuple[Any, ...]]:
        with self.engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql), dict(params))]

    def _write(self, *batches: Batch) -> None:
        try:
            with self.engine.begin() as conn:
                for sql, rows in batches:
                    if rows:
                        conn.execute(text(sql), [dict(r) for r in rows])
        except IntegrityError:
            raise ConcurrentAppend from None

    def append(self, envelopes: Any) -> None:
        """One multi-row INSERT (not executemany: psycopg's pipeline would print "pipeline
        aborted" on every lost race) and, at its commit, the announcement every station
        LISTENing on this game hears."""
        self._refuse_read_only()
        if not envelopes:
            return
        rows = [self._event_row(e) for e in envelopes]
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(EventRow.__table__).values(rows))
                conn.execute(
                    text("SELECT pg_notify(:channel, :seq)"),
                    {"channel": channel(envelopes[0].game), "seq": str(envelopes[-1].seq)},
                )
        except IntegrityError:
            raise ConcurrentAppend from None

    def _time(self, value: Any) -> datetime:
        return value  # type: ignore[no-any-return]

    # -- following other stations -------------------------------------------------------------

    def data_version(self, game_id: str) -> int | None:
        """The count of ``NOTIFY`` messages ``append`` sends, received on a ``LISTEN``
        connection of its own; ``None`` while the server cannot be reached."""
        import psycopg

        try:
            if self._listen is None:
                url = self.engine.url.set(drivername="postgresql")
                self._listen = psycopg.connect(
                    url.render_as_string(hide_password=False), autocommit=True, connect_timeout=2
                )
                self._listen.execute(_listen_sql(game_id))
                self._notices += 1  # (re)connected: what was said meanwhile was not heard
            for _ in self._listen.notifies(timeout=0):
                self._notices += 1
        except psycopg.Error:
            # the server went away: listen again on the next ask, and catch up then
            if self._listen is not None:
                self._listen.close()
                self._listen = None
            return None
        return self._notices

    def listen_socket(self) -> int | None:
        if self._listen is None:
            return None
        try:
            return int(self._listen.fileno())
        except Exception:  # noqa: BLE001 - a connection closed meanwhile: none to watch
            return None

    def watching(self, game_id: str) -> int | None:
        rows = self._rows(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND query = :listen",
            {"listen": _listen_sql(game_id).as_string(None)},
        )
        return int(rows[0][0] or 0)
