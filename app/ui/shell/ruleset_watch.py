"""Every failure of a ruleset's own code said in the desk's message bar (issue 46).

The panels say a ruleset's failure where it matters to them (a line that cannot act, a card
that could not be drawn, a form that cannot be prepared); some said it nowhere the umpire
looks (``acting``, ``card_spec``, ``prefill``, ``displays``, ``new_aircraft`` ...). This watch
hears every ``GuestError`` as it is made (``app.core.guest.watchers``), in whatever thread met
it (odds are worked out off the GUI thread), and hands its message to the GUI thread, where
the window shows it in its message bar: the ruleset, the call and what happened.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal

from app.core import guest


class RulesetWatch(QObject):
    """``failed(message)`` in the GUI thread for each ruleset failure, while it lives."""

    failed = Signal(str)
    _heard = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: the last message said
        self.last = ""
        self._heard.connect(self._say, Qt.ConnectionType.QueuedConnection)
        guest.watchers.append(self._hear)
        self.destroyed.connect(lambda *_: self._forget(self._hear))

    @staticmethod
    def _forget(hear: object) -> None:
        if hear in guest.watchers:
            guest.watchers.remove(hear)

    def close(self) -> None:
        self._forget(self._hear)

    def _hear(self, error: guest.GuestError) -> None:
        self._heard.emit(str(error))  # queued: said in the GUI thread

    def _say(self, message: str) -> None:
        self.last = message
        self.failed.emit(message)


def problems_notice(problems: list[str]) -> str:
    """What opening or following a game left out (``GameLog.problems``: events that
    cannot happen or be read, a snapshot that disagrees with its log), for the message bar:
    the first two in full, then how many more."""
    shown = " ".join(problems[:2])
    more = len(problems) - 2
    return shown + (f" (and {more} more such: see airboss log)" if more > 0 else "")
