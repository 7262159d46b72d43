"""Issue 32: no string-key reads of state, card or board data remain in the rulesets.

Every read goes through a typed model (``state_of(a).speed``, ``card_of(a).radar``, the
``GameState``'s ``Spots``, Phantoms' board ``Readings``) or a typed key (each ruleset's
``state.Ledger``, Advanced Air Force's ``Hit``). Writing the values of an event or of a
prefill (``out["speed"] = ...``) is fine; reading ``x["speed"]`` or ``x.get("speed")`` is not.
"""

from __future__ import annotations

import ast
from pathlib import Path

RULESETS = Path(__file__).resolve().parents[3] / "rulesets"
#: subscripts that are types, not reads (``Literal["cap"]``)
TYPE_FORMS = frozenset({"Literal", "Annotated"})


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _string_key_reads(path: Path, root: Path = RULESETS) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
            and _name(node.value) not in TYPE_FORMS
        ):
            found.append(f"{path.relative_to(root)}:{node.lineno}: [{node.slice.value!r}]")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(f"{path.relative_to(root)}:{node.lineno}: .get({node.args[0].value!r})")
    return found


def test_the_rulesets_read_no_value_by_a_string_key() -> None:
    files = sorted(RULESETS.glob("*/*.py"))
    assert len(files) > 50
    found = [hit for path in files for hit in _string_key_reads(path)]
    assert found == []


def test_the_check_finds_a_string_key_read(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'from typing import Literal\nK = Literal["cap"]\nx = a["speed"]\ny = b.get("visual", [])\n'
        'out = {}\nout["speed"] = 1\n',
        encoding="utf-8",
    )
    assert _string_key_reads(sample, tmp_path) == [
        "sample.py:3: ['speed']",
        "sample.py:4: .get('visual')",
    ]
