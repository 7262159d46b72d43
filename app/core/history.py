"""Undo and redo over an append-only log.

An *action* is the events one umpire action appended together; it is named by the sequence
number of its first event. Undo appends ``Reverted(action)`` for the newest action that counts,
redo appends ``Restored(action)`` for the newest one undone, and a new action after an undo
makes the undone ones final (they stay in the log, struck through). ``Timeline`` keeps the
current ``Engagement`` and, for the newest actions, the state before each, so an undo costs
nothing; an undo deeper than that replays the log.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Protocol

from pydantic import TypeAdapter

from app.core.engagement import Engagement, apply, apply_all
from app.core.errors import RuleViolation
from app.core.events import CardsPrinted, Envelope, Event, GameCreated, Restored, Reverted

NOT_UNDOABLE = (Reverted, Restored, CardsPrinted)

#: how many of the newest actions keep the state before them in memory
CACHED_UNDO_STATES = 256


class Logged(Protocol):
    """An event as the log holds it: an ``Envelope``, or a store's lighter ``StoredEvent``."""

    @property
    def seq(self) -> int: ...
    @property
    def action(self) -> int: ...
    @property
    def event(self) -> Event: ...


class Outlined(Protocol):
    """An event as the stacks need it: ``event`` may be left out (``None``) for every event
    that is not an undo, redo or print record."""

    @property
    def seq(self) -> int: ...
    @property
    def action(self) -> int: ...
    @property
    def event(self) -> Event | None: ...


def fold(
    state: Engagement, envelopes: Iterable[Logged], skipped: dict[int, str] | None = None
) -> Engagement:
    """Apply the domain events of ``envelopes`` in order (``apply_all``: no state built
    between them); with ``skipped``, one that cannot happen is left out and said there."""
    return apply_all(state, ((env.event, env.seq) for env in envelopes), skipped)


@dataclass
class Timeline:
    """The projection plus the undo and redo stacks, built incrementally or by replay.

    ``load_action(action)`` returns the envelopes of one stored action; ``load_all()`` the whole
    log. They are only called for an undo or redo that the in-memory cache cannot serve.
    """

    state: Engagement = field(default_factory=Engagement)
    undo_stack: list[int] = field(default_factory=list)
    redo_stack: list[int] = field(default_factory=list)
    printed: dict[str, int] = field(default_factory=dict)
    load_action: Callable[[int], Sequence[Envelope]] | None = None
    load_all: Callable[[], Iterable[Envelope]] | None = None
    #: the stored events left out because they cannot happen (seq -> why): written outside
    #: Airboss, or by a station that did not play by the rules (issue 46)
    skipped: dict[int, str] = field(default_factory=dict)
    _before: OrderedDict[int, Engagement] = field(default_factory=OrderedDict)

    @classmethod
    def replay(
        cls,
        envelopes: Iterable[Envelope],
        load_action: Callable[[int], Sequence[Envelope]] | None = None,
        load_all: Callable[[], Iterable[Envelope]] | None = None,
    ) -> Timeline:
        """Rebuild from the whole log: the same state as applying it step by step."""
        envs = list(envelopes)
        t = cls(load_action=load_action, load_all=load_all)
        t._stacks_from(envs)
        active = set(t.undo_stack)
        t.state = fold(Engagement(), (e for e in envs if _counts(e, active)), t.skipped)
        t.state = _with_seq(t.state, envs[-1].seq if envs else 0)
        return t

    @classmethod
    def replay_log(
        cls,
        first_pass: Iterable[Outlined],
        second_pass: Iterable[Sequence[tuple[int, int, Event]]],
        load_action: Callable[[int], Sequence[Envelope]] | None = None,
        load_all: Callable[[], Iterable[Envelope]] | None = None,
    ) -> Timeline:
        """``replay``, reading the log twice instead of holding it (issue 31: a long log with
        no snapshot): the undo and redo stacks from the first reading, then the state folded
        from the second. Each pass is the whole log, oldest first, read as the caller pages
        it; the first needs only the undo, redo and print records decoded (``Outlined``), the
        second gives each event as ``(seq, action, event)``, a page of them at a time, and
        is read to its end."""
        t = cls(load_action=load_action, load_all=load_all)
        last = t._stacks_from(first_pass)
        t.state = apply_all(Engagement(), _counting(second_pass, set(t.undo_stack)), t.skipped)
        t.state = _with_seq(t.state, last)
        return t

    def _stacks_from(self, envs: Iterable[Outlined]) -> int:
        """The stacks and print record from the log; returns the last sequence number."""
        self.undo_stack, self.redo_stack, self.printed = [], [], {}
        seen: set[int] = set()
        last = 0
        for env in envs:
            last = env.seq
            ev = env.event
            if ev is None:  # an outline's event of none of the kinds below (most of a log)
                if env.action not in seen:
                    seen.add(env.action)
                    self.undo_stack.append(env.action)
                    self.redo_stack.clear()
            elif isinstance(ev, Reverted):
                if self._took(self.undo_stack, ev.action, env.seq, "undoes"):
                    self.redo_stack.append(ev.action)
            elif isinstance(ev, Restored):
                if self._took(self.redo_stack, ev.action, env.seq, "redoes"):
                    self.undo_stack.append(ev.action)
            elif isinstance(ev, CardsPrinted):
                self.printed.update(ev.revisions)
            elif isinstance(ev, GameCreated):
                continue
            elif env.action not in seen:
                seen.add(env.action)
                self.undo_stack.append(env.action)
                self.redo_stack.clear()
        return last

    def _took(self, stack: list[int], action: int, seq: int, does: str) -> bool:
        """``_take`` of a stored undo or redo record; one naming an action that is not there
        to undo or redo is left out, and said (``skipped``)."""
        try:
            _take(stack, action)
        except ValueError:
            self.skipped[seq] = f"it {does} action {action}, which is not there to {does[:4]}"
            return False
        return True

    def take_in(self, envelopes: Sequence[Envelope]) -> None:
        """``append`` of an action stored by another station or program: one that cannot
        happen is left out and said (``skipped``), never a game that cannot be followed
        (issue 46)."""
        try:
            self.append(envelopes)
        except (RuleViolation, TypeError, ValueError, KeyError, ArithmeticError) as e:
            text = str(e).strip().splitlines()
            why = (text[0] if text else type(e).__name__)[:300]
            for env in envelopes:
                self.skipped[env.seq] = why
            self.state = _with_seq(self.state, envelopes[-1].seq)

    def check(self, envelopes: Sequence[Envelope]) -> Engagement:
        """The state these envelopes of one new action would give; raises if they cannot apply."""
        state = self.state
        for env in envelopes:
            if not _meta(env):
                state = apply(state, env.event, env.seq)
        return state

    def append(self, envelopes: Sequence[Envelope], checked: Engagement | None = None) -> None:
        """Take one stored action (or one undo, redo or print record) into the projection."""
        if not envelopes:
            return
        first = envelopes[0]
        ev = first.event
        if isinstance(ev, Reverted):
            self._revert(ev.action)
        elif isinstance(ev, Restored):
            self._restore(ev.action)
        elif isinstance(ev, CardsPrinted):
            self.printed.update(ev.revisions)
        elif isinstance(ev, GameCreated):
            self.state = checked if checked is not None else self.check(envelopes)
        else:
            before = self.state
            self.state = checked if checked is not None else self.check(envelopes)
            self.undo_stack.append(first.action)
            self.redo_stack.clear()
            self._before[first.action] = before
            while len(self._before) > CACHED_UNDO_STATES:
                self._before.popitem(last=False)
        self.state = _with_seq(self.state, envelopes[-1].seq)

    def _revert(self, action: int) -> None:
        if not self.undo_stack or self.undo_stack[-1] != action:
            raise RuleViolation(f"only the newest action can be undone, not action {action}")
        self.undo_stack.pop()
        self.redo_stack.append(action)
        before = self._before.pop(action, None)
        self.state = before if before is not None else self._rebuild()

    def _restore(self, action: int) -> None:
        if not self.redo_stack or self.redo_stack[-1] != action:
            raise RuleViolation(f"only the newest undone action can be redone, not action {action}")
        if self.load_action is None:
            raise RuntimeError("this timeline cannot load stored actions for a redo")
        self.redo_stack.pop()
        before = self.state
        events = (e for e in self.load_action(action) if not _meta(e))
        self.state = fold(before, events, self.skipped)
        self.undo_stack.append(action)
        self._before[action] = before

    def _rebuild(self) -> Engagement:
        if self.load_all is None:
            raise RuntimeError("this timeline cannot load the stored log for a deep undo")
        active = set(self.undo_stack)
        return fold(Engagement(), (e for e in self.load_all() if _counts(e, active)), self.skipped)

    def snapshot(self) -> bytes:
        """The state and stacks as JSON, for the store to keep every so many events."""
        return snapshot_adapter().dump_json(
            Snapshot(self.state, list(self.undo_stack), list(self.redo_stack), dict(self.printed))
        )

    @classmethod
    def from_snapshot(
        cls,
        data: bytes | str,
        tail: Iterable[Envelope],
        load_action: Callable[[int], Sequence[Envelope]] | None = None,
        load_all: Callable[[], Iterable[Envelope]] | None = None,
    ) -> Timeline:
        """Resume from a snapshot and the envelopes stored after it."""
        snap = snapshot_adapter().validate_json(data)
        t = cls(
            state=snap.state,
            undo_stack=snap.undo_stack,
            redo_stack=snap.redo_stack,
            printed=snap.printed,
            load_action=load_action,
            load_all=load_all,
        )
        actions: dict[int, list[Envelope]] = {}
        for env in tail:
            actions.setdefault(env.seq if _meta(env) else env.action, []).append(env)
        for envs in actions.values():
            t.take_in(envs)
        return t

    @property
    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)


@dataclass(frozen=True)
class Snapshot:
    """What a stored snapshot holds: enough to resume without replaying the log before it."""

    state: Engagement
    undo_stack: list[int]
    redo_stack: list[int]
    printed: dict[str, int]


@cache
def snapshot_adapter() -> TypeAdapter[Snapshot]:
    """The snapshot's JSON reader and writer, built at its first use: a game has no snapshot
    before its 500th event (``app.session.SNAPSHOT_EVERY``), and the build costs 4 ms at
    start-up (issue 20)."""
    return TypeAdapter(Snapshot)


def _take(stack: list[int], action: int) -> None:
    """Remove ``action`` from a stack: from its end, where an undo or redo finds it, without
    searching a long log's stack from the start (``ValueError`` if it is not there)."""
    if stack and stack[-1] == action:
        stack.pop()
    else:
        stack.remove(action)


def _meta(env: Logged) -> bool:
    return isinstance(env.event, NOT_UNDOABLE)


def _counts(env: Logged, active: set[int]) -> bool:
    """Whether an envelope's domain event is part of the current state."""
    return not _meta(env) and (env.action in active or isinstance(env.event, GameCreated))


#: the exact types of the records that steer the log (a validated event is of its own class)
_META_TYPES: frozenset[type] = frozenset(NOT_UNDOABLE)


def _counting(
    pages: Iterable[Sequence[tuple[int, int, Event]]], active: set[int]
) -> Iterator[tuple[Event, int]]:
    """``(event, seq)`` of each row whose domain event is part of the current state
    (``_counts``), every page read."""
    for page in pages:
        for seq, action, event in page:
            kind = type(event)
            if kind in _META_TYPES:
                continue
            if action in active or kind is GameCreated:
                yield event, seq


def _with_seq(state: Engagement, seq: int) -> Engagement:
    return state if state.seq == seq else replace(state, seq=seq)
