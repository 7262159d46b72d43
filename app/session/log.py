"""The game's log: appending an action durably, following other windows and stations, and
checking the chain of hashes. Every part of the session writes through ``GameLog.append``.

Every change goes the same way: the events checked against the current projection (a refusal
appends nothing), appended durably in one transaction, folded into the projection, and told to
the listeners.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pydantic_core import PydanticSerializationError

from app.core import limits
from app.core.engagement import Engagement
from app.core.errors import RuleViolation, Tampered, Unsettled
from app.core.events import Envelope, Event, event_to_json
from app.core.history import Timeline
from app.core.log_index import undone_in
from app.core.ruleset import Ruleset
from app.store import ConcurrentAppend, Store, StoredEvent, StoreError, snapshot_check

log = logging.getLogger(__name__)

#: a snapshot of the projection is stored every this many events
SNAPSHOT_EVERY = 500

Listener = Callable[[Sequence[Envelope]], None]


class GameLog:
    """One game's log in its store, and the projection it folds into."""

    def __init__(
        self, store: Store, game_id: str, ruleset: Ruleset, timeline: Timeline, actor: str
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.ruleset = ruleset
        self.actor = actor
        self.timeline = timeline
        timeline.load_action = lambda a: store.action(game_id, a)
        timeline.load_all = lambda: store.events(game_id)
        self.listeners: list[Listener] = []
        self._seen_version: int | None = None
        #: action -> its log line, for the Edit menu's Undo/Redo text
        self.said: dict[int, str] = {}
        #: actions another window or station appended while this one was open (``refresh``):
        #: Undo says so rather than silently undoing another's action (issue 28)
        self.theirs: set[int] = set()
        self.closed = False
        #: this session appended to the log: closing it keeps the desk's rows (issue 36)
        self.wrote = False
        #: an action sent whose saving the server has not confirmed (``settle``; issue 30)
        self._unsettled: tuple[list[Envelope], Any, str] | None = None
        #: opening checked the whole chain of hashes, from the first event (a log with no
        #: snapshot, read once for its replay): ``check_history`` has nothing left to check
        self.history_checked = False

    # -- reading ------------------------------------------------------------------------------

    @property
    def engagement(self) -> Engagement:
        """The current projection (read-only)."""
        return self.timeline.state

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def problems(self) -> list[str]:
        """What opening or following this game left out, one sentence each (issue 46)."""
        return snapshot_check.problems(self.store, self.timeline)

    def events(self) -> list[Envelope]:
        """The whole log, oldest first, undo and redo records included."""
        return self.store.events(self.game_id)

    def iter_events(self, after: int = 0, page: int = 2000) -> Iterator[Envelope]:
        """The log after sequence number ``after``, oldest first, ``page`` events at a time."""
        return self.store.iter_events(self.game_id, after, page)

    def iter_stored(self, after: int = 0, page: int = 2000) -> Iterator[StoredEvent]:
        """The log as ``iter_events`` reads it, each event a ``StoredEvent`` (no envelope
        built): for the log index, which keeps a summary of each (issue 20)."""
        return self.store.iter_stored(self.game_id, after, page)

    def undone_actions(self) -> set[int]:
        """Actions that do not count now (undone), for striking through in logs."""
        return set(self.timeline.redo_stack) | undone_in(self.iter_events())

    def narrative(self, action: int) -> str:
        """An action's log line: remembered for the actions of this sitting, read from the
        store for older ones (the Edit menu asks after every action; issue 20)."""
        said = self.said.get(action)
        if said is None:
            envs = self.store.action(self.game_id, action)
            said = envs[0].narrative if envs else f"action {action}"
            self.said[action] = said
        return said

    # -- the one way in -----------------------------------------------------------------------

    def append(
        self,
        events: Sequence[Event],
        narrative: str,
        rule: str = "",
        *,
        worked: tuple[Engagement, Engagement] | None = None,
    ) -> list[Envelope]:
        """Check, append durably and apply one action's events; the envelopes written.
        ``worked``: (a game, the game these events leave it in, checked by the ruleset's
        ``check_events``), worked out ahead (``app.session.ahead``): taken as that check when
        the first is the game as it is now, else the check is made here."""
        if self.closed:
            raise RuleViolation("this game is closed")
        if self.store.read_only:
            raise RuleViolation(f"{self.store.where} is open read-only; nothing was changed")
        self._settle_first()  # the last action's fate first: this one follows it
        first = self.timeline.state.seq + 1
        envs = [
            Envelope(
                game=self.game_id,
                seq=first + i,
                action=first,
                actor=self.actor,
                rule=rule,
                narrative=narrative if i == 0 else "",
                event=ev,
            )
            for i, ev in enumerate(events)
        ]
        _storable(envs)  # a lone surrogate in a name or reason: refused, nothing appended
        if worked is not None and worked[0] is self.timeline.state:
            after: Engagement | None = worked[1]
        else:
            after = self.ruleset.check_events(self.timeline.state, events)  # issue 32
        limits.check_append(envs)  # the documented limits (issue 31): refused, nothing appended
        # each event applied once (issue 44): the state the ruleset's check reached, else (an
        # undo, redo or print record, which it does not apply) the projection's own check
        checked = after if isinstance(after, Engagement) else self.timeline.check(envs)
        uid = uuid.uuid4().hex  # the action's id, made before it is sent (issue 30)
        try:
            self.store.append(envs, uid=uid)
        except ConcurrentAppend:
            seq = self.timeline.state.seq
            self.refresh()
            raise self.acted_first(seq) from None
        except Unsettled:
            self._unsettled = (envs, checked, uid)
            raise
        self._applied(envs, checked)
        return envs

    def _applied(self, envs: list[Envelope], checked: Any) -> None:
        """A saved action taken into the projection and told to the listeners. Nothing here
        can turn the saved action into a refusal (issue 30): a snapshot that cannot be
        written, or a listener that fails, is logged and the action stands."""
        first = envs[0].seq
        self.timeline.append(envs, checked)
        self.wrote = True
        self.said[first] = envs[0].narrative
        if (first - 1) // SNAPSHOT_EVERY != envs[-1].seq // SNAPSHOT_EVERY:  # crossed a mark
            try:
                self.store.save_snapshot(self.game_id, envs[-1].seq, self.timeline.snapshot())
            except Exception as e:  # noqa: BLE001 - the snapshot only saves time
                log.warning(
                    "%s: the snapshot after event %s was not written: %s",
                    self.store.where,
                    envs[-1].seq,
                    e,
                )
        for listener in list(self.listeners):
            try:
                listener(envs)
            except Exception:  # noqa: BLE001 - the action is saved whatever a listener does
                log.exception("a listener failed after a saved action")

    def acted_first(self, seq: int) -> ConcurrentAppend:
        """The refusal of an action prepared at ``seq`` when others acted since: what they did."""
        said = [
            env.narrative for env in self.store.events(self.game_id, after=seq) if env.narrative
        ]
        what = "; ".join(said[-3:]) + ("" if len(said) <= 3 else f" (+{len(said) - 3})")
        return ConcurrentAppend(
            "another station or window acted first"
            + (f": {what}" if what else "")
            + ". Nothing of this action was written; the desk now shows the game as it is "
            "(the form and its odds too): check, then do it again."
        )

    # -- an action the network hid (issue 30) -------------------------------------------------

    def settle(self) -> str | None:
        """What became of an action whose saving the network hid (``Unsettled``), asked of
        the server now: "saved: ..." (taken into the game), "not written: ..." or ``None``
        while the server still cannot say, or when no action waits (issue 30)."""
        if self._unsettled is None:
            return None
        envs, checked, uid = self._unsettled
        try:
            saved = self.store.saved(uid)
        except StoreError:
            return None
        self._unsettled = None
        what = envs[0].narrative or "the last action"
        if not saved:
            return f"not written: {what} (the server never stored it; do it again)"
        if self.timeline.state.seq < envs[0].seq:
            self._applied(envs, checked)
        return f"saved: {what}"

    @property
    def unsettled(self) -> bool:
        """An action was sent whose saving the server has not confirmed or denied yet."""
        return self._unsettled is not None

    def _settle_first(self) -> None:
        """Before a new action, the fate of an unsettled one: told, never guessed."""
        if self._unsettled is None:
            return
        said = self.settle()
        if said is None:
            raise Unsettled(
                f"{self.store.where}: the server has not said yet whether the last action was "
                "saved, so nothing of this one was sent; wait until the desk says which."
            )
        if said.startswith("not written"):
            raise StoreError(
                f"{self.store.where}: the server says the last action was {said}, so nothing "
                "of this one was sent either."
            )

    # -- other windows and stations -----------------------------------------------------------

    def follow(self) -> list[Envelope]:
        """Take in another window's or program's actions if the file changed since we last
        asked (cheap when nothing changed: no read of the log)."""
        version = self.store.data_version(self.game_id)
        if version is None or version == self._seen_version:
            return []
        self._seen_version = version
        return self.refresh()

    def check_history(self) -> None:
        """The whole chain of hashes, from the first event (issue 30). Opening checks it from
        the newest snapshot only, so that a long game opens fast; this checks the events
        before it too, on a connection of its own, so that a desk can run it in the
        background once a game file is open. ``Tampered`` where the chain breaks; nothing is
        written. A server game's desk checks its whole log whenever the server counts a
        change no station announced (``refresh``)."""
        path = self.store.path
        if path is None or self.history_checked:  # checked at open from the first event
            return
        from app.store.file_store import FileStore

        store = FileStore.open(path, read_only=True)
        try:
            store.check_chain(self.game_id)
        finally:
            store.close()

    def refresh(self) -> list[Envelope]:
        """Take in what another station appended to this game since we last looked. The log
        is checked first (issue 30): an event changed or removed outside Airboss stops the
        following (``Tampered``) and the game is read-only from then on."""
        head = self.store.heads.get(self.game_id)
        try:
            if head is not None:
                self.store.check_recent(self.game_id, head)
            if self.store.suspect:  # an edit no station announced: the whole log, now
                self.store.suspect = False
                self.store.check_chain(self.game_id)
            new = self.store.events(self.game_id, after=self.timeline.state.seq)
            if new and head is not None:
                self.store.check_chain(self.game_id, after=head[0], prev=head[1])
        except Tampered:
            self.store.read_only = True
            raise
        actions: dict[int, list[Envelope]] = {}
        for env in new:
            actions.setdefault(env.seq if env.is_meta else env.action, []).append(env)
            self.theirs.add(env.action)
        for envs in actions.values():
            self.timeline.take_in(envs)  # one that cannot happen: left out, said (issue 46)
        if new:
            for listener in list(self.listeners):
                listener(new)
        return new


def _storable(envs: Sequence[Envelope]) -> None:
    """Refuse text that cannot be stored (a lone surrogate from a paste) as a validation
    error, before anything is written."""
    for env in envs:
        try:
            env.narrative.encode("utf-8")
            event_to_json(env.event)
        except (UnicodeEncodeError, PydanticSerializationError, ValueError):
            raise RuleViolation(
                "a name or reason holds a character that cannot be stored "
                "(a broken character from a paste?); retype it. Nothing was recorded."
            ) from None
