"""Issue 45: Phantoms' second Fire critical hit ejects at -3 (8.2, Critical Hit Table #8), and
the readings of 8.1 and the Critical Hit Table the text leaves open, each a variant: the chain
odds with each reading equal the enumeration from the text with that reading."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from app.core.chain_odds import chain_odds
from app.core.dice import TableDice
from app.core.engagement import Status, apply
from app.core.events import AttributesSet
from app.session import GameSession
from tests import chain_oracles as o


def _game(tmp_path: Path, variants: tuple[str, ...] = ()) -> tuple[GameSession, str, str]:
    s = GameSession.create(tmp_path / "p.airboss", "phantoms", "readings", variants=variants)
    olds = s.add_aircraft("USAF", "f4e", "Olds 1")
    red = s.add_aircraft("VPAF", "mig21", "Red 1", pilot="experienced")
    return s, olds, red


def test_8_2_a_second_fire_after_the_first_was_put_out_ejects_on_fire(tmp_path: Path) -> None:
    """Critical Hit Table #8: 'If second Fire critical hit, aircraft destroyed. -3 for eject.'
    and 8.2 '-3 if the aircraft was on fire': after a fire was put out, a second Fire critical
    hit destroys the aircraft and its ejection is at -3: d10 - 3 >= 3 is 5 faces of 10 (an
    ejection without the -3 would be 8 of 10)."""
    s, _, red = _game(tmp_path)
    e = s.engagement
    put_out = AttributesSet(aircraft=red, values={"fire_hits": 1, "criticals_due": 1})
    e = apply(e, put_out, e.seq)
    assert Status.ON_FIRE not in e.get(red).status
    crit = s.ruleset.procedures["critical_hit"]
    # the chain of the critical hit owed: 8 (1 in 10) destroys by fire, then 5 in 10 eject;
    # 9-10 Major Damage (2 in 10), then 6 in 10 (-2)
    chain = chain_odds(s.ruleset, e, "critical_hit", crit.parse({"aircraft": red}))
    assert chain.chances["ejected"] == Fraction(1, 10) * Fraction(1, 2) + Fraction(
        2, 10
    ) * Fraction(6, 10)
    # the ejection the desk prepares after that second Fire
    res = crit.resolve(crit.parse({"aircraft": red}), TableDice([8]), e)
    for ev in res.events:
        e = apply(e, ev, e.seq)
    assert {Status.DESTROYED} <= e.get(red).status and res.outcome == "destroyed by fire"
    ejection = s.ruleset.procedures["ejection"]
    inputs = ejection.parse({"aircraft": red, **ejection.prefill(e, red, None)})
    assert inputs.on_fire  # type: ignore[attr-defined]
    assert ejection.odds(inputs, e) == {"ejected": Fraction(1, 2), "pilot lost": Fraction(1, 2)}
    s.close()


READINGS = [
    "criticals_by_heading",
    "criticals_after_loss",
    "treat_as_10_no_eject_minus",
    "second_fire_only_while_burning",
]


@pytest.mark.parametrize("reading", READINGS)
def test_each_reading_of_the_critical_hits_is_a_variant_the_chain_follows(
    tmp_path: Path, reading: str
) -> None:
    s, olds, red = _game(tmp_path, (reading,))
    variant = next(v for v in s.ruleset.variants if v.id == reading)
    assert "'" in variant.help and variant.off and variant.on  # it quotes the text
    # a target that had a fire put out, two points short of its maximum, in a Hard Turn: every
    # reading changes something
    e = s.engagement
    t = e.get(red)
    for ev in (AttributesSet(aircraft=red, values={"fire_hits": 1}),):
        e = apply(e, ev, e.seq)
    from app.core.events import DamageTaken

    e = apply(e, DamageTaken(aircraft=red, points=(t.max_damage or 0) - 2), e.seq)
    p = s.actions.prepare("gun_attack", {"attacker": olds, "target": red}, {"position_modifier": 0})
    assert p.inputs is not None
    got = chain_odds(s.ruleset, e, "gun_attack", p.inputs)
    att, dfn = o.gun_totals(p.inputs)
    jet = o.Jet(speed=t.attributes["speed"], quality="experienced", fires=1)
    want = o.phantoms_attack(
        att, dfn, p.inputs.hits_by_difference, jet, e.get(red).damage,  # type: ignore[attr-defined]
        t.max_damage or 0, frozenset({reading}),
    )  # fmt: skip
    assert {k: v for k, v in got.chances.items() if v} == {k: v for k, v in want.items() if v}
    plain = o.phantoms_attack(
        att, dfn, p.inputs.hits_by_difference, jet, e.get(red).damage,  # type: ignore[attr-defined]
        t.max_damage or 0,
    )  # fmt: skip
    assert want != plain  # the reading is not the literal text's
    s.close()
