"""Ruleset discovery through the ``airboss.rulesets`` entry-point group.

A ruleset that fails to import (any error, ``SystemExit`` included) or is not a ``Ruleset`` is
reported as broken, with its error; the others keep working. An id registered by two
distributions is refused with both named; Airboss's own rulesets keep their ids.
"""

from __future__ import annotations

import traceback
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from app.core.ruleset import Ruleset

GROUP = "airboss.rulesets"


BUILT_IN = "airboss"


def _dist(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "an unknown distribution"
    return f"{dist.name} {dist.version}"


def _registrations() -> tuple[dict[str, EntryPoint], dict[str, str]]:
    """Usable entry points by id, and ids refused because two distributions register them."""
    by_name: dict[str, list[EntryPoint]] = {}
    for ep in entry_points(group=GROUP):
        same = by_name.setdefault(ep.name, [])
        if all(e.value != ep.value or _dist(e) != _dist(ep) for e in same):
            same.append(ep)
    usable: dict[str, EntryPoint] = {}
    refused: dict[str, str] = {}
    for name, eps in by_name.items():
        if len(eps) == 1:
            usable[name] = eps[0]
            continue
        own = [e for e in eps if getattr(getattr(e, "dist", None), "name", None) == BUILT_IN]
        others = ", ".join(_dist(e) for e in eps if e not in own[:1])
        if own:
            usable[name] = own[0]
            refused[f"{name} (from {others})"] = (
                f"refused: the id {name!r} belongs to {_dist(own[0])}; {others} registers it too"
            )
        else:
            refused[name] = (
                f"refused: the id {name!r} is registered by "
                + " and ".join(_dist(e) for e in eps)
                + "; uninstall one of them"
            )
    return usable, refused


def _entry_points() -> dict[str, EntryPoint]:
    return _registrations()[0]


def _isolated(name: str, value: str) -> Ruleset:
    """``_load``, with every error of the plugin's own code turned into ``PluginError``."""
    try:
        return _load(name, value)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit in a plugin must not end Airboss
        raise PluginError(name, e) from None


class PluginError(RuntimeError):
    """A ruleset plugin that cannot be loaded; the message names it and its error."""

    def __init__(self, name: str, error: BaseException) -> None:
        tb = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
        where = f" ({tb[0].filename}:{tb[0].lineno})" if tb else ""
        self.error = error
        super().__init__(f"ruleset {name!r} is broken: {type(error).__name__}: {error}{where}")


@cache
def _load(name: str, value: str) -> Ruleset:
    ep = EntryPoint(name=name, value=value, group=GROUP)
    obj = ep.load()
    if not isinstance(obj, Ruleset):
        raise TypeError(f"{value} is a {type(obj).__name__}, not an airboss Ruleset")
    if obj.id != name:
        raise TypeError(f"{value} has id {obj.id!r} but is registered as {name!r}")
    return obj


def available_rulesets() -> dict[str, str]:
    """Installed, working rulesets: id -> title."""
    out = {}
    for name, ep in sorted(_entry_points().items()):
        try:
            out[name] = _isolated(name, ep.value).title
        except PluginError:  # reported by broken_rulesets()
            continue
    return out


def broken_rulesets() -> dict[str, str]:
    """Registered rulesets that cannot be loaded: id -> the error, for the umpire to read."""
    usable, out = _registrations()
    for name, ep in sorted(usable.items()):
        try:
            _isolated(name, ep.value)
        except PluginError as e:
            err = e.error
            last = traceback.extract_tb(err.__traceback__)[-1:] if err.__traceback__ else []
            where = f" ({last[0].filename}:{last[0].lineno})" if last else ""
            out[name] = f"{type(err).__name__}: {err}{where}"
    return dict(sorted(out.items()))


def load_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id``; ``KeyError`` listing the known ids if unknown."""
    eps, refused = _registrations()
    if ruleset_id not in eps:
        if ruleset_id in refused:
            raise KeyError(f"ruleset {ruleset_id!r} {refused[ruleset_id]}")
        raise KeyError(f"no ruleset {ruleset_id!r}; installed: {', '.join(sorted(eps)) or 'none'}")
    return _isolated(ruleset_id, eps[ruleset_id].value)
