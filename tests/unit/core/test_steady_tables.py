"""Issue 48 ("Fast"): within one piece of work on one game (every line of a step asked "can it
act", a prepare, an odds walk) each table is looked up once (``app.core.data.steady_tables``):
its files are not looked at again for every line and every path. A value saved meanwhile is
seen, and a file changed by hand is seen by the next piece of work."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import app.core.data as data
from app.core.data import load_table, save_override, steady_tables
from app.core.dice import TableDice
from app.session import GameSession
from app.startup.demo import create_demo_game
from rulesets.phantoms.tables import TABLES_FILE, Tables


@pytest.fixture
def looked_at(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each table file's state on disk was looked at."""
    seen: Counter[str] = Counter()
    stamp = data._stamp

    def counted(path: str) -> tuple[int, int] | None:
        seen[path] += 1
        return stamp(path)

    monkeypatch.setattr(data, "_stamp", counted)
    return seen


def gun_step(tmp_path: Path) -> GameSession:
    """The Phantoms demo at its first step where every aircraft may fire its gun (rule 7.0)."""
    session = create_demo_game(tmp_path / "demo.airboss")
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    for _ in range(200):
        if sum(a.procedure == "gun_attack" for a in session.who_acts.acting()) >= 6:
            return session
        session.clock.next_step()
    raise AssertionError("no step of gun attacks in the demo's first turns")


def test_every_line_of_a_step_looks_at_each_table_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, looked_at: Counter[str]
) -> None:
    """Eight gun attacks asked "can it act" read the gun table and the firing positions for
    each line: each file is looked at once for them all, not four times a line."""
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(tmp_path / "data"))
    session = gun_step(tmp_path)
    lines = [a for a in session.who_acts.acting() if a.procedure == "gun_attack"]
    looked_at.clear()
    said = [session.refusals.line_refusal(a.procedure, a.who, a.other or None) for a in lines]
    assert said == ["" for _ in lines]  # every line can fire: each read its tables
    assert looked_at and max(looked_at.values()) == 1, looked_at


def test_an_odds_walk_looks_at_each_table_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, looked_at: Counter[str]
) -> None:
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(tmp_path / "data"))
    session = gun_step(tmp_path)
    line = next(a for a in session.who_acts.acting() if a.procedure == "gun_attack")
    prepared = session.actions.prepare_line(line.procedure, line.who, line.other)
    inputs = prepared.inputs
    if inputs is None:  # the firing position: the umpire reads it off the diagram (7.2)
        prepared = session.actions.prepare("gun_attack", prepared.roles, {"position_modifier": 0})
        inputs = prepared.inputs
    assert inputs is not None, prepared.error
    looked_at.clear()
    odds = session.ruleset.procedures["gun_attack"].odds(inputs, session.engagement)
    assert sum(odds.values()) == 1
    assert looked_at and max(looked_at.values()) == 1, looked_at


def test_a_value_saved_or_changed_by_hand_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saved within the work (the tables editor's ``save_override``): the next read in it has
    it. Changed by hand meanwhile: the next piece of work has it, not a table kept from the
    last one."""
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(tmp_path / "data"))
    row = list(load_table("phantoms", TABLES_FILE, Tables).break_off.text_turns)
    with steady_tables():
        assert load_table("phantoms", TABLES_FILE, Tables).break_off.text_turns == row
        saved = [row[0] + 1, *row[1:]]
        save_override("phantoms", TABLES_FILE.stem, {"break_off": {"text_turns": saved}})
        assert load_table("phantoms", TABLES_FILE, Tables).break_off.text_turns == saved
    by_hand = [row[0] + 2, *row[1:]]
    over = data.override_path("phantoms", TABLES_FILE.stem)
    over.write_text(f"[break_off]\ntext_turns = {by_hand}\n")
    with steady_tables():
        assert load_table("phantoms", TABLES_FILE, Tables).break_off.text_turns == by_hand
