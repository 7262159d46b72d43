"""GameSession: the one facade over store and projection that the desk, scripts and tests use.

Every change goes the same way: validate, resolve (pure ruleset code), check the events against
the current projection (a refusal appends nothing), append them durably in one transaction,
then fold them into the projection and tell the listeners which aircraft changed.
"""

from __future__ import annotations

import gc
import json
import logging
import uuid
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from itertools import islice
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError

from app.core import limits, shapes
from app.core.board import reading as board_reading
from app.core.chain_odds import ChainOdds, chain_odds
from app.core.dice import DiceSource, SeededDice, TableDice
from app.core.emitted import check_emitted
from app.core.engagement import PILOT_QUALITIES, Engagement
from app.core.errors import MissingTableValue, RuleViolation
from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    AircraftRemoved,
    CardsPrinted,
    ClockSet,
    DiceSet,
    Envelope,
    Event,
    GameCreated,
    LedgerAdded,
    LedgerChanged,
    PositionSet,
    ProcedureResolved,
    Restored,
    Reverted,
    event_to_json,
)
from app.core.guest import (
    TIME_LIMIT,
    GuestError,
    GuestTimeout,
    acting_lines,
    call_guest,
    events_list,
    odds_table,
    ruleset_name,
    steps_list,
    still_busy,
)
from app.core.history import Timeline
from app.core.log_index import undone_in
from app.core.prepared import (
    ROLES,
    DieToType,
    Prepared,
    dice_of,
    first_enemy,
    line_roles,
    prepare,
)
from app.core.procedure import Procedure, UnknownOdds
from app.core.ruleset import Resolution, Ruleset, Step
from app.core.ruling import Ruling, needs_the_log, ruling_of, ruling_of_action, stamped
from app.core.text import refuse_control, shown
from app.plugins import Loading, load_ruleset
from app.store import (
    ConcurrentAppend,
    Store,
    StoredEvent,
    StoreError,
    bounds,
    create_store,
    is_url,
    open_store,
    snapshot_check,
)
from app.store.errors import EmptyStore, Tampered, Unsettled
from app.store.outline import outline

#: characters in the name of a die or player at the table (``GameSession.set_dice``)
MAX_DICE_NAME = 80
log = logging.getLogger(__name__)

#: the columns of a server's overview (``GameSession.overview_table``)
OVERVIEW_HEAD = ("id", "ruleset", "title", "turn", "in play", "last action", "watching")

#: what Undo says of an action another window or station made while this one was open
ELSEWHERE = "another window's or station's action"

#: a snapshot of the projection is stored every this many events
SNAPSHOT_EVERY = 500

Listener = Callable[[Sequence[Envelope]], None]


class GameSession:
    """One open game. Create with ``GameSession.create`` or ``GameSession.open``."""

    def __init__(
        self,
        store: Store,
        game_id: str,
        ruleset: Ruleset,
        timeline: Timeline,
        actor: str = "umpire",
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.ruleset = ruleset
        self.actor = actor
        self._timeline = timeline
        self._timeline.load_action = lambda a: self.store.action(self.game_id, a)
        self._timeline.load_all = lambda: self.store.events(self.game_id)
        self._listeners: list[Listener] = []
        self._seen_version: int | None = None
        #: action -> its log line, for the Edit menu's Undo/Redo text
        self._said: dict[int, str] = {}
        #: actions another window or station appended while this one was open (``refresh``):
        #: Undo says so rather than silently undoing another's action (issue 28)
        self._theirs: set[int] = set()
        #: the "who acts now" lines' refusals, worked out for the game as it was then
        self._refusals: tuple[Engagement, dict[tuple[str, str, str | None], str]] | None = None
        #: the "who acts now" lines ``_owed`` last read, and for which game state: a resolve
        #: reads them after it and the next one before it, the game unchanged between
        self._owed_lines: tuple[Engagement, list[tuple[str, ...]]] | None = None
        self._closed = False
        #: this session appended to the log: closing it keeps the desk's rows (issue 36)
        self._wrote = False
        #: the log's last sequence number whose rows (``app.summary``) are kept in the file:
        #: the desk keeps them after every change and says so here, so closing does not again
        self.rows_kept: int | None = None
        #: the odds last worked out, and for which prepared action (resolve stores them)
        self._last_odds: tuple[Prepared, dict[str, Fraction]] | None = None
        #: an action sent whose saving the server has not confirmed (``settle``; issue 30)
        self._unsettled: tuple[list[Envelope], Any, str] | None = None
        #: opening checked the whole chain of hashes, from the first event (a log with no
        #: snapshot, read once for its replay): ``check_history`` has nothing left to check
        self._history_checked = False

    # -- opening and closing ------------------------------------------------------------------

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
        shapes.create_args(target, ruleset, title, variants, actor)  # issue 31: wrong shapes
        refuse_control("the game's title", title)  # issue 46: before the file is made
        rs = load_ruleset(ruleset).bind(variants)
        store = create_store(target)
        game_id = uuid.uuid4().hex
        try:
            store.add_game(game_id, ruleset, title, list(variants))
            s = cls(store, game_id, rs, Timeline(), actor)
            s._commit(
                [GameCreated(ruleset=ruleset, title=title, variants=tuple(variants))],
                narrative=f"New {rs.title} game {title!r}"
                + (f" with {', '.join(variants)}" if variants else ""),
            )
        except BaseException:  # a full disk after the file was made: no half-made game left
            store.close()
            if store.path is not None:
                for leftover in ("", "-wal", "-shm"):
                    Path(f"{store.path}{leftover}").unlink(missing_ok=True)
            raise
        return s

    @staticmethod
    def overview(target: str | Path) -> list[dict[str, Any]]:
        """The games in a store, as a server's overview lists them (issue 17): id, ruleset,
        title, turn and step, aircraft in play, the last action's time and how many stations
        watch it. Each game is read, never written."""
        try:
            store = open_store(target, read_only=True)
        except EmptyStore:
            return []  # a server with no games yet: nothing is created to say so (issue 30)
        try:
            rows = store.games()
            watching = {g.id: store.watching(g.id) for g in rows}
            last = {g.id: store.last_action_time(g.id) for g in rows}
        finally:
            store.close()
        out: list[dict[str, Any]] = []
        for g in rows:
            entry: dict[str, Any] = {
                "id": g.id,
                "ruleset": g.ruleset,
                "title": g.title,
                "last_action": last[g.id],
                "watching": watching[g.id],
            }
            try:
                with GameSession.open(target, game=g.id, read_only=True) as s:
                    e = s.engagement
                    steps = s.steps()  # guarded: a broken ruleset is said on its row
                    step = steps[e.step].label if 0 <= e.step < len(steps) else str(e.step)
                    entry.update(
                        turn=f"Turn {e.turn}: {step}",
                        in_play=sum(1 for a in e.aircraft.values() if a.in_play),
                    )
            except (StoreError, RuleViolation) as err:
                entry.update(turn=f"cannot be read: {err}", in_play=None)
            out.append(entry)
        return out

    @staticmethod
    def overview_table(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
        """The overview as text cells, one tuple per game in ``OVERVIEW_HEAD``'s order: the one
        form ``airboss --list`` prints and File > Open from server shows."""
        return [
            (  # every cell as text: an older file's control characters shown (issue 46)
                shown(str(r["id"])),
                shown(str(r["ruleset"])),
                shown(str(r["title"])),
                shown(str(r["turn"])),
                "" if r["in_play"] is None else str(r["in_play"]),
                f"{r['last_action']:%Y-%m-%d %H:%M}" if r["last_action"] else "",
                "" if r["watching"] is None else str(r["watching"]),
            )
            for r in rows
        ]

    @classmethod
    def open(
        cls,
        target: str | Path,
        game: str | None = None,
        actor: str = "umpire",
        read_only: bool = False,
    ) -> GameSession:
        """Reopen a game; ``StoreError`` (one line naming the file and the reason) for a file
        that is not a usable Airboss game. The whole log is read and checked before the file
        is opened for writing, so a refused file is never changed. A file (or folder) that
        cannot be written, or ``read_only=True``, opens read-only: see ``read_only``."""
        shapes.open_args(target, game, actor, read_only)  # issue 31: wrong shapes refused
        store = open_store(target, read_only=read_only)
        if is_url(target):
            target = store.where  # its password never in a message (issue 30)
        loading: Loading | None = None
        try:
            bounds.check_games(store, store.where)  # documented limits, before reading a row
            row = store.game(game)
            # a third-party ruleset's first import tried in a child meanwhile (issue 44)
            loading = Loading(row.ruleset)
            bounds.check_log(store, store.where, row.id)
            # a log changed outside Airboss is not replayed (issue 30); with no snapshot the
            # chain is checked as the log is read for its replay, once (issue 31)
            unchecked = store.check_log(row.id, whole=False)
            try:
                variants = json.loads(row.variants)
                if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
                    raise StoreError(
                        f"{target}: the game's variants are garbled ({row.variants!r})"
                    )
                try:
                    rs = loading.ruleset().bind(variants)
                except KeyError as e:
                    raise StoreError(
                        f"{target}: needs a ruleset that is not installed: {e}"
                    ) from None
                gid = row.id
                loaders = {
                    "load_action": lambda a: store.action(gid, a),
                    "load_all": lambda: store.events(gid),
                }
                snap = store.latest_snapshot(gid)
                # a snapshot this computer has not checked against a replay is not trusted
                # (issue 46): the log is replayed, and the snapshot then checked against it
                doubted, snap = snapshot_check.doubted(store, gid, snap)
                if snap is not None and unchecked:  # a snapshot without its event's hash
                    store.check_chain(gid)
                    unchecked = False
                if snap is None:  # read twice a page at a time, never held whole (issue 31)
                    checked = _checked_pages(target, row.ruleset, rs, store.read_checked(gid))
                    with _no_cycle_collection():
                        timeline = Timeline.replay_log(outline(store, gid), checked, **loaders)
                    unchecked = False
                    snapshot_check.against_replay(store, gid, doubted, timeline)
                else:
                    seq, data = snap
                    tail = store.events(gid, after=seq)
                    _check_log(target, row.ruleset, rs, tail)
                    timeline = Timeline.from_snapshot(data, tail, **loaders)
                    if timeline.state.clock_seq == 0:
                        timeline.state = replace(timeline.state, clock_seq=_clock_seq(store, gid))
            except Exception:
                if unchecked:  # a log changed outside Airboss is said so, whatever broke
                    store.check_chain(row.id)
                raise
            store.writable()
            if snap is None and doubted is None and timeline.state.seq >= SNAPSHOT_EVERY:
                _snapshot_on_open(store, gid, timeline)
        except StoreError:
            store.close()
            raise
        except Exception as e:  # a garbled log, payload or snapshot: refused, never a traceback
            store.close()
            raise StoreError(f"{target}: not a usable Airboss game ({_one_line(e)})") from None
        finally:
            if loading is not None:
                loading.stop()  # a first import not waited for (the game refused before)
        session = cls(store, row.id, rs, timeline, actor)
        session._history_checked = snap is None
        return session

    @property
    def problems(self) -> list[str]:
        """What opening or following this game left out, one sentence each naming the
        event's seq (issue 46): an event that cannot happen or cannot be read, a snapshot
        that does not agree with its log. The game itself opened."""
        return snapshot_check.problems(self.store, self._timeline)

    @property
    def read_only(self) -> bool:
        """True when the game was opened read-only (say so in the title bar); every action
        is refused with a message and nothing is written."""
        return self.store.read_only

    def close(self) -> None:
        if not self._closed:
            self._keep_rows()
            self._closed = True
            self.store.close()

    def _keep_rows(self) -> None:
        """A game file this session wrote to keeps, as of its last event, the rows the desk
        paints it from at its next start (``app.summary``, ``app.store.summary``; issue 36):
        whatever program of Airboss played on, a desk or a script, the next start paints from
        them. Nothing for a server game, a read-only one, or rows the desk has kept already;
        rows that cannot be worked out or written cost the next start its head start only."""
        store, seq = self.store, self.engagement.seq
        if not self._wrote or store.path is None or store.read_only or self.rows_kept == seq:
            return
        if still_busy(self.ruleset):  # a ruleset that did not answer is not waited for again
            return
        from app import __version__
        from app.store.summary import keep_summary
        from app.summary import session_rows

        try:
            keep_summary(store, self.game_id, seq, __version__, dict(session_rows(self)))
        except Exception as e:  # noqa: BLE001 - never a reason the game did not close
            log.debug("%s: the desk's rows were not kept: %s", store.where, e)
        else:
            self.rows_kept = seq

    def __enter__(self) -> GameSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ------------------------------------------------------------------------------

    @property
    def engagement(self) -> Engagement:
        """The current projection (read-only)."""
        return self._timeline.state

    def events(self) -> list[Envelope]:
        """The whole log, oldest first, undo and redo records included."""
        return self.store.events(self.game_id)

    def iter_events(self, after: int = 0, page: int = 2000) -> Iterator[Envelope]:
        """The log after sequence number ``after``, oldest first, read ``page`` events at a
        time (for readers that keep only a summary of a long log)."""
        return self.store.iter_events(self.game_id, after, page)

    def iter_stored(self, after: int = 0, page: int = 2000) -> Iterator[StoredEvent]:
        """The log as ``iter_events`` reads it, each event a ``StoredEvent`` (no envelope
        built): for the log index, which keeps a summary of each (issue 20)."""
        return self.store.iter_stored(self.game_id, after, page)

    @property
    def title(self) -> str:
        return self.engagement.title

    @property
    def printed(self) -> Mapping[str, int]:
        """The card revision last printed for each aircraft."""
        return self._timeline.printed

    def changed_since_printed(self) -> list[str]:
        """Aircraft whose current card differs from the one last printed."""
        printed = self._timeline.printed
        return [a.id for a in self.engagement.aircraft.values() if printed.get(a.id) != a.revision]

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(envelopes)`` after every append (including undo and redo)."""
        self._listeners.append(listener)

    # -- the one way in -----------------------------------------------------------------------

    def _commit(self, events: Sequence[Event], narrative: str, rule: str = "") -> list[Envelope]:
        if self._closed:
            raise RuleViolation("this game is closed")
        if self.read_only:
            raise RuleViolation(f"{self.store.where} is open read-only; nothing was changed")
        self._settle_first()  # the last action's fate first: this one follows it
        first = self.engagement.seq + 1
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
        after = self.ruleset.check_events(self.engagement, events)  # issue 32: State, GameState
        limits.check_append(envs)  # the documented limits (issue 31): refused, nothing appended
        # each event applied once (issue 44): the state the ruleset's check reached, else (an
        # undo, redo or print record, which it does not apply) the projection's own check
        checked = after if isinstance(after, Engagement) else self._timeline.check(envs)
        uid = uuid.uuid4().hex  # the action's id, made before it is sent (issue 30)
        try:
            self.store.append(envs, uid=uid)
        except ConcurrentAppend:
            seq = self.engagement.seq
            self.refresh()
            raise self._acted_first(seq) from None
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
        self._timeline.append(envs, checked)
        self._wrote = True
        self._said[first] = envs[0].narrative
        if (first - 1) // SNAPSHOT_EVERY != envs[-1].seq // SNAPSHOT_EVERY:  # crossed a mark
            try:
                self.store.save_snapshot(self.game_id, envs[-1].seq, self._timeline.snapshot())
            except Exception as e:  # noqa: BLE001 - the snapshot only saves time
                log.warning(
                    "%s: the snapshot after event %s was not written: %s",
                    self.store.where,
                    envs[-1].seq,
                    e,
                )
        for listener in list(self._listeners):
            try:
                listener(envs)
            except Exception:  # noqa: BLE001 - the action is saved whatever a listener does
                log.exception("a listener failed after a saved action")

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
        if self.engagement.seq < envs[0].seq:
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
        if path is None or self._history_checked:  # checked at open from the first event
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
            new = self.store.events(self.game_id, after=self.engagement.seq)
            if new and head is not None:
                self.store.check_chain(self.game_id, after=head[0], prev=head[1])
        except Tampered:
            self.store.read_only = True
            raise
        actions: dict[int, list[Envelope]] = {}
        for env in new:
            actions.setdefault(env.seq if env.is_meta else env.action, []).append(env)
            self._theirs.add(env.action)
        for envs in actions.values():
            self._timeline.take_in(envs)  # one that cannot happen: left out, said (issue 46)
        if new:
            for listener in list(self._listeners):
                listener(new)
        return new

    def perform(
        self,
        procedure: str,
        inputs: BaseModel | Mapping[str, Any],
        dice: DiceSource | None = None,
        *,
        overrides: Mapping[str, tuple[Any, Any]] | None = None,
    ) -> Resolution:
        """Validate, resolve, append durably and apply one rules procedure.

        The inputs are prepared as the desk prepares them (``prepare``): values the script
        leaves out are read from the aircraft's cards and state and from the board; a given
        card or board value that disagrees is refused unless ``overrides`` (field title ->
        (card value, value used)) names it, and the log records each override (issue 13).
        The log line names who did what to whom ("Olds 1 — Gun attack on Red 1: ...")."""
        shapes.perform_args(procedure, inputs, dice, overrides)  # issue 31: wrong shapes refused
        proc = self._procedure(procedure)
        if isinstance(inputs, BaseModel):
            given = {f: getattr(inputs, f) for f in inputs.model_fields_set}
        else:
            given = dict(inputs)
        roles: dict[str, str | None] = {}
        for field in ROLES:
            ref = given.pop(field, None)
            if isinstance(ref, str):
                self.engagement.get(ref)  # a removed aircraft is refused by name first
            if field in proc.Inputs.model_fields:
                roles[field] = ref
            elif ref is not None:
                given[field] = ref  # not a field of this procedure: refused by its Inputs
        titles = {info.title or name: name for name, info in proc.Inputs.model_fields.items()}
        overridden = frozenset(titles.get(t, t) for t in (overrides or {}))

        def prepared() -> Prepared:  # resolve uses neither its dice nor the dry run's refusal
            return self.prepare(
                procedure, roles, given, overridden, choose_target=False, check=False, dice=False
            )

        return self._resolve(proc, prepared, dice)

    def _procedure(self, procedure: str) -> Procedure:
        try:
            return self.ruleset.procedures[procedure]
        except KeyError:
            raise RuleViolation(
                f"{self.ruleset.title} has no procedure {procedure!r}; known: "
                + ", ".join(self.ruleset.procedures)
            ) from None

    # -- the prepared action (issue 28) ----------------------------------------------------------

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
        """The procedure with these aircraft (``roles``), the values typed and the locked ones
        overridden, made ready as the form shows it and resolve uses it
        (``app.core.prepared``). With ``choose_target`` an attacker without a target (``None``)
        is given the first enemy in play; an empty string is the umpire's own what-if. With
        ``check`` the rules run up to their first die, so a refusal that needs no more typing
        is said now (``Prepared.refused``, issue 29), unless it reads a ``pending`` value (one
        the form shows but the umpire has not typed); a script's ``perform`` skips it (resolve
        says it). ``dice=False`` leaves the dice unworked (``Prepared.dice`` empty): for "can
        this line act?", never for a form or a resolve."""
        proc = self._procedure(procedure)
        e = self.engagement
        roles = dict(roles or {})
        said = list(notes)
        for ref in roles.values():
            if ref and ref not in e.aircraft:
                raise RuleViolation(f"{ref!r} is not an aircraft of this game")
        if choose_target and "target" in proc.Inputs.model_fields and roles.get("attacker"):
            if roles.get("target") is None:
                roles["target"] = first_enemy(e, roles["attacker"])
                if roles["target"]:
                    said.append(
                        f"Target: {e.aircraft[roles['target']].name}, the first enemy in play "
                        "(change it in Target)."
                    )
        roles = {r: (a or None) for r, a in roles.items()}
        board: dict[str, Any] = {}
        try:
            board = self.board_readings(roles)
        except (RuleViolation, ValueError) as err:
            said.append(f"Cannot read the board: {err}")
        prepared = call_guest(
            self.ruleset,
            f"prepare {proc.title}",
            prepare,
            proc,
            e,
            roles=roles,
            typed=typed,
            overridden=overridden,
            board=board,
            whole_game=procedure in (self.ruleset.initiative, self.ruleset.pass_initiative),
            notes=said,
            check=check,
            pending=pending,
            dice=dice,
            time_limit=TIME_LIMIT,  # the ruleset's prefill and choices run in it (issue 31)
        )
        read = [v for v in prepared.values if v.source == "board"]
        if read:
            told = ", ".join(f"{v.title}: {_said(v.value)}" for v in read)
            prepared = replace(prepared, notes=(*prepared.notes, f"From the board: {told}"))
        return prepared

    def prepare_line(
        self, procedure: str, who: str, other: str | None = None, *, dice: bool = True
    ) -> Prepared:
        """A "who acts now" line (``Ruleset.acting``: who, what, procedure, other aircraft)
        made ready: the line's aircraft in the procedure's ``line_role`` (the aircraft that
        owes a damage, critical, fire or ejection roll is the one it applies to), the other
        aircraft opposite; an attack that names no target opens on the first enemy in play."""
        proc = self._procedure(procedure)
        return self.prepare(procedure, line_roles(proc, self.engagement, who, other), dice=dice)

    def first_roles(self, procedure: str) -> dict[str, str | None]:
        """Aircraft for a procedure picked with none: the first in play whose cards it reads
        (a UFO's move is the UFO's, not a fighter's), as a line of its would place them."""
        proc = self._procedure(procedure)
        e = self.engagement
        for a in e.aircraft.values():
            if not a.in_play:
                continue
            roles = line_roles(proc, e, a.id, None)
            if not self.prepare(procedure, roles).cannot:
                return roles
        return {}

    def line_refusal(self, procedure: str, who: str, other: str | None = None) -> str:
        """Why this "who acts now" line cannot act as it stands (its cards cannot be read, or
        the rules refuse it before any die: no ammunition left, say), or "" when it can (issue
        29: a line that cannot act is not offered as if it could). Nothing is written.

        The ruleset's code runs guarded, with the time limit (issue 31), once for every line
        of the step: asked for one line, the answers for all the step's lines are worked out
        together and kept until the game changes (a desk asks for each line in turn)."""
        e = self.engagement
        if self._refusals is None or self._refusals[0] is not e:
            self._refusals = (e, {})
        known = self._refusals[1]
        line = (procedure, who, other)
        if line in known:
            return known[line]

        def every_line() -> dict[tuple[str, str, str | None], str]:
            todo = [line]
            try:
                for a in self.acting():
                    if len(a) >= 3 and a[2] in self.ruleset.procedures:
                        todo.append((a[2], a[0], (a[3] if len(a) > 3 else "") or None))
            except RuleViolation:
                pass  # said where who acts now is shown
            return {each: self._line_refusal(*each) for each in dict.fromkeys(todo)}

        try:
            said = call_guest(
                self.ruleset, "who acts now (can each line act)", every_line, time_limit=TIME_LIMIT
            )
        except GuestTimeout as err:
            said = {line: str(err)}  # opening the line would wait again: said on the line
        except (GuestError, ValidationError):
            said = {line: ""}  # a guest's bug is said when the line is opened
        known.update(said)
        return known[line]

    def _line_refusal(self, procedure: str, who: str, other: str | None) -> str:
        """``line_refusal`` for one line (in a guest call: the ruleset's code runs here)."""
        try:
            p = self.prepare_line(procedure, who, other, dice=False)  # asked before the dice
        except RuleViolation as e:
            return str(e)
        if p.cannot:
            return p.cannot
        if p.inputs is None and not p.refused:
            # a pick the umpire has still to make (the missile): the first offered stands in
            # for it, so a rule that refuses every pick is said now (no lock-on, say)
            pick = {
                v.name: p.choices[v.name][0][0]
                for v in p.values
                if v.source == "unset" and p.choices.get(v.name)
            }
            if pick:
                p = self.prepare(procedure, p.roles, pick, dice=False)
        # the rules run up to their first die as the line stands (``Prepared.refused``): a
        # refusal that needs nothing typed is said on the line (a missing cell is offered in
        # the form, a guest's bug said when the line is opened)
        return p.refused

    def next_die(self, prepared: Prepared, typed: Sequence[int]) -> DieToType | str | None:
        """The next die the rules roll once ``typed`` are the dice so far, or ``None`` when
        they need no more (issue 29: a roll that stops early, "up to 3 entry rolls", skips the
        dice it never rolls; one that goes on asks for its next die as soon as the last is
        typed); "" when it cannot be told (a refusal, dice that do not fit). Nothing is
        written."""
        if prepared.inputs is None or prepared.seq != self.engagement.seq:
            return ""
        proc = self._procedure(prepared.procedure)
        dice = TableDice(list(typed))
        inputs, engagement = prepared.inputs, self.engagement

        def wants_more() -> bool | None:
            """True: the rules want another die; None: refused or failed (said on resolve)."""
            try:
                proc.resolve(inputs, dice, engagement)
            except Exception:  # noqa: BLE001 - only a dry run: the refusal is said on resolve
                return True if dice.ran_out and dice.wanted is not None else None
            return False

        try:  # the ruleset's code, guarded with the time limit (issue 31)
            more = call_guest(
                self.ruleset, f"resolve {proc.title}", wants_more, time_limit=TIME_LIMIT
            )
        except RuleViolation:
            return ""
        if more is None:
            return ""
        if more:
            names = {a.id: a.name for a in self.engagement.aircraft.values()} | {
                r: self.engagement.aircraft[a].name
                for r, a in prepared.roles.items()
                if a and a in self.engagement.aircraft
            }
            return dice_of([dice.wanted], names)[0]
        return None

    def acting(self) -> list[tuple[str, ...]]:
        """The "who acts now" lines of the current step; a ruleset that fails here is named."""
        lines = call_guest(
            self.ruleset,
            "acting (who acts now)",
            self.ruleset.acting,
            self.engagement,
            time_limit=TIME_LIMIT,
            returns=acting_lines,
        )
        return [tuple(line) for line in lines]

    def odds(self, prepared: Prepared) -> dict[str, Fraction]:
        """The exact odds of the prepared action, in the game as it is (a what-if without
        aircraft): the same ``decide`` resolve runs, over every value of its dice. When they
        need a table cell the rules text does not print: ``UnknownOdds``, empty, naming it."""
        if prepared.inputs is None:
            raise RuleViolation(prepared.error or "the inputs are not complete")
        cached = self._last_odds
        if cached is not None and cached[0] is prepared:
            return dict(cached[1])
        proc = self._procedure(prepared.procedure)
        args = (prepared.inputs,) if prepared.is_what_if else (prepared.inputs, self.engagement)
        try:
            odds = call_guest(
                self.ruleset,
                f"odds of {proc.title}",
                proc.odds,
                *args,
                time_limit=TIME_LIMIT,
                returns=odds_table,
            )
        except MissingTableValue as e:  # named, not raised (issue 45): the desk offers it
            return UnknownOdds(e)
        self._last_odds = (prepared, dict(odds))  # resolve stores them with the event
        return odds

    def chain_odds(self, prepared: Prepared) -> ChainOdds:
        """The odds to the end of the chain of the prepared action (issue 34): the exact chance
        of its target destroyed, its pilot killed or ejected, a fire ..., within this action
        and the rolls it owes (``app.core.chain_odds``). Pure: safe off the GUI thread."""
        if prepared.inputs is None:
            raise RuleViolation(prepared.error or "the inputs are not complete")
        proc = self._procedure(prepared.procedure)
        return call_guest(
            self.ruleset,
            f"chain of {proc.title}",
            chain_odds,
            self.ruleset,
            self.engagement,
            prepared.procedure,
            prepared.inputs,
            time_limit=TIME_LIMIT,
            returns=ChainOdds,
        )

    def ruling(self, seq: int, undone: Collection[int] | None = None) -> Ruling:
        """The ruling of the action log entry ``seq`` belongs to (issue 34; ``KeyError``: no
        such entry). Read from the store a page of one event and one action at a time, unless
        the action's odds were logged before they were stored with it (then the whole log is
        replayed to work them out). ``undone``: the actions undone now, when the caller knows
        them (the desk's log index); otherwise the log says."""
        found = list(islice(self.store.iter_events(self.game_id, after=seq - 1, page=1), 1))
        if not found or found[0].seq != seq:
            raise KeyError(f"the log has no entry {seq}")
        at = found[0]
        action = at.event.action if isinstance(at.event, Reverted | Restored) else at.action
        mine = [e for e in self.store.action(self.game_id, action) if not e.is_meta]
        if not mine:
            raise KeyError(f"the log has no entry {action}")
        if needs_the_log(mine):
            return ruling_of(self.events(), seq, self.ruleset)
        gone = self.undone_actions() if undone is None else undone
        e = self.engagement
        names = {**e.removed, **{a.id: a.name for a in e.aircraft.values()}}
        return ruling_of_action(mine, self.ruleset, names=names, undone=action in gone)

    def _odds_to_store(self, prepared: Prepared) -> dict[str, Fraction] | None:
        """The odds to keep with the event (issue 34): those the desk showed for this very
        prepared action, else worked out now, on the game as it is before the roll."""
        if self._procedure(prepared.procedure).is_calculator:
            return None
        try:
            odds = self.odds(prepared)
        except Exception:  # noqa: BLE001 - odds that cannot be worked out are not stored
            return None
        return None if isinstance(odds, UnknownOdds) else odds

    def resolve(self, prepared: Prepared, dice: DiceSource | None = None) -> Resolution:
        """Resolve exactly the prepared action: its inputs, its roles, its overrides. One
        prepared on a game that changed since (another station or window acted first) is
        refused, naming what happened, and nothing is written."""
        if prepared.seq != self.engagement.seq:
            raise self._acted_first(prepared.seq)
        _ready(prepared)
        return self._resolve(self._procedure(prepared.procedure), lambda: prepared, dice)

    def _resolve(
        self, proc: Procedure, make: Callable[[], Prepared], dice: DiceSource | None
    ) -> Resolution:
        """``resolve`` of the action ``make`` prepares: the action made ready (a script's) and
        resolved in one guarded call (issue 44: one hand-over to a worker thread for both; the
        odds, whose failure or time-out records the action without them, keep their own)."""
        engagement = self.engagement
        before = self._owed(proc.id)

        def worked_out() -> tuple[Prepared, Resolution]:
            prepared = make()
            _ready(prepared)
            chosen = dice if dice is not None else SeededDice()
            return prepared, proc.resolve(prepared.inputs, chosen, engagement)

        try:
            prepared, res = call_guest(
                self.ruleset,
                f"resolve {proc.title}",
                worked_out,
                time_limit=TIME_LIMIT,
                returns=_resolution,
            )
        except Exception:
            # a game that another window or station changed meanwhile (an aircraft it
            # removed, say) is said as such, never as the ruleset's failure
            if self.store.events(self.game_id, after=engagement.seq):
                self.refresh()
                raise self._acted_first(engagement.seq) from None
            raise
        if self.engagement.seq != prepared.seq:  # taken in while the ruleset worked it out
            raise self._acted_first(prepared.seq)
        check_emitted(self.ruleset, proc, prepared.inputs, res, self.engagement)  # issue 46
        extra = getattr(dice, "unused", None)
        if isinstance(dice, TableDice) and extra:
            used = len(dice.values) - len(extra)
            raise RuleViolation(
                f"{proc.title} used {used} typed dice but {len(dice.values)} were typed "
                f"(unused: {', '.join(str(v) for v in extra)}); nothing was recorded: "
                "clear the extra values or check the order"
            )
        narrative = _named(self.engagement, prepared.inputs, proc.title, res.narrative)
        if prepared.overrides:
            narrative += (
                "; umpire's override: "
                + ", ".join(
                    f"{what} {card} -> {used}" for what, (card, used) in prepared.overrides.items()
                )
                + (f" (why: {prepared.reason})" if prepared.reason else "")
            )
        res = replace(
            res,
            narrative=narrative,
            events=stamped(res.events, prepared, self._odds_to_store(prepared)),
        )
        self._commit(res.events, res.narrative, proc.rule)
        return replace(res, follows=self._follows(res, proc.id, before))

    def _acted_first(self, seq: int) -> ConcurrentAppend:
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

    def _owed(self, procedure: str) -> list[tuple[str, ...]]:
        """The lines of this step that open a roll (to see what a result makes owed); the
        step's lines are asked once per game state (the lines after one resolve are the next
        one's lines before it, issue 44)."""
        kept, e = self._owed_lines, self.engagement
        if kept is not None and kept[0] is e:
            lines = kept[1]
        else:
            try:
                lines = self.acting()
            except RuleViolation:
                return []
            self._owed_lines = (e, lines)
        return [
            line
            for line in lines
            if len(line) >= 3 and line[2] in self.ruleset.procedures and line[2] != procedure
        ]

    def _follows(
        self, res: Resolution, procedure: str, before: Sequence[tuple[str, ...]]
    ) -> tuple[str, ...] | None:
        """The roll a result owes at once: one it names, else a line it made owed."""
        if res.follow_ups:
            pid, who = res.follow_ups[0]
            return (who, "", pid)
        known = set(before)
        return next((line for line in self._owed(procedure) if line not in known), None)

    def board_readings(self, inputs: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
        """What the ruleset's geometry reads off the pair these inputs name, when both are on
        the board (issue 18); empty otherwise."""
        get = (lambda f: getattr(inputs, f, None)) if isinstance(inputs, BaseModel) else inputs.get
        first, target = get("attacker") or get("aircraft"), get("target")
        if self.ruleset.geometry is None or not first or not target:
            return {}  # nothing for a geometry to read: no call into the ruleset (issue 44)
        relation = call_guest(
            self.ruleset,
            "geometry (board readings)",
            board_reading,
            self.ruleset.geometry,
            self.engagement,
            first,
            target,
            time_limit=TIME_LIMIT,
        )
        readings = getattr(relation, "readings", None) if relation is not None else {}
        if not isinstance(readings, Mapping):
            raise GuestError(
                ruleset_name(self.ruleset), "geometry (board readings)", "readings not a mapping"
            )
        return dict(readings)

    def add_aircraft(
        self, side: str, type_id: str, name: str, pilot: str | None = "average", **details: Any
    ) -> str:
        """Put an aircraft (or counted group) on the roster; returns its id."""
        shapes.aircraft_args(side, type_id, name, pilot, details)  # issue 31: wrong shapes
        refuse_control("the aircraft's name", name)  # issue 46: names are text
        refuse_control("the side", side)
        aircraft_id = self._new_id(name)
        ev = call_guest(
            self.ruleset,
            "new_aircraft (add an aircraft)",
            self.ruleset.new_aircraft,
            aircraft_id,
            name,
            side,
            type_id,
            pilot,
            details,
            time_limit=TIME_LIMIT,
            returns=AircraftAdded,
        )
        # the card's printed name, as the Roster shows it, never the catalogue id (issue 47)
        printed = ev.card.get("name") if isinstance(ev.card.get("name"), str) else None
        who = (
            f"{ev.name} ({printed or ev.type_id}"
            + (f", {ev.pilot} pilot" if ev.pilot else "")
            + ")"
        )
        self._commit([ev], f"{who} joins {ev.side}")
        return aircraft_id

    def _new_id(self, name: str) -> str:
        base = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "aircraft"
        n, candidate = 1, base
        while candidate in self.engagement.aircraft:
            n += 1
            candidate = f"{base}-{n}"
        return candidate

    def change_aircraft(
        self,
        aircraft_id: str,
        *,
        name: str | None = None,
        pilot: str | None = None,
        side: str | None = None,
        card: Mapping[str, Any] | None = None,
    ) -> None:
        """Rename, change pilot or side, or replace the card data of an aircraft. A counter the
        new card starts that the aircraft does not have yet (a UFO's anti-grav rating its
        card did not print, issue 43) starts with it, at the card's value."""
        a = self.engagement.get(aircraft_id)
        refuse_control("the aircraft's name", name)  # issue 46: names are text
        refuse_control("the side", side)
        name = name.strip() if name is not None else None
        if name is not None and not name.strip():
            raise RuleViolation(f"{a.name}: an aircraft needs a name")
        if side is not None and not side.strip():
            raise RuleViolation(f"{a.name}: an aircraft needs a side")
        if pilot is not None and self.ruleset.uses_pilot_quality:
            if pilot not in PILOT_QUALITIES:
                raise RuleViolation(
                    f"pilot quality {pilot!r} is not one of " + ", ".join(PILOT_QUALITIES)
                )
        started: dict[str, Fraction] = {}
        if card is not None:
            self.ruleset.Card.model_validate(dict(card))
            details = self.ruleset.Details.model_validate(dict(a.details))
            starts = call_guest(
                self.ruleset,
                "starting_ledgers (a card edited)",
                self.ruleset.starting_ledgers,
                dict(card),
                details,
                time_limit=TIME_LIMIT,
            )
            started = {k: Fraction(v) for k, v in starts.items() if k not in a.ledgers}
        ev = AircraftChanged(
            aircraft=aircraft_id,
            name=name,
            pilot=pilot,
            side=side,
            card=dict(card) if card is not None else None,
        )
        what = [
            f"renamed {name}" if name else "",
            f"pilot {pilot}" if pilot else "",
            f"to {side}" if side else "",
            "card edited" if card is not None else "",
            *(f"{k.replace('_', ' ')} {v} starts" for k, v in started.items()),
        ]
        starts_now = [
            LedgerAdded(aircraft=aircraft_id, ledger=k, value=v, reason="its edited card prints it")
            for k, v in started.items()
        ]
        self._commit([ev, *starts_now], f"{a.name}: " + ", ".join(w for w in what if w))

    def adjust_ledger(
        self, aircraft_id: str, ledger: str, delta: Fraction | int | str, reason: str
    ) -> None:
        """The umpire's own correction of a ledger (spend or refill), with the reason logged.

        The projection refuses a ledger below zero or above its maximum; a delta finer than
        the ledger's unit (half points of ammunition) is refused too.
        """
        a = self.engagement.get(aircraft_id)
        try:
            amount = Fraction(delta)
        except (ValueError, ZeroDivisionError):
            raise RuleViolation(f"{delta!r} is not an amount (whole number or fraction)") from None
        if amount == 0:
            raise RuleViolation("a ledger correction needs a non-zero amount")
        refuse_control("the reason", reason)  # issue 46
        if not reason.strip():
            raise RuleViolation("say why the ledger changes; the reason goes into the log")
        spec = self.ruleset.ledger_spec(ledger, a.card)
        if spec is not None and amount % spec.unit:
            raise RuleViolation(f"{spec.title} changes in steps of {spec.unit}")
        title = spec.title if spec is not None else ledger.replace("_", " ")
        verb = "spends" if amount < 0 else "regains"
        self._commit(
            [
                LedgerChanged(
                    aircraft=aircraft_id, ledger=ledger, delta=amount, reason=reason.strip()
                )
            ],
            f"{a.name} {verb} {abs(amount)} {title} (umpire: {reason.strip()})",
        )

    def save_copy(self, target: str | Path) -> str | Path:
        """Copy this game, log and all, to a new game file, or to a server (a URL); the open
        game stays open. A server game copies to a file the same way (issue 17)."""
        if not is_url(target) and self.store.path is not None:
            return self.store.save_copy(target)
        out = create_store(target)
        try:
            self.store.copy_game(self.game_id, out)
        except BaseException:
            out.close()
            if not is_url(target):
                Path(target).unlink(missing_ok=True)
            raise
        out.close()
        return target

    def remove_aircraft(self, aircraft_id: str) -> None:
        a = self.engagement.get(aircraft_id)
        self._commit([AircraftRemoved(aircraft=aircraft_id)], f"{a.name} removed from the roster")

    # -- turn and initiative ------------------------------------------------------------------

    def steps(self) -> list[Step]:
        """The steps of a turn as the ruleset gives them now (guarded: issue 31)."""
        return list(
            call_guest(
                self.ruleset,
                "steps (sequence of play)",
                self.ruleset.steps,
                self.engagement,
                time_limit=TIME_LIMIT,
                returns=steps_list,
            )
        )

    def next_step(self) -> None:
        """Advance the sequence of play one step (a new turn after the last step)."""
        e = self.engagement
        steps = self.steps()
        turn, step = (e.turn, e.step + 1) if e.step + 1 < len(steps) else (e.turn + 1, 0)
        self._set_clock(turn, step)

    def previous_step(self) -> None:
        """Go back one step (the umpire advanced too far)."""
        e = self.engagement
        if e.step > 0:
            self._set_clock(e.turn, e.step - 1)
        elif e.turn > 1:
            self._set_clock(e.turn - 1, len(self.steps()) - 1)
        else:
            raise RuleViolation("this is the first step of the first turn")

    def _set_clock(self, turn: int, step: int) -> None:
        e = self.engagement
        steps = self.steps()
        if not 0 <= step < len(steps):
            raise RuleViolation(f"{self.ruleset.title} has no step {step + 1} in a turn")
        events: list[Event] = [ClockSet(turn=turn, step=step)]
        events += call_guest(
            self.ruleset,
            "on_clock (what happens by itself)",
            self.ruleset.on_clock,
            e,
            turn,
            step,
            time_limit=TIME_LIMIT,
            returns=events_list,
        )
        self._commit(events, f"Turn {turn}: {steps[step].label}", steps[step].rule)

    def place(
        self,
        aircraft_id: str,
        x: float | None,
        y: float | None,
        facing: int = 0,
        altitude: int = 0,
    ) -> None:
        """Put an aircraft on the board (or take it off with ``x=y=None``); undoable.

        The ruleset's geometry checks the point and facing (a hex centre or side on a hex map).
        """
        a = self.engagement.get(aircraft_id)
        geometry = self.ruleset.geometry
        if x is not None and y is not None and geometry is not None:
            check = getattr(geometry, "check_position", None)
            if check is not None:

                def checked() -> None:
                    try:
                        check(x, y, facing)
                    except ValueError as e:  # the geometry's way of refusing a point
                        raise RuleViolation(f"{a.name}: {e}") from None

                call_guest(self.ruleset, "geometry (check a position)", checked)
        ev = PositionSet(aircraft=aircraft_id, x=x, y=y, facing=facing, altitude=altitude)
        where = (
            f"{a.name} off the board"
            if x is None or y is None
            else f"{a.name} at ({x:g}, {y:g}) facing {facing}, altitude {altitude}"
        )
        self._commit([ev], where)

    def mark_printed(self, aircraft_ids: Sequence[str], where: str = "") -> None:
        """Record that these aircraft's current cards went on paper (not undoable); ``where``:
        the file or printer and from what, said in the log and by the desk's Print cards."""
        revs = {a: self.engagement.get(a).revision for a in aircraft_ids}
        to = f", {where}" if where else ""
        self._commit(
            [CardsPrinted(revisions=revs, where=where)], f"Cards printed: {len(revs)} aircraft{to}"
        )

    def set_dice(self, side: str, dice: str, aircraft: str | None = None) -> None:
        """Dice at the table (issue 35): from now on the dice typed for ``side``'s rolls (with
        ``aircraft``, that aircraft's: a player's) are rolled with ``dice`` -- a physical die
        or a player, "the red d10s" or "Anna"; empty: no longer named. ``side`` "" names the
        dice of the rolls no aircraft makes (initiative, the umpire's what-ifs). Undoable; it
        changes nothing in the game, but the After-action panel checks typed dice per ``dice``."""
        shapes.text("side", side)
        shapes.text("dice", dice)
        shapes.text("aircraft", aircraft, optional=True)
        refuse_control("the side", side)  # issue 46: a tab is refused, not dropped
        refuse_control("the dice's name", dice)
        dice = " ".join(dice.split())
        if len(dice) > MAX_DICE_NAME:
            raise RuleViolation(
                f"dice: {len(dice)} characters; a die or player is named in at most "
                f"{MAX_DICE_NAME}. Nothing was recorded."
            )
        e = self.engagement
        if aircraft is not None:
            side, who = e.get(aircraft).side, e.get(aircraft).name
        elif side and side not in e.sides:
            known = ", ".join(e.sides) or "none yet"
            raise RuleViolation(f"no side {side!r} in this game (sides: {known})")
        else:
            who = side
        if not who:  # the rolls no aircraft makes
            said = f"rolls of no aircraft with {dice}" if dice else "rolls of no aircraft unnamed"
        else:
            said = f"{who} rolls {dice}" if dice else f"{who}'s dice no longer named"
        self._commit(
            [DiceSet(side=side, aircraft=aircraft, dice=dice)], f"Dice at the table: {said}"
        )

    # -- undo and redo ------------------------------------------------------------------------

    def _action_narrative(self, action: int) -> str:
        """An action's log line: remembered for the actions of this sitting, read from the
        store for older ones (the Edit menu asks after every action; issue 20)."""
        said = self._said.get(action)
        if said is None:
            envs = self.store.action(self.game_id, action)
            said = envs[0].narrative if envs else f"action {action}"
            self._said[action] = said
        return said

    def _whose(self, action: int) -> str:
        return f" ({ELSEWHERE})" if action in self._theirs else ""

    def elsewhere(self, envelopes: Sequence[Envelope]) -> bool:
        """Whether these envelopes are of an action another window or station appended."""
        return any(env.action in self._theirs for env in envelopes)

    @property
    def undo_elsewhere(self) -> bool:
        """Undo would undo an action another window or station made while this one was open."""
        t = self._timeline
        return t.can_undo and t.undo_stack[-1] in self._theirs

    @property
    def redo_elsewhere(self) -> bool:
        """Redo would redo an action another window or station made while this one was open."""
        t = self._timeline
        return t.can_redo and t.redo_stack[-1] in self._theirs

    @property
    def undo_text(self) -> str | None:
        """What Undo would undo, for the menu, saying so when it is an action another window
        or station made while this one was open; ``None`` when there is nothing."""
        t = self._timeline
        if not t.can_undo:
            return None
        action = t.undo_stack[-1]
        return self._action_narrative(action) + self._whose(action)

    @property
    def redo_text(self) -> str | None:
        t = self._timeline
        if not t.can_redo:
            return None
        action = t.redo_stack[-1]
        return self._action_narrative(action) + self._whose(action)

    def undo(self) -> str:
        """Undo the newest action that counts; returns its narrative."""
        t = self._timeline
        if not t.can_undo:
            raise RuleViolation("nothing to undo")
        action = t.undo_stack[-1]
        text = self._action_narrative(action)
        self._commit([Reverted(action=action)], f"Undone: {text}")
        return text + self._whose(action)

    def redo(self) -> str:
        """Redo the newest undone action; returns its narrative."""
        t = self._timeline
        if not t.can_redo:
            raise RuleViolation("nothing to redo")
        action = t.redo_stack[-1]
        text = self._action_narrative(action)
        self._commit([Restored(action=action)], f"Redone: {text}")
        return text + self._whose(action)

    def undone_actions(self) -> set[int]:
        """Actions that do not count now (undone), for striking through in logs."""
        return set(self._timeline.redo_stack) | undone_in(self.iter_events())


def _clock_seq(store: Store, game_id: str) -> int:
    """The sequence number of the clock step the game is in, read from the end of the log:
    for a snapshot written before the state named it, so the desk still reads only the current
    step's log for "who acts now" (issue 20). Going back, an action's newest undo or redo
    record says whether it counts; the first clock step that counts is the one in force."""
    counts: dict[int, bool] = {}
    for env in store.iter_events_newest_first(game_id):
        ev = env.event
        if isinstance(ev, Reverted | Restored):
            counts.setdefault(ev.action, isinstance(ev, Restored))
        elif isinstance(ev, ClockSet) and counts.get(env.action, True):
            return env.seq
    return 0


def _ready(prepared: Prepared) -> None:
    """Refuse a prepared action that cannot be resolved as it stands, saying why."""
    if prepared.disagrees:
        raise RuleViolation(prepared.disagrees)
    refuse_control("the override's reason", prepared.reason)  # issue 46: names are text
    if prepared.inputs is None:
        if prepared.invalid is not None:
            raise prepared.invalid
        if prepared.missing is not None:
            raise prepared.missing
        raise RuleViolation(prepared.error or "the inputs are not complete")


def _resolution(result: tuple[Prepared, Any]) -> tuple[Prepared, Resolution]:
    """A guest check (``call_guest``'s ``returns``) of ``_resolve``'s answer: its resolution."""
    if not isinstance(result[1], Resolution):
        raise TypeError(f"{type(result[1]).__name__}, not Resolution")
    return result


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


def _said(value: Any) -> str:
    """A value as the panel says it ("yes"/"no" for a flag)."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:300]


def _snapshot_on_open(store: Store, game_id: str, timeline: Timeline) -> None:
    """Store a snapshot of a long log that has none (written by another program or an older
    Airboss), so the next open reads only what follows it (issue 31). A store that cannot
    take it (read-only, another station's snapshot of the same event first) is left as is:
    the snapshot only saves time."""
    if store.read_only:
        return
    try:
        store.save_snapshot(game_id, timeline.state.seq, timeline.snapshot())
    except Exception:  # noqa: BLE001 - a role that may not write, a race: the game still opens
        pass


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's collector of reference cycles paused while a long log is replayed (issue 31):
    the replay makes no cycles (what it drops is freed as it goes), but each of its millions
    of short-lived objects counted towards a collection, whose passes over everything alive
    made a million-event replay a fifth slower than its events alone."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _checked_pages(
    target: str | Path,
    ruleset_id: str,
    ruleset: Ruleset,
    pages: Iterable[list[tuple[int, int, Event]]],
) -> Iterator[list[tuple[int, int, Event]]]:
    """``pages`` (``Store.read_checked``), each event checked as ``_check_log`` checks it."""
    for page in pages:
        for seq, _, event in page:
            if type(event) in _RULESET_CHECKED:
                _check_event(target, ruleset_id, ruleset, seq, event)
        yield page


#: the kinds of event ``_check_event`` can refuse
_RULESET_CHECKED = frozenset({GameCreated, ProcedureResolved})


def _check_log(
    target: str | Path, ruleset_id: str, ruleset: Ruleset, log: Iterable[Envelope | StoredEvent]
) -> None:
    """Refuse a log that belongs to another ruleset: its game_created names another one, or
    it records a procedure this ruleset does not have."""
    for env in log:
        _check_event(target, ruleset_id, ruleset, env.seq, env.event)


def _check_event(
    target: str | Path, ruleset_id: str, ruleset: Ruleset, seq: int, ev: Event
) -> None:
    """``_check_log`` of one event (``seq``)."""
    if isinstance(ev, GameCreated) and ev.ruleset != ruleset_id:
        raise StoreError(
            f"{target}: event seq {seq} says the log was created for ruleset {ev.ruleset!r} "
            f"but the game says {ruleset_id!r}; refused, the file was not changed"
        )
    if isinstance(ev, ProcedureResolved) and ev.procedure not in ruleset.procedures:
        raise StoreError(
            f"{target}: event seq {seq} records procedure {ev.procedure!r}, which "
            f"{ruleset.title} does not have; refused, the file was not changed"
        )


def _named(engagement: Engagement, inputs: Any, title: str, narrative: str) -> str:
    """A procedure's log line with who did it and to whom: "Olds 1 — Gun attack on Red 1: ...".
    A narrative that already starts with the aircraft's name is left as it is."""
    names = {
        f: engagement.aircraft[ref].name
        for f in ("attacker", "aircraft", "target")
        if isinstance(ref := getattr(inputs, f, None), str) and ref in engagement.aircraft
    }
    who = names.get("attacker") or names.get("aircraft")
    target = names.get("target")
    if who is None and target is None:
        return narrative
    if who is not None and narrative.startswith(who):
        return narrative
    head = f"{who} — {title}" if who else title
    return f"{head}{f' on {target}' if target else ''}: {narrative}"
