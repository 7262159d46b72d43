"""Air Power air-to-air rocket attacks (rule "Air-to-Air Rocket Combat")."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core.data import cell
from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import LedgerChanged
from app.core.procedure import Decision, Draft, Party, Procedure
from rulesets.airpower.attacks import (
    ATTACK_CARD_FIELDS,
    ORIGINAL,
    ROCKET_RULE,
    SSGT_SLOW_NONE,
    AttackInputs,
    FormationInput,
    as_terms,
    attacks_this_turn,
    check_attack_limits,
    check_common,
    check_formation,
    describe,
    modifier_terms,
    pending_hit,
    prefill_attack,
    record_attack,
)
from rulesets.airpower.card import Card
from rulesets.airpower.state import Ledger, State
from rulesets.airpower.tables import ROCKETS, RocketFactors, modifiers, rocket_table


class RocketInputs(AttackInputs):
    factors: RocketFactors = Field(
        Fraction(1),
        le=48,
        title="Rocket factors fired",
        description="in halves: a small rocket pod is half a factor",
    )
    in_limited_radar_arc: bool = Field(
        True, title="Target in the limited radar arc", description="the rockets' field of fire"
    )
    cc_attack: bool = Field(False, title="Collision-course (CC) rocket attack")
    cc_capable: bool = Field(False, title="ADC technology: CC rocket attacks")
    has_lock_on: bool = Field(False, title="Air-to-air lock-on to the target")
    lock_on_from_turn_start: bool = Field(
        False, title="Lock-on held since the start of the game turn (original wording)"
    )
    highest_turn: Literal["none", "TT", "HT", "BT", "ET"] = Field(
        "none", title="Highest turn rate used this move before the attack"
    )
    maneuvered: bool = Field(
        False, title="Prepared for or performed a maneuver other than a slide this move"
    )
    levels_climbed_or_dived: int = Field(
        0, ge=0, le=30, title="Altitude levels climbed or dived this move"
    )


class RocketAttack(FormationInput, Procedure):
    """Rule "Rocket Attack Procedure": the rocket table's hit die roll for the range (1-4) and
    factors fired; d10, modified as for guns without the snap shot modifier and with -2 for a CC
    rocket attack; a hit has the table's attack rating and -2 on the damage roll."""

    id = "rocket_attack"
    title = "Rocket attack"
    rule = ROCKET_RULE
    Inputs = RocketInputs

    @property
    def original(self) -> bool:
        return ORIGINAL in self.variants

    def check(self, inputs: RocketInputs) -> None:
        """Rules "Rocket Attacks", "Field of Fire", "Range", "Rocket Attack Restrictions"; in
        the original wording, Formation Restrictions."""
        check_formation(inputs.close_formation_wingman, self.variants, "rockets")
        if inputs.range == 0:
            raise RuleViolation("rocket attacks may not be carried out at range 0")
        if inputs.range > 4:
            raise RuleViolation(f"range {inputs.range}: rocket attacks reach 1 to 4 hexes")
        if not inputs.in_limited_radar_arc:
            raise RuleViolation(
                "the target is not in the limited radar arc (rockets' field of fire)"
            )
        check_common(inputs, "rockets", original_rockets=self.original)
        if inputs.last_fp in ("HT", "BT"):
            raise RuleViolation(
                f"no rockets immediately after an FP turned at the {inputs.last_fp} rate"
            )
        if inputs.cc_attack:
            self.check_cc(inputs)

    def check_cc(self, inputs: RocketInputs) -> None:
        """Rule "Collision-Course (CC) Rocket Attacks": a lock-on to the target, and no HT or
        greater turns, no maneuvers except slides, no climb or dive of more than one level from
        the start of its move up to the attack."""
        if not inputs.cc_capable:
            raise RuleViolation("the ADC's technology section does not list CC rocket attacks")
        if not inputs.has_lock_on:
            raise RuleViolation("a CC rocket attack needs an air-to-air lock-on to the target")
        if self.original and not inputs.lock_on_from_turn_start:
            raise RuleViolation(
                "CC rocket attack (original wording): the attacker must start the game turn "
                "with its lock-on to the target"
            )
        if inputs.highest_turn in ("HT", "BT", "ET"):
            raise RuleViolation(f"no CC rocket attack after an {inputs.highest_turn} turn")
        if inputs.maneuvered:
            raise RuleViolation("no CC rocket attack after a maneuver other than a slide")
        if inputs.levels_climbed_or_dived > 1:
            raise RuleViolation("no CC rocket attack after climbing or diving more than one level")

    def terms(self, inputs: RocketInputs) -> list[tuple[str, int]]:
        self.check(inputs)
        table = modifiers()
        terms = modifier_terms(
            inputs,
            table,
            self.rule,
            original_wording=self.original,
            ssgt_slow_none=SSGT_SLOW_NONE in self.variants,
        )
        if self.original:
            # before the 2B errata only target size, angle-off, gunsight, SSGT, radar ranging,
            # CCA and pilot quality applied
            terms = [
                t
                for t in terms
                if not t[0].startswith("attacker ") and t[0] != "same-location vertical attack"
            ]
        if inputs.cc_attack:
            terms.append(("CC rocket attack", table.cc_rocket))
        return terms

    def hit_and_rating(self, inputs: RocketInputs) -> tuple[int, int]:
        row = rocket_table().row(inputs.factors)
        where = f"{inputs.factors} factors"
        hit = cell(row.hit[inputs.range - 1], ROCKETS, f"{where}, range {inputs.range}", self.rule)
        rating = cell(row.attack_rating, ROCKETS, f"{where}, attack rating", self.rule)
        return hit, rating

    def label(self, rating: int) -> str:
        return f"hit: attack rating {rating}, damage roll {modifiers().rocket_damage_roll:+d}"

    card_fields = ATTACK_CARD_FIELDS | {"cc_capable"}

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out = prefill_attack(engagement, a, t)
        if a:
            out["cc_capable"] = a.card.cc_rockets
        return out

    def decide(self, inputs: RocketInputs, dice: DiceSource, draft: Draft) -> Decision:
        if inputs.attacker:
            check_attack_limits(attacks_this_turn(draft, inputs.attacker), "rocket", inputs.fp)
        terms = self.terms(inputs)
        total = sum(v for _, v in terms)
        hit, rating = self.hit_and_rating(inputs)
        if inputs.attacker:
            draft.emit(
                LedgerChanged(
                    aircraft=inputs.attacker,
                    ledger=Ledger.ROCKET_FACTORS,
                    delta=-inputs.factors,
                    reason=f"rocket attack ({self.rule})",
                ),
            )
            draft.emit(record_attack(draft, inputs.attacker, "rocket", inputs.fp, inputs.target))
        roll = dice.roll("d10", "rocket hit roll").total
        outcome = self.label(rating) if roll + total <= hit else "miss"
        if inputs.target and outcome != "miss":
            draft.emit(pending_hit(draft, inputs.target, rating, "rocket", self.rule))
        return Decision(
            outcome,
            f"{inputs.factors} rocket factor(s) at range {inputs.range}: d10 {roll} {total:+d} = "
            f"{roll + total} against {hit} ({describe(terms)}): {outcome} ({self.rule})",
            modifiers=as_terms(terms, modifiers().rule, "rocket hit roll"),
        )
