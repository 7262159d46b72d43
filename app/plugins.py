"""Ruleset discovery through the ``airboss.rulesets`` entry-point group.

A ruleset that fails to import or is not a ``Ruleset`` is reported as broken, with its error;
the others keep working.
"""

from __future__ import annotations

import traceback
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from app.core.ruleset import Ruleset

GROUP = "airboss.rulesets"


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


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
            out[name] = _load(name, ep.value).title
        except Exception:  # noqa: BLE001 - a broken plugin is reported by broken_rulesets()
            continue
    return out


def broken_rulesets() -> dict[str, str]:
    """Registered rulesets that cannot be loaded: id -> the error, for the umpire to read."""
    out = {}
    for name, ep in sorted(_entry_points().items()):
        try:
            _load(name, ep.value)
        except Exception as e:  # noqa: BLE001 - any error in a plugin is the plugin's
            last = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
            where = f" ({last[0].filename}:{last[0].lineno})" if last else ""
            out[name] = f"{type(e).__name__}: {e}{where}"
    return out


def load_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id``; ``KeyError`` listing the known ids if unknown."""
    eps = _entry_points()
    if ruleset_id not in eps:
        raise KeyError(f"no ruleset {ruleset_id!r}; installed: {', '.join(sorted(eps)) or 'none'}")
    return _load(ruleset_id, eps[ruleset_id].value)
