"""GameSession: the one facade over store and projection that the desk, scripts and tests use.

Every change goes the same way: validate, resolve (pure ruleset code), check the events against
the current projection (a refusal appends nothing), append them durably in one transaction,
then fold them into the projection and tell the listeners which aircraft changed.

The facade keeps the names the contract pins (``shared/API.md``: create, open, perform,
add_aircraft, undo, redo, engagement, events, close) and names the parts, each a module with
one job; everything else is asked of the part that does it (``s.clock.next_step()``,
``s.roster.place(...)``), and a dock is given the part it needs (``app.ui.model``):

- ``log``      ``GameLog``: append an action durably, follow other windows and stations,
               check the chain of hashes, read the log
- ``opening``  a new game made, one opened and checked, a server's games listed, a copy
- ``who_acts`` ``WhoActs`` (``lines``): the "who acts now" lines and the rolls owed
- ``refusals`` ``LineRefusals``: why a line cannot act as it stands
- ``actions``  ``Actions``: prepare, next die, resolve and perform the rules procedures
- ``odds``     ``Odds``: exact odds, odds to the end of the chain, the ruling of an entry
- ``roster``   ``Roster``: aircraft added, edited, removed, placed; ledgers, cards, dice
- ``clock``    ``Clock``: the steps of a turn, one step on or back, the next worked out
               ahead (``ahead``)
- ``undoing``  ``Undo`` (``undo``): the Edit menu's wording, undo and redo
- ``rows``     ``KeptRows``: the desk's rows kept in the game file for its next start
- ``guard``    the time limit of a call into the ruleset's code
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.events import Envelope
from app.core.ruleset import Resolution, Ruleset
from app.session import opening
from app.session.actions import Actions
from app.session.clock import Clock
from app.session.lines import WhoActs
from app.session.log import SNAPSHOT_EVERY, GameLog, Listener
from app.session.odds import Odds
from app.session.opening import OVERVIEW_HEAD
from app.session.refusals import LineRefusals
from app.session.roster import Roster
from app.session.rows import KeptRows
from app.session.undo import Undo
from app.store import Store

__all__ = ["OVERVIEW_HEAD", "SNAPSHOT_EVERY", "GameSession", "Listener"]


class GameSession:
    """One open game. Create with ``GameSession.create`` or ``GameSession.open``."""

    def __init__(self, game_log: GameLog) -> None:
        self.log = game_log
        self.store: Store = game_log.store
        self.game_id = game_log.game_id
        self.ruleset: Ruleset = game_log.ruleset
        self.actor = game_log.actor
        self.who_acts = WhoActs(game_log)
        self.odds = Odds(game_log)
        self.actions = Actions(game_log, self.who_acts, self.odds)
        self.refusals = LineRefusals(game_log, self.who_acts, self.actions)
        self.roster = Roster(game_log)
        self.clock = Clock(game_log, ahead_for=(self.who_acts, self.refusals, self.actions))
        self.undoing = Undo(game_log)
        self.rows = KeptRows(game_log, self)

    # -- opening and closing (``opening``, ``rows``) ------------------------------------------

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

    def save_copy(self, target: str | Path) -> str | Path:
        return opening.save_copy(self.log, target)

    def close(self) -> None:
        """Close the game; a game file this session wrote to keeps the desk's rows first."""
        if not self.log.closed:
            self.rows.keep_on_close()
            self.log.closed = True
            self.store.close()

    def __enter__(self) -> GameSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the log (``log``) ----------------------------------------------------------------------

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

    def events(self) -> list[Envelope]:
        return self.log.events()

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(envelopes)`` after every append (including undo and redo)."""
        self.log.listeners.append(listener)

    # -- the changes the contract names (``actions``, ``roster``, ``undo``) ---------------------

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

    def add_aircraft(
        self, side: str, type_id: str, name: str, pilot: str | None = "average", **details: Any
    ) -> str:
        """Put an aircraft (or counted group) on the roster; returns its id."""
        return self.roster.add_aircraft(side, type_id, name, pilot, **details)

    def undo(self) -> str:
        """Undo the newest action that counts; returns its narrative."""
        return self.undoing.undo()

    def redo(self) -> str:
        """Redo the newest undone action; returns its narrative."""
        return self.undoing.redo()
