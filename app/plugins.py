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
import select
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
    named = _name_version(ep)
    return "an unknown distribution" if named is None else f"{named[0]} {named[1]}"


def _name_version(ep: EntryPoint) -> tuple[str, str] | None:
    """The name and version of the distribution that registers ``ep`` (``None``: unknown).
    Read once per distribution folder (issue 44: each ``name`` and ``version`` read and parsed
    its METADATA file again, several times in every load of a third-party ruleset)."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return None
    folder = getattr(dist, "_path", None)
    if folder is None:
        return (dist.name, dist.version)
    key = str(folder)
    known = _NAMED.get(key)
    if known is None:
        meta = dist.metadata
        known = _NAMED[key] = (meta["Name"], meta["Version"])
    return known


#: a distribution's folder -> its (name, version), as ``_name_version`` read them
_NAMED: dict[str, tuple[str, str]] = {}


#: the last ``_registrations`` worked out, with the folders they were read from (``_installed``)
_REGISTERED: list[tuple[object, tuple[dict[str, EntryPoint], dict[str, str]]]] = []


def _installed() -> tuple[tuple[str, int | None], ...]:
    """Where distributions are found (``sys.path``), each with the time it last changed: a
    distribution installed or removed adds or removes its ``.dist-info`` folder there."""
    out: list[tuple[str, int | None]] = []
    for folder in sys.path:
        try:
            out.append((folder, os.stat(folder or ".").st_mtime_ns))
        except OSError:
            out.append((folder, None))
    return tuple(out)


def _registrations() -> tuple[dict[str, EntryPoint], dict[str, str]]:
    """Usable entry points by id, and ids refused because two distributions register them.
    Read again only when a folder of ``sys.path`` changed since (issue 44: every opening of a
    game read every installed distribution's entry points)."""
    where = _installed()
    if _REGISTERED and _REGISTERED[0][0] == where:
        usable, refused = _REGISTERED[0][1]
        return dict(usable), dict(refused)
    found = _registered()
    _REGISTERED[:] = [(where, found)]
    return dict(found[0]), dict(found[1])


def _registered() -> tuple[dict[str, EntryPoint], dict[str, str]]:
    """``_registrations`` read from the installed distributions."""
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
        own = [e for e in eps if (_name_version(e) or ("",))[0] == BUILT_IN]
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
    return (_name_version(ep) or ("",))[0] == BUILT_IN or bool(getattr(sys, "frozen", False))


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
    forked = _forkable()
    for name, ep in todo.items():
        if _key(name, ep) not in _TRYING:
            _TRYING[_key(name, ep)] = _Trial(name, ep, forked)
    for name, ep in todo.items():
        _take(_key(name, ep))


def _take(key: tuple[str, str, str]) -> None:
    """The verdict of a first import being tried, waited for (``_VETTED``)."""
    trial = _TRYING.pop(key)
    try:
        _VETTED[key] = trial.verdict()
    finally:
        trial.folder.cleanup()


class _Trial:
    """One first import tried in a child process: the child, the file it writes what happened
    to, and when it is given up (``IMPORT_TIME_LIMIT`` after it started)."""

    def __init__(self, name: str, ep: EntryPoint, forked: bool) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="airboss-rulesets-")
        self.out = Path(self.folder.name) / "import.json"
        self.limit = IMPORT_TIME_LIMIT
        self.deadline = time.monotonic() + self.limit
        self.proc: subprocess.Popen[bytes] | _Forked
        if forked:
            self.proc = _Forked.start(name, ep.value, self.out)
            return
        env = dict(os.environ)
        # the child sees what this process sees (a test's fake distribution included)
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in sys.path if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _PROBE, name, ep.value, str(self.out)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a hung plugin's own children are stopped too
        )

    def verdict(self) -> str | None:
        try:
            code = self.proc.wait(timeout=max(0.0, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _stop(self.proc)
            return f"did not finish importing in {self.limit:g} s (a hang at import?); not loaded"
        return _verdict(self.out, code)

    def stop(self) -> None:
        _stop(self.proc)
        self.folder.cleanup()


#: first imports being tried and not yet waited for (``Loading``), by ``_key``
_TRYING: dict[tuple[str, str, str], _Trial] = {}


def _forkable() -> bool:
    """A first import may be tried in a child forked from this process (issue 44: Python,
    pydantic and Airboss's modules are there already, where a new interpreter took most of a
    second to import them again): on Linux, in a process of one thread (a thread, Qt's or a
    worker's, could hold a lock the child would wait on), never in a frozen bundle."""
    if not sys.platform.startswith("linux") or getattr(sys, "frozen", False):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc (a sandbox): the threads cannot be counted
        return False


class _Forked:
    """A child forked to try one first import (``_probe``), waited for as ``Popen`` is."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    @classmethod
    def start(cls, name: str, value: str, out: Path) -> _Forked:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            try:
                os.setsid()  # a hung plugin's own children are stopped with it
                quiet = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(quiet, fd)
                _probe([name, value, str(out)])
            finally:
                os._exit(70)
        return cls(pid)

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if timeout is not None and not self._ends_within(timeout):
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def _ends_within(self, timeout: float) -> bool:
        """Whether the child ends within ``timeout`` seconds (it is not reaped here)."""
        try:
            fd = os.pidfd_open(self.pid)  # readable once the child has ended (Linux 5.3)
        except OSError:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:  # an older kernel: asked every 5 ms
                if os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                    return True
                time.sleep(0.005)
            return False
        try:
            return bool(select.select([fd], [], [], timeout)[0])
        finally:
            os.close(fd)

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


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


def _stop(proc: subprocess.Popen[bytes] | _Forked) -> None:
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
    return Loading(ruleset_id).ruleset()


class Loading:
    """``load_ruleset`` begun: the ruleset looked up and, a third-party one not tried yet, its
    first import started in a child process; ``ruleset()`` waits for its verdict and loads it.
    Opening a game starts it once it knows the ruleset and reads the game's log meanwhile, the
    child on the other core (issue 44); ``stop()`` stops a child not waited for."""

    def __init__(self, ruleset_id: str) -> None:
        self.id = ruleset_id
        eps, refused = _registrations()
        self.ep = eps.get(ruleset_id)
        self.error = ""
        if self.ep is None:
            known = ", ".join(sorted(eps)) or "none"
            self.error = (
                f"ruleset {ruleset_id!r} {refused[ruleset_id]}"
                if ruleset_id in refused
                else f"no ruleset {ruleset_id!r}; installed: {known}"
            )
            return
        key = _key(ruleset_id, self.ep)
        if not _trusted(self.ep) and key not in _VETTED and key not in _TRYING:
            _TRYING[key] = _Trial(ruleset_id, self.ep, _forkable())

    def ruleset(self) -> Ruleset:
        """The ruleset (``KeyError`` listing the known ids if unknown, ``PluginError``)."""
        if self.ep is None:
            raise KeyError(self.error)
        return _isolated(self.id, self.ep)

    def stop(self) -> None:
        """Stop the first import started for this ruleset, if nothing waited for it."""
        trial = None if self.ep is None else _TRYING.pop(_key(self.id, self.ep), None)
        if trial is not None:
            trial.stop()


def forget() -> None:
    """Forget every ruleset tried so far (tests that install and remove fake plugins)."""
    for trial in _TRYING.values():
        trial.stop()
    _TRYING.clear()
    _VETTED.clear()
    _NAMED.clear()
    _load.cache_clear()
