"""Air Power gun attacks (rule "Air-to-Air Gun Combat") and aborting a declared shot."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field, field_validator, model_validator

from app.core.dice import DiceSource, distribution
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, Event, LedgerChanged
from app.core.ruleset import Procedure, Resolution
from rulesets.airpower.common import (
    GUN_RULE,
    AttackInputs,
    attacks_this_turn,
    check_common,
    describe,
    modifier_terms,
    pending_hit,
    prefill_attack,
    record_attack,
)
from rulesets.airpower.geometry import AngleOff
from rulesets.airpower.tables import gun_pods, modifiers

ORIGINAL = "original_wording"


class GunInputs(AttackInputs):
    """A gun attack: the guns firing and everything that modifies the d10 hit roll."""

    hit_numbers: list[int] = Field(
        default_factory=lambda: [7, 5, 3],
        min_length=2,
        max_length=3,
        title="Internal gun: hit die roll at range 0, 1, 2",
        description="two numbers only: a one-hex gun",
    )
    attack_rating: int = Field(0, ge=0, le=30, title="Internal gun: attack rating")
    fire_internal: bool = Field(True, title="Internal gun fires")
    pods_firing: int = Field(0, ge=0, le=8, title="Gun pods firing")
    pod_hit_numbers: list[int] = Field(
        default_factory=list, max_length=3, title="Gun pod: hit die roll at range 0, 1, 2"
    )
    pod_attack_rating: int = Field(0, ge=0, le=30, title="Gun pod: attack rating")
    snap_shot: bool = Field(False, title="Snap shot")
    return_fire: bool = Field(
        False, title="Return fire to a head-on attack", description="sighting not required"
    )

    @field_validator("hit_numbers", "pod_hit_numbers")
    @classmethod
    def _hits(cls, v: list[int]) -> list[int]:
        for h in v:
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


def _guns(inputs: GunInputs) -> list[tuple[str, int, int]]:
    """(name, hit die roll at this range, attack rating) of each gun firing."""
    rng = inputs.range
    out = []
    if inputs.fire_internal:
        if rng >= len(inputs.hit_numbers):
            raise RuleViolation(
                f"range {rng} is beyond the internal gun's range of {len(inputs.hit_numbers) - 1}"
            )
        out.append(("internal gun", inputs.hit_numbers[rng], inputs.attack_rating))
    for i in range(inputs.pods_firing):
        if rng >= len(inputs.pod_hit_numbers):
            raise RuleViolation(
                f"range {rng} is beyond the gun pod's range of {len(inputs.pod_hit_numbers) - 1}"
            )
        out.append((f"gun pod {i + 1}", inputs.pod_hit_numbers[rng], inputs.pod_attack_rating))
    return out


def hit_label(rating: int) -> str:
    return f"hit: attack rating {rating}"


class GunAttack(Procedure):
    """Rule "Air-to-Air Gun Combat": d10, modified; a hit if at most the hit die roll of the ADC
    for range 0, 1 or 2. Multiple guns: one roll against each gun; the best attack rating of the
    guns that hit, +1 for each other gun that hits; a snap shot is +1 to the roll and -1 to the
    attack rating and costs half an ammunition point."""

    id = "gun_attack"
    title = "Gun attack"
    rule = GUN_RULE
    Inputs = GunInputs
    dice = (("d10", "gun hit roll"),)

    def check(self, inputs: GunInputs) -> None:
        """The gun attack requirements (rule "Gun Attack Requirements")."""
        if inputs.return_fire:
            if inputs.angle_off is not AngleOff.LINE_180:
                raise RuleViolation(
                    "return fire is only against a head-on attack (both on the 180 line)"
                )
            inputs = inputs.model_copy(update={"target_sighted": True})
        check_common(inputs, "guns")

    def terms(self, inputs: GunInputs) -> list[tuple[str, int]]:
        """Every hit-roll modifier (rule "Die Roll Modifiers"), as (what, value)."""
        self.check(inputs)
        table = modifiers()
        terms = modifier_terms(inputs, table, self.rule, original_wording=ORIGINAL in self.variants)
        if inputs.snap_shot:
            terms.insert(1, ("snap shot", table.snap_shot))
        return terms

    def outcome(self, inputs: GunInputs, roll: int, total: int) -> str:
        guns = _guns(inputs)
        hits = [rating for _, number, rating in guns if roll + total <= number]
        if not hits:
            return "miss"
        rating = max(hits) + len(hits) - 1 - (1 if inputs.snap_shot else 0)
        return hit_label(max(rating, 0))

    def odds(self, inputs: GunInputs) -> dict[str, Fraction]:
        total = sum(v for _, v in self.terms(inputs))
        out: dict[str, Fraction] = {}
        for roll, p in distribution("d10").items():
            label = self.outcome(inputs, roll, total)
            out[label] = out.get(label, Fraction(0)) + p
        return out

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        out = prefill_attack(engagement, attacker, target)
        if attacker:
            a = engagement.get(attacker)
            gun = a.card.get("gun")
            if gun:
                out.update(hit_numbers=gun["hit_numbers"], attack_rating=gun["attack_rating"])
            else:
                out["fire_internal"] = False
            pods = a.details.get("gun_pods") or []
            pod_type = a.details.get("gun_pod_type")
            pod = gun_pods().pods.get(pod_type) if pods and pod_type else None
            if pod is not None:
                out["pods_firing"] = len(pods)
                numbers = [h for h in pod.hit_numbers if isinstance(h, int)]
                if len(numbers) == len(pod.hit_numbers):
                    out["pod_hit_numbers"] = numbers
                if isinstance(pod.attack_rating, int):
                    out["pod_attack_rating"] = pod.attack_rating
        return out

    def resolve(
        self, inputs: GunInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        if inputs.attacker:
            check_attack_limits(attacks_this_turn(engagement, inputs.attacker), "gun", inputs.fp)
        terms = self.terms(inputs)
        total = sum(v for _, v in terms)
        guns = _guns(inputs)
        events: list[Event] = []
        if inputs.attacker:
            events += _spend_and_record(self, inputs, engagement, "gun")
        roll = dice.roll("d10", "gun hit roll")
        outcome = self.outcome(inputs, roll.total, total)
        if inputs.target and outcome != "miss":
            rating = int(outcome.rsplit(" ", 1)[1])
            values = pending_hit(engagement, inputs.target, rating, "gun", self.rule)
            events.append(AttributesSet(aircraft=inputs.target, values=values))
        shot = "snap shot" if inputs.snap_shot else "shot"
        numbers = ", ".join(f"{name} {n}" for name, n, _ in guns)
        narrative = (
            f"gun {shot} at range {inputs.range}, {inputs.angle_off}: d10 {roll.total} "
            f"{total:+d} = {roll.total + total} against {numbers} ({describe(terms)}): "
            f"{outcome} ({self.rule})"
        )
        return Resolution(
            (self.record(inputs, [roll], outcome), *events), narrative, outcome, (roll,)
        )


def _spend_and_record(
    proc: Procedure, inputs: GunInputs, engagement: Engagement | None, kind: str
) -> list[Event]:
    """Ammunition spent and the attack entered in the attacker's record for this turn."""
    assert inputs.attacker is not None
    earlier = attacks_this_turn(engagement, inputs.attacker)
    check_attack_limits(earlier, kind, inputs.fp)
    cost = Fraction(1, 2) if inputs.snap_shot else Fraction(1)
    events: list[Event] = []
    if inputs.fire_internal:
        events.append(
            LedgerChanged(
                aircraft=inputs.attacker,
                ledger="gun_ammunition",
                delta=-cost,
                reason=f"{'snap shot' if inputs.snap_shot else 'gun attack'} ({proc.rule})",
            )
        )
    if inputs.pods_firing:
        events.append(
            LedgerChanged(
                aircraft=inputs.attacker,
                ledger="pod_ammunition",
                delta=-cost * inputs.pods_firing,
                reason=f"{inputs.pods_firing} gun pod(s) ({proc.rule})",
            )
        )
    entry = {"kind": kind, "fp": inputs.fp, "target": inputs.target}
    events.append(
        AttributesSet(
            aircraft=inputs.attacker,
            values={"attacks": record_attack(engagement, inputs.attacker, entry)},
        )
    )
    return events


def check_attack_limits(earlier: list[dict[str, Any]], kind: str, fp: int | None) -> None:
    """Rule "Gun Attacks": one or two gun attacks per game turn, each after a different FP;
    rule "Rocket Attacks": one rocket attack per game turn, and not guns and rockets both."""
    kinds = [e.get("kind") for e in earlier]
    if kind in ("gun", "abort"):
        if "rocket" in kinds:
            raise RuleViolation("this aircraft fired rockets this turn: no gun attacks as well")
        if sum(1 for k in kinds if k in ("gun", "abort")) >= 2:
            raise RuleViolation("an aircraft may make at most two gun attacks per game turn")
    else:
        if any(k in ("gun", "abort") for k in kinds):
            raise RuleViolation("this aircraft fired guns this turn: no rocket attack as well")
        if "rocket" in kinds:
            raise RuleViolation("only one rocket attack is allowed per game turn")
    if fp is not None and any(e.get("fp") == fp for e in earlier):
        raise RuleViolation(f"an attack was already made after FP {fp}: each after a different FP")


class AbortInputs(GunInputs):
    pass


class AbortGunAttack(Procedure):
    """Rule "Aborting Gun Shots": a declared shot that cannot hit may be aborted; it saves the
    ammunition but uses one of the two shot opportunities of the game turn."""

    id = "gun_abort"
    title = "Abort a declared gun attack"
    rule = "Air Power, Air-to-Air Gun Combat: Aborting Gun Shots"
    Inputs = AbortInputs

    def odds(self, inputs: AbortInputs) -> dict[str, Fraction]:
        return {"miss": Fraction(1)}

    def resolve(
        self, inputs: AbortInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        events: list[Event] = [self.record(inputs, [], "miss")]
        if inputs.attacker:
            earlier = attacks_this_turn(engagement, inputs.attacker)
            check_attack_limits(earlier, "abort", inputs.fp)
            entry = {"kind": "abort", "fp": inputs.fp, "target": inputs.target}
            events.append(
                AttributesSet(
                    aircraft=inputs.attacker,
                    values={"attacks": record_attack(engagement, inputs.attacker, entry)},
                )
            )
        return Resolution(
            tuple(events),
            f"gun attack declared and aborted: no ammunition spent ({self.rule})",
            "miss",
        )
