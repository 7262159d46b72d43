"""EngagementModel: the thin QObject over a GameSession that every dock reads and listens to.

Docks never touch the store and never mutate state: they read ``model.engagement`` and
``model.session`` and submit actions through ``model.session`` (or the helpers here, which
turn a refusal into the ``refused`` signal). After every append the model works out what
changed by identity (the projection shares unchanged aircraft between states) and emits the
narrowest signals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import Envelope
from app.core.log_index import LogReader
from app.session import GameSession
from app.store import StoreError
from app.ui.dice_mode import DiceMode


def describe_error(e: Exception) -> str:
    """One message for the umpire from a refusal or a validation error."""
    if isinstance(e, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'value'}: {err['msg']}" for err in e.errors()
        )
    return str(e)


#: how often the desk asks whether another window or program changed the game (milliseconds)
FOLLOW_MS = 500


class EngagementModel(QObject):
    """The session the desk shows, and signals for what changed."""

    #: the whole game was replaced (opened, created, closed): redraw everything
    reset = Signal()
    #: one or more actions were appended: the envelopes
    appended = Signal(list)
    #: these aircraft ids changed (added, removed, or any of their state)
    aircraft_changed = Signal(list)
    #: turn or step changed
    clock_changed = Signal()
    #: initiative order or marker changed
    initiative_changed = Signal()
    #: an action was refused: the message for the umpire
    refused = Signal(str)

    def __init__(self, session: GameSession | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session: GameSession | None = None
        self._state: Engagement | None = None
        self._log: LogReader | None = None
        #: until the whole log is read: the log from the current clock step on, and that
        #: step's sequence number (what "who acts now" needs)
        self._step_log: tuple[int, LogReader] | None = None
        #: "players roll real dice" or "Airboss rolls": one choice for every panel that rolls
        self.dice_mode = DiceMode(self)
        #: another window or program on the same file: its actions shown within a second
        self._follow = QTimer(self)
        self._follow.setInterval(FOLLOW_MS)
        self._follow.timeout.connect(self.follow)
        #: a server game: the LISTEN socket, so another station's action is taken in at once
        #: (without a parent, so dropping it deletes it at once; never while it signals: the
        #: socket only starts ``_soon``, which follows on the next turn of the event loop)
        self._notifier: QSocketNotifier | None = None
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self.follow)
        if session is not None:
            self.set_session(session)

    # -- the session --------------------------------------------------------------------------

    @property
    def session(self) -> GameSession:
        if self._session is None:
            raise RuleViolation("no game is open")
        return self._session

    @property
    def has_session(self) -> bool:
        return self._session is not None

    @property
    def engagement(self) -> Engagement:
        return self._session.engagement if self._session else Engagement()

    def set_session(self, session: GameSession | None) -> None:
        """Show another game (or none); the old one is closed."""
        self._drop_notifier()  # before its socket closes with the old game
        if self._session is not None and self._session is not session:
            self._session.close()
        self._session = session
        self._state = session.engagement if session else None
        self._log = None
        self._step_log = None
        if session is not None:
            session.subscribe(self._on_append)
            self._follow.start()
        else:
            self._follow.stop()
        self.reset.emit()

    def follow(self) -> None:
        """Take in what another window or program appended to this game (issue 14/17): the
        panels update through ``appended`` as for our own actions."""
        if self._session is None:
            return
        # no watch on the socket while the store may close it (a server that went away)
        fd = self._notifier.socket() if self._notifier is not None else None
        if self._notifier is not None:
            self._notifier.setEnabled(False)
        try:
            self._session.follow()
        except (StoreError, RuleViolation, OSError) as e:
            self._drop_notifier()
            self._follow.stop()
            self.refused.emit(f"Stopped following other windows on this game: {e}")
            return
        now = self._session.store.listen_socket()
        if now != fd:
            self._drop_notifier()
            if now is not None:
                self._notifier = QSocketNotifier(now, QSocketNotifier.Type.Read)
                self._notifier.activated.connect(self._announced)
        if self._notifier is not None:
            self._notifier.setEnabled(True)

    def _announced(self, *_: object) -> None:
        """The server announced something on the LISTEN socket: follow on the next turn."""
        if self._notifier is not None:
            self._notifier.setEnabled(False)
        self._soon.start()

    def _drop_notifier(self) -> None:
        if self._notifier is not None:
            self._notifier.setEnabled(False)
            self._notifier = None

    @property
    def log(self) -> LogReader:
        """The log read once (``app.core.log_index``): undone actions, turns, names, who acted
        in this step, and the summaries the history panels show; kept up to date with every
        append. Read a page at a time and kept only as summaries: a 100,000-event game never
        holds its whole log as envelopes (issue 20)."""
        if self._log is None:
            log = LogReader()
            if self._session is not None:
                log.feed(self._session.iter_events())
            self._log, self._step_log = log, None
        return self._log

    def acted_now(self) -> set[tuple[str, str]]:
        """``(procedure, aircraft)`` of every procedure resolved, and not undone, in the current
        step ("who acts now" ticks them off). Until a panel needs the whole log, only the log
        from the current clock step on is read, so the desk shows a long game without reading
        all of it."""
        if self._session is None:
            return set()
        since = self.engagement.clock_seq
        if self._log is not None or since == 0:  # no step known: the whole log, read once
            return self.log.acted_now()
        if self._step_log is None or self._step_log[0] != since:
            step = LogReader()
            step.feed(self._session.iter_events(after=since - 1))
            self._step_log = (since, step)
        return self._step_log[1].acted_now()

    def _on_append(self, envelopes: Sequence[Envelope]) -> None:
        old, new = self._state, self.engagement
        self._state = new
        if self._log is not None:
            self._log.feed(envelopes)
        if self._step_log is not None:
            if self._step_log[0] == new.clock_seq:
                self._step_log[1].feed(envelopes)
            else:  # another step: read from it when next asked
                self._step_log = None
        self.appended.emit(list(envelopes))
        if old is None:
            self.reset.emit()
            return
        changed = [k for k, a in new.aircraft.items() if old.aircraft.get(k) is not a]
        changed += [k for k in old.aircraft if k not in new.aircraft]
        if changed:
            self.aircraft_changed.emit(changed)
        if (old.turn, old.step) != (new.turn, new.step):
            self.clock_changed.emit()
        if (old.initiative_order, old.initiative_marker) != (
            new.initiative_order,
            new.initiative_marker,
        ):
            self.initiative_changed.emit()

    # -- submitting actions -------------------------------------------------------------------

    def attempt(self, action: Callable[[], Any]) -> Any | None:
        """Run a session action; a refusal becomes ``refused`` (nothing was appended)."""
        try:
            result = action()
        except (RuleViolation, ValidationError, StoreError) as e:
            self.refused.emit(describe_error(e))
            return None
        return result
