"""EngagementModel: the thin QObject over a GameSession that every dock reads and listens to.

Docks never touch the store and never mutate state: they read ``model.engagement`` and
submit actions through the session's part they need (``model.roster``, ``model.clock``,
``model.actions``, ``model.odds``, ``model.undoing``, ``model.game_log``; issue 44), with the
helpers here, which turn a refusal into the ``refused`` signal. After every append the model
works out what changed by identity (the projection shares unchanged aircraft between states)
and emits the narrowest signals.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal

from app.core.errors import RuleViolation, StoreError, error_text
from app.startup import summary as rows_of
from app.startup.summary import AircraftRow, DeskRows, RosterRows, SideRow, Summary, TurnRows
from app.ui.shell.guest_worker import forget as forget_waiting
from app.ui.shell.guest_worker import patient
from app.ui.widgets.dice_mode import DiceMode

#: how long closing a game waits for the background check of its whole log to end (s)
HISTORY_JOIN = 1.0

if TYPE_CHECKING:
    # the game's models, its log and pydantic load with the first game, not with the desk's
    # window: it paints before them (issue 20)
    from app.core.draft import ActionDraft
    from app.core.engagement import AircraftState, Engagement
    from app.core.events import Envelope
    from app.core.log_index import LogReader, SlicedRead
    from app.core.ruleset import Ruleset, Step
    from app.players.pending import Entry, LineKey, PendingBook
    from app.session import GameSession
    from app.session.actions import Actions
    from app.session.clock import Clock
    from app.session.log import GameLog
    from app.session.odds import Odds
    from app.session.roster import Roster
    from app.session.undo import Undo


#: how often the desk asks the server what became of an action the network hid (ms)
SETTLE_MS = 2000
#: how often the desk asks whether another window or program changed the game (milliseconds)
FOLLOW_MS = 500
#: the first read of the log goes a slice at a time between turns of the event loop (issue 20):
#: seconds of reading a slice, events read per look at the store (a page), and events read at
#: once when the log is first asked for (a game of no more is read whole, at once)
SLICE_S = 0.005
SLICE_PAGE = 256
FIRST_SLICE = 1000
logger = logging.getLogger(__name__)

#: milliseconds after the last change before its summary is kept in the game file (issue 36)
KEEP_MS = 250
#: milliseconds after a change before the next step is worked out ahead in a worker
#: (``Clock.look_ahead``, issue 48): long enough for the desk to have painted the change on a
#: busy machine (the worker's Python would otherwise take turns with the paint's), far shorter
#: than an umpire reading a step
AHEAD_MS = 150
#: seconds between two ``log_read`` of the first read: the panels take in several slices at a
#: time, so the desk repaints them a few times a second rather than after every slice
SHOW_EVERY_S = 0.1


def _unreachable(session: GameSession, e: Exception) -> bool:
    """A server game whose server did not answer (not a refusal, not a changed log)."""
    from app.core.errors import Tampered
    from app.core.where import is_url

    return (
        isinstance(e, StoreError)
        and not isinstance(e, Tampered)
        and is_url(session.store.where)
        and ("cannot reach" in str(e) or "did not answer" in str(e))
    )


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
    #: the background check of a game file's whole log found it changed outside Airboss:
    #: the session checked and the message (issue 30; sent from the checking thread)
    _history_broken = Signal(object, str)
    #: the log index (``log``) took in more: a slice of its first read, or an append once it
    #: is whole; the actions undone or redone in what it took in
    log_read = Signal(list)
    #: the umpire's selection of aircraft (the Roster's): the ids, in order
    selection_changed = Signal(list)
    #: "open this procedure": procedure id, the line's aircraft, the other aircraft or ""
    procedure_requested = Signal(str, str, str)
    #: the desk should bring this panel forward (its draft was just opened on a line)
    panel_wanted = Signal(str)
    #: a table value was saved (the Tables editor): every draft is prepared again
    tables_changed = Signal()
    #: a procedure was resolved and nothing is owed at once: the desk moves on
    procedure_done = Signal()
    #: "show this action's log line" (an After-action plot point clicked): the action's seq
    log_line_requested = Signal(int)
    #: a ruling put on the Player display (issue 34): its public version, or ``None`` to take
    #: it off
    ruling_shown = Signal(object)
    #: what the players' pages sent changed (issue 48): an entry came, was taken or rejected
    pending_changed = Signal()

    def __init__(self, session: GameSession | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session: GameSession | None = None
        self._state: Engagement | None = None
        self._log: LogReader | None = None
        #: until the whole log is read: the log from the current clock step on, and that
        #: step's sequence number (what "who acts now" needs)
        self._step_log: tuple[int, LogReader] | None = None
        #: the first read of the log, while it is under way
        self._reading: SlicedRead | None = None
        self._slices = QTimer(self)
        self._slices.setInterval(0)
        self._slices.timeout.connect(self._read_slice)
        #: what the slices read since the last ``log_read`` undid or redid, and when that was
        self._toggled: set[int] = set()
        self._shown_at = 0.0
        #: "players roll real dice" or "Airboss rolls": one choice for every panel that rolls
        self.dice_mode = DiceMode(self)
        #: the aircraft the umpire selected (``select``), for the panels that follow it
        self.selection: list[str] = []
        #: the ruling on the Player display (public parts only), if any
        self.shown_ruling: Any = None
        #: what the players' pages sent (``pending``), made when first asked for: the
        #: players' screens are off by default and the first paint does without them
        self._pending: PendingBook | None = None
        #: the ruleset call each draft's prepare was last seen waiting for (by the draft's id)
        self._waited: dict[int, object] = {}
        #: the actions being typed (issue 43): the Combat form's and the initiative roll's,
        #: made with the first panel that asks (the game's models load with the first game)
        self._draft: ActionDraft | None = None
        self._roll_draft: ActionDraft | None = None
        self.dice_mode.changed.connect(self._dice_mode)
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
        #: the rows the desk drew at start-up from the summary kept in the game file, until the
        #: game itself is open (``show_stored``; issue 36)
        self._stored: Summary | None = None
        #: each aircraft's row, made once per state of it (the projection shares the states
        #: of unchanged aircraft), and the steps and who acts now of the latest state asked
        self._aircraft_rows: dict[str, tuple[AircraftState, AircraftRow]] = {}
        self._steps: tuple[Engagement, list[Step], str] | None = None
        self._turn: tuple[Engagement, TurnRows] | None = None
        #: the desk's rows (title, status bar) of the latest state asked, and whether the game
        #: was read-only then (a broken history makes it read-only with the same state)
        self._desk: tuple[Engagement, bool, DeskRows] | None = None
        #: the summary is kept in the game file a moment after the last change (a desk that
        #: only takes a screenshot keeps none)
        self.keeps_summary = True
        self._keep = QTimer(self)
        self._keep.setSingleShot(True)
        self._keep.setInterval(KEEP_MS)
        self._keep.timeout.connect(self.keep_summary)
        #: the next step is worked out ahead while the umpire reads this one (a test of the
        #: desk's every call made as the step is taken turns it off)
        self.looks_ahead = True
        self._ahead = QTimer(self)
        self._ahead.setSingleShot(True)
        self._ahead.setInterval(AHEAD_MS)
        self._ahead.timeout.connect(self._look_ahead)
        #: an action the network left unsettled (issue 30): the server is asked in the
        #: background until it says "saved" or "not written", and the status bar says which
        self._out_of_touch = False
        self._settle = QTimer(self)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._settle_tick)
        self._history_broken.connect(self._on_history_broken)
        #: the background check of the open game's whole log (``_check_history``)
        self._history: threading.Thread | None = None
        if session is not None:
            self.set_session(session)

    # -- the session --------------------------------------------------------------------------

    @property
    def session(self) -> GameSession:
        if self._session is None:
            raise RuleViolation("no game is open")
        return self._session

    @property
    def session_or_none(self) -> GameSession | None:
        return self._session

    # -- the parts of the session a dock is given (issue 44): each dock reaches the one it
    # needs, never the whole session; each raises ``RuleViolation`` when no game is open

    @property
    def ruleset(self) -> Ruleset:
        return self.session.ruleset

    @property
    def game_log(self) -> GameLog:
        """The session's log: read, followed, its chain of hashes checked."""
        return self.session.log

    @property
    def roster(self) -> Roster:
        """Aircraft added, edited, removed, placed; ledgers, printed cards, the dice."""
        return self.session.roster

    @property
    def clock(self) -> Clock:
        return self.session.clock

    @property
    def actions(self) -> Actions:
        """Prepare, roll and resolve the ruleset's procedures."""
        return self.session.actions

    @property
    def odds(self) -> Odds:
        return self.session.odds

    @property
    def undoing(self) -> Undo:
        return self.session.undoing

    @property
    def has_session(self) -> bool:
        return self._session is not None

    @property
    def can_act(self) -> bool:
        """A game is open and this desk may change it (it was not opened read-only): the
        panels enable what would change the game only then."""
        return self._session is not None and not self._session.read_only

    @property
    def engagement(self) -> Engagement:
        if self._session:
            return self._session.engagement
        from app.core.engagement import Engagement

        return Engagement()

    def set_session(self, session: GameSession | None) -> None:
        """Show another game (or none); the old one is closed, its summary kept first if a
        change of it is still to be kept."""
        if self._keep.isActive():
            self._keep.stop()
            self.keep_summary()
        self._drop_notifier()  # before its socket closes with the old game
        self._settle.stop()
        if self._session is not None and self._session is not session:
            if self._history is not None:
                # a short log's check ends at once: let it, before its file is closed (and
                # perhaps removed); a long one reads on alone and says nothing of a game gone
                self._history.join(HISTORY_JOIN)
                self._history = None
            self._session.close()
        stored, self._stored = self._stored, None
        self._aircraft_rows, self._steps, self._turn, self._desk = {}, None, None, None
        self._session = session
        self._state = session.engagement if session else None
        forget_waiting()  # the desk's actions still waiting on the game before: dropped
        self._slices.stop()  # a read of the game before goes no further
        self._log = None
        self._step_log = None
        self._reading = None
        self._toggled = set()
        if session is not None:
            from app.ui.shell import guest_worker  # with the first game, not before the first paint

            guest_worker.install()  # the ruleset's calls wait with the desk turning (issue 31)
            guest_worker.redraw_all = self.reset.emit
            guest_worker.game_seq = self._game_seq
            self._check_history(session)
            session.subscribe(self._on_append)
            self._follow.start()
            self._ahead.start()
        else:
            self._follow.stop()
        from app.core import guest

        with guest.detached():  # (a draft that waits for the ruleset is done again itself)
            for draft in self.drafts:
                draft.attach(session.actions if session is not None else None)
        if self._pending is not None:
            self._pending.clear()
        self.reset.emit()
        if session is not None and not self._kept(stored):
            self._keep.start()  # none kept, an older one, or drawn by an older Airboss

    def show_stored(self, summary: Summary) -> None:
        """Draw the game from the rows kept in its file (``app.startup.summary_file.read_summary``),
        before it is opened; ``set_session`` then takes over with the live rows."""
        self._stored = summary
        self.reset.emit()

    @property
    def showing(self) -> bool:
        """A game is shown: open, or drawn from its kept rows while it opens."""
        return self._session is not None or self._stored is not None

    # -- the rows the desk draws (``app.startup.summary``) ----------------------------------

    def roster_rows(self) -> RosterRows:
        """The sides and aircraft as the Roster shows them."""
        if self._session is None:
            if self._stored is not None:
                return self._stored["roster"]
            return {"sides": [], "aircraft": []}
        e = self.engagement
        return {
            "sides": rows_of.side_rows(e),
            "aircraft": [self._aircraft_row(a) for a in e.aircraft.values()],
        }

    def side_rows(self) -> list[SideRow]:
        if self._session is None:
            return self.roster_rows()["sides"]
        return rows_of.side_rows(self.engagement)

    def aircraft_row(self, aircraft_id: str) -> AircraftRow | None:
        """One aircraft's row, or None if there is no such aircraft (any more)."""
        if self._session is None:
            found = [a for a in self.roster_rows()["aircraft"] if a["id"] == aircraft_id]
            return found[0] if found else None
        a = self.engagement.aircraft.get(aircraft_id)
        return self._aircraft_row(a) if a is not None else None

    def _aircraft_row(self, a: AircraftState) -> AircraftRow:
        made = self._aircraft_rows.get(a.id)
        if made is None or made[0] is not a:
            made = (a, rows_of.aircraft_row(a))
            self._aircraft_rows[a.id] = made
        return made[1]

    def _steps_now(self) -> tuple[list[Step], str]:
        e = self.engagement
        if self._steps is None or self._steps[0] is not e:
            steps, error = rows_of.safe_steps(self.session)
            self._steps = (e, steps, error)
        return self._steps[1], self._steps[2]

    def desk_rows(self) -> DeskRows | None:
        """The title, ruleset and status bar of the game shown; None with none.

        Made once per change of the game, as ``turn_rows``: the main window asks on the
        append and again on the clock's change (issue 48); the same rows, the same object."""
        if self._session is None:
            return self._stored["desk"] if self._stored is not None else None
        e, read_only = self.engagement, self._session.read_only
        if self._desk is not None and self._desk[0] is e and self._desk[1] == read_only:
            return self._desk[2]
        steps, _ = self._steps_now()
        rows = rows_of.desk_rows(self._session, steps)
        self._desk = (e, read_only, rows)
        return rows

    def turn_rows(self) -> TurnRows | None:
        """The sequence of play, the current step and who acts now; None with no game.

        Made once per change of the game (each is a new state; who acted in the step and
        which lines cannot act change only with it): the Turn panel asks on the append and
        again on the clock's change, the players' pages after it (issue 48). Rows a failing
        ruleset left out are not kept: the next ask tries it again."""
        if self._session is None:
            return self._stored["turn"] if self._stored is not None else None
        e = self.engagement
        if self._turn is not None and self._turn[0] is e:
            return self._turn[1]
        steps, error = self._steps_now()
        rows = rows_of.turn_rows(self._session, steps, error, self.acted_now())
        self._turn = (e, rows) if not (rows["steps_error"] or rows["acting_error"]) else None
        return rows

    def turn_rows_now(self) -> TurnRows | None:
        """``turn_rows``: kept for the players' pages (issue 48), which ask after the panels."""
        return self.turn_rows()

    def summary(self) -> Summary | None:
        """Every row the desk draws of the game shown (what ``keep_summary`` keeps)."""
        desk = self.desk_rows()
        if desk is None:
            return None
        turn = self.turn_rows()
        assert turn is not None
        return {"desk": desk, "roster": self.roster_rows(), "turn": turn}

    def keep_summary(self) -> None:
        """Keep the rows of the game as it is now in its file, for the next start's first
        paint (``app.startup.summary_file``; nothing for a server game, a read-only game, or when
        the log went on meanwhile). A summary that cannot be kept costs the next start its
        head start, nothing else: it is not the umpire's concern."""
        session = self._session
        if session is None or session.read_only or session.store.path is None:
            return
        if not self.keeps_summary:
            return
        from app.core.guest import GuestPending

        try:  # (a game closed under the model by its owner: nothing to keep)
            rows = self.summary()
            if rows is not None:
                session.rows.keep(rows)  # (closing the game need not keep them again)
        except (StoreError, RuleViolation, GuestPending):  # (not worth a wait for the ruleset)
            pass

    def _kept(self, stored: Summary | None) -> bool:
        """The rows drawn at start-up are the live game's, as of its last event: nothing new
        to keep."""
        if stored is None or self._session is None:
            return False
        from app.core.guest import GuestPending

        try:
            live = self.summary()
        except (StoreError, RuleViolation, GuestPending):
            return False
        kept: dict[str, Any] = dict(stored)
        return (
            live is not None
            and kept.get("seq") == self.engagement.seq
            and all(kept.get(part) == live[part] for part in ("desk", "roster", "turn"))
        )

    def _check_history(self, session: GameSession) -> None:
        """Check a game file's whole log in the background (issue 30): opening checked it
        from the newest snapshot only; an event changed before it makes the game read-only,
        said to the umpire."""
        if session.store.path is None:
            return

        def check() -> None:
            from app.core.errors import Tampered

            try:
                session.log.check_history()
            except Tampered as e:
                self._history_broken.emit(session, str(e))
            except Exception:  # noqa: BLE001 - a file closed or gone meanwhile: not a change
                logger.debug("the whole-log check did not run", exc_info=True)

        self._history = threading.Thread(target=check, name="airboss-history", daemon=True)
        self._history.start()

    def _on_history_broken(self, session: GameSession, message: str) -> None:
        if session is not self._session:
            return  # another game is shown now
        session.store.read_only = True
        self.refused.emit(f"{message}. The game is read-only from now on.")
        self.reset.emit()

    def _game_seq(self) -> int:
        """How far the game shown has gone (its last event's sequence number; 0: no game)."""
        return self._session.engagement.seq if self._session is not None else 0

    @patient
    def follow(self) -> None:
        """Take in what another window or program appended to this game (issue 14/17): the
        panels update through ``appended`` as for our own actions."""
        if self._session is None:
            return
        from app.ui.shell import guest_worker  # imported with the game (set_session)

        if guest_worker.waiting:  # a ruleset call is under way on the game as it is (issue 31)
            self._soon.start()
            return
        # no watch on the socket while the store may close it (a server that went away)
        fd = self._notifier.socket() if self._notifier is not None else None
        if self._notifier is not None:
            self._notifier.setEnabled(False)
        try:
            self._session.log.follow()
        except (StoreError, RuleViolation, OSError) as e:
            self._drop_notifier()
            if _unreachable(self._session, e):
                # a network drop: said once, and the desk follows again when the server
                # answers (issue 30)
                if not self._out_of_touch:
                    self._out_of_touch = True
                    self.refused.emit(f"{e} The desk follows the game again when it answers.")
                return
            self._follow.stop()
            self.refused.emit(f"Stopped following other windows on this game: {e}")
            return
        self._out_of_touch = False
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
        holds its whole log as envelopes (issue 20).

        Asking for it the first time reads a first slice; a longer log is read on in slices
        between turns of the event loop (``log_read`` a few times a second with what they
        took in), so the desk never stalls on it: until ``log_whole``, it holds the log as far
        as ``log_progress`` says. Actions taken meanwhile are in the store: the read reaches
        them in their turn."""
        if self._log is None:
            from app.core.log_index import LogReader, SlicedRead

            log = LogReader()
            self._log = log
            session = self._session
            if session is not None:
                self._reading = SlicedRead(
                    log, lambda after: session.log.iter_stored(after, page=SLICE_PAGE)
                )
                # whoever asked reads what this slice took in: no ``log_read`` for it
                self._reading.step(SLICE_S, at_least=FIRST_SLICE)
                if self._reading.done:
                    self._log_done()
                else:
                    self._shown_at = time.perf_counter()
                    self._slices.start()
        return self._log

    @property
    def log_whole(self) -> bool:
        """The log index holds the whole log (or has not been asked for)."""
        return self._reading is None

    @property
    def log_progress(self) -> tuple[int, int]:
        """How far the log is read: the newest event read, of the newest in the game."""
        last = self.engagement.seq
        return (self._reading.seq if self._reading is not None else last), last

    def whole_log(self) -> LogReader:
        """The log index with the whole log in it, read at once if its read is under way (for
        what needs every entry now: an export)."""
        log = self.log
        if self._reading is not None:
            toggled = self._toggled | self._reading.finish()
            self._log_done()
            self.log_read.emit(sorted(toggled))
        return log

    def _read_slice(self) -> None:
        reading = self._reading
        if reading is None:
            self._slices.stop()
            return
        self._toggled |= reading.step(SLICE_S)
        if not reading.done and time.perf_counter() - self._shown_at < SHOW_EVERY_S:
            return
        toggled = self._toggled
        if reading.done:
            self._log_done()
        self._toggled, self._shown_at = set(), time.perf_counter()
        self.log_read.emit(sorted(toggled))

    def _log_done(self) -> None:
        self._slices.stop()
        self._reading, self._step_log, self._toggled = None, None, set()

    def acted_now(self) -> set[tuple[str, str]]:
        """``(procedure, aircraft)`` of every procedure resolved, and not undone, in the current
        step ("who acts now" ticks them off). Until a panel needs the whole log, only the log
        from the current clock step on is read, so the desk shows a long game without reading
        all of it."""
        if self._session is None:
            return set()
        since = self.engagement.clock_seq
        if since == 0:  # no step known: the whole log, read once
            return self.whole_log().acted_now()
        if self._log is not None and self._reading is None:
            return self._log.acted_now()
        if self._step_log is None or self._step_log[0] != since:
            from app.core.log_index import LogReader

            step = LogReader()
            step.feed(self._session.log.iter_stored(after=since - 1))
            self._step_log = (since, step)
        return self._step_log[1].acted_now()

    def _on_append(self, envelopes: Sequence[Envelope]) -> None:
        old, new = self._state, self.engagement
        self._state = new
        if self._log is not None and self._reading is None:
            # (while the first read is under way, it reads these from the store in turn)
            self.log_read.emit(sorted(self._log.feed(envelopes)))
        if self._step_log is not None:
            if self._step_log[0] == new.clock_seq:
                self._step_log[1].feed(envelopes)
            else:  # another step: read from it when next asked
                self._step_log = None
        self._keep.start()
        self._ahead.start()
        if self.drafts and self._session is not None:
            from app.core.events import Reverted

            undone = any(isinstance(env.event, Reverted) for env in envelopes)
            elsewhere = self._session.undoing.elsewhere(envelopes)
            from app.core import guest

            with guest.detached():  # (a draft that waits for the ruleset is done again itself)
                for draft in self.drafts:
                    draft.game_changed(undone=undone, elsewhere=elsewhere)
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

    def _look_ahead(self) -> None:
        """The next step worked out in a worker while the umpire reads this one."""
        if self._session is not None and self.looks_ahead:
            # (a draft no panel shows is prepared when next read, not ahead)
            asked = (d.question() for d in self.drafts if d.shown is None or d.shown())
            self._session.clock.look_ahead([q for q in asked if q is not None])

    # -- what the umpire points at (panels listen here, never to each other) --------------------

    def select(self, ids: Sequence[str]) -> None:
        """The umpire selected these aircraft: the panels that follow the selection hear it,
        and the action being typed takes them (the first acts, a second is the target)."""
        self.selection = list(ids)
        if self._draft is not None and self._session is not None:
            self._draft.choose(list(ids))
        self.selection_changed.emit(list(ids))

    @patient
    def request_procedure(self, procedure_id: str, who: str, other: str = "") -> None:
        """Open this procedure for a "who acts now" line's aircraft (and the other one): the
        initiative roll in the Initiative panel's draft, any other in the Combat form's. The
        panel is brought forward first (built if it was not), then its draft opened."""
        if self._session is None:
            return
        rs = self._session.ruleset
        name = "initiative" if procedure_id == rs.initiative else "combat"
        self.panel_wanted.emit(name)
        draft = self.roll_draft if name == "initiative" else self.draft
        draft.open_line(procedure_id, who, other or None)
        self.procedure_requested.emit(procedure_id, who, other or "")

    # -- the actions being typed (issue 43) -----------------------------------------------------

    @property
    def draft(self) -> ActionDraft:
        """The Combat form's draft: the action being typed, whatever panel shows it."""
        if self._draft is None:
            self._draft = self._new_draft(whole_game=False)
        return self._draft

    @property
    def roll_draft(self) -> ActionDraft:
        """The initiative roll's draft (the Initiative panel's form)."""
        if self._roll_draft is None:
            self._roll_draft = self._new_draft(whole_game=True)
        return self._roll_draft

    @property
    def drafts(self) -> list[ActionDraft]:
        return [d for d in (self._draft, self._roll_draft) if d is not None]

    def _new_draft(self, whole_game: bool) -> ActionDraft:
        from app.core.draft import ActionDraft

        draft = ActionDraft(whole_game=whole_game)
        draft.players_roll = self.dice_mode.players_roll
        draft.done.connect(self.procedure_done.emit)
        draft.refused.connect(self.refused.emit)
        draft.before_resolve = self.follow
        draft.waits.connect(functools.partial(self._draft_waits, draft))
        draft.attach(self._session.actions if self._session is not None else None)
        return draft

    def _draft_waits(self, draft: ActionDraft, _call: object = None) -> None:
        """A draft whose prepare waits for a ruleset call (issue 44): prepared again once the
        call has answered, the desk's event loop turning meanwhile."""
        call = draft.waiting
        if call is not None and self._waited.get(id(draft)) is not call:
            from app.ui.shell import guest_worker

            self._waited[id(draft)] = call
            guest_worker.when_answered(call, draft.prepare_again)

    def _dice_mode(self, players_roll: bool) -> None:
        for draft in self.drafts:
            draft.set_players_roll(players_roll)

    # -- what the players' pages sent (issue 48) ------------------------------------------------

    @property
    def pending(self) -> PendingBook:
        """What the players' pages sent, pending on the lines they belong to (issue 48)."""
        if self._pending is None:
            from app.players.pending import PendingBook

            self._pending = PendingBook()
        return self._pending

    def sent_on(self, line: LineKey) -> Entry | None:
        """What a page sent for this line and the umpire has not answered, if anything (no
        book is made for it: the players' screens may never have been turned on)."""
        return None if self._pending is None else self._pending.on_line(line)

    def sealed(self, entry: Entry) -> bool:
        """A written plot not yet revealed: some written plot of the step is still to come."""
        if not entry.written or self._session is None:
            return False
        from app.core.acting import ActingLine  # with the game, not the first paint

        e = self.engagement
        rs = self._session.ruleset
        rows = self.turn_rows_now()
        acting = rows["acting"] if rows is not None else []
        written = [
            (r["procedure"], r["who"], r["target"])
            for r in acting
            if r["procedure"]
            and rs.written_plot(
                e, ActingLine(r["who"], r["what"], procedure=r["procedure"], other=r["target"])
            )
        ]
        done = [(r["procedure"], r["who"], r["target"]) for r in acting if r["done"]]
        return not self.pending.revealed(written, done, (e.turn, e.step))

    def accept_pending(self, entry: Entry) -> bool:
        """The umpire's key on an entry a page sent: its line opened in the Combat form (unless
        the form is on it already) and what was sent filled in, so the form shows it and what
        it shows is what resolves. A sealed plot, or dice the line no longer asks for, are
        refused, said."""
        if self._session is None or entry.state != "pending":
            return False
        if self.sealed(entry):
            self.refused.emit(
                f"{entry.name}'s plot is sealed until every written plot of this step is in "
                "(rule 2). Delete on its line rejects it."
            )
            return False
        from app.core.acting import ActingLine

        pid, who, other = entry.line
        draft = self.draft
        if draft.line != ActingLine(who, "", procedure=pid, other=other):
            self.request_procedure(pid, who, other)
        else:
            self.panel_wanted.emit("combat")
        dice = [(label, text) for label, _, text in entry.dice]
        said = f"{entry.desk_text(True)} (from the side's page): check, then Enter resolves."
        why = draft.fill_sent(dice, {name: v for name, _, v in entry.plot}, said)
        if why:
            self.pending.reject(entry, why)
            self.refused.emit(f"{entry.desk_text(True)}: not taken: {why}")
        else:
            self.pending.accept(entry)
        self.pending_changed.emit()
        return not why

    def reject_pending(self, entry: Entry, why: str = "rejected at the desk") -> None:
        """The umpire rejects an entry a page sent: its page says so."""
        if entry.state == "pending":
            self.pending.reject(entry, why)
            self.pending_changed.emit()

    def tables_saved(self) -> None:
        """A table value was saved: the actions being typed are prepared again (a resolve that
        stopped at the missing cell goes on)."""
        from app.core import guest

        with guest.detached():  # (a draft that waits for the ruleset is done again itself)
            for draft in self.drafts:
                draft.tables_changed()
        self.tables_changed.emit()

    def show_ruling(self, ruling: Any) -> None:
        """Put a ruling on the Player display, public parts only (``None``: take it off)."""
        self.shown_ruling = ruling.public() if ruling is not None else None
        self.ruling_shown.emit(self.shown_ruling)

    def show_log_line(self, action: int) -> None:
        """Bring this action's line forward in the Game log."""
        self.log_line_requested.emit(action)

    # -- submitting actions -------------------------------------------------------------------

    def attempt(self, action: Callable[[], Any]) -> Any | None:
        """Run a session action; a refusal becomes ``refused`` (nothing was appended)."""
        from pydantic import ValidationError

        try:
            result = action()
        except (RuleViolation, ValidationError, StoreError) as e:
            self.refused.emit(error_text(e))
            if self._session is not None and self._session.log.unsettled:
                self._settle.start()  # asked again in the background (issue 30)
            return None
        return result

    def _settle_tick(self) -> None:
        """Ask the server what became of the unsettled action; say it when it answers."""
        if self._session is None or not self._session.log.unsettled:
            self._settle.stop()
            return
        said = self._session.log.settle()
        if said is not None:
            self._settle.stop()
            self.refused.emit(f"The server has answered about the last action: {said}.")
