"""Issue 46, "User files are checked at load": the umpire's aircraft file nested 200,000 deep
(it made every ``add_aircraft`` of its ruleset fail with a RecursionError, the shipped types
too, the file unnamed), a file nested deeper than any table, an emptied list in any table
override of any ruleset, and Air Power's ``size = -999999``: each refused with the file and the
field named, the shipped types still working, and ``airboss rulesets`` listing the refused
files."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from app.cli import main
from app.core import data as core_data
from app.core.data import (
    MAX_DEPTH,
    DataFileError,
    catalogue_problems,
    clear_table_cache,
    override_path,
    user_data_dir,
)
from app.plugins import load_ruleset
from app.session import GameSession
from tests.unit.core.test_user_files_named import RULESETS, leaves, nested, table_models

SHIPPED = Path(__file__).parents[3] / "rulesets"


def _own(rid: str, name: str, text: str) -> Path:
    path = user_data_dir() / "aircraft" / rid / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_nested_200000_deep_is_refused_named_and_the_shipped_types_work(
    tmp_path: Path, capsys
) -> None:
    deep = _own("phantoms", "deep.toml", "name = " + "[" * 200_000 + "]" * 200_000 + "\n")
    rs = load_ruleset("phantoms")
    catalogue = rs.aircraft
    assert "deep" not in catalogue and catalogue  # the shipped types are all there
    [said] = catalogue_problems("phantoms")
    assert str(deep) in said and "nested" in said and "RecursionError" not in said
    with GameSession.create(tmp_path / "g.airboss", ruleset="phantoms", title="Deep") as s:
        s.add_aircraft(side="Blue", type_id=next(iter(catalogue)), name="Blue 1")
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert f"    refused: {deep}" in out


def test_a_file_nested_deeper_than_any_table_names_the_field() -> None:
    value: Any = 1
    for _ in range(MAX_DEPTH + 2):
        value = {"deeper": value}
    path = _own("airpower", "nest.toml", tomli_w.dumps({"name": "Nest", "gun": value}))
    load_ruleset("airpower").aircraft  # noqa: B018
    [said] = catalogue_problems("airpower")
    assert said.startswith(f"{path}: gun.deeper.deeper") and f"at most {MAX_DEPTH}" in said


def test_air_powers_size_beyond_any_die_roll_is_refused_named(capsys) -> None:
    """Air Power, Target Size: "the Size number on the ADC is used directly as a die roll
    modifier" (a d10): -999,999 was taken as a valid card."""
    sample = sorted((SHIPPED / "airpower" / "aircraft").glob("*.toml"))[0]
    card = tomllib.loads(sample.read_text(encoding="utf-8"))
    for size, refused in ((-999_999, True), (-10, True), (10, True), (-9, False), (9, False)):
        path = _own("airpower", "tiny.toml", tomli_w.dumps({**card, "size": size}))
        catalogue = load_ruleset("airpower").aircraft
        problems = catalogue_problems("airpower")
        if refused:
            [said] = problems
            assert str(path) in said and "size" in said, said
            assert "tiny" not in catalogue
        else:
            assert problems == [] and catalogue["tiny"].size == size
    _own("airpower", "tiny.toml", tomli_w.dumps({**card, "size": -999_999}))
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert "airpower: " in out and "tiny.toml: size" in out


@pytest.mark.parametrize("rid", RULESETS)
def test_every_emptied_table_list_is_refused_named(
    rid: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    tried = 0
    for path, model in table_models(rid, monkeypatch).items():
        shipped = tomllib.loads(path.read_text(encoding="utf-8"))
        over = override_path(rid, path.stem)
        over.parent.mkdir(parents=True, exist_ok=True)
        lists = 0
        for field, value in leaves(shipped):
            if not (isinstance(value, list) and value):
                continue
            lists += 1
            over.write_text(tomli_w.dumps(nested(field, [])), encoding="utf-8")
            clear_table_cache()
            tried += 1
            with pytest.raises(DataFileError) as e:
                core_data.load_table(rid, path, model)
            said = str(e.value)
            assert str(over) in said and ".".join(map(str, field)) in said, said
        if lists:  # the last of them is left in place: listed as refused
            assert main(["rulesets"]) == 0
            assert f"    refused: {over}" in capsys.readouterr().out
        over.unlink(missing_ok=True)
        clear_table_cache()
    if rid == "phantoms":
        assert tried >= 10  # the impulse chart's speeds, the break-off turns ...
