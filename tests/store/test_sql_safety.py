"""No SQL is built from data (issue 30): every identifier and value reaches SQLite and
PostgreSQL through the driver (parameters, ``psycopg.sql.Identifier``), never through Python's
string formatting.

The scan reads every module of ``app/`` as a syntax tree and fails on any f-string, ``%``
formatting, ``str.format`` call or ``+`` concatenation whose text looks like SQL, unless every
piece it joins is a **module-level constant that is itself a string literal** (or a sum of
such): that SQL is fixed when the module is written, no value from a game, a user or a file can
reach it, and writing a long statement once and adding its ``WHERE`` clauses keeps the column
lists in one place. Anything else (a name of a local variable, an attribute, a call) fails.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"

#: words that make a string SQL (upper case, as this project writes SQL)
SQL_WORDS = re.compile(
    r"\b(SELECT|INSERT INTO|UPDATE|DELETE FROM|CREATE|DROP|ALTER|LISTEN|NOTIFY|PRAGMA|COPY|"
    r"GRANT|REVOKE|WHERE|VALUES|ORDER BY)\b"
)


def _literal_constants(tree: ast.Module) -> set[str]:
    """Module-level names bound once to a string literal or a sum of such."""
    bound: dict[str, int] = {}
    literal: set[str] = set()
    for node in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        for t in targets:
            if isinstance(t, ast.Name):
                bound[t.id] = bound.get(t.id, 0) + 1
                if value is not None and _is_literal(value, literal):
                    literal.add(t.id)
    return {n for n in literal if bound[n] == 1}


def _is_literal(node: ast.expr, known: set[str]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Name):
        return node.id in known
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_literal(node.left, known) and _is_literal(node.right, known)
    return False


def _text(node: ast.AST) -> str:
    return " ".join(
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    )


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = _literal_constants(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        built: list[ast.expr] | None = None
        if isinstance(node, ast.JoinedStr):
            built = [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
                built = [node.right]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if not _is_literal(node, constants):
                built = [node]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant)
            and isinstance(node.func.value.value, str)
        ):
            # psycopg's sql.SQL("...").format(sql.Identifier(...)) is an ast.Call on a Call,
            # not on a string constant, and is how identifiers are meant to be composed
            built = [*node.args, *(k.value for k in node.keywords)]
        if built is None or not SQL_WORDS.search(_text(node)):
            continue
        if all(_is_literal(b, constants) for b in built):
            continue
        found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:100]}")
    return [f"{path.parent.name}/{f}" for f in found]


def test_no_sql_is_built_from_data_in_app() -> None:
    offences = [o for path in sorted(APP.rglob("*.py")) for o in _offences(path)]
    assert offences == [], "SQL built by string formatting:\n" + "\n".join(offences)


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The scan itself is checked on a module holding each forbidden form (and the allowed)."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "TABLE = 'event'\n"
        "def f(db, game_id, kind):\n"
        "    db.execute(f'LISTEN \"airboss_{game_id}\"')\n"
        "    db.execute('SELECT * FROM event WHERE kind = %s' % kind)\n"
        "    db.execute('DELETE FROM event WHERE game_id = {}'.format(game_id))\n"
        "    db.execute('SELECT seq FROM event WHERE game_id = ' + game_id)\n"
        "    db.execute(f'SELECT * FROM {TABLE}')\n"  # a literal constant: allowed
        "    db.execute('SELECT 1 ' + 'FROM game')\n"  # literals only: allowed
    )
    found = _offences(bad)
    assert [int(f.split(":")[1]) for f in found] == [3, 4, 5, 6]
