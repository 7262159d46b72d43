"""Air Power gun attacks (rule "Air-to-Air Gun Combat") and aborting a declared shot."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field, field_validator, model_validator

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import LedgerChanged
from app.core.procedure import Calculator, Decision, Draft, Party, Procedure
from rulesets.airpower.arcs import AngleOff
from rulesets.airpower.attacks import (
    ATTACK_CARD_FIELDS,
    GUN_RULE,
    ORIGINAL,
    SSGT_SLOW_NONE,
    AttackInputs,
    FormationInput,
    as_terms,
    attacks_this_turn,
    check_attack_limits,
    check_common,
    check_formation,
    check_higher_lower,
    describe,
    modifier_terms,
    pending_hit,
    prefill_attack,
    record_attack,
)
from rulesets.airpower.card import Card, Details
from rulesets.airpower.state import Ledger, State
from rulesets.airpower.tables import gun_pods, modifiers


class GunInputs(AttackInputs):
    """A gun attack: the guns firing and everything that modifies the d10 hit roll."""

    hit_numbers: list[int] | None = Field(
        None,
        min_length=2,
        max_length=3,
        title="Internal gun: hit die roll at range 0, 1, 2",
        description="from the ADC (empty: the attacker's card); two numbers only: a one-hex gun",
    )
    attack_rating: int | None = Field(
        None,
        ge=0,
        le=30,
        title="Internal gun: attack rating",
        description="from the ADC (empty: the attacker's card)",
    )
    fire_internal: bool = Field(True, title="Internal gun fires")
    pods_firing: int = Field(0, ge=0, le=8, title="Gun pods firing")
    pod_hit_numbers: list[int] = Field(
        default_factory=list, max_length=3, title="Gun pod: hit die roll at range 0, 1, 2"
    )
    pod_attack_rating: int | None = Field(
        None,
        ge=0,
        le=30,
        title="Gun pod: attack rating",
        description="from the Gun Pod Weapons Table (empty: the attacker's pods)",
    )
    snap_shot: bool = Field(False, title="Snap shot")
    return_fire: bool = Field(
        False, title="Return fire to a head-on attack", description="sighting not required"
    )

    @field_validator("hit_numbers", "pod_hit_numbers")
    @classmethod
    def _hits(cls, v: list[int] | None) -> list[int] | None:
        for h in v or ():
            if not 0 <= h <= 10:
                raise ValueError(f"hit die roll {h} is not 0-10")
        return v

    @model_validator(mode="after")
    def _guns(self) -> GunInputs:
        if not self.fire_internal and not self.pods_firing:
            raise ValueError("no gun fires: fire the internal gun or at least one gun pod")
        if self.pods_firing and len(self.pod_hit_numbers) < 2:
            raise ValueError("gun pods firing need the pod's hit die rolls (two or three)")
        return self


def card_values_needed(inputs: GunInputs) -> list[str]:
    """The titles of the gun values the attack needs and was not given. A what-if (no attacker
    named) assumes none of them: the umpire types what the ADC prints (issue 33)."""
    fields = GunInputs.model_fields
    missing = []
    if inputs.fire_internal:
        missing += [n for n in ("hit_numbers", "attack_rating") if getattr(inputs, n) is None]
    if inputs.pods_firing and inputs.pod_attack_rating is None:
        missing.append("pod_attack_rating")
    return [fields[n].title or n for n in missing]


def _guns(inputs: GunInputs) -> list[tuple[str, int, int]]:
    """(name, hit die roll at this range, attack rating) of each gun firing."""
    needed = card_values_needed(inputs)
    if needed:
        raise RuleViolation(
            "give " + "; ".join(needed) + " (from the ADC): no aircraft named, nothing is assumed"
        )
    rng = inputs.range
    out = []
    if inputs.fire_internal:
        assert inputs.hit_numbers is not None and inputs.attack_rating is not None
        if rng >= len(inputs.hit_numbers):
            raise RuleViolation(
                f"range {rng} is beyond the internal gun's range of {len(inputs.hit_numbers) - 1}"
            )
        out.append(("internal gun", inputs.hit_numbers[rng], inputs.attack_rating))
    for i in range(inputs.pods_firing):
        assert inputs.pod_attack_rating is not None
        if rng >= len(inputs.pod_hit_numbers):
            raise RuleViolation(
                f"range {rng} is beyond the gun pod's range of {len(inputs.pod_hit_numbers) - 1}"
            )
        out.append((f"gun pod {i + 1}", inputs.pod_hit_numbers[rng], inputs.pod_attack_rating))
    return out


def check_return_fire_original(inputs: GunInputs) -> None:
    """Rule "Head On Gun Attacks", original wording (before the 2B errata): return fire needs
    only the two-shot limit (checked with the attack record), "the higher/lower target
    restrictions, and the ET turn rate prohibition"; with the 1B errata, an aircraft that
    performed an ET or a roll at the end of the previous game turn may not respond."""
    check_higher_lower(inputs, "guns")
    if inputs.last_fp == "ET" or inputs.recovering_from == "ET":
        raise RuleViolation(
            "no return fire (original wording): the ET turn rate prohibition applies"
        )
    if inputs.last_fp == "roll":
        raise RuleViolation(
            "no return fire (original wording, 1B errata): the aircraft performed a roll at the "
            "end of the previous game turn"
        )


def hit_label(rating: int) -> str:
    return f"hit: attack rating {rating}"


class GunAttack(FormationInput, Procedure):
    """Rule "Air-to-Air Gun Combat": d10, modified; a hit if at most the hit die roll of the ADC
    for range 0, 1 or 2. Multiple guns: one roll against each gun; the best attack rating of the
    guns that hit, +1 for each other gun that hits; a snap shot is +1 to the roll and -1 to the
    attack rating and costs half an ammunition point."""

    id = "gun_attack"
    title = "Gun attack"
    rule = GUN_RULE
    Inputs = GunInputs
    spends = (Ledger.GUN_AMMUNITION,)

    def check(self, inputs: GunInputs) -> None:
        """The gun attack requirements (rule "Gun Attack Requirements"); return fire to a
        head-on attack (rule "Head-On Gun Attacks") needs all of them but sighting. In the
        original wording a close-formation wingman does not fire (Formation Restrictions)."""
        check_formation(inputs.close_formation_wingman, self.variants, "guns")
        if inputs.return_fire:
            if inputs.angle_off is not AngleOff.LINE_180:
                raise RuleViolation(
                    "return fire is only against a head-on attack (both on the 180 line)"
                )
            if ORIGINAL in self.variants:
                check_return_fire_original(inputs)
                return
            inputs = inputs.model_copy(update={"target_sighted": True})
        check_common(inputs, "guns")

    def terms(self, inputs: GunInputs) -> list[tuple[str, int]]:
        """Every hit-roll modifier (rule "Die Roll Modifiers"), as (what, value)."""
        self.check(inputs)
        table = modifiers()
        terms = modifier_terms(
            inputs,
            table,
            self.rule,
            original_wording=ORIGINAL in self.variants,
            ssgt_slow_none=SSGT_SLOW_NONE in self.variants,
        )
        if inputs.snap_shot:
            terms.insert(1, ("snap shot", table.snap_shot))
        return terms

    def outcome(self, guns: list[tuple[str, int, int]], snap_shot: bool, roll: int) -> str:
        """Multiple Guns Firing: the best attack rating of the guns hit, +1 for each other gun
        that hits; a snap shot -1 ("a lower damage rating")."""
        hits = [rating for _, number, rating in guns if roll <= number]
        if not hits:
            return "miss"
        rating = max(hits) + len(hits) - 1 - (1 if snap_shot else 0)
        return hit_label(max(rating, 0))

    card_fields = ATTACK_CARD_FIELDS | {
        "hit_numbers",
        "attack_rating",
        "pod_hit_numbers",
        "pod_attack_rating",
    }

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out = prefill_attack(engagement, a, t)
        if a:
            gun = a.card.gun
            if gun:
                out.update(hit_numbers=gun.hit_numbers, attack_rating=gun.attack_rating)
            else:
                out["fire_internal"] = False
            details = a.aircraft.typed(Details, "details")
            pods = details.gun_pods
            pod_type = details.gun_pod_type
            pod = gun_pods().pods.get(pod_type) if pods and pod_type else None
            if pod is not None:
                out["pods_firing"] = len(pods)
                numbers = [h for h in pod.hit_numbers if isinstance(h, int)]
                if len(numbers) == len(pod.hit_numbers):
                    out["pod_hit_numbers"] = numbers
                if isinstance(pod.attack_rating, int):
                    out["pod_attack_rating"] = pod.attack_rating
        return out

    def with_card_values(self, inputs: GunInputs, engagement: Engagement) -> GunInputs:
        """With an attacker named, the gun values left empty are read off its ADC and pods."""
        if not inputs.attacker or not card_values_needed(inputs):
            return inputs
        card = self.prefill(engagement, inputs.attacker, None)
        names = ("hit_numbers", "attack_rating", "pod_hit_numbers", "pod_attack_rating")
        update = {n: v for n, v in card.items() if n in names and getattr(inputs, n) in (None, [])}
        return inputs.model_copy(update=update)

    def decide(self, inputs: GunInputs, dice: DiceSource, draft: Draft) -> Decision:
        inputs = self.with_card_values(inputs, draft.engagement)
        if inputs.attacker:
            check_attack_limits(attacks_this_turn(draft, inputs.attacker), "gun", inputs.fp)
        terms = self.terms(inputs)
        total = sum(v for _, v in terms)
        guns = _guns(inputs)
        if inputs.attacker:
            _spend_and_record(self, inputs, draft)
        roll = dice.roll("d10", "gun hit roll").total
        outcome = self.outcome(guns, inputs.snap_shot, roll + total)
        if inputs.target and outcome != "miss":
            rating = int(outcome.rsplit(" ", 1)[1])
            draft.emit(pending_hit(draft, inputs.target, rating, "gun", self.rule))
        shot = "snap shot" if inputs.snap_shot else "shot"
        numbers = ", ".join(f"{name} {n}" for name, n, _ in guns)
        return Decision(
            outcome,
            f"gun {shot} at range {inputs.range}, {inputs.angle_off}: d10 {roll} {total:+d} = "
            f"{roll + total} against {numbers} ({describe(terms)}): {outcome} ({self.rule})",
            modifiers=as_terms(terms, modifiers().rule, "gun hit roll"),
        )


def _spend_and_record(proc: GunAttack, inputs: GunInputs, draft: Draft) -> None:
    """Ammunition spent (rule "Ammunition": a shot one point, a snap shot half a point) and the
    attack entered in the attacker's record for this turn."""
    assert inputs.attacker is not None
    cost = Fraction(1, 2) if inputs.snap_shot else Fraction(1)
    if inputs.fire_internal:
        draft.emit(
            LedgerChanged(
                aircraft=inputs.attacker,
                ledger=Ledger.GUN_AMMUNITION,
                delta=-cost,
                reason=f"{'snap shot' if inputs.snap_shot else 'gun attack'} ({proc.rule})",
            )
        )
    if inputs.pods_firing:
        draft.emit(
            LedgerChanged(
                aircraft=inputs.attacker,
                ledger=Ledger.POD_AMMUNITION,
                delta=-cost * inputs.pods_firing,
                reason=f"{inputs.pods_firing} gun pod(s) ({proc.rule})",
            )
        )
    draft.emit(record_attack(draft, inputs.attacker, "gun", inputs.fp, inputs.target))


class AbortInputs(GunInputs):
    pass


class AbortGunAttack(Calculator):
    """Rule "Aborting Gun Shots": a declared shot that cannot hit may be aborted; it saves the
    ammunition but uses one of the two shot opportunities of the game turn."""

    id = "gun_abort"
    title = "Abort a declared gun attack"
    rule = "Air Power, Air-to-Air Gun Combat: Aborting Gun Shots"
    Inputs = AbortInputs

    def compute(self, inputs: AbortInputs, draft: Draft) -> Decision:
        if inputs.attacker:
            earlier = attacks_this_turn(draft, inputs.attacker)
            check_attack_limits(earlier, "abort", inputs.fp)
            draft.emit(record_attack(draft, inputs.attacker, "abort", inputs.fp, inputs.target))
        return Decision(
            "miss", f"gun attack declared and aborted: no ammunition spent ({self.rule})"
        )
