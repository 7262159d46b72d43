"""A procedure's input field as text: which kind of editor it calls for, how typed text becomes
the value the procedure is given, and how a value is written back as text (issue 43).

The Combat and Initiative forms paint exactly this text, and the action draft
(``app.core.draft``) hands exactly the parsed value to the prepared action: a field never shows
one number while another is used. Text that is not a value of the field ("3,", "abc", "44" in a
0-6 range) is passed on as it is, so the procedure's own validation refuses it in place; it is
never clamped, cut or replaced by a default.

Pure Python: no Qt.
"""

from __future__ import annotations

import json
import re
import types
import typing
from enum import Enum
from fractions import Fraction
from typing import Any, Literal

import annotated_types
from pydantic.fields import FieldInfo

__all__ = [
    "Kind",
    "bounds",
    "choices_of",
    "is_complete",
    "kind_of",
    "parse",
    "render",
    "unwrap_optional",
]

#: the editor a field calls for: a number typed as text ("int", "number"), a check box
#: ("bool"), a picker ("choice"), ticked items ("multi"), a list typed with commas, free text
Kind = Literal["int", "number", "bool", "choice", "multi", "int_list", "str_list", "str", "json"]

#: the widest range a whole number is typed in when the model gives none
LIMIT = 999_999
_WHOLE = re.compile(r"^\s*[+-]?\d+\s*$")


def unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    """``(X, True)`` for ``X | None``; ``(annotation, False)`` otherwise."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) < len(typing.get_args(annotation)):
            if len(args) == 1:
                return args[0], True
            return typing.Union[tuple(args)], True  # noqa: UP007 (built from a list)
    return annotation, False


def choices_of(annotation: Any) -> list[Any] | None:
    """The values of a ``Literal`` or ``Enum``, or of a union of them (``Literal["cap"] |
    Mission``); ``None`` for any other type."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return list(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [m.value for m in annotation]
    if origin in (typing.Union, types.UnionType):
        parts = [choices_of(a) for a in typing.get_args(annotation)]
        if all(p is not None for p in parts):
            return list(dict.fromkeys(v for p in parts for v in p or ()))
    return None


def kind_of(info: FieldInfo) -> tuple[Kind, bool]:
    """The editor field ``info`` calls for, and whether it may be left empty (``X | None``)."""
    annotation, optional = unwrap_optional(info.annotation)
    if annotation is bool:
        return "bool", optional
    if annotation is int:
        return "int", optional
    if choices_of(annotation) is not None:
        return "choice", optional
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    inner = args[0] if args else Any
    listed = origin in (list, tuple, typing.Sequence) or annotation in (list, tuple)
    if listed and inner is int:
        return "int_list", optional
    if listed and (inner is str or choices_of(inner) is not None):
        return "str_list", optional  # words separated by commas, as ``render`` writes them
    if annotation is str:
        return "str", optional
    if annotation in (float, Fraction):
        return "number", optional
    return "json", optional


def bounds(info: FieldInfo) -> tuple[int, int]:
    """The range a whole-number field accepts (its ``ge``/``gt``/``le``/``lt``)."""
    low, high = -LIMIT, LIMIT
    for m in info.metadata:
        if isinstance(m, annotated_types.Ge):
            low = max(low, int(m.ge))  # type: ignore[call-overload]
        elif isinstance(m, annotated_types.Gt):
            low = max(low, int(m.gt) + 1)  # type: ignore[call-overload]
        elif isinstance(m, annotated_types.Le):
            high = min(high, int(m.le))  # type: ignore[call-overload]
        elif isinstance(m, annotated_types.Lt):
            high = min(high, int(m.lt) - 1)  # type: ignore[call-overload]
    return low, high


def is_complete(text: str, low: int, high: int) -> bool:
    """Whether ``text`` is a whole number in ``low..high`` that no further digit could turn
    into another one (so the desk may move on after a single keystroke)."""
    if not text.lstrip("-").isdigit() or not low <= int(text) <= high:
        return False
    longer = [int(text + d) for d in "0123456789" if text.lstrip("-") != "0"]
    return not any(low <= v <= high for v in longer)


def parse(kind: Kind, text: str, optional: bool) -> Any:
    """The value typed ``text`` gives the procedure. Empty text is ``None`` where the field may
    be empty; text that is not a value of the field is returned as it is, for the procedure's
    validation to refuse in place (never a default in its stead)."""
    stripped = text.strip()
    if not stripped and optional:
        return None
    if kind == "int":
        return int(stripped) if _WHOLE.match(stripped) else text
    if kind == "int_list":
        parts = [p.strip() for p in stripped.split(",") if p.strip()]
        return [int(p) if _WHOLE.match(p) else p for p in parts]
    if kind == "str_list":
        return [p.strip() for p in stripped.split(",") if p.strip()]
    if kind == "json":
        try:
            return json.loads(stripped)
        except ValueError:
            return text
    return stripped if kind == "number" else text


def render(value: Any) -> str:
    """A value as a field shows it (``None``: empty)."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(render(v) for v in value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, dict):
        return json.dumps(value, default=str)
    return str(value)
