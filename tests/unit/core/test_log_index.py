"""The Qt-free log index: undone actions, turns, names and per-aircraft actions (issue 19)."""

from __future__ import annotations

from app.core.events import (
    AircraftAdded,
    ClockSet,
    DamageTaken,
    Envelope,
    ProcedureResolved,
    Restored,
    Reverted,
)
from app.core.log_index import LogReader, undone_in


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
    fed, toggled = reader.feed(LOG)
    assert [turn for _, turn in fed] == [1, 1, 1, 2, 1, 1, 1]  # the undone clock step leaves turn 2
    assert toggled == {2, 4}
    assert reader.names == {"a": "Olds 1"} and reader.sides == {"a": "Blue"}
    assert reader.rolls(2) == "d10=7 (typed)"
    assert reader.by_aircraft == {"a": [1, 2]}
