"""``LedgerAdded`` (issue 43): a counter an aircraft did not start with (a UFO card's anti-grav
rating the text does not print, given by the umpire) starts full at the value given; one it
already has, or a negative one, is refused. Its log line says where it came from."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.engagement import Engagement, Ledger
from app.core.errors import RuleViolation
from app.core.event_text import event_text
from app.core.events import EVENT_ADAPTER, AircraftAdded, GameCreated, LedgerAdded, LedgerChanged


def game() -> Engagement:
    e = Engagement().apply(GameCreated(ruleset="x", title="t"), 1)
    added = AircraftAdded(
        aircraft="u", name="Mothership", side="V", type_id="medium_ufo", ledgers={"speed": 6}
    )
    return e.apply(added, 2)


def test_a_counter_given_starts_full_and_is_spent_like_any_other() -> None:
    e = game().apply(LedgerAdded(aircraft="u", ledger="anti_grav", value=Fraction(5)), 3)
    assert e.aircraft["u"].ledgers["anti_grav"] == Ledger(Fraction(5), Fraction(5))
    e = e.apply(LedgerChanged(aircraft="u", ledger="anti_grav", delta=Fraction(-1)), 4)
    assert e.aircraft["u"].ledger("anti_grav") == 4


def test_a_counter_it_has_or_a_negative_one_is_refused() -> None:
    with pytest.raises(RuleViolation, match="Mothership already has its speed"):
        game().apply(LedgerAdded(aircraft="u", ledger="speed", value=Fraction(5)), 3)
    with pytest.raises(RuleViolation, match="cannot start below zero"):
        game().apply(LedgerAdded(aircraft="u", ledger="anti_grav", value=Fraction(-1)), 3)


def test_it_is_stored_and_said() -> None:
    ev = LedgerAdded(aircraft="u", ledger="anti_grav", value=Fraction(7), reason="given")
    assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(ev)) == ev
    assert event_text(ev, {"u": "Mothership"}) == "Mothership: anti_grav starts at 7 (given)"
