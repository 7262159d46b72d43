"""GameSession: the one facade over store and projection that the desk, scripts and tests use.

Every change goes the same way: validate, resolve (pure ruleset code), check the events against
the current projection (a refusal appends nothing), append them durably in one transaction,
then fold them into the projection and tell the listeners which aircraft changed.

The facade only names the parts, each a module with one job, and hands each call to the
part that does it (a dock is given the part it needs, ``app.ui.model``):

- ``log``      ``GameLog``: append an action durably, follow other windows and stations,
               check the chain of hashes, read the log
- ``opening``  a new game made, one opened and checked, a server's games listed, a copy
- ``lines``    ``WhoActs``: the "who acts now" lines and the rolls a result makes owed
- ``refusals`` ``LineRefusals``: why a line cannot act as it stands
- ``actions``  ``Actions``: prepare, next die, resolve and perform the rules procedures
- ``odds``     ``Odds``: exact odds, odds to the end of the chain, the ruling of an entry
- ``roster``   ``Roster``: aircraft added, edited, removed, placed; ledgers, cards, dice
- ``clock``    ``Clock``: the steps of a turn, one step on or back
- ``undo``     ``Undo``: the Edit menu's wording, undo and redo
- ``guard``    the time limit of a call into the ruleset's code
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.acting import ActingLine
from app.core.chain_odds import ChainOdds
from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.events import Envelope
from app.core.guest import TIME_LIMIT, GuestPending, still_busy
from app.core.prepared import DieToType, Prepared
from app.core.ruleset import Resolution, Ruleset, Step
from app.core.ruling import Ruling
from app.session import opening
from app.session.actions import Actions
from app.session.clock import Clock
from app.session.lines import WhoActs
from app.session.log import SNAPSHOT_EVERY, GameLog, Listener
from app.session.odds import Odds
from app.session.opening import OVERVIEW_HEAD
from app.session.refusals import LineRefusals
from app.session.roster import MAX_DICE_NAME, Roster
from app.session.undo import ELSEWHERE, Undo
from app.store import Store, StoredEvent

__all__ = [
    "ELSEWHERE",
    "MAX_DICE_NAME",
    "OVERVIEW_HEAD",
    "SNAPSHOT_EVERY",
    "TIME_LIMIT",
    "GameSession",
    "Listener",
]

logger = logging.getLogger(__name__)


class GameSession:
    """One open game. Create with ``GameSession.create`` or ``GameSession.open``."""

    def __init__(self, game_log: GameLog) -> None:
        self.log = game_log
        self.store: Store = game_log.store
        self.game_id = game_log.game_id
        self.ruleset: Ruleset = game_log.ruleset
        self.actor = game_log.actor
        self.who_acts = WhoActs(game_log)
        self.odds_of = Odds(game_log)
        self.actions = Actions(game_log, self.who_acts, self.odds_of)
        self.refusals = LineRefusals(game_log, self.who_acts, self.actions)
        self.roster = Roster(game_log)
        self.clock = Clock(game_log)
        self.undoing = Undo(game_log)
        #: the log's last sequence number whose rows (``app.startup.summary``) are kept in the file:
        #: the desk keeps them after every change and says so here, so closing does not again
        self.rows_kept: int | None = None

    # -- opening and closing (``opening``) ------------------------------------------------------

    @classmethod
    def create(
        cls,
        target: str | Path,
        ruleset: str,
        title: str,
        variants: Sequence[str] = (),
        actor: str = "umpire",
    ) -> GameSession:
        """A new game in a new ``.airboss`` file (or on a server URL)."""
        return cls(opening.create(target, ruleset, title, variants, actor))

    @classmethod
    def open(
        cls,
        target: str | Path,
        game: str | None = None,
        actor: str = "umpire",
        read_only: bool = False,
    ) -> GameSession:
        """Reopen a game; ``StoreError`` (one line naming the file and the reason) for a file
        that is not a usable Airboss game; read-only when it cannot be written or when asked
        (``opening.open_log``)."""
        return cls(opening.open_log(target, game, actor, read_only))

    overview = staticmethod(opening.overview)
    overview_table = staticmethod(opening.overview_table)
    server_url = staticmethod(opening.server_url)
    ask_passwords_with = staticmethod(opening.ask_passwords_with)
    ask_trust_with = staticmethod(opening.ask_trust_with)

    def save_copy(self, target: str | Path) -> str | Path:
        return opening.save_copy(self.log, target)

    def close(self) -> None:
        if not self.log.closed:
            self._keep_rows()
            self.log.closed = True
            self.store.close()

    def _keep_rows(self) -> None:
        """A game file this session wrote to keeps, as of its last event, the rows the desk
        paints it from at its next start (``keep_rows``; issue 36): whatever program of Airboss
        played on, a desk or a script, the next start paints from them. Nothing for a server
        game, a read-only one, or rows the desk has kept already; rows that cannot be worked
        out or written cost the next start its head start only."""
        store, seq = self.store, self.engagement.seq
        if not self.log.wrote or store.path is None or store.read_only or self.rows_kept == seq:
            return
        if still_busy(self.ruleset):  # a ruleset that did not answer is not waited for again
            return
        try:
            self.keep_rows()
        except (Exception, GuestPending) as e:  # noqa: BLE001 - never a reason the game did not close
            logger.debug("%s: the desk's rows were not kept: %s", store.where, e)

    def keep_rows(self, rows: Mapping[str, Any] | None = None) -> None:
        """Keep in the game file, as of the log's last event, the rows the desk paints the game
        from at its next start (``app.startup.summary_file``; issue 36): ``rows`` as the desk
        drew them from this game as it is now, or else worked out here. The session is their
        one writer. Nothing for a server game or a read-only one; ``StoreError`` when the file
        cannot be written."""
        store, seq = self.store, self.engagement.seq
        if store.path is None or store.read_only:
            return
        from app import __version__
        from app.startup.summary import session_rows
        from app.startup.summary_file import keep_summary

        kept = dict(rows if rows is not None else session_rows(self))
        keep_summary(store, self.game_id, seq, __version__, kept)
        self.rows_kept = seq

    def __enter__(self) -> GameSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the log (``log``) ------------------------------------------------------------------------

    @property
    def engagement(self) -> Engagement:
        """The current projection (read-only)."""
        return self.log.timeline.state

    @property
    def title(self) -> str:
        return self.log.timeline.state.title

    @property
    def read_only(self) -> bool:
        """True when the game was opened read-only (say so in the title bar); every action
        is refused with a message and nothing is written."""
        return self.store.read_only

    @property
    def problems(self) -> list[str]:
        return self.log.problems

    @property
    def unsettled(self) -> bool:
        return self.log.unsettled

    def events(self) -> list[Envelope]:
        return self.log.events()

    def iter_events(self, after: int = 0, page: int = 2000) -> Iterator[Envelope]:
        return self.log.iter_events(after, page)

    def iter_stored(self, after: int = 0, page: int = 2000) -> Iterator[StoredEvent]:
        return self.log.iter_stored(after, page)

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(envelopes)`` after every append (including undo and redo)."""
        self.log.listeners.append(listener)

    def settle(self) -> str | None:
        return self.log.settle()

    def follow(self) -> list[Envelope]:
        return self.log.follow()

    def refresh(self) -> list[Envelope]:
        return self.log.refresh()

    def check_history(self) -> None:
        self.log.check_history()

    def undone_actions(self) -> set[int]:
        return self.log.undone_actions()

    # -- who acts now (``lines``, ``refusals``) ---------------------------------------------------

    def acting(self) -> list[ActingLine]:
        return self.who_acts.acting()

    def line_refusal(self, procedure: str, who: str, other: str | None = None) -> str:
        return self.refusals.line_refusal(procedure, who, other)

    # -- the rules procedures (``actions``, ``odds``) -----------------------------------------

    def perform(
        self,
        procedure: str,
        inputs: BaseModel | Mapping[str, Any],
        dice: DiceSource | None = None,
        *,
        overrides: Mapping[str, tuple[Any, Any]] | None = None,
    ) -> Resolution:
        """Validate, resolve, append durably and apply one rules procedure (``Actions``)."""
        return self.actions.perform(procedure, inputs, dice, overrides=overrides)

    def prepare(
        self,
        procedure: str,
        roles: Mapping[str, str | None] | None = None,
        typed: Mapping[str, Any] | None = None,
        overridden: frozenset[str] | set[str] = frozenset(),
        *,
        choose_target: bool = True,
        notes: Sequence[str] = (),
        check: bool = True,
        pending: Collection[str] = (),
        dice: bool = True,
    ) -> Prepared:
        """The procedure made ready as the form shows it and resolve uses it (``Actions``)."""
        return self.actions.prepare(
            procedure,
            roles,
            typed,
            overridden,
            choose_target=choose_target,
            notes=notes,
            check=check,
            pending=pending,
            dice=dice,
        )

    def prepare_line(
        self, procedure: str, who: str, other: str | None = None, *, dice: bool = True
    ) -> Prepared:
        return self.actions.prepare_line(procedure, who, other, dice=dice)

    def first_roles(self, procedure: str) -> dict[str, str | None]:
        return self.actions.first_roles(procedure)

    def next_die(self, prepared: Prepared, typed: Sequence[int]) -> DieToType | str | None:
        return self.actions.next_die(prepared, typed)

    def resolve(self, prepared: Prepared, dice: DiceSource | None = None) -> Resolution:
        return self.actions.resolve(prepared, dice)

    def board_readings(self, inputs: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
        return self.actions.board_readings(inputs)

    def odds(self, prepared: Prepared) -> dict[str, Fraction]:
        return self.odds_of.odds(prepared)

    def chain_odds(self, prepared: Prepared) -> ChainOdds:
        return self.odds_of.chain_odds(prepared)

    def ruling(self, seq: int, undone: Collection[int] | None = None) -> Ruling:
        return self.odds_of.ruling(seq, undone)

    # -- the roster and the table (``roster``) ------------------------------------------------

    @property
    def printed(self) -> Mapping[str, int]:
        return self.roster.printed

    def changed_since_printed(self) -> list[str]:
        return self.roster.changed_since_printed()

    def add_aircraft(
        self, side: str, type_id: str, name: str, pilot: str | None = "average", **details: Any
    ) -> str:
        """Put an aircraft (or counted group) on the roster; returns its id."""
        return self.roster.add_aircraft(side, type_id, name, pilot, **details)

    def change_aircraft(
        self,
        aircraft_id: str,
        *,
        name: str | None = None,
        pilot: str | None = None,
        side: str | None = None,
        card: Mapping[str, Any] | None = None,
    ) -> None:
        self.roster.change_aircraft(aircraft_id, name=name, pilot=pilot, side=side, card=card)

    def adjust_ledger(
        self, aircraft_id: str, ledger: str, delta: Fraction | int | str, reason: str
    ) -> None:
        self.roster.adjust_ledger(aircraft_id, ledger, delta, reason)

    def remove_aircraft(self, aircraft_id: str) -> None:
        self.roster.remove_aircraft(aircraft_id)

    def place(
        self, aircraft_id: str, x: float | None, y: float | None, facing: int = 0, altitude: int = 0
    ) -> None:
        self.roster.place(aircraft_id, x, y, facing, altitude)

    def mark_printed(self, aircraft_ids: Sequence[str], where: str = "") -> None:
        self.roster.mark_printed(aircraft_ids, where)

    def set_dice(self, side: str, dice: str, aircraft: str | None = None) -> None:
        self.roster.set_dice(side, dice, aircraft)

    # -- the clock (``clock``) ----------------------------------------------------------------

    def steps(self) -> list[Step]:
        return self.clock.steps()

    def next_step(self) -> None:
        self.clock.next_step()

    def previous_step(self) -> None:
        self.clock.previous_step()

    # -- undo and redo (``undo``) ---------------------------------------------------------------

    @property
    def undo_text(self) -> str | None:
        return self.undoing.undo_text

    @property
    def redo_text(self) -> str | None:
        return self.undoing.redo_text

    @property
    def undo_elsewhere(self) -> bool:
        return self.undoing.undo_elsewhere

    @property
    def redo_elsewhere(self) -> bool:
        return self.undoing.redo_elsewhere

    def elsewhere(self, envelopes: Sequence[Envelope]) -> bool:
        return self.undoing.elsewhere(envelopes)

    def undo(self) -> str:
        """Undo the newest action that counts; returns its narrative."""
        return self.undoing.undo()

    def redo(self) -> str:
        """Redo the newest undone action; returns its narrative."""
        return self.undoing.redo()
