"""The schema of a new game file as SQLite DDL, compiled from the SQLModel tables
(``app.store.tables``, the one declaration of the schema; issue 36).

A game file is created by running ``schema.sql`` with Python's own ``sqlite3``
(``app.store.file_store``), so making a game imports neither SQLAlchemy nor Alembic; the
file is this module's output, committed, and ``tests/store/test_one_schema.py`` fails when
it is not exactly what the tables compile to, or when a file made from it differs from one
the migrations make. After a change to the tables (and its migration)::

    .venv/bin/python -m app.store.schema_sql > app/store/schema.sql
"""

from __future__ import annotations

#: the table Alembic keeps its revision in, as Alembic creates it (a new file is stamped with
#: the head revision, as if the migrations had run)
ALEMBIC_VERSION = """CREATE TABLE alembic_version (
\tversion_num VARCHAR(32) NOT NULL,
\tCONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);"""

HEAD = (
    "-- The schema of a new Airboss game file: the SQLModel tables (app/store/tables) compiled\n"
    "-- for SQLite by `python -m app.store.schema_sql`. Do not edit: regenerate it.\n"
)


def render() -> str:
    """The DDL of every declared table, in dependency order, each followed by its indexes,
    then Alembic's version table."""
    from sqlalchemy.dialects import sqlite
    from sqlalchemy.schema import CreateIndex, CreateTable
    from sqlmodel import SQLModel

    import app.store.tables  # noqa: F401 - registers the tables on SQLModel.metadata

    dialect = sqlite.dialect()
    parts = []
    for table in SQLModel.metadata.sorted_tables:
        parts.append(str(CreateTable(table).compile(dialect=dialect)).strip() + ";")
        for index in sorted(table.indexes, key=lambda i: str(i.name)):
            parts.append(str(CreateIndex(index).compile(dialect=dialect)).strip() + ";")
    parts.append(ALEMBIC_VERSION)
    lines = "\n".join(parts).splitlines()
    return HEAD + "\n".join(line.rstrip() for line in lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
