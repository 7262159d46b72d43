"""Ruleset discovery through the ``airboss.rulesets`` entry-point group.

A ruleset that fails to import (any error, ``SystemExit`` included) or is not a ``Ruleset`` is
reported as broken, with its error; the others keep working. An id registered by two
distributions is refused with both named; Airboss's own rulesets keep their ids.

A third-party ruleset is a guest (issue 31): its first import runs in a child process with a
time limit (``IMPORT_TIME_LIMIT``), so one that calls ``sys.exit`` or ``os._exit``, raises
``KeyboardInterrupt`` or hangs at import is listed as broken with what it did, and
``airboss rulesets``, File > New and the desk carry on. Only a ruleset whose import worked
there is imported into the desk's own process. Airboss's own rulesets (and every ruleset of a
frozen bundle, which cannot start a Python child) are imported directly.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Mapping
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from app.core.contract import RulesetContractError, ruleset_mistakes
from app.core.ruleset import Ruleset

GROUP = "airboss.rulesets"


BUILT_IN = "airboss"

#: the longest a third-party ruleset's first import may take, in seconds (in a child process);
#: the environment variable AIRBOSS_RULESET_IMPORT_LIMIT sets another
IMPORT_TIME_LIMIT = 15.0
try:
    IMPORT_TIME_LIMIT = max(0.5, float(os.environ["AIRBOSS_RULESET_IMPORT_LIMIT"]))
except (KeyError, ValueError):
    pass

#: (id, entry point, distribution) -> the error of a third-party ruleset's first import in a
#: child process, or ``None`` when it imported and is an airboss Ruleset
_VETTED: dict[tuple[str, str, str], str | None] = {}


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


def _isolated(name: str, ep: EntryPoint) -> Ruleset:
    """``_load``, with every error of the plugin's own code turned into ``PluginError``; a
    third-party ruleset is first imported in a child process (``_vet``)."""
    key = _key(name, ep)
    if not _trusted(ep):
        if key not in _VETTED:
            _vet({name: ep})
        failed = _VETTED[key]
        if failed is not None:
            raise PluginError(name, None, failed)
    try:
        return _load(name, ep.value)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit in a plugin must not end Airboss
        raise PluginError(name, e) from None


def _describe(error: BaseException) -> str:
    """An import error as the umpire reads it: type, message and the plugin's file and line."""
    tb = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    where = f" ({tb[0].filename}:{tb[0].lineno})" if tb else ""
    return f"{type(error).__name__}: {error}{where}"


class PluginError(RuntimeError):
    """A ruleset plugin that cannot be loaded; the message names it and its error.

    ``error`` is the exception when it was raised in this process (``None`` when the child
    process that tried the first import reported it); ``detail`` is the error as text."""

    def __init__(self, name: str, error: BaseException | None, detail: str | None = None) -> None:
        self.error = error
        self.detail = detail if detail is not None else _describe(error) if error else "broken"
        super().__init__(f"ruleset {name!r} is broken: {self.detail}")


def _key(name: str, ep: EntryPoint) -> tuple[str, str, str]:
    return (name, ep.value, _dist(ep))


def _trusted(ep: EntryPoint) -> bool:
    """Airboss's own rulesets, and any ruleset of a frozen bundle, are imported directly."""
    dist = getattr(getattr(ep, "dist", None), "name", None)
    return dist == BUILT_IN or bool(getattr(sys, "frozen", False))


_PROBE = "import sys; from app.plugins import _probe; _probe(sys.argv[1:])"


def _probe(argv: list[str]) -> None:
    """In the child process: import one ruleset, write what happened to a file, and end
    without running the plugin's exit handlers or waiting for its threads."""
    name, value, out = argv
    try:
        result = {"title": _load(name, value).title}
    except BaseException as e:  # noqa: BLE001 - everything is reported, nothing escapes
        result = {"error": _describe(e)}
    try:
        Path(out).write_text(json.dumps(result), encoding="utf-8")
    finally:
        sys.stdout.flush()
        os._exit(0)


def _vet(eps: Mapping[str, EntryPoint]) -> None:
    """Try the first import of each third-party ruleset not tried yet, each in its own child
    process, all at once; one that does not finish within ``IMPORT_TIME_LIMIT`` is stopped."""
    todo = {n: ep for n, ep in eps.items() if not _trusted(ep) and _key(n, ep) not in _VETTED}
    if not todo:
        return
    env = dict(os.environ)
    # the child sees what this process sees (a test's fake distribution included)
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in sys.path if p)
    limit = IMPORT_TIME_LIMIT
    with tempfile.TemporaryDirectory(prefix="airboss-rulesets-") as tmp:
        running: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}
        for i, (name, ep) in enumerate(todo.items()):
            out = Path(tmp) / f"{i}.json"
            running[name] = (
                subprocess.Popen(
                    [sys.executable, "-c", _PROBE, name, ep.value, str(out)],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # a hung plugin's own children are stopped too
                ),
                out,
            )
        deadline = time.monotonic() + limit
        for name, (proc, out) in running.items():
            key = _key(name, todo[name])
            try:
                code = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _stop(proc)
                _VETTED[key] = (
                    f"did not finish importing in {limit:g} s (a hang at import?); not loaded"
                )
                continue
            _VETTED[key] = _verdict(out, code)


def _verdict(out: Path, code: int) -> str | None:
    try:
        result = json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        if code < 0:
            return f"its import killed the process ({signal.Signals(-code).name}); not loaded"
        return f"its import ended the process (exit code {code}); not loaded"
    if not isinstance(result, dict):
        return "its import reported nonsense; not loaded"
    if "title" in result:
        return None
    return str(result.get("error", "its import failed"))


def _stop(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        proc.kill()
    proc.wait()


@cache
def _load(name: str, value: str) -> Ruleset:
    ep = EntryPoint(name=name, value=value, group=GROUP)
    obj = ep.load()
    if not isinstance(obj, Ruleset):
        raise TypeError(f"{value} is a {type(obj).__name__}, not an airboss Ruleset")
    if not isinstance(obj.id, str) or not isinstance(obj.title, str):
        raise TypeError(f"{value}: its id and title must be text")
    if obj.id != name:
        raise TypeError(f"{value} has id {obj.id!r} but is registered as {name!r}")
    mistakes = ruleset_mistakes(obj)  # issue 32: the whole contract, each mistake named
    if mistakes:
        raise RulesetContractError(name, mistakes)
    return obj


def available_rulesets() -> dict[str, str]:
    """Installed, working rulesets: id -> title."""
    eps = _entry_points()
    _vet(eps)
    out = {}
    for name, ep in sorted(eps.items()):
        try:
            out[name] = _isolated(name, ep).title
        except PluginError:  # reported by broken_rulesets()
            continue
    return out


def broken_rulesets() -> dict[str, str]:
    """Registered rulesets that cannot be loaded: id -> the error, for the umpire to read."""
    usable, out = _registrations()
    _vet(usable)
    for name, ep in sorted(usable.items()):
        try:
            _isolated(name, ep)
        except PluginError as e:
            out[name] = e.detail
    return dict(sorted(out.items()))


def load_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id``; ``KeyError`` listing the known ids if unknown."""
    eps, refused = _registrations()
    if ruleset_id not in eps:
        if ruleset_id in refused:
            raise KeyError(f"ruleset {ruleset_id!r} {refused[ruleset_id]}")
        raise KeyError(f"no ruleset {ruleset_id!r}; installed: {', '.join(sorted(eps)) or 'none'}")
    return _isolated(ruleset_id, eps[ruleset_id])


def forget() -> None:
    """Forget every ruleset tried so far (tests that install and remove fake plugins)."""
    _VETTED.clear()
    _load.cache_clear()
