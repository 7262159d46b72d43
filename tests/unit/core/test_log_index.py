"""The Qt-free log index: undone actions, turns, names and per-aircraft actions (issue 19)."""

from __future__ import annotations

from fractions import Fraction

from app.core.events import (
    AircraftAdded,
    ClockSet,
    CriticalHit,
    DamageTaken,
    Envelope,
    LedgerChanged,
    LedgerLimitChanged,
    ProcedureResolved,
    Restored,
    Reverted,
)
from app.core.log_index import Hit, LedgerChange, LogReader, SlicedRead, undone_in


def env(seq: int, event, action: int | None = None) -> Envelope:
    return Envelope(game="g", seq=seq, action=action or seq, event=event)


LOG = [
    env(1, AircraftAdded(aircraft="a", name="Olds 1", side="Blue", type_id="f4")),
    env(
        2,
        ProcedureResolved(
            procedure="gun_attack",
            inputs={},
            outcome="1 hit",
            rolls=({"spec": "d10", "dice": [7], "typed": True},),
        ),
    ),
    env(3, DamageTaken(aircraft="a", points=1), action=2),
    env(4, ClockSet(turn=2, step=0)),
    env(5, Reverted(action=4)),
    env(6, Reverted(action=2)),
    env(7, Restored(action=2)),
]


def test_undone_actions_at_the_end_of_the_log():
    assert undone_in(LOG) == {4}


def test_turns_names_rolls_and_the_actions_that_touched_an_aircraft():
    reader = LogReader()
    toggled = reader.feed(LOG)
    # the undone clock step leaves turn 2
    assert [e.turn for e in reader.entries] == [1, 1, 1, 2, 1, 1, 1]
    assert toggled == {2, 4}
    assert reader.names == {"a": "Olds 1"} and reader.sides == {"a": "Blue"}
    assert reader.rolls(2) == "d10=7 (typed)"
    assert reader.by_aircraft == {"a": [1, 2]}


def test_the_log_is_kept_as_summaries_read_from_a_stream():
    """Issue 20: the reader takes the log a page at a time and keeps no envelope."""
    reader = LogReader()
    told = Envelope(
        game="g",
        seq=9,
        action=9,
        actor="Ann",
        rule="7.2",
        narrative="Turn 3",
        event=ClockSet(turn=3, step=0),
    )
    reader.feed(iter([*LOG, told]))
    assert not any(isinstance(v, Envelope) for v in vars(reader).values())
    last = reader.entries[-1]
    assert (last.seq, last.action, last.actor, last.rule, last.narrative) == (
        9,
        9,
        "Ann",
        "7.2",
        "Turn 3",
    )
    assert (last.turn, last.clock_turn, last.meta, last.when) == (3, 3, False, told.time)
    assert [e.meta for e in reader.entries] == [False] * 4 + [True] * 3 + [False]


def test_hits_and_ledger_histories_with_the_turn_and_the_names_of_their_time():
    """The rows of the critical-hit log and of the ledgers' history, kept as the log is read."""
    said = Envelope(
        game="g",
        seq=3,
        action=3,
        rule="7.3",
        narrative="Olds 1 hit",
        event=CriticalHit(aircraft="a", roll=4, result="fire", effect="1 damage a turn"),
    )
    reader = LogReader()
    reader.feed(
        [
            env(
                1,
                AircraftAdded(
                    aircraft="a",
                    name="Olds 1",
                    side="Blue",
                    type_id="f4",
                    ledgers={"gun": Fraction(4)},
                ),
            ),
            env(2, ClockSet(turn=2, step=0)),
            said,
            env(4, DamageTaken(aircraft="a", points=2, boxes={"engine": 1}, source="a"), action=3),
            env(5, LedgerChanged(aircraft="a", ledger="gun", delta=Fraction(-1, 2)), action=3),
            env(6, LedgerLimitChanged(aircraft="a", ledger="gun", maximum=Fraction(3))),
        ]
    )
    assert reader.hits == [
        Hit(3, 3, 2, "Blue", "a", "Olds 1", "4", "fire: 1 damage a turn", "7.3", "Olds 1 hit"),
        Hit(
            4, 3, 2, "Blue", "a", "Olds 1", "", "2 damage, engine +1 from Olds 1", "", "Olds 1 hit"
        ),
    ]
    assert reader.ledgers == {
        ("a", "gun"): [
            LedgerChange(1, 1, 1, "start", Fraction(4), "card"),
            LedgerChange(5, 3, 2, "delta", Fraction(-1, 2), "Olds 1 hit"),
            LedgerChange(6, 6, 2, "limit", Fraction(3), ""),
        ]
    }


class GrowingLog:
    """A stored log that may grow between two steps of a read, read in pages like a store's;
    it counts the looks at the store."""

    def __init__(self, envelopes: list[Envelope], page: int = 3) -> None:
        self.envelopes = list(envelopes)
        self.page = page
        self.looks = 0

    def pages(self, after: int):
        while True:
            self.looks += 1
            got = [e for e in self.envelopes if e.seq > after][: self.page]
            yield from got
            if len(got) < self.page:
                return
            after = got[-1].seq


class Ticks:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def long_log(n: int) -> list[Envelope]:
    return [env(1, AircraftAdded(aircraft="a", name="Olds 1", side="Blue", type_id="f4"))] + [
        env(seq, ClockSet(turn=seq, step=0)) for seq in range(2, n + 1)
    ]


def test_a_sliced_read_feeds_the_log_in_order_a_slice_at_a_time():
    store = GrowingLog(long_log(20))
    read = SlicedRead(LogReader(), store.pages, clock=Ticks(), check_every=4)
    read.step(budget=1.5)  # one look at the clock after the deadline: 4 events then 8
    assert [e.seq for e in read.reader.entries] == list(range(1, 9)) and not read.done
    read.step(budget=0.5, at_least=10)  # 12 events, the first look at the clock past 10
    assert read.seq == 20 and [e.seq for e in read.reader.entries] == list(range(1, 21))
    assert not read.done  # the end is not seen yet
    read.step(budget=0.5)
    assert read.done and read.reader.turn == 20 and len(read.reader.entries) == 20
    assert read.step(budget=10) == set()  # done: nothing more is read


def test_what_is_appended_during_a_sliced_read_is_read_once_with_undo_in_order():
    store = GrowingLog(long_log(10))
    read = SlicedRead(LogReader(), store.pages, clock=Ticks(), check_every=4)
    read.step(budget=0.5)
    assert read.seq == 4
    # between two slices: an undo of a step already read, and of one not read yet
    store.envelopes += [env(11, Reverted(action=3)), env(12, Reverted(action=7))]
    assert read.step(budget=100) == {3, 7}
    assert [e.seq for e in read.reader.entries] == list(range(1, 13))
    assert read.done and read.reader.undone == {3, 7} and read.reader.turn == 10


def test_a_sliced_read_is_done_only_after_a_current_look_at_the_store():
    """The source's last page was fetched in an earlier slice: events appended since must not
    be lost, so the store is asked again before the read calls itself done."""
    store = GrowingLog(long_log(6), page=100)  # one page holds the whole log
    read = SlicedRead(LogReader(), store.pages, clock=Ticks(), check_every=4)
    read.step(budget=0.5)
    assert read.seq == 4 and store.looks == 1 and not read.done
    store.envelopes.append(env(7, ClockSet(turn=7, step=0)))  # after the page was fetched
    read.step(budget=100)
    assert read.done and [e.seq for e in read.reader.entries] == list(range(1, 8))
    assert store.looks == 2


def test_finish_reads_the_rest_at_once():
    store = GrowingLog(long_log(50))
    read = SlicedRead(LogReader(), store.pages, clock=Ticks(), check_every=4)
    read.step(budget=0)
    assert not read.done
    read.finish()
    assert read.done and len(read.reader.entries) == 50
