"""Opening a game: a new one made, an existing one read and checked (its log replayed or
its snapshot trusted, issue 30/31/46), a server's games listed, and a game copied."""

from __future__ import annotations

import gc
import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.core import shapes
from app.core.errors import EmptyStore, RuleViolation
from app.core.events import (
    ClockSet,
    Envelope,
    Event,
    GameCreated,
    ProcedureResolved,
    Restored,
    Reverted,
)
from app.core.history import Timeline
from app.core.ruleset import Ruleset
from app.core.text import refuse_control, shown
from app.plugins import Loading, load_ruleset
from app.session import log as game_log
from app.session.clock import Clock
from app.session.log import GameLog
from app.store import (
    Store,
    StoredEvent,
    StoreError,
    bounds,
    create_store,
    is_url,
    open_store,
    snapshot_check,
)
from app.store.outline import outline

#: the columns of a server's overview (``overview_table``)
OVERVIEW_HEAD = ("id", "ruleset", "title", "turn", "in play", "last action", "watching")


def create(
    target: str | Path, ruleset: str, title: str, variants: Sequence[str], actor: str
) -> GameLog:
    """A new game in a new ``.airboss`` file (or on a server URL), its first event written."""
    shapes.create_args(target, ruleset, title, variants, actor)  # issue 31: wrong shapes
    refuse_control("the game's title", title)  # issue 46: before the file is made
    rs = load_ruleset(ruleset).bind(variants)
    store = create_store(target)
    game_id = uuid.uuid4().hex
    try:
        store.add_game(game_id, ruleset, title, list(variants))
        log = GameLog(store, game_id, rs, Timeline(), actor)
        log.append(
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
    return log


def open_log(target: str | Path, game: str | None, actor: str, read_only: bool) -> GameLog:
    """Reopen a game; ``StoreError`` (one line naming the file and the reason) for a file
    that is not a usable Airboss game. The whole log is read and checked before the file
    is opened for writing, so a refused file is never changed. A file (or folder) that
    cannot be written, or ``read_only=True``, opens read-only."""
    shapes.open_args(target, game, actor, read_only)  # issue 31: wrong shapes refused
    # the check of every page of a game file made meanwhile, in a thread (issue 44): asked
    # before the file is opened for writing, and first when anything failed
    store = open_store(target, read_only=read_only, check_beside=True)
    if is_url(target):
        target = store.where  # its password never in a message (issue 30)
    loading: Loading | None = None
    try:
        bounds.check_games(store, store.where)  # documented limits, before reading a row
        row = store.game(game)
        # a third-party ruleset's first import tried in a child meanwhile (issue 44)
        loading = Loading(row.ruleset)
        store.check_beside()  # after the fork: a process of one thread forks
        bounds.check_log(store, store.where, row.id)
        # a log changed outside Airboss is not replayed (issue 30); with no snapshot the
        # chain is checked as the log is read for its replay, once (issue 31)
        unchecked = store.check_log(row.id, whole=False)
        try:
            variants = json.loads(row.variants)
            if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
                raise StoreError(f"{target}: the game's variants are garbled ({row.variants!r})")
            try:
                rs = loading.ruleset().bind(variants)
            except KeyError as e:
                raise StoreError(f"{target}: needs a ruleset that is not installed: {e}") from None
            gid = row.id

            def load_action(action: int) -> Sequence[Envelope]:
                return store.action(gid, action)

            def load_all() -> Iterable[Envelope]:
                return store.events(gid)

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
                    timeline = Timeline.replay_log(
                        outline(store, gid), checked, load_action=load_action, load_all=load_all
                    )
                unchecked = False
                snapshot_check.against_replay(store, gid, doubted, timeline)
            else:
                seq, data = snap
                tail = store.events(gid, after=seq)
                _check_log(target, row.ruleset, rs, tail)
                timeline = Timeline.from_snapshot(
                    data, tail, load_action=load_action, load_all=load_all
                )
                if timeline.state.clock_seq == 0:
                    timeline.state = replace(timeline.state, clock_seq=_clock_seq(store, gid))
        except Exception:
            if unchecked:  # a log changed outside Airboss is said so, whatever broke
                store.check_chain(row.id)
            raise
        store.writable()
        if snap is None and doubted is None and timeline.state.seq >= game_log.SNAPSHOT_EVERY:
            _snapshot_on_open(store, gid, timeline)
    except Exception as e:
        damage = store.damage()  # a damaged file explains what else failed
        store.close()
        if damage is not None:
            raise damage from None
        if isinstance(e, StoreError):
            raise
        # a garbled log, payload or snapshot: refused, never a traceback
        raise StoreError(f"{target}: not a usable Airboss game ({_one_line(e)})") from None
    finally:
        if loading is not None:
            loading.stop()  # a first import not waited for (the game refused before)
    log = GameLog(store, row.id, rs, timeline, actor)
    log.history_checked = snap is None
    return log


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
            log = open_log(target, g.id, "umpire", read_only=True)
            try:
                e = log.engagement
                steps = Clock(log).steps()  # guarded: a broken ruleset is said on its row
                step = steps[e.step].label if 0 <= e.step < len(steps) else str(e.step)
                entry.update(
                    turn=f"Turn {e.turn}: {step}",
                    in_play=sum(1 for a in e.aircraft.values() if a.in_play),
                )
            finally:
                log.store.close()
        except (StoreError, RuleViolation) as err:
            entry.update(turn=f"cannot be read: {err}", in_play=None)
        out.append(entry)
    return out


def server_url(url: str, password: str = "") -> str:
    """A club server's URL as it may be shown and remembered, its password as ``***``;
    ``password`` (typed beside it) kept for this run and in the keyring (issue 30)."""
    from app.store import passwords

    if url and password:
        passwords.remember(url, password)
    return passwords.shown(url)


def ask_passwords_with(ask: Callable[[str], str | None] | None) -> None:
    """Who is asked for a server's password the keyring lacks: ``ask(shown_url)`` gives it or
    ``None`` (the desk's dialog, the terminal); ``None``: nobody (issue 30)."""
    from app.store import passwords

    passwords.ask = ask


def ask_trust_with(confirm: Callable[[str, int, str], bool] | None) -> None:
    """Who is asked whether to pin a server's certificate met for the first time:
    ``confirm(host, port, fingerprint)``; ``None``: nobody, the server refused (issue 30)."""
    from app.store import server_trust

    server_trust.confirm = confirm


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


def save_copy(log: GameLog, target: str | Path) -> str | Path:
    """Copy this game, log and all, to a new game file, or to a server (a URL); the open
    game stays open. A server game copies to a file the same way (issue 17)."""
    if not is_url(target) and log.store.path is not None:
        return log.store.save_copy(target)
    out = create_store(target)
    try:
        log.store.copy_game(log.game_id, out)
    except BaseException:
        out.close()
        if not is_url(target):
            Path(target).unlink(missing_ok=True)
        raise
    out.close()
    return target


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
