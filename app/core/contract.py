"""The ruleset contract checked at load (issue 32): every declaration of a ruleset, each
mistake named as ``ruleset: declaration: what is wrong``.

A club's house ruleset finds out what it got wrong when it is loaded, not at the table: a
misspelt ``card_fields`` entry, an ``initiative`` naming no procedure, a ledger reading a card
field the card does not have, an ``Inputs`` field the desk cannot build a form for, a
``dice`` declaration (the dice are derived from ``decide`` by a dry run), a table file that is
not there. ``Ruleset.__init__`` checks the class's declarations once per class
(``declaration_mistakes``); ``app.plugins`` checks the loaded instance (``ruleset_mistakes``:
the declarations, its tables and its sequence of play) and reports the ruleset as broken with
every mistake listed. ``app.testing.check_ruleset`` runs the same check first.
"""

from __future__ import annotations

import enum
import inspect
import keyword
import re
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.errors import RuleViolation

__all__ = ["RulesetContractError", "declaration_mistakes", "ruleset_mistakes"]

#: aircraft references of a procedure's inputs: optional aircraft ids
REFS = ("attacker", "target", "aircraft")
#: the desk's optional panels a ruleset may name in ``Ruleset.panels`` (app/ui/shell/desk_layout.py)
PANELS = frozenset({"initiative", "angle_off", "displays", "critical_log"})
_ID = re.compile(r"[a-z][a-z0-9_]*")


class RulesetContractError(TypeError):
    """A ruleset whose declarations break the contract; ``mistakes`` lists each, named."""

    def __init__(self, ruleset: str, mistakes: list[str]) -> None:
        self.ruleset = ruleset
        self.mistakes = tuple(mistakes)
        super().__init__(
            f"ruleset {ruleset!r} breaks the ruleset contract ({len(mistakes)} mistake"
            + ("s" if len(mistakes) != 1 else "")
            + "): "
            + "; ".join(mistakes)
        )


def _plain(annotation: Any) -> bool:
    """Whether the desk can build a form field for ``annotation``: int, bool, str, float,
    Fraction, an Enum, a Literal, a list or tuple of those, or one of those or None."""
    if annotation in (int, bool, str, float, Fraction):
        return True
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return True
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return all(isinstance(a, int | str | bool) for a in args)
    if origin in (typing.Union, types.UnionType):
        return all(a is type(None) or _plain(a) for a in args)
    if origin is list:
        return len(args) == 1 and _plain(args[0])
    if origin is tuple:
        items = [a for a in args if a is not Ellipsis]
        return bool(items) and all(_plain(a) for a in items)
    return False


def _shown(annotation: Any) -> str:
    if typing.get_origin(annotation) is None and hasattr(annotation, "__name__"):
        return str(annotation.__name__)
    return str(annotation).replace("typing.", "")


def _own(cls: type, name: str, base: type) -> bool:
    """Whether ``cls`` (or a class between it and ``base``) defines ``name`` itself."""
    for klass in cls.__mro__:
        if klass is base:
            return False
        if name in vars(klass):
            return True
    return False


def _procedure_mistakes(p: Any, where: str) -> list[str]:
    from app.core.procedure import Procedure

    out: list[str] = []
    if not (isinstance(p, type) and issubclass(p, Procedure)):
        return [f"{where}: {p!r} is not a Procedure subclass (app.core.procedure.Procedure)"]
    pid = getattr(p, "id", None)
    where = f"procedure {pid!r}" if isinstance(pid, str) else f"procedure {p.__name__}"
    if not isinstance(pid, str) or not _ID.fullmatch(pid):
        out.append(f"{where}: id: {pid!r} is not an id (lower-case letters, digits and _)")
    for attr in ("title", "rule"):
        value = getattr(p, attr, None)
        if not isinstance(value, str) or not value.strip():
            what = "the rule number it implements" if attr == "rule" else "its printed name"
            out.append(f"{where}: {attr}: missing or empty (give {what})")
    if inspect.isabstract(p):
        missing = ", ".join(sorted(getattr(p, "__abstractmethods__", ())))
        out.append(f"{where}: does not write {missing}")
    if _own(p, "dice", Procedure):
        out.append(
            f"{where}: dice: declared, but the dice a procedure rolls are derived from decide "
            "by a dry run (Procedure.dice_needed); remove the declaration"
        )
    if _own(p, "dice_needed", Procedure):
        out.append(
            f"{where}: dice_needed: overridden, but the dice a procedure rolls are derived "
            "from decide by a dry run; remove the override"
        )
    line_role = getattr(p, "line_role", "attacker")
    if line_role not in ("attacker", "target"):
        out.append(f"{where}: line_role: {line_role!r} is neither 'attacker' nor 'target'")
    inputs = getattr(p, "Inputs", None)
    if not (isinstance(inputs, type) and issubclass(inputs, BaseModel)):
        out.append(f"{where}: Inputs: {inputs!r} is not a pydantic model class")
        return out
    fields = inputs.model_fields
    if inputs.model_config.get("extra") != "forbid":
        out.append(
            f"{where}: Inputs: a misspelt input would be ignored; set "
            "model_config extra='forbid' (or derive from ProcedureInputs / AircraftInputs)"
        )
    for name, info in fields.items():
        if name in REFS:
            if info.is_required() or not _plain(info.annotation) or str not in _leaves(info):
                out.append(
                    f"{where}: Inputs.{name}: an aircraft reference is an optional id "
                    "(str | None = None)"
                )
        elif not _plain(info.annotation):
            out.append(
                f"{where}: Inputs.{name}: {_shown(info.annotation)} is no type the desk "
                "can make a field for (int, bool, str, float, a Literal, an Enum, a list of "
                "those, optional)"
            )
    for attr in ("card_fields", "suggested"):
        names: Any = getattr(p, attr, frozenset())
        if isinstance(names, str) or not isinstance(names, frozenset | set | tuple | list):
            out.append(f"{where}: {attr}: {names!r} is not a set of input names")
            continue
        for name in sorted(names):
            if name not in fields:
                close = _close(name, fields)
                out.append(
                    f"{where}: {attr}: {name!r} is not a field of its Inputs"
                    + (f" (did you mean {close!r}?)" if close else "")
                )
    both = set(getattr(p, "card_fields", ())) & set(getattr(p, "suggested", ()))
    if both:
        out.append(
            f"{where}: card_fields and suggested both name {', '.join(sorted(both))}: a card "
            "value is either checked against the card or only suggested"
        )
    return out


def _leaves(info: Any) -> set[Any]:
    return set(typing.get_args(info.annotation)) | {info.annotation}


def _close(name: str, known: Any) -> str | None:
    import difflib

    found = difflib.get_close_matches(name, list(known), n=1)
    return found[0] if found else None


def _base(cls: type) -> type:
    """``app.core.ruleset.Ruleset`` among ``cls``'s bases (this module does not import it:
    ``Ruleset`` checks its subclasses with it)."""
    return next(
        (k for k in cls.__mro__ if k.__name__ == "Ruleset" and k.__module__ == "app.core.ruleset"),
        object,
    )


def _is(value: Any, *fields: str) -> bool:
    """Whether ``value`` has the fields of a declaration (a LedgerSpec, a Variant, a Step)."""
    return all(hasattr(value, f) for f in fields)


def declaration_mistakes(cls: type) -> list[str]:
    """Every mistake in the class-level declarations of a ruleset, each as ``declaration:
    what is wrong`` (without the ruleset's id)."""

    out: list[str] = []
    rid = getattr(cls, "id", None)
    if not isinstance(rid, str) or not _ID.fullmatch(rid) or keyword.iskeyword(rid):
        out.append(
            f"id: {rid!r}: its id and title must be text, the id lower-case letters, digits and _"
        )
    title = getattr(cls, "title", None)
    if not isinstance(title, str) or not title.strip():
        out.append(f"title: {title!r}: its id and title must be text, the title not empty")
    for attr in ("Card", "Details", "State", "GameState"):
        model = getattr(cls, attr, None)
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            out.append(f"{attr}: {model!r} is not a pydantic model class")
    procs = getattr(cls, "procedure_types", ())
    ids: dict[str, type] = {}
    if not isinstance(procs, tuple | list):
        out.append(f"procedure_types: {procs!r} is not a tuple of Procedure classes")
        procs = ()
    for n, p in enumerate(procs):
        out += _procedure_mistakes(p, f"procedure_types[{n}]")
        pid = getattr(p, "id", None)
        if isinstance(pid, str):
            if pid in ids:
                out.append(
                    f"procedure {pid!r}: id: used by both {ids[pid].__name__} and "
                    f"{getattr(p, '__name__', p)}"
                )
            ids[pid] = p
    for attr in ("initiative", "pass_initiative"):
        pid = getattr(cls, attr, None)
        if pid is not None and pid not in ids:
            close = _close(str(pid), ids)
            out.append(
                f"{attr}: {pid!r} names no procedure of procedure_types"
                + (f" (did you mean {close!r}?)" if close else "")
            )
    by = getattr(cls, "initiative_by", None)
    if getattr(cls, "initiative", None) is not None and by not in ("side", "aircraft"):
        out.append(f"initiative_by: {by!r}: an initiative orders a 'side' or each 'aircraft'")
    if getattr(cls, "initiative", None) is None and by is not None:
        out.append(f"initiative_by: {by!r} is set but no initiative procedure is named")
    card = getattr(cls, "Card", None)
    card_fields: dict[str, Any] = {}
    if isinstance(card, type) and issubclass(card, BaseModel):
        card_fields = dict(card.model_fields)
    # a ruleset that works its starting values out itself reads no ledger's card_field
    reads_card = not _own(cls, "starting_ledgers", _base(cls))
    seen: set[str] = set()
    for n, spec in enumerate(getattr(cls, "ledgers", ())):
        if not _is(spec, "id", "title", "card_field", "unit", "fixed_start"):
            out.append(f"ledgers[{n}]: {spec!r} is not a LedgerSpec")
            continue
        where = f"ledger {spec.id!r}"
        if spec.id in seen:
            out.append(f"{where}: id: declared twice")
        seen.add(spec.id)
        if (
            reads_card
            and spec.fixed_start is None
            and card_fields
            and spec.card_field not in card_fields
        ):
            close = _close(spec.card_field, card_fields)
            out.append(
                f"{where}: card_field: {spec.card_field!r} is not a field of the Card"
                + (f" (did you mean {close!r}?)" if close else "")
            )
        if not isinstance(spec.unit, int | Fraction) or spec.unit <= 0:
            out.append(f"{where}: unit: {spec.unit!r} is not a positive number")
    seen = set()
    for n, v in enumerate(getattr(cls, "variant_list", ())):
        if not _is(v, "id", "title", "help", "default"):
            out.append(f"variant_list[{n}]: {v!r} is not a Variant")
            continue
        if not _ID.fullmatch(v.id):
            out.append(f"variant {v.id!r}: id: not an id (lower-case letters, digits and _)")
        if v.id in seen:
            out.append(f"variant {v.id!r}: id: declared twice")
        seen.add(v.id)
        if not v.title.strip() or not v.help.strip():
            out.append(f"variant {v.id!r}: title and help: both are needed (Help > Rules readings)")
    panels = getattr(cls, "panels", None)
    if panels is not None:
        for name in panels:
            if name not in PANELS:
                known = ", ".join(sorted(PANELS))
                out.append(f"panels: {name!r} is no optional panel of the desk ({known})")
    return out


def _instance_mistakes(rs: Any) -> list[str]:
    from app.core.engagement import Engagement

    out: list[str] = []
    files = _call(rs.table_files, "table_files", out)
    if files is not None:
        for name, path in dict(files).items():
            where = f"table {name!r}"
            if not isinstance(path, Path):
                out.append(f"{where}: {path!r} is not a path")
            elif path.suffix != ".toml":
                out.append(f"{where}: {path.name} is not a .toml file")
            elif not path.is_file():
                out.append(f"{where}: {path} does not exist")
        headings = _call(rs.table_headings, "table_headings", out)
        stems = {p.stem for p in dict(files).values() if isinstance(p, Path)}
        for stem in headings or {}:
            if stem not in stems:
                out.append(f"table_headings: {stem!r} is the stem of no file of table_files")
    steps = _call(lambda: rs.steps(Engagement()), "steps", out)
    if steps is not None:
        if not steps:
            out.append("steps: the sequence of play has no step")
        for n, step in enumerate(steps):
            if not _is(step, "phase", "title", "label"):
                out.append(f"steps[{n}]: {step!r} is not a Step")
    return out


def _call(fn: Callable[[], Any], what: str, out: list[str]) -> Any:
    try:
        return fn()
    except RuleViolation:
        return None
    except Exception as e:  # noqa: BLE001 - the ruleset's own code: named, not raised
        out.append(f"{what}: raised {type(e).__name__}: {e}")
        return None


def ruleset_mistakes(rs: Any) -> list[str]:
    """Every mistake of a loaded ruleset: its declarations, its tables and its sequence of
    play (the steps of a new game), each as ``ruleset: declaration: what is wrong``."""
    rid = getattr(rs, "id", "?")
    return [f"{rid}: {m}" for m in declaration_mistakes(type(rs)) + _instance_mistakes(rs)]
