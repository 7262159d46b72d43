"""The shapes ``GameSession`` accepts, checked before anything else (issue 31).

The session API is public (scripts, third-party tools): a value of the wrong shape (a list
where an aircraft id belongs, a number for a procedure id, a non-mapping for the inputs) is
refused here with a ``RuleViolation`` naming the argument or field, before any lookup could
fail with another exception and before anything is written. Values of the right shape are
left to the procedure's ``Inputs`` model and the ruleset (``pydantic.ValidationError`` or
``RuleViolation`` there).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from app.core import limits
from app.core.errors import RuleViolation

#: the input fields that name aircraft (API.md: ``attacker``, ``target``, ``aircraft``)
AIRCRAFT_REFS = ("attacker", "target", "aircraft")


def _what(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def _refuse(field: str, expected: str, value: Any) -> RuleViolation:
    return RuleViolation(f"{field}: expected {expected}, got {_what(value)}; nothing was recorded")


def text(field: str, value: Any, *, optional: bool = False) -> None:
    """``value`` is a ``str`` (or ``None`` when ``optional``)."""
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise _refuse(field, "text" + (" or None" if optional else ""), value)
    limits.text(field, value)  # a name of 64 MB: refused with its size and the limit


def flag(field: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise _refuse(field, "True or False", value)


def path(field: str, value: Any) -> None:
    """A game file path or a server URL: text or a path object, without a NUL character."""
    if isinstance(value, bool) or not isinstance(value, str | os.PathLike):
        raise _refuse(field, "a file path or a server URL", value)
    if "\x00" in str(os.fspath(value)):
        raise RuleViolation(f"{field}: a path cannot hold a NUL character; nothing was opened")


def inputs_shape(field: str, value: Any) -> None:
    """A procedure's inputs: its ``Inputs`` model (any pydantic model) or a mapping with text
    keys, whose aircraft references are text or ``None``."""
    if isinstance(value, BaseModel):
        refs = {f: getattr(value, f, None) for f in AIRCRAFT_REFS}
    elif isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                raise _refuse(f"{field} key", "text", key)
        refs = {f: value.get(f) for f in AIRCRAFT_REFS}
    else:
        raise _refuse(field, "a mapping of field -> value or the procedure's Inputs", value)
    for name, ref in refs.items():
        text(f"{field}.{name}", ref, optional=True)


def dice_source(field: str, value: Any) -> None:
    """``None`` (Airboss rolls) or a dice source: a ``roll`` method and a ``rolls`` list."""
    if value is None:
        return
    if not callable(getattr(value, "roll", None)) or not isinstance(
        getattr(value, "rolls", None), list
    ):
        raise _refuse(field, "a dice source (SeededDice or TableDice) or None", value)


def overrides_shape(field: str, value: Any) -> None:
    """``None`` or field title -> (card value, value used); an empty collection (the desk's
    runner passes ``frozenset()``) means none too."""
    if value is None:
        return
    if isinstance(value, Collection) and not isinstance(value, str | bytes) and not value:
        return
    if not isinstance(value, Mapping):
        raise _refuse(field, "a mapping of field -> (card value, value used)", value)
    for key, pair in value.items():
        if not isinstance(key, str):
            raise _refuse(f"{field} key", "text", key)
        if isinstance(pair, str | bytes) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise _refuse(f"{field}[{key!r}]", "a pair (card value, value used)", pair)


def perform_args(procedure: Any, inputs: Any, dice: Any, overrides: Any) -> None:
    """The arguments of ``GameSession.perform``."""
    text("procedure", procedure)
    inputs_shape("inputs", inputs)
    dice_source("dice", dice)
    overrides_shape("overrides", overrides)


def aircraft_args(side: Any, type_id: Any, name: Any, pilot: Any, details: Any) -> None:
    """The arguments of ``GameSession.add_aircraft`` (``details`` values are the ruleset's
    ``Details`` model's to judge)."""
    text("side", side)
    text("type_id", type_id)
    text("name", name)
    text("pilot", pilot, optional=True)
    if not isinstance(details, Mapping) or not all(isinstance(k, str) for k in details):
        raise _refuse("details", "a mapping of text -> value", details)


def open_args(target: Any, game: Any, actor: Any, read_only: Any) -> None:
    """The arguments of ``GameSession.open``."""
    path("target", target)
    text("game", game, optional=True)
    text("actor", actor)
    flag("read_only", read_only)


def create_args(target: Any, ruleset: Any, title: Any, variants: Any, actor: Any) -> None:
    """The arguments of ``GameSession.create``."""
    path("target", target)
    text("ruleset", ruleset)
    text("title", title)
    if isinstance(variants, str | bytes) or not isinstance(variants, Sequence):
        raise _refuse("variants", "a list of variant ids", variants)
    for i, v in enumerate(variants):
        text(f"variants[{i}]", v)
    text("actor", actor)
