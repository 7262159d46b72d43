"""The schema revisions this Airboss knows, read from the migration scripts' text, so that
checking a file's schema never imports Alembic or SQLAlchemy (issue 20)."""

from __future__ import annotations

import re
from pathlib import Path

MIGRATIONS = Path(__file__).parent / "migrations"
#: the ``airboss_info`` row that marks a database as an Airboss store
FORMAT = "airboss"

_REVISION = re.compile(r"^(down_revision|revision)\s*=\s*(None|['\"]([^'\"]+)['\"])", re.M)


def _revision_graph() -> dict[str, str | None]:
    """revision -> down_revision, read from the migration scripts' text without Alembic."""
    graph: dict[str, str | None] = {}
    for script in sorted((MIGRATIONS / "versions").glob("*.py")):
        found = {m[1]: m[3] for m in _REVISION.finditer(script.read_text(encoding="utf-8"))}
        if "revision" in found and found["revision"]:
            graph[found["revision"]] = found.get("down_revision")
    return graph


def head_revision() -> str:
    graph = _revision_graph()
    heads = set(graph) - {d for d in graph.values() if d}
    assert len(heads) == 1, heads
    return heads.pop()


def known_revisions() -> set[str]:
    return set(_revision_graph())
