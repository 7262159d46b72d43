"""The rows of a game whose file keeps none, worked out by a child process while the desk's
window is built (issue 36).

A game file keeps the rows the desk first paints from (``app.startup.summary_file``); when they are
missing or old (the file was last written by an older Airboss or another program, or by a
desk killed within a quarter of a second of an action) the game must be opened to draw its
Roster and Turn panel: pydantic, the game's models and its ruleset imported, the log read,
about 0.3 s of processor time. Done one after the other with Qt's own start, that made such a
start 3x to 4x a bare window's. Here it is done beside it, on the second core: before PySide6
is imported the command line forks (``start``); the child opens the game as the desk would,
works out its rows (``app.startup.summary.session_rows``) and writes them to a pipe, while the
parent imports Qt and builds the window; the parent then paints from them (``Pending.rows``) as from
rows kept in the file, and opens the game itself after the paint. The child writes to the
game file only what opening it writes (the snapshot of a log of 500 events or more that has
none, which the desk would write itself); a file an older Airboss made, which opening would
migrate, it leaves to the desk. (The desk's very first start needs no child: the demo game's
rows are shipped, ``app.startup.demo_rows``.)

Only where it helps and is safe: Linux, a process with one thread (``fork`` before any thread
or Qt library exists: the command line's, not a program that has started threads), two cores
or more, a game file (not a server), and a log short enough that opening it twice
costs less than the head start (``LONGEST``). A child that fails, is killed, or has not
answered within ``WAIT`` seconds is no answer: the parent opens the game before it paints,
as without it, and says what went wrong as it always has.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from typing import TYPE_CHECKING, cast

from app.startup.summary_file import last_seq

if TYPE_CHECKING:
    from app.startup.summary import Summary

#: the longest log a child opens: a log of this length opens in about 0.1 s here, and the desk
#: opens it again after the paint; a longer one opens before the paint, as it always did, with
#: its progress shown
LONGEST = 5000
#: seconds the parent waits for the child's rows before it opens the game itself (the child
#: is then stopped): a ruleset that hangs in the child is waited for by the desk, with its
#: Stop button, not at a start with no window
WAIT = 5.0


class Pending:
    """A child process working out the rows of the game file ``where``."""

    def __init__(self, where: str, pid: int, fd: int) -> None:
        self.where = where
        self._pid = pid
        self._fd = fd
        self._rows: Summary | None = None
        self._done = False

    def rows(self, wait: float = WAIT) -> Summary | None:
        """The child's rows, well formed, once it has exited with them (waiting up to ``wait``
        seconds); None if it failed, was killed or took longer (then it is stopped)."""
        if self._done:
            return self._rows
        self._done = True
        data = self._read(time.monotonic() + wait)
        code = self._reap(data is None)
        if data is None or code != 0:
            return None
        from app.startup.summary import well_formed

        try:
            rows = json.loads(data)
        except ValueError:
            return None
        if not well_formed(rows):
            return None
        self._rows = cast("Summary", rows)
        return self._rows

    def cancel(self) -> None:
        """The rows are not wanted (the desk starts on another game): the child is stopped."""
        if not self._done:
            self._done = True
            os.close(self._fd)
            self._reap(True)

    def _read(self, deadline: float) -> bytes | None:
        parts: list[bytes] = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self._fd], [], [], left)[0]:
                    return None
                part = os.read(self._fd, 1 << 16)
                if not part:
                    return b"".join(parts)
                parts.append(part)
        except OSError:
            return None
        finally:
            os.close(self._fd)

    def _reap(self, stop: bool) -> int:
        if stop:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            _, status = os.waitpid(self._pid, 0)
        except ChildProcessError:
            return -1
        return os.waitstatus_to_exitcode(status)


def start(where: str) -> Pending | None:
    """A child working out the rows of the game file ``where``, or None where one does not
    help or is not safe (see the module's docstring)."""
    if not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2:
        return None
    try:
        threads = len(os.listdir("/proc/self/task"))
    except OSError:  # no /proc (a sandbox): the threads cannot be counted
        return None
    if threads > 1:
        return None  # a thread (Qt's, a worker's) could hold a lock the child would wait on
    last = last_seq(where)
    if last is None or last > LONGEST:
        return None
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: nothing of it returns
        os.close(read)
        _child(where, write)
    os.close(write)
    return Pending(where, pid, read)


def _child(where: str, out: int) -> None:
    """Open the game as the desk would, write its rows to ``out`` and exit: 0 with them
    written, 1 otherwise (never a message: the parent opens the game and says what is wrong)."""
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        from app.session import GameSession
        from app.startup.summary import session_rows
        from app.store.file_store import inspect_sqlite, real_path
        from app.store.revisions import head_revision

        if inspect_sqlite(real_path(where)) != head_revision():
            return  # an older file is migrated by the desk, with its backup and its messages
        with GameSession.open(where) as session:
            rows = session_rows(session)
        data = json.dumps(rows, separators=(",", ":")).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(out, view) :]
        code = 0
    except BaseException:  # noqa: BLE001, S110 - the parent opens the game and says it
        pass
    finally:
        os._exit(code)


def last_game(settings_file: str) -> str | None:
    """The desk's last game as its settings file (Qt's INI format, ``app.ui.shell.application
    .app_settings``) says it, read without Qt: only a plain value (no quoting or escapes;
    anything else is None). The desk checks it against ``QSettings`` before it uses rows worked
    out for it."""
    try:
        with open(settings_file, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, ValueError):
        return None
    section = ""
    for line in lines:
        if line.startswith("["):
            section = line.strip()
        elif section == "[General]" and line.startswith("last_game="):
            value = line.split("=", 1)[1]
            if not value or value[0] == "@" or any(c in value for c in '"\\,;'):
                return None
            return value
    return None
