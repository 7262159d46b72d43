"""Issue 43: a UFO whose card prints no anti-grav rating can move.

UFO rules, Damage gives the Medium and Large UFOs their damage points only ("Medium UFO 15DP",
"Large UFO 20DP"); only the Small UFO's card prints "Anti Grav 7". Movement reads the rating
("It may not change direction if it moved further than its current anti-grav rating last
turn") and damage lowers it ("1 DP plus Anti Grav-1"; "Any UFO reduced to 0 Anti-Grav
crashes"). So the first move of such a UFO asks for the rating, as a table cell the text does
not print, and the value given starts its anti-grav counter; a card that gives it (the
umpire's catalogue card, or the game's card edited) starts it too.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from app.core.acting import ActingLine
from app.core.data import save_aircraft
from app.core.dice import TableDice
from app.core.engagement import Ledger
from app.core.events import LedgerAdded
from app.session import GameSession
from app.startup.summary import session_rows
from rulesets.ufo_interception.card import catalogue
from rulesets.ufo_interception.sequence import MISSILES, UFO_MOVES
from rulesets.ufo_interception.state import Ledger as UfoLedger

GRAV = UfoLedger.ANTI_GRAV


@pytest.fixture
def game(tmp_path: Path) -> Iterator[GameSession]:
    """A Tornado against a Medium UFO ("Mothership"), initiative rolled."""
    s = GameSession.create(tmp_path / "u.airboss", "ufo_interception", "Mothership")
    s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
    s.add_aircraft("Visitors", "medium_ufo", "Mothership")
    s.perform("initiative", {"planes": ["blue-1"], "reactions": [2]}, TableDice([3]))
    yield s
    s.close()


def to_step(s: GameSession, step: int) -> None:
    while s.engagement.step != step:
        s.clock.next_step()


def move_line(s: GameSession) -> ActingLine:
    to_step(s, UFO_MOVES)
    return next(line for line in s.who_acts.acting() if line.procedure == "ufo_move")


def test_the_medium_ufo_card_prints_no_anti_grav() -> None:
    """UFO rules, Damage: the text gives the Medium and Large UFOs their DP only."""
    cards = catalogue()
    assert cards["small_ufo"].anti_grav == 7
    assert cards["medium_ufo"].anti_grav == cards["large_ufo"].anti_grav == "missing"


def test_its_first_move_asks_for_the_rating_and_starts_the_counter(game: GameSession) -> None:
    """UFO rules, Movement and Damage (issue 43): the move line opens (it was refused as it
    stood: "Mothership has no anti grav"), says the card prints no rating and asks for it;
    the rating given starts the counter, which the next turn's move reads."""
    s = game
    assert GRAV not in s.engagement.aircraft["mothership"].ledgers
    line = move_line(s)
    who, what, proc = line.who, line.what, line.procedure
    assert "the Medium UFO card prints no anti-grav rating: give it" in what
    assert s.refusals.line_refusal(proc, who) == ""
    p = s.actions.prepare_line(proc, who)
    assert (p.cannot, p.refused) == ("", "")
    grav = p.value("anti_grav")
    assert (grav.source, grav.error) == ("unset", "needed")
    before = len(s.events())
    s.actions.resolve(s.actions.prepare(proc, p.roles, {"inches": 4, "anti_grav": 5}))
    assert s.engagement.aircraft["mothership"].ledgers[GRAV] == Ledger(Fraction(5), Fraction(5))
    added = [e.event for e in s.events()[before:] if isinstance(e.event, LedgerAdded)]
    assert [(e.aircraft, e.ledger, e.value) for e in added] == [("mothership", GRAV, 5)]
    # the next turn: read off the counter, locked; the line asks for nothing
    while s.engagement.turn == 1:
        s.clock.next_step()
    s.perform("initiative", {"planes": ["blue-1"], "reactions": [2]}, TableDice([3]))
    line = move_line(s)
    who, what, proc = line.who, line.what, line.procedure
    assert "anti-grav" not in what
    again = s.actions.prepare_line(proc, who).value("anti_grav")
    assert (again.value, again.source, again.locked) == (5, "card", True)


def test_damage_lowers_the_counter_given(game: GameSession) -> None:
    """UFO rules, Damage: "4 ... 1 DP plus Anti Grav-1" on the counter the umpire started."""
    s = game
    line = move_line(s)
    who, proc = line.who, line.procedure
    p = s.actions.prepare_line(proc, who)
    s.actions.resolve(s.actions.prepare(proc, p.roles, {"inches": 4, "anti_grav": 5}))
    s.perform("damage_roll", {"target": "mothership", "target_type": "ufo"}, TableDice([1, 3]))
    assert s.engagement.aircraft["mothership"].ledgers[GRAV].value == 4


def test_a_rating_filled_in_the_card_editor_is_read_at_the_first_move(
    game: GameSession,
) -> None:
    """Issue 43: the umpire fills the Medium UFO card's anti-grav rating (7) in the Card
    editor (the catalogue): the game's Medium UFO moves on it and the move starts its
    counter at 7 (a card edit to 7 did not create the counter)."""
    s = game
    card = catalogue()["medium_ufo"].model_copy(update={"anti_grav": 7})
    save_aircraft("ufo_interception", "medium_ufo", card)
    line = move_line(s)
    who, what, proc = line.who, line.what, line.procedure
    assert "anti-grav" not in what
    p = s.actions.prepare_line(proc, who)
    grav = p.value("anti_grav")
    assert (grav.value, grav.source) == (7, "card")
    s.actions.resolve(s.actions.prepare(proc, p.roles, {"inches": 3}))
    assert s.engagement.aircraft["mothership"].ledgers[GRAV].value == 7


def test_the_games_card_edited_starts_the_counter_at_once(game: GameSession) -> None:
    """Issue 43: the game's Mothership card edited to anti-grav 7 starts its counter at 7."""
    s = game
    card = dict(s.engagement.aircraft["mothership"].card, anti_grav=7)
    s.roster.change_aircraft("mothership", card=card)
    assert s.engagement.aircraft["mothership"].ledgers[GRAV] == Ledger(Fraction(7), Fraction(7))
    assert "anti grav 7 starts" in s.events()[-2].narrative  # the action, said once


def test_the_printed_card_says_where_the_rating_comes_from(game: GameSession) -> None:
    """The printed card never shows the word "missing" nor a made-up number."""
    s = game

    def shown() -> str:
        u = s.engagement.aircraft["mothership"]
        data = s.ruleset.card_spec(u, s.engagement).blocks[0]
        return dict(data.items)["Anti Grav"]

    assert shown() == "not printed: asked for at its first move"
    line = move_line(s)
    who, proc = line.who, line.procedure
    p = s.actions.prepare_line(proc, who)
    s.actions.resolve(s.actions.prepare(proc, p.roles, {"inches": 4, "anti_grav": 5}))
    assert shown() == "5 (not printed: given by the umpire)"


def test_a_ufo_with_no_ray_guns_printed_says_so_on_its_firing_line(game: GameSession) -> None:
    """UFO rules, Turn Order and Damage: the Medium UFO's card prints no ray guns, so it has
    no firing initiative; its Missile Firing line is there and says why it cannot fire (it was
    left out, unsaid)."""
    s = game
    to_step(s, MISSILES)
    rows = {r["who"]: r for r in session_rows(s)["turn"]["acting"]}
    line = rows["mothership"]
    assert line["procedure"] == "ray_gun"
    assert line["what"] == "fires its ray gun or recharges (no initiative: no ray guns known)"
    assert line["cannot"].startswith("the Medium UFO card prints no ray guns")


def test_a_fighter_is_never_asked_for_an_anti_grav_rating(game: GameSession) -> None:
    """UFO rules, Movement: a fighter has no anti-grav to give; the UFO's move is the UFO's
    (the Combat panel picking a procedure's first aircraft skips a fighter for it)."""
    s = game
    to_step(s, UFO_MOVES)
    assert "Blue 1 is not a UFO" in s.actions.prepare_line("ufo_move", "blue-1").cannot
    assert s.actions.first_roles("ufo_move") == {"aircraft": "mothership"}
