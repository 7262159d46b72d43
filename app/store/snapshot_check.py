"""A stored snapshot checked against a replay before it is trusted, and what opening a game
left out, said (issue 46).

Whoever can write a snapshot row (a club's station through the server's function, a game
file's holder) can make it say anything, and a game opened from it would show that as fact.
So ``GameSession.open`` uses a snapshot only when this computer trusts it
(``app.store.trusted_snapshots``); any other is doubted: the log is replayed from its first
event, and the snapshot, with the events after it, is compared with the replay. If they agree
it is trusted from then on; if not it is said (``problems``) and never used.
"""

from __future__ import annotations

from dataclasses import replace

from app.core.history import Timeline
from app.store import trusted_snapshots
from app.store.store import Store

Snapshot = tuple[int, bytes]


def doubted(
    store: Store, game_id: str, snap: Snapshot | None
) -> tuple[Snapshot | None, Snapshot | None]:
    """(the snapshot to check against a replay, the snapshot to open from): a trusted
    snapshot is opened from, any other is doubted."""
    if snap is None:
        return None, None
    seq, data = snap
    if trusted_snapshots.trusted(game_id, seq, store.hash_at(game_id, seq), data):
        return None, snap
    return snap, None


def against_replay(store: Store, game_id: str, snap: Snapshot | None, replay: Timeline) -> None:
    """Compare a doubted snapshot (and the events after it) with the replay of the whole log:
    trusted from now on if they agree, said by ``problems`` if not."""
    if snap is None:
        return
    seq, data = snap
    try:
        resumed = Timeline.from_snapshot(data, store.events(game_id, after=seq))
        state = resumed.state
        if state.clock_seq == 0:  # a snapshot older than the clock's seq (issue 36)
            state = replace(state, clock_seq=replay.state.clock_seq)
        agree = (
            state == replay.state
            and resumed.undo_stack == replay.undo_stack
            and resumed.redo_stack == replay.redo_stack
            and resumed.printed == replay.printed
        )
    except Exception:  # noqa: BLE001 - a snapshot that cannot even be read disagrees
        agree = False
    head = store.hash_at(game_id, seq)
    if agree and head is not None:
        trusted_snapshots.remember(game_id, seq, head, data)
    elif not agree:
        store.disagreeing_snapshot = seq


def problems(store: Store, timeline: Timeline) -> list[str]:
    """What opening or following the game left out, one sentence each, naming the seq."""
    out = []
    seq = store.disagreeing_snapshot
    if seq is not None:
        out.append(
            f"{store.where}: the snapshot of this game at event seq {seq} does not agree with "
            "its log (changed outside Airboss, or written by a station that did not play by "
            "the rules); it was not used: the game is the replay of its log."
        )
    left_out = {**store.undecodable, **timeline.skipped}
    for seq, why in sorted(left_out.items()):
        out.append(
            f"{store.where}: event seq {seq} was left out ({why}); it was written outside "
            "Airboss or by a station that did not play by the rules."
        )
    return out
