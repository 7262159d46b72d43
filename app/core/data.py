"""Data files: TOML tables and aircraft catalogues, validated by pydantic, with user overrides.

Rulesets ship their tables and sample aircraft as TOML beside their code. Cells the rules text
does not print hold the string ``"missing"``; the umpire fills them in the app and the values
are saved as an override file in the user's data directory (``AIRBOSS_DATA_DIR`` or the
platform's user data dir), never into the installed package. Every error names the file and
the field.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar

import tomli_w
from pydantic import BaseModel, ValidationError

from app.core.errors import DataFileError, MissingTableValue, problem_text, problems_text
from app.core.paths import user_data_dir as user_data_dir  # re-exported: its old home

M = TypeVar("M", bound=BaseModel)

#: the value of a table cell the rules text does not print
MISSING = "missing"
Missing = Literal["missing"]


#: the largest table or aircraft file read, in bytes (issue 31: a file of 64 MB is no table)
MAX_DATA_FILE = 1_000_000
#: the deepest a table or aircraft file nests its tables and lists (issue 46: the deepest file
#: shipped nests 4; one nested 200,000 deep made every aircraft of its ruleset fail)
MAX_DEPTH = 16


def _too_deep(data: Any) -> str | None:
    """The first field nested deeper than ``MAX_DEPTH`` (its dotted place), walked without
    recursion; ``None`` when none is."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            return where or "(top level)"
        if isinstance(value, Mapping):
            stack.extend(
                (v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in value.items()
            )
        elif isinstance(value, list):
            stack.extend((v, f"{where}.{i}", depth + 1) for i, v in enumerate(value))
    return None


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as a dict; ``DataFileError`` naming the file on a syntax error, and at
    once for what is not a regular file of at most ``MAX_DATA_FILE`` bytes (a FIFO would
    block the read)."""
    import tomllib  # here, not on import: the desk paints before it reads a table (issue 20)

    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise DataFileError(f"{path}: not a regular file (a folder, a pipe, a device?)")
        if st.st_size > MAX_DATA_FILE:
            raise DataFileError(
                f"{path}: {st.st_size:,} bytes; a table or aircraft file may hold at most "
                f"{MAX_DATA_FILE:,}"
            )
        with path.open("rb") as f:
            data = tomllib.load(f)
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise DataFileError(
            f"{path}: nested far deeper than a table or an aircraft nests (at most "
            f"{MAX_DEPTH}); refused"
        ) from None
    except tomllib.TOMLDecodeError as e:
        raise DataFileError(f"{path}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise DataFileError(
            f"{path}: not a UTF-8 text file (byte {e.start}); save it as UTF-8"
        ) from None
    except OSError as e:
        if path.is_symlink() and not path.exists():
            raise DataFileError(
                f"{path}: a link to {os.readlink(path)}, a file that does not exist"
            ) from None
        raise DataFileError(f"{path}: cannot be read: {e.strerror}") from None
    deep = _too_deep(data)
    if deep is not None:
        raise DataFileError(
            f"{path}: {deep}: nested deeper than a table or an aircraft nests (at most "
            f"{MAX_DEPTH}); refused"
        )
    return data


def validate(model: type[M], data: Mapping[str, Any], where: str) -> M:
    """``model`` from ``data``; a ``DataFileError`` naming ``where``, each field and reason."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise DataFileError(f"{where}: {problems_text(e, '(top level)')}") from None


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), dict) else v
    return out


def override_path(ruleset: str, name: str) -> Path:
    """The umpire's override file for a ruleset's data file ``name`` (a stem, no suffix)."""
    return user_data_dir() / "tables" / ruleset / f"{name}.toml"


_TABLES: dict[tuple[Any, ...], Any] = {}
#: shipped table file -> the model its ruleset reads it with (the tables editor types each cell
#: by it, issue 29); known once the ruleset has read the table
_MODELS: dict[str, type[BaseModel]] = {}


def table_model(path: Path) -> type[BaseModel] | None:
    """The model the ruleset reads the shipped table ``path`` with, once it has read it."""
    return _MODELS.get(str(path))


def table_problems(
    model: type[BaseModel], data: Mapping[str, Any]
) -> list[tuple[tuple[Any, ...], str]]:
    """What ``model`` refuses in a table's values: (where, reason) each, none when it fits."""
    try:
        model.model_validate(data)
    except ValidationError as e:
        return [(tuple(err["loc"]), problem_text(err)) for err in e.errors()]
    return []


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


@cache
def _names(ruleset: str, path: Path, data_dir: Path) -> tuple[str, str]:
    """The shipped table's file name and its override's, made once for each data folder
    (``data_dir``, the key: a table is asked for at every branch of a dry run for the dice,
    issue 36)."""
    return str(path), str(override_path(ruleset, path.stem))


#: the tables read within ``steady_tables`` in this thread, by what they were asked with
_steady = threading.local()


@contextmanager
def steady_tables() -> Iterator[None]:
    """Within it, each table is looked up once in this thread: asked again, it is the same,
    its files not looked at again (issue 48: "can this line act" for a step's eight gun
    attacks read each line's two tables, two files each, by their folder, about a sixth of
    its time). For one piece of work on one game (every line of a step, a prepare, an odds
    walk), which no table edit comes in the middle of; ``save_override`` made in it is seen.
    Nested, the outer one holds."""
    if getattr(_steady, "tables", None) is not None:
        yield
        return
    _steady.tables = {}
    try:
        yield
    finally:
        _steady.tables = None


def load_table(ruleset: str, path: Path, model: type[M]) -> M:
    """A shipped TOML data file with the umpire's override merged on top, validated.

    The one cached table loader (issue 19): the result is kept until either file changes or
    ``save_override`` writes, so a value saved in the tables editor is used by the very next
    procedure, and odds never re-read TOML (within ``steady_tables``, looked up once)."""
    steady: dict[tuple[Any, ...], Any] | None = getattr(_steady, "tables", None)
    if steady is None:
        return _load_table(ruleset, path, model)
    asked = (ruleset, path, model)
    found = steady.get(asked)
    if found is None:
        found = steady[asked] = _load_table(ruleset, path, model)
    return found


def _load_table(ruleset: str, path: Path, model: type[M]) -> M:
    shipped, over_name = _names(ruleset, path, user_data_dir())
    _MODELS[shipped] = model
    key = (ruleset, shipped, model, over_name, _stamp(shipped), _stamp(over_name))
    hit = _TABLES.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    over = Path(over_name)
    data = read_toml(path)
    where = str(path)
    if over.exists() or over.is_symlink():  # a link to nothing is named, not skipped
        values = read_toml(over)
        _check_override(data, values, over)
        data = _merge(data, values)
        where = f"{path} with overrides from {over}"
    value = validate(model, data, where)
    _TABLES[key] = value
    return value


def _is_fraction(text: str) -> bool:
    try:
        Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        return False
    return "/" in text


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float) or (isinstance(value, str) and _is_fraction(value)):
        return "a number"  # "3/2": a table's way of writing 1 1/2 in TOML
    if isinstance(value, str):
        return "text"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _check_override(shipped: Any, over: Any, path: Path, where: str = "") -> None:
    """The umpire's values fit the shipped table (issue 31): a value the table prints is
    replaced by one of the same kind (a number by a number, a list by a list ...); a cell
    marked missing, or a field the table leaves open, takes what the table's model accepts;
    no number is beyond reason. The table's model then checks the merged table against the
    rules' own bounds, naming this file."""
    absurd = _absurd(over, where, "table")
    if absurd:
        raise DataFileError(f"{path}: {absurd}")
    if shipped is None or shipped == MISSING:
        return
    if _kind(over) != _kind(shipped):
        raise DataFileError(
            f"{path}: {where or '(top level)'}: the table holds {_kind(shipped)} here, "
            f"not {_kind(over)}"
        )
    if isinstance(shipped, list) and shipped and isinstance(over, list) and not over:
        raise DataFileError(  # issue 46: an emptied list leaves its rule nothing to read
            f"{path}: {where or '(top level)'}: the table prints {len(shipped)} values here; "
            "an empty list leaves the rule nothing to read"
        )
    if isinstance(over, Mapping):
        for k, v in over.items():
            _check_override(shipped.get(k), v, path, f"{where}.{k}" if where else str(k))
    elif isinstance(over, list):  # a row or a pair: each printed item by one of its kind
        for i, v in enumerate(over[: len(shipped)]):
            _check_override(shipped[i], v, path, f"{where}.{i}")


#: how many times the loaded tables were forgotten (``tables_edition``)
_edition = 0


def tables_edition() -> int:
    """A number that changes whenever the umpire's tables may have changed (each
    ``save_override``): work done ahead from the tables before is not used after."""
    return _edition


def clear_table_cache() -> None:
    """Forget every loaded table (``save_override`` calls it), also within ``steady_tables``
    in this thread."""
    global _edition
    _edition += 1
    _TABLES.clear()
    if getattr(_steady, "tables", None) is not None:
        _steady.tables = {}


def save_override(ruleset: str, name: str, values: Mapping[str, Any]) -> Path:
    """Write the umpire's values for a data file (merged into any earlier override)."""
    path = override_path(ruleset, name)
    current = read_toml(path) if path.exists() else {}
    merged = _merge(current, values)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(tomli_w.dumps(merged), encoding="utf-8")
    tmp.replace(path)
    clear_table_cache()
    return path


def cell(value: int | str, table: str, where: str, rule: str) -> int:
    """A table value, or ``MissingTableValue`` if the cell is still marked missing."""
    if value == MISSING or not isinstance(value, int):
        raise MissingTableValue(table, where, rule)
    return value


#: the largest number an aircraft file may hold (a crew of 2**63-1 is a typo, not an aircraft)
ABSURD = 1_000_000

_PROBLEMS: dict[str, list[str]] = {}


def _absurd(data: Any, where: str = "", what: str = "aircraft") -> str | None:
    """The first absurd value of a card's data: an empty name, a number beyond reason."""
    if isinstance(data, Mapping):
        for k, v in data.items():
            here = f"{where}.{k}" if where else str(k)
            if k == "name" and isinstance(v, str) and not v.strip():
                return f"{here}: an empty name"
            found = _absurd(v, here, what)
            if found:
                return found
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found = _absurd(v, f"{where}.{i}", what)
            if found:
                return found
    elif isinstance(data, int | float) and not isinstance(data, bool):
        if not abs(data) <= ABSURD:  # also NaN
            return f"{where}: {data} is beyond any {what} (at most {ABSURD:,})"
    return None


def load_catalogue(directory: Path, model: type[M], ruleset: str | None = None) -> dict[str, M]:
    """Aircraft types from ``directory/*.toml`` (type id = file stem), then the umpire's own.

    The umpire's files live in ``<user data>/aircraft/<ruleset>/`` and replace a shipped type
    of the same id. A bad file of the umpire's (not TOML, not UTF-8, a broken link, a field
    the card refuses, an absurd value) is left out and reported, one line naming the file,
    field and reason, by ``catalogue_problems(ruleset)``; the good cards are all kept. A bad
    shipped file is a bug of the ruleset and raises ``DataFileError``.
    """
    problems: list[str] = []
    out: dict[str, M] = {}
    if directory.is_dir():
        for path in sorted(directory.glob("*.toml")):
            out[path.stem] = validate(model, read_toml(path), str(path))
    if ruleset:
        own = user_data_dir() / "aircraft" / ruleset
        if own.is_dir():
            for path in sorted(own.glob("*.toml")):
                try:
                    data = read_toml(path)
                    absurd = _absurd(data)
                    if absurd:
                        raise DataFileError(f"{path}: {absurd}")
                    out[path.stem] = validate(model, data, str(path))
                except DataFileError as e:
                    problems.append(str(e))
        _PROBLEMS[ruleset] = problems
    return out


def override_problems(ruleset: str, tables: Mapping[str, Path]) -> list[str]:
    """The umpire's table overrides of ``ruleset`` that would be refused, one line each
    naming the file, the field and the reason (``airboss rulesets``, issue 46): each read,
    checked against its shipped table, and by the table's model once the ruleset has read it."""
    out = []
    for path in tables.values():
        over = override_path(ruleset, path.stem)
        if not (over.exists() or over.is_symlink()):
            continue
        try:
            shipped, values = read_toml(path), read_toml(over)
            _check_override(shipped, values, over)
            model = table_model(path)
            if model is not None:
                validate(model, _merge(shipped, values), f"{path} with overrides from {over}")
        except DataFileError as e:
            out.append(str(e))
    return out


def catalogue_problems(ruleset: str) -> list[str]:
    """The umpire's aircraft files left out of ``ruleset``'s catalogue at its last load, one
    line each (file, field, reason), for the desk to show (Roster > Add)."""
    return list(_PROBLEMS.get(ruleset, ()))


def own_aircraft_path(ruleset: str, type_id: str) -> Path:
    """Where the umpire's own card of this type lives (whether or not it exists yet)."""
    return user_data_dir() / "aircraft" / ruleset / f"{type_id}.toml"


def save_aircraft(ruleset: str, type_id: str, card: BaseModel) -> Path:
    """Save an aircraft type from the card editor into the umpire's catalogue."""
    path = own_aircraft_path(ruleset, type_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(tomli_w.dumps(card.model_dump(mode="json", exclude_none=True)), encoding="utf-8")
    tmp.replace(path)
    return path
