"""The log file and the crash log (issue 47): what went wrong, kept where the umpire (or the one
he asks for help) can read it, never on the terminal.

``start(command)`` sends Python's ``logging`` to ``airboss.log`` in the platform's log folder
(``platformdirs.user_log_path``: ``~/.local/state/airboss/log`` on Linux; beside the umpire's
data when ``AIRBOSS_DATA_DIR`` says where that is), turns on ``faulthandler`` into the same
file (a crash of Qt or of Python itself leaves its traceback there) and sets ``sys.excepthook``
and ``threading.excepthook``: an exception nobody caught is written to the log with its
traceback, then told to the umpire by whoever registered with ``on_uncaught`` (the desk shows
a dialog naming the log). The file is rotated when it starts a run above ``MAX_BYTES`` (three
old ones kept: ``airboss.log.1`` ...), rather than by ``logging.handlers`` at every record,
whose import costs the desk's first paint about 20 ms for the few records a run writes.

Pure Python, no Qt: the command line starts it before anything else.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO

#: a log file above this size when a run starts is put aside (``.1``, the older ``.2`` ...)
MAX_BYTES = 1_000_000
KEEP = 3
FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"

_state: dict[str, object] = {}
#: told of every uncaught exception once it is in the log: (type, value, traceback, log path)
_listeners: list[Callable[[type[BaseException], BaseException, TracebackType | None, Path], object]]
_listeners = []

log = logging.getLogger("airboss")


def log_dir() -> Path:
    """Where the log file is: beside the umpire's data when ``AIRBOSS_DATA_DIR`` names a
    folder (tests, a portable set-up), else the platform's folder for logs."""
    override = os.environ.get("AIRBOSS_DATA_DIR")
    if override:
        return Path(override) / "log"
    import platformdirs

    return platformdirs.user_log_path("airboss", "airboss")


def log_path() -> Path:
    """The log file this process writes (``start`` was called) or would write."""
    started = _state.get("path")
    return started if isinstance(started, Path) else log_dir() / "airboss.log"


def start(command: str = "airboss") -> Path | None:
    """Logging, faulthandler and the exception hooks, once per process; the log file's path,
    or None when no log folder can be written (then Python's defaults stay)."""
    if "path" in _state:
        return log_path()
    path = log_dir() / "airboss.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _rotate(path)
        stream = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - kept open
    except OSError:
        return None
    _state["path"] = path
    _state["stream"] = stream
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.INFO:
        root.setLevel(logging.INFO)
    faulthandler.enable(stream)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread
    log.info("%s started (pid %d, Python %s)", command, os.getpid(), sys.version.split()[0])
    return path


def _rotate(path: Path) -> None:
    """``airboss.log`` past ``MAX_BYTES`` becomes ``airboss.log.1`` (the older ones move up,
    the oldest beyond ``KEEP`` is dropped)."""
    try:
        if path.stat().st_size <= MAX_BYTES:
            return
    except FileNotFoundError:
        return
    for n in range(KEEP - 1, 0, -1):
        older = path.with_name(f"{path.name}.{n}")
        if older.exists():
            older.replace(path.with_name(f"{path.name}.{n + 1}"))
    path.replace(path.with_name(f"{path.name}.1"))


def on_uncaught(
    listener: Callable[[type[BaseException], BaseException, TracebackType | None, Path], object],
) -> None:
    """``listener`` is told of each uncaught exception after it is logged (the desk's dialog);
    what it returns is not used."""
    _listeners.append(listener)


def _uncaught(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)
        return
    log.critical("uncaught exception", exc_info=(kind, value, tb))
    for listener in list(_listeners):
        try:
            listener(kind, value, tb, log_path())
        except Exception:  # noqa: BLE001 - telling the umpire must not raise again
            log.exception("telling the umpire of the exception failed")


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None or issubclass(args.exc_type, SystemExit):
        return
    name = args.thread.name if args.thread is not None else "?"
    log.critical(
        "uncaught exception in thread %s",
        name,
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
    )


def stream() -> IO[str] | None:
    """The open log file (for a test, or a crash report), if ``start`` opened one."""
    s = _state.get("stream")
    return s if s is not None else None  # type: ignore[return-value]
