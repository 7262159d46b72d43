"""Is a game file open in another window or program right now? Asked of the kernel's table of
file locks, not guessed from the files beside the game.

Every SQLite connection to a database in WAL mode holds a shared POSIX lock on the database
file for as long as it is open (SQLite's ``unix`` VFS); a process that was killed holds none.
A write-ahead log (``-wal``) beside the game, which is all the desk looked at before, is also
what a desk killed with its game open leaves behind: the next desk then said the game was
"also open elsewhere" when nothing had it open.

The locks are read from Linux's ``/proc/locks``, which names every process's locks by device
and inode: reading it opens nothing of the game's. A lock is matched on the inode alone: on
btrfs the device a file's ``stat`` gives (its subvolume's) is not the one the lock table names
(lsof's own lock test fails there, lsof-org/lsof issue 152); a lock on a file of the same
inode number on another file system at the same moment would say "open elsewhere" wrongly,
which is no worse than the write-ahead log's guess. Asking with ``fcntl`` instead would mean
opening the game file and closing that descriptor again, and closing any descriptor of a file
drops every POSIX lock this process holds on it, those of its own open games included (POSIX's
rule, which SQLite's own code works around and ours must not break).
"""

from __future__ import annotations

from pathlib import Path

#: the kernel's table of every file lock held now (Linux)
PROC_LOCKS = Path("/proc/locks")


def held_open(path: Path, locks: Path = PROC_LOCKS) -> bool | None:
    """Whether any process (this one included: another window on the same game) holds a lock
    on ``path`` now, which an SQLite connection open on it does; None where this cannot be
    known (not Linux, no ``/proc``, the file gone), so that the caller falls back on what it
    can see."""
    try:
        st = path.stat()
        table = locks.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in table.splitlines():
        # "1: POSIX  ADVISORY  READ 10973 fe:00:2367500 1073741826 1073742335"; a process
        # waiting for a lock has its line with "->" after the number
        fields = line.split()
        if len(fields) > 1 and fields[1] == "->":
            del fields[1]
        if len(fields) < 6:
            continue
        if _inode(fields[5]) == st.st_ino:
            return True
    return False


def _inode(field: str) -> int | None:
    """The inode of ``major:minor:inode`` as /proc/locks writes it."""
    try:
        return int(field.rsplit(":", 1)[1])
    except (ValueError, IndexError):
        return None
