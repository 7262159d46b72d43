"""What the desk does with an exception nobody caught (issue 47): ``app.log_file`` has written
it to the log with its traceback; the desk then says so in a dialog, naming the log file, and
goes on (every action the umpire was told of is already on disk: nothing saved is lost). One
dialog at a time: an exception raised again while it is open (a paint that keeps failing) is
only logged. Qt's own messages go to the log file too, not to a terminal the umpire does not
have."""

from __future__ import annotations

import logging
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app import log_file

TITLE = "Airboss met an error"

_open: list[QMessageBox] = []
_qt_log = logging.getLogger("qt")
_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def message(kind: type[BaseException], value: BaseException, log: Path) -> str:
    """The dialog's words: what happened, that nothing saved is lost, where the details are."""
    said = str(value).strip().splitlines()
    what = f"{kind.__name__}: {said[0]}" if said else kind.__name__
    return (
        f"Airboss met an error it did not expect ({what}).\n\n"
        "Nothing already saved is lost: every action was on disk the moment it was made. "
        "What was being done when it happened may not have been done; look at the Game log.\n\n"
        f"The details are in the log file:\n{log}"
    )


def show(
    kind: type[BaseException],
    value: BaseException,
    _tb: TracebackType | None,
    log: Path,
    parent: QWidget | None = None,
) -> QMessageBox | None:
    """The dialog for one uncaught exception (None while one is open already). A ruleset
    call left to answer later that reached the event loop outside the desk's actions is no
    crash: the desk waits for it all the same, then draws the game afresh (issue 44)."""
    from app.core.guest import GuestPending
    from app.ui.shell import guest_worker

    if isinstance(value, GuestPending):
        guest_worker.when_answered(value.call, guest_worker.redraw_all or (lambda: None))
        return None
    if _open or QApplication.instance() is None:
        return None
    box = QMessageBox(
        QMessageBox.Icon.Critical, TITLE, message(kind, value, log), QMessageBox.StandardButton.Ok
    )
    if parent is None:
        parent = QApplication.activeWindow()
    if parent is not None:
        box.setParent(parent, box.windowFlags())
    box.setObjectName("uncaught_exception")
    _open.append(box)
    try:
        box.exec()
    finally:
        _open.remove(box)
    return box


def install() -> None:
    """The desk's dialog for uncaught exceptions, and Qt's messages to the log file; only in
    a process whose log file is open (``app.log_file.start``: the ``airboss`` command), so a
    test's own hooks (pytest-qt's) stay as they are."""
    if log_file.stream() is None:
        return
    log_file.on_uncaught(show)
    qInstallMessageHandler(_to_log)


def _to_log(mode: QtMsgType, _context: object, text: str) -> None:
    _qt_log.log(_LEVELS.get(mode, logging.WARNING), "%s", text)
