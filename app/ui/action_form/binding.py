"""A Qt view listening to a pure-Python draft's events (psygnal) for as long as it lives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from shiboken6 import isValid


def listen(signal: Any, slot: Callable[..., Any], owner: QObject) -> None:
    """Call ``slot`` on each emission of ``signal`` while ``owner`` lives: the connection goes
    when ``owner`` is destroyed, and a widget already gone is never called."""

    def call(*args: Any) -> None:
        if isValid(owner):
            slot(*args)

    signal.connect(call)
    owner.destroyed.connect(lambda *_: signal.disconnect(call, missing_ok=True))
