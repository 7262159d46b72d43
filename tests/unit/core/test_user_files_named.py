"""Issue 31 (user data), over every built-in ruleset: each of the umpire's files made malformed
in one field at a time (a number as text, a number beyond reason either way, text or a list
as a number, a table as a number, a row with an item of the wrong kind) is refused, and the
message names the file and the field: every table override (through the table's own loader
and model) and the umpire's aircraft cards (left out of the catalogue and reported; a value
the card's model takes, such as a number for a cell marked missing, is the umpire's to give).
None is unnamed, none raises anything else."""

from __future__ import annotations

import copy
import importlib
import inspect
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from pydantic import BaseModel

from app.core import data as core_data
from app.core.data import (
    DataFileError,
    catalogue_problems,
    clear_table_cache,
    override_path,
    user_data_dir,
)
from app.plugins import load_ruleset

RULESETS = ["phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception"]
BEYOND = 10**9


def leaves(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple, Any]]:
    """Every field of a TOML document, tables included, as (path, value)."""
    for k, v in data.items():
        path = (*prefix, k)
        yield path, v
        if isinstance(v, dict):
            yield from leaves(v, path)


def malformed(value: Any) -> Iterator[Any]:
    """Values of the wrong kind, or beyond reason, for a field that holds ``value``."""
    if isinstance(value, bool):
        yield 3
    elif isinstance(value, int | float):
        yield from ("lots", BEYOND, -BEYOND)
    elif isinstance(value, str):
        yield from ((BEYOND if value == "missing" else 3), {"a": 1})
    elif isinstance(value, list):
        yield 3
        first = value[0] if value else None
        if isinstance(first, int | float) and not isinstance(first, bool):
            yield from (["x", *value[1:]], [BEYOND, *value[1:]])
        elif isinstance(first, str):
            yield [BEYOND, *value[1:]]
    elif isinstance(value, dict):
        yield 3


def nested(path: tuple, value: Any) -> dict[str, Any]:
    out = value
    for k in reversed(path):
        out = {k: out}
    return out


def table_models(rid: str, monkeypatch: pytest.MonkeyPatch) -> dict[Path, type[BaseModel]]:
    """Each of the ruleset's table files and the model its own loader validates it with,
    found by calling the ruleset's table loaders with ``load_table`` watched."""
    rs = load_ruleset(rid)
    package = type(rs).__module__.rsplit(".", 1)[0]
    seen: dict[Path, type[BaseModel]] = {}
    real = core_data.load_table

    def watched(ruleset: str, path: Path, model: type[BaseModel]) -> Any:
        seen[Path(path)] = model
        return real(ruleset, path, model)

    modules = [m for name, m in list(sys.modules.items()) if name.startswith(package + ".")]
    loaders = [m for m in modules if getattr(m, "load_table", None) is real]
    for module in loaders:
        monkeypatch.setattr(module, "load_table", watched)
    clear_table_cache()
    for module in loaders:
        for fn in list(vars(module).values()):
            if not inspect.isfunction(fn) or fn.__module__ != module.__name__:
                continue
            params = inspect.signature(fn).parameters.values()
            if all(p.default is not p.empty for p in params):
                fn()
    files = {Path(p) for p in rs.table_files().values()}
    assert files <= set(seen), f"no loader found for {files - set(seen)}"
    return {p: seen[p] for p in files}


@pytest.mark.parametrize("rid", RULESETS)
def test_every_malformed_table_override_names_file_and_field(
    rid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tried = 0
    for path, model in table_models(rid, monkeypatch).items():
        shipped = tomllib.loads(path.read_text(encoding="utf-8"))
        over = override_path(rid, path.stem)
        over.parent.mkdir(parents=True, exist_ok=True)
        for field, value in leaves(shipped):
            for bad in malformed(value):
                over.write_text(tomli_w.dumps(nested(field, bad)), encoding="utf-8")
                clear_table_cache()
                tried += 1
                with pytest.raises(DataFileError) as e:
                    core_data.load_table(rid, path, model)
                text = str(e.value)
                assert str(over) in text and field[-1] in text, (field, bad, text)
        over.unlink()
        clear_table_cache()
        core_data.load_table(rid, path, model)  # the shipped table itself loads
    assert tried >= 10


@pytest.mark.parametrize("rid", RULESETS)
def test_every_malformed_aircraft_file_is_left_out_and_named(rid: str) -> None:
    rs = load_ruleset(rid)
    shipped_dir = Path(importlib.import_module(type(rs).__module__).__file__ or "").parent
    cards = sorted((shipped_dir / "aircraft").glob("*.toml"))[:2]
    assert cards, f"{rid} ships no aircraft"
    own = user_data_dir() / "aircraft" / rid
    own.mkdir(parents=True)
    tried = 0
    for card in cards:
        shipped = tomllib.loads(card.read_text(encoding="utf-8"))
        good = rs.aircraft[card.stem]
        for field, value in leaves(shipped):
            for bad in malformed(value):
                data = copy.deepcopy(shipped)
                here = data
                for k in field[:-1]:
                    here = here[k]
                here[field[-1]] = bad
                mine = own / card.name
                mine.write_text(tomli_w.dumps(data), encoding="utf-8")
                catalogue = rs.aircraft
                problems = catalogue_problems(rid)
                if not problems:
                    # the card's model takes it (a number for a cell marked missing, or for
                    # ammunition written as text "7/2"): the umpire's value, not malformed
                    assert catalogue[card.stem] != good, (field, bad)
                    continue
                tried += 1
                assert catalogue[card.stem] == good  # the shipped card stays, the bad left out
                [said] = problems
                assert str(mine) in said and field[-1] in said, (field, bad, said)
        (own / card.name).unlink()
    assert tried > 20
