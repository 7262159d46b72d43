"""Issue 32: a ruleset's declarations are checked when it is loaded, each mistake named as
``ruleset: declaration: what is wrong`` -- one test per kind of mistake, on a small ruleset
that is right but for the one mistake."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from app import plugins
from app.core.contract import RulesetContractError, declaration_mistakes, ruleset_mistakes
from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.procedure import Calculator, Decision, Draft, Procedure
from app.core.ruleset import LedgerSpec, ProcedureInputs, Ruleset, Step, Variant


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    guns: int = 1
    ammunition: int = 4


class ShotInputs(ProcedureInputs):
    guns: int = Field(0, ge=0, le=5)
    range_hexes: int = Field(1, ge=1, le=3)


class Shot(Procedure):
    id, title, rule, Inputs = "shot", "Gun shot", "T1", ShotInputs
    card_fields = frozenset({"guns"})

    def decide(self, inputs: ShotInputs, dice: DiceSource, draft: Draft) -> Decision:
        hit = dice.roll("d6", "shot").total + inputs.guns > 4
        return Decision("hit" if hit else "miss", "shot (T1)")


class Range(Calculator):
    id, title, rule, Inputs = "range", "Range", "T2", ShotInputs

    def compute(self, inputs: ShotInputs, draft: Draft) -> Decision:
        return Decision("in range", "range (T2)")


class Good(Ruleset):
    id, title, Card = "good", "Good", Card
    procedure_types: tuple[type[Procedure], ...] = (Shot, Range)
    ledgers = (LedgerSpec("ammunition", "Ammunition", "ammunition"),)
    variant_list = (Variant("long_guns", "Long guns", "Guns reach further.", "T3"),)
    initiative = "shot"
    initiative_by = "side"

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        return (Step("Turn", "Turn", rule="T0"),)


def test_the_good_ruleset_has_no_mistake() -> None:
    assert declaration_mistakes(Good) == []
    assert ruleset_mistakes(Good()) == []


def _with(**attrs: Any) -> type[Ruleset]:
    return type("Bad", (Good,), {"id": "bad", **attrs})


def _proc(**attrs: Any) -> type[Procedure]:
    return type("BadShot", (Shot,), attrs)


class _NoDecide(Procedure):
    id, title, rule, Inputs = "nodecide", "No decide", "T9", ShotInputs


class _LooseInputs(BaseModel):
    guns: int = 0


class _OddInputs(ProcedureInputs):
    table: dict[str, int] = Field(default_factory=dict)


class _RequiredRef(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attacker: str


#: (the kind of mistake, the ruleset with it, what the message says)
MISTAKES: list[tuple[str, Callable[[], type[Ruleset]], str]] = [
    ("an empty title", lambda: _with(title=""), "bad: title: ''"),
    ("an id that is no id", lambda: _with(id="Bad Rules"), "id: 'Bad Rules'"),
    ("a Card that is no model", lambda: _with(Card=dict), "Card: <class 'dict'> is not a pydantic"),
    (
        "a procedure that is no Procedure",
        lambda: _with(procedure_types=(Shot, dict)),
        "procedure_types[1]: <class 'dict'> is not a Procedure subclass",
    ),
    (
        "a procedure without decide",
        lambda: _with(procedure_types=(Shot, _NoDecide)),
        "procedure 'nodecide': does not write decide",
    ),
    (
        "a procedure id that is no id",
        lambda: _with(procedure_types=(_proc(id="Gun Shot"),), initiative=None, initiative_by=None),
        "procedure 'Gun Shot': id: 'Gun Shot' is not an id",
    ),
    (
        "a procedure without its rule number",
        lambda: _with(procedure_types=(_proc(rule=""),)),
        "procedure 'shot': rule: missing or empty",
    ),
    (
        "two procedures with one id",
        lambda: _with(procedure_types=(Shot, _proc())),
        "procedure 'shot': id: used by both Shot and BadShot",
    ),
    (
        "dice declared beside decide",
        lambda: _with(procedure_types=(_proc(dice=(("d6", "shot"),)),)),
        "procedure 'shot': dice: declared, but the dice a procedure rolls are derived from decide",
    ),
    (
        "dice_needed overridden",
        lambda: _with(procedure_types=(_proc(dice_needed=lambda self, i, e=None: []),)),
        "procedure 'shot': dice_needed: overridden",
    ),
    (
        "Inputs that are no model",
        lambda: _with(procedure_types=(_proc(Inputs=dict),)),
        "procedure 'shot': Inputs: <class 'dict'> is not a pydantic model class",
    ),
    (
        "Inputs that let a misspelt input through",
        lambda: _with(procedure_types=(_proc(Inputs=_LooseInputs),)),
        "procedure 'shot': Inputs: a misspelt input would be ignored",
    ),
    (
        "an Inputs field the desk cannot show",
        lambda: _with(procedure_types=(_proc(Inputs=_OddInputs, card_fields=frozenset()),)),
        "procedure 'shot': Inputs.table: dict[str, int] is no type the desk can make a field for",
    ),
    (
        "an aircraft reference that is required",
        lambda: _with(procedure_types=(_proc(Inputs=_RequiredRef, card_fields=frozenset()),)),
        "procedure 'shot': Inputs.attacker: an aircraft reference is an optional id",
    ),
    (
        "a misspelt card_fields entry",
        lambda: _with(procedure_types=(_proc(card_fields=frozenset({"gun"})),)),
        "procedure 'shot': card_fields: 'gun' is not a field of its Inputs (did you mean 'guns'?)",
    ),
    (
        "a misspelt suggested entry",
        lambda: _with(procedure_types=(_proc(suggested=frozenset({"range"})),)),
        "procedure 'shot': suggested: 'range' is not a field of its Inputs",
    ),
    (
        "an input both locked and suggested",
        lambda: _with(procedure_types=(_proc(suggested=frozenset({"guns"})),)),
        "procedure 'shot': card_fields and suggested both name guns",
    ),
    (
        "a line_role that is no role",
        lambda: _with(procedure_types=(_proc(line_role="defender"),)),
        "procedure 'shot': line_role: 'defender' is neither",
    ),
    (
        "an initiative naming no procedure",
        lambda: _with(initiative="initiative"),
        "bad: initiative: 'initiative' names no procedure of procedure_types",
    ),
    (
        "an initiative ordering nothing",
        lambda: _with(initiative_by=None),
        "bad: initiative_by: None: an initiative orders a 'side' or each 'aircraft'",
    ),
    (
        "a marker passed by no procedure",
        lambda: _with(pass_initiative="pass"),
        "bad: pass_initiative: 'pass' names no procedure",
    ),
    (
        "a ledger reading no card field",
        lambda: _with(ledgers=(LedgerSpec("ammunition", "Ammunition", "amunition"),)),
        "bad: ledger 'ammunition': card_field: 'amunition' is not a field of the Card "
        "(did you mean 'ammunition'?)",
    ),
    (
        "a ledger declared twice",
        lambda: _with(ledgers=Good.ledgers * 2),
        "bad: ledger 'ammunition': id: declared twice",
    ),
    (
        "a ledger counted in no unit",
        lambda: _with(ledgers=(LedgerSpec("ammunition", "A", "ammunition", Fraction(0)),)),
        "bad: ledger 'ammunition': unit: Fraction(0, 1) is not a positive number",
    ),
    (
        "a variant declared twice",
        lambda: _with(variant_list=Good.variant_list * 2),
        "bad: variant 'long_guns': id: declared twice",
    ),
    (
        "a variant without help",
        lambda: _with(variant_list=(Variant("long_guns", "Long guns", ""),)),
        "bad: variant 'long_guns': title and help: both are needed",
    ),
    (
        "a panel the desk does not have",
        lambda: _with(panels=("initiative", "radar_scope")),
        "bad: panels: 'radar_scope' is no optional panel of the desk",
    ),
]


@pytest.mark.parametrize(("kind", "make", "said"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_each_kind_of_declaration_mistake_is_named_at_load(
    kind: str, make: Callable[[], type[Ruleset]], said: str
) -> None:
    cls = make()
    with pytest.raises(RulesetContractError) as caught:
        cls()
    assert any(said in m for m in caught.value.mistakes), caught.value.mistakes
    # every mistake names the ruleset first
    rid = getattr(cls, "id", "")
    assert all(m.startswith(f"{rid}: ") for m in caught.value.mistakes)


def _tables(tmp: Path) -> type[Ruleset]:
    shipped = tmp / "fire.toml"
    shipped.write_text("rule = 'T1'\n", encoding="utf-8")

    def table_files(self: Ruleset) -> Mapping[str, Path]:
        return {"Fire table": shipped, "Hit table": tmp / "hits.toml", "Notes": tmp / "n.txt"}

    def table_headings(self: Ruleset) -> Mapping[str, Mapping[str, Sequence[str]]]:
        return {"fire": {"rows": ("1",)}, "fires": {"rows": ("1",)}}

    return _with(table_files=table_files, table_headings=table_headings)


def test_tables_that_are_not_there_are_named(tmp_path: Path) -> None:
    said = ruleset_mistakes(_tables(tmp_path)())
    assert f"bad: table 'Hit table': {tmp_path / 'hits.toml'} does not exist" in said
    assert "bad: table 'Notes': n.txt is not a .toml file" in said
    assert "bad: table_headings: 'fires' is the stem of no file of table_files" in said
    assert len(said) == 3


def test_a_sequence_of_play_that_fails_or_is_empty_is_named() -> None:
    def broken(self: Ruleset, engagement: Engagement) -> Sequence[Step]:
        raise KeyError("turn")

    assert ruleset_mistakes(_with(steps=broken)()) == ["bad: steps: raised KeyError: 'turn'"]
    assert ruleset_mistakes(_with(steps=lambda self, e: ())()) == [
        "bad: steps: the sequence of play has no step"
    ]
    assert ruleset_mistakes(_with(steps=lambda self, e: ("Turn",))()) == [
        "bad: steps[0]: 'Turn' is not a Step"
    ]


def test_every_mistake_is_listed_not_only_the_first() -> None:
    cls = _with(
        initiative="initiative",
        procedure_types=(_proc(card_fields=frozenset({"gun"})),),
        ledgers=(LedgerSpec("ammunition", "Ammunition", "ammo"),),
    )
    with pytest.raises(RulesetContractError) as caught:
        cls()
    assert len(caught.value.mistakes) == 3
    assert "3 mistakes" in str(caught.value)


HOUSE = """
from pydantic import BaseModel, ConfigDict
from app.core.procedure import Decision, Procedure
from app.core.ruleset import ProcedureInputs, Ruleset


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    guns: int = 1


class Inputs(ProcedureInputs):
    guns: int = 1


class Shot(Procedure):
    id, title, rule, Inputs = "shot", "Shot", "H1", Inputs
    card_fields = frozenset({"gun_value"})

    def decide(self, inputs, dice, draft):
        return Decision("hit" if dice.roll("d6", "shot").total > 3 else "miss", "shot (H1)")


class House(Ruleset):
    id, title, Card, procedure_types = "house", "House rules", Card, (Shot,)
    initiative = "initative"
    initiative_by = "side"


RULESET = House()
"""


def test_an_installed_ruleset_with_mistakes_is_listed_broken_with_each_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the entry point, as a club's house ruleset is installed: listed as broken, each
    mistake named (the misspelt card field and the initiative naming no procedure)."""
    (tmp_path / "house_rules.py").write_text(textwrap.dedent(HOUSE), encoding="utf-8")
    info = tmp_path / "house_rules-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: house-rules\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[airboss.rulesets]\nhouse = house_rules:RULESET\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.forget()
    try:
        broken = plugins.broken_rulesets()
        assert "house" in broken
        said = broken["house"]
        assert (
            "house: procedure 'shot': card_fields: 'gun_value' is not a field of its Inputs" in said
        )
        assert "house: initiative: 'initative' names no procedure of procedure_types" in said
        assert "house" not in plugins.available_rulesets()
    finally:
        sys.modules.pop("house_rules", None)
        plugins.forget()
