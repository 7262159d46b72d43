"""Data files: TOML tables and aircraft catalogues, validated by pydantic, with user overrides.

Rulesets ship their tables and sample aircraft as TOML beside their code. Cells the rules text
does not print hold the string ``"missing"``; the umpire fills them in the app and the values
are saved as an override file in the user's data directory (``AIRBOSS_DATA_DIR`` or the
platform's user data dir), never into the installed package. Every error names the file and
the field.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

import platformdirs
import tomli_w
from pydantic import BaseModel, ValidationError

from app.core.errors import DataFileError, MissingTableValue

M = TypeVar("M", bound=BaseModel)

#: the value of a table cell the rules text does not print
MISSING = "missing"
Missing = Literal["missing"]


def user_data_dir() -> Path:
    """Where the umpire's own aircraft, table values and settings live."""
    override = os.environ.get("AIRBOSS_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("airboss", "airboss"))


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as a dict; ``DataFileError`` naming the file on a syntax error."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise DataFileError(f"{path}: not valid TOML: {e}") from None
    except OSError as e:
        raise DataFileError(f"{path}: cannot be read: {e.strerror}") from None


def validate(model: type[M], data: Mapping[str, Any], where: str) -> M:
    """``model`` from ``data``; a ``DataFileError`` naming ``where``, each field and reason."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(top level)'}: {err['msg']}"
            for err in e.errors()
        )
        raise DataFileError(f"{where}: {problems}") from None


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), dict) else v
    return out


def override_path(ruleset: str, name: str) -> Path:
    """The umpire's override file for a ruleset's data file ``name`` (a stem, no suffix)."""
    return user_data_dir() / "tables" / ruleset / f"{name}.toml"


def load_table(ruleset: str, path: Path, model: type[M]) -> M:
    """A shipped TOML data file with the umpire's override merged on top, validated."""
    data = read_toml(path)
    over = override_path(ruleset, path.stem)
    where = str(path)
    if over.exists():
        data = _merge(data, read_toml(over))
        where = f"{path} with overrides from {over}"
    return validate(model, data, where)


def save_override(ruleset: str, name: str, values: Mapping[str, Any]) -> Path:
    """Write the umpire's values for a data file (merged into any earlier override)."""
    path = override_path(ruleset, name)
    current = read_toml(path) if path.exists() else {}
    merged = _merge(current, values)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(tomli_w.dumps(merged), encoding="utf-8")
    tmp.replace(path)
    return path


def cell(value: int | str, table: str, where: str, rule: str) -> int:
    """A table value, or ``MissingTableValue`` if the cell is still marked missing."""
    if value == MISSING or not isinstance(value, int):
        raise MissingTableValue(table, where, rule)
    return value


def load_catalogue(directory: Path, model: type[M], ruleset: str | None = None) -> dict[str, M]:
    """Aircraft types from ``directory/*.toml`` (type id = file stem), then the umpire's own.

    The umpire's files live in ``<user data>/aircraft/<ruleset>/`` and replace a shipped type
    of the same id.
    """
    dirs = [directory]
    if ruleset:
        dirs.append(user_data_dir() / "aircraft" / ruleset)
    out: dict[str, M] = {}
    for d in dirs:
        if not d.is_dir():
            continue
        for path in sorted(d.glob("*.toml")):
            out[path.stem] = validate(model, read_toml(path), str(path))
    return out


def save_aircraft(ruleset: str, type_id: str, card: BaseModel) -> Path:
    """Save an aircraft type from the card editor into the umpire's catalogue."""
    path = user_data_dir() / "aircraft" / ruleset / f"{type_id}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(tomli_w.dumps(card.model_dump(mode="json", exclude_none=True)), encoding="utf-8")
    tmp.replace(path)
    return path
