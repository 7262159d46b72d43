"""Gunfire: the fire tables, entry rolls, hit codes and their effects (rules 1-15, 22-27)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field, model_validator

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import (
    AttributesSet,
    DamageTaken,
    Event,
    GameAttributesSet,
    LedgerChanged,
    StatusChanged,
)
from app.core.procedure import Decision, Draft, Party, Procedure
from app.core.reckoning import Term
from app.core.ruleset import ProcedureInputs

from . import advantage_state
from .advantage_state import AdvantageStatus
from .card import FIXED_GUNS, Card, GunKind
from .entry import EntryRoll, FireMode, entry_rolls
from .hits import HEMISPHERES, Hemisphere, Hit, c_multiplier, damage_effects, parse_hit_code
from .state import FireRecord, Ledger, State, game_of, state_of
from .tables import load_fire_tables

FRONT_CLOCK = frozenset({10, 11, 12, 1, 2})
REAR_CLOCK = frozenset({4, 5, 6, 7, 8})
MAX_FLEXIBLE_ROLLS_PER_TARGET = 3
#: rule 28: "'Medium' arcs altitude limits; 100 ft. above and below the Resulting Game-Turn
#: Altitude"
MEDIUM_ARC_FT = 100
#: variant ids: the readings of rules 26 and 12/15
BEAM_HITS_REAR = "beam_hits_rear"
FLEXIBLE_HD_ONE_ROLL = "flexible_high_deflection_one_roll"
FIRE_RECORD = "fire_record"
#: variant id: fixed guns whose fire is treated as "F" Gunnery Play take rules 14 and 22 as
#: flexible guns do
FIXED_F_GUNNERY_AS_FLEXIBLE = "fixed_f_gunnery_as_flexible"
#: the fire modes in which fixed-gun fire is treated as "F" Gunnery Play (rules 8, 11; V. Dive
#: rule 6)
F_GUNNERY_MODES = frozenset({"snapshot_front", "interlocking", "at_v_diver"})


class GunFireInputs(ProcedureInputs):
    total_gun_factors: int = Field(
        ge=1, le=200, title="Total gun factors", description="of the guns firing"
    )
    range_hexes: int = Field(
        ge=1, le=6, title="Range (hexes)", description="rules 1, 4: 300 ft of altitude = 1 hex"
    )
    gun_type: GunKind = Field("FF", title="Guns", description='fixed "FF", "FH", "FL" or "F"')
    silhouette_modifier: int = Field(
        0, ge=0, le=9, title="Target silhouette modifier", description='added for "FH" only'
    )
    target_clock: int | None = Field(
        None, ge=1, le=12, title="Attacker at target's o'clock", description="rules 6, 12, 23"
    )
    target_straight_ahead: bool = Field(
        False, title="Target directly ahead in a straight path of hexes", description="rule 2"
    )
    target_at_12_oclock: bool = Field(
        False, title="Target in the attacker's 12 o'clock", description="rule 2"
    )
    six_oclock_straight_path: bool = Field(
        False, title="Target in the firer's 6 o'clock straight path", description="rule 15"
    )
    advantage: AdvantageStatus = Field(
        "none", title="Advantage against this target", description="rules 2, 6, 7"
    )
    k14_sight: bool = Field(False, title="K-14 gyro sight", description="rule 12")
    flexible_rolls: int = Field(
        1, ge=1, le=3, title='"F" entry rolls', description="rule 15: the card's number"
    )
    attacker_inverted: bool = Field(False, title="Attacker inverted", description="rules 6, 13")
    in_turn_or_slip_hex: bool = Field(
        False, title="Firer in a Turn or Slip hex", description="rule 22"
    )
    altitude_difference_ft: int | None = Field(
        None,
        ge=-30000,
        le=30000,
        title="Target altitude minus attacker altitude (ft)",
        description="Resulting Game-Turn altitudes (rules 1, 5)",
    )
    fire_mode: FireMode = Field("normal", title="Fire", description="rules 8, 11; V. Dive rule 6")
    attacker_in_v_dive: bool = Field(
        False,
        title="Firer in a Vertical Dive",
        description='V. Dive rule 5: "FF" guns reach 1800 ft downward, in the V. Dive hex only',
    )
    combined_speed: int | None = Field(
        None, ge=0, le=80, title="Combined Speed Points", description="rule 11: 10+"
    )
    multi_engine_bomber_target: bool = Field(
        False, title="Target is a multi-engine bomber", description="rule 23"
    )
    hit_hemisphere: Hemisphere | None = Field(
        None, title="Target hemisphere fired on", description="rule 26; from the clock if empty"
    )
    medium_arc: bool = Field(
        False,
        title='Fire in a "Medium" arc',
        description="rule 28: 100 ft above and below the Resulting Altitude only",
    )

    @model_validator(mode="after")
    def _rules(self) -> GunFireInputs:
        fixed = self.gun_type in FIXED_GUNS
        if self.attacker_inverted and self.range_hexes > 2:
            raise ValueError("rule 13: an inverted attitude limits gun range to two hexes")
        if self.fire_mode == "from_v_dive" and self.range_hexes > 2:
            raise ValueError(
                "V. Dive rule 6: fire at a non-V. Diving aircraft has the inverted restriction "
                "of rule 13 (2 hexes, 600 ft)"
            )
        if (
            self.fire_mode == "interlocking"
            and self.combined_speed is not None
            and self.combined_speed < 10
        ):
            raise ValueError("rule 11: interlocking front hemispheres apply at 10+ Speed Points")
        if self.fire_mode in ("snapshot", "snapshot_front") and self.range_hexes != 1:
            raise ValueError("rule 8: Snapshot fire is always resolved at 1 hex range")
        d = self.altitude_difference_ft
        if self.attacker_in_v_dive and d is not None:
            # V. Dive rule 5: every "FF" gun's downward range becomes 1800 ft, downward only
            if d > 0:
                raise ValueError("V. Dive rule 5: in a Vertical Dive guns fire downward only")
            if d < -1800:
                raise ValueError("V. Dive rule 5: the vertical gun range is at most 1800 ft")
        elif self.gun_type == "FF" and d is not None:
            if d > 600:
                raise ValueError('rule 5: "FF" guns fire at most 600 ft upward (from below)')
            if d < -1200:
                raise ValueError('rule 5: "FF" guns fire at most 1200 ft downward (from above)')
        if self.medium_arc:
            if d is None:
                raise ValueError(
                    'rule 28: fire in a "Medium" arc needs the altitude difference (100 ft at most)'
                )
            if abs(d) > MEDIUM_ARC_FT:
                raise ValueError(
                    f'rule 28: "Medium" arcs reach {MEDIUM_ARC_FT} ft above and below the '
                    f"Resulting Altitude ({d:+} ft)"
                )
        if fixed and self.attacker_inverted and self.target_clock == 12:
            raise ValueError("rule 6: no fixed-gun fire from an inverted 12 o'clock attitude")
        if self.gun_type == "F" and self.in_turn_or_slip_hex:
            raise ValueError('rule 22: "F" guns may not fire while in a Turn or Slip hex')
        if fixed and self.fire_mode == "normal":
            need = aiming_requirement(self.advantage, self.target_clock)
            ok = self.target_straight_ahead or (
                self.target_at_12_oclock and (need == "12 o'clock" or self.silhouette_modifier >= 4)
            )
            if need != "none" and not ok:
                raise ValueError(
                    "rules 2, 6, 7: fixed guns need the target directly ahead in a straight "
                    "path of hexes"
                    + (
                        " or in the 12 o'clock"
                        if need == "12 o'clock"
                        else " (or in the 12 o'clock if its Silhouette Modifier is 4 or more)"
                    )
                )
        return self

    @property
    def effective_gun_factors(self) -> int:
        """Rule 14: the Silhouette Modifier is added to "FH" guns only."""
        return self.total_gun_factors + (self.silhouette_modifier if self.gun_type == "FH" else 0)

    @property
    def hemisphere(self) -> Hemisphere:
        if self.hit_hemisphere is not None:
            return self.hit_hemisphere
        return "rear" if self.target_clock in REAR_CLOCK else "front"

    def c_multiplier(self, as_flexible: bool = False) -> int:
        """Rules 22, 23; ``as_flexible``: fixed guns taking rule 22 as "F" guns do."""
        return c_multiplier(
            flexible_guns=self.gun_type == "F" or as_flexible,
            gun_factors=self.total_gun_factors,
            bomber_from_12_straight=self.multi_engine_bomber_target
            and self.target_clock == 12
            and self.target_straight_ahead,
        )


def aiming_requirement(advantage: AdvantageStatus, target_clock: int | None) -> str:
    """What fixed guns need (rules 2, 6, 7): "straight path", "12 o'clock" or "none".

    First Advantage requirements (straight path; the 12 o'clock if the target's Silhouette
    Modifier is 4 or more) hold on the First Advantage (rule 2), for a Disadvantaged aircraft
    (rule 7) and when facing the target's 12 o'clock (rule 6); on the Second Consecutive
    Advantage the 12 o'clock suffices (rule 2).
    """
    if target_clock == 12 or advantage in ("first", "disadvantaged"):
        return "straight path"
    if advantage == "second_consecutive":
        return "12 o'clock"
    return "none"


def available_factors(card: Card, state: State, fixed: bool) -> int:
    """The most gun factors the card's fixed, or flexible, guns can bring (rule 26 losses)."""
    if fixed:
        return sum(g.factors for g in card.guns if g.kind in FIXED_GUNS)
    loss = state.flexible_gun_loss
    return sum(max(card.flexible_factors(h) - loss.get(h, 0), 0) for h in HEMISPHERES)


def _record(engagement: Engagement) -> FireRecord:
    """Rule 14's fire record of this Game-Turn (a new one at each Game-Turn)."""
    record = game_of(engagement).fire_record
    if record is not None and record.turn == engagement.turn:
        return record
    return FireRecord(turn=engagement.turn)


class GunFire(Procedure):
    """Fire table (total gun factors x range -> column) and a d6 on the result table.

    Rules 1-15 decide whether and how fire is resolved, rules 22-27 what the hits do.
    """

    id = "gun_fire"
    title = "Gunfire"
    rule = "Advanced Air Force fire tables; rules 1-15, 22-27"
    Inputs = GunFireInputs
    spends = (Ledger.AMMUNITION,)

    def _entries(self, inputs: GunFireInputs) -> list[EntryRoll]:
        return entry_rolls(
            flexible=inputs.gun_type == "F",
            fire_mode=inputs.fire_mode,
            target_clock=inputs.target_clock,
            silhouette_modifier=inputs.silhouette_modifier,
            k14_sight=inputs.k14_sight,
            flexible_rolls=inputs.flexible_rolls,
            six_oclock_straight=inputs.six_oclock_straight_path,
            inverted=inputs.attacker_inverted,
            flexible_hd_one_roll=FLEXIBLE_HD_ONE_ROLL in self.variants,
        )

    def hemisphere(self, inputs: GunFireInputs) -> Hemisphere:
        """Rule 26: the target hemisphere fired on, as given or from the attacker's clock; from
        the 3 or 9 o'clock (the beam, in neither the front 10-2 nor the rear 4-8) it is the
        front, or the rear with the ``beam_hits_rear`` reading."""
        if inputs.hit_hemisphere is None and inputs.target_clock in (3, 9):
            return "rear" if BEAM_HITS_REAR in self.variants else "front"
        return inputs.hemisphere

    def fixed_as_flexible(self, inputs: GunFireInputs) -> bool:
        """Rules 8, 11 and V. Dive rule 6 "treat" fixed-gun fire "as 'F' Gunnery Play". Default:
        only the entry is the "F" one (a single roll): an "FH" gun keeps its Silhouette
        Modifier (rule 14) and C hits are not multiplied (rule 22 is about "F" guns). With the
        ``fixed_f_gunnery_as_flexible`` reading the fire is "F" gunfire for rules 14 and 22 as
        well: no Silhouette Modifier ("'F' Gun Factors do not use the Silhouette Modifier")
        and each C hit x2 (seven gun factors or less) or x3 (eight or more)."""
        return (
            FIXED_F_GUNNERY_AS_FLEXIBLE in self.variants
            and inputs.gun_type in FIXED_GUNS
            and inputs.fire_mode in F_GUNNERY_MODES
        )

    def gun_factors(self, inputs: GunFireInputs) -> int:
        """The factors read on the fire table (rule 14: + the Silhouette Modifier for "FH")."""
        if self.fixed_as_flexible(inputs):
            return inputs.total_gun_factors
        return inputs.effective_gun_factors

    def column(self, inputs: GunFireInputs) -> int:
        return load_fire_tables().fire_column(self.gun_factors(inputs), inputs.range_hexes)

    def arrange(self, odds: dict[str, Fraction]) -> dict[str, Fraction]:
        """The column's results in the order of the d6, no entry into fire ("miss") last."""
        return dict(sorted(odds.items(), key=lambda item: item[0] == "miss"))

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if a:
            out["k14_sight"] = a.card.k14_sight
            out["flexible_rolls"] = a.card.flexible_rolls
            fixed = [g for g in a.card.guns if g.kind in FIXED_GUNS and g.factors > 0]
            if fixed:
                out["gun_type"] = max(fixed, key=lambda g: g.factors).kind
                out["total_gun_factors"] = sum(g.factors for g in fixed)
            else:
                loss = a.state.flexible_gun_loss
                by = {h: a.card.flexible_factors(h) - loss.get(h, 0) for h in HEMISPHERES}
                out["gun_type"] = "F"
                out["total_gun_factors"] = max(max(by.values()), 1)
        if t:
            out["silhouette_modifier"] = t.card.silhouette_modifier
            out["multi_engine_bomber_target"] = t.card.multi_engine_bomber
        if a and t:
            out["advantage"] = advantage_state.status(engagement, a.id, t.id)
        return out

    @staticmethod
    def _recorded(
        record: FireRecord, inputs: GunFireInputs, rolls: int, entered: bool
    ) -> GameAttributesSet:
        """Rule 14's record of this fire: fixed fire per target, or "F" entry rolls per target
        and per firer (and the target and firer, when the fire entered)."""
        assert inputs.target is not None and inputs.attacker is not None
        t, a = inputs.target, inputs.attacker
        if inputs.gun_type in FIXED_GUNS:
            update: dict[str, Any] = {"fixed": [*record.fixed, t]}
        else:
            update = {
                "flexible_rolls": {
                    **record.flexible_rolls,
                    t: record.flexible_rolls.get(t, 0) + rolls,
                },
                "attacker_rolls": {
                    **record.attacker_rolls,
                    a: record.attacker_rolls.get(a, 0) + rolls,
                },
            }
            if entered:
                update["flexible"] = [*record.flexible, t]
                update["flexible_attackers"] = [*record.flexible_attackers, a]
        new = record.model_copy(update=update)
        return GameAttributesSet(values={FIRE_RECORD: new.model_dump()})

    def _check_state(
        self, inputs: GunFireInputs, engagement: Engagement, record: FireRecord
    ) -> None:
        """Rules 2, 14, 15 against the game state (advantages and this turn's fire record)."""
        attacker, target = inputs.attacker, inputs.target
        if attacker is None or target is None:
            return
        if attacker == target:
            raise RuleViolation("an aircraft cannot fire on itself")
        a, t = engagement.get(attacker), engagement.get(target)
        for x in (a, t):
            if not x.in_play:
                raise RuleViolation(f"{x.name} is out of play")
        actual = advantage_state.status(engagement, attacker, target)
        if actual != inputs.advantage:
            raise RuleViolation(
                f"{a.name} has advantage status {actual.replace('_', ' ')!r} against {t.name}, "
                f"not {inputs.advantage.replace('_', ' ')!r} (rules 2, 6, 7)"
            )
        a_card = a.typed(Card, "card")
        most = available_factors(a_card, state_of(a), inputs.gun_type in FIXED_GUNS)
        if inputs.total_gun_factors > most:
            kind = "fixed" if inputs.gun_type in FIXED_GUNS else '"F"'
            raise RuleViolation(
                f"{a.name} has {most} {kind} gun factors, not {inputs.total_gun_factors}"
                + ("" if inputs.gun_type in FIXED_GUNS else " (after G-hit losses, rule 26)")
            )
        if inputs.k14_sight and not a_card.k14_sight:
            raise RuleViolation(f"rule 12: {a.name} has no K-14 gyro sight")
        if inputs.gun_type == "F" and inputs.flexible_rolls > a_card.flexible_rolls:
            raise RuleViolation(
                f"rule 15: {a.name} may roll {a_card.flexible_rolls} time(s) per Game-Turn to "
                'enter "F" fire'
            )
        held = advantage_state.advantages(engagement).get(attacker)
        t_card = t.typed(Card, "card")
        if (
            held is not None
            and held.target != target
            and target in advantage_state.disadvantaged(engagement)
            and t_card.is_fighter
        ):
            raise RuleViolation(
                f"rule 2: {a.name} holds the Advantage over another aircraft and may not fire "
                f"at the Disadvantaged fighter {t.name}"
            )
        if inputs.gun_type in FIXED_GUNS:
            if target in record.fixed:
                raise RuleViolation(
                    f"rule 14: {t.name} has already been fired at by fixed guns this Game-Turn"
                )
        else:
            if target in record.flexible:
                raise RuleViolation(
                    f'rule 14: {t.name} has already been fired at by "F" guns this Game-Turn'
                )
            if attacker in record.flexible_attackers:
                raise RuleViolation(
                    f'rule 15: {a.name} has already entered "F" fire this Game-Turn'
                )
            wanted = max((e.tries for e in self._entries(inputs)), default=0)
            made = record.attacker_rolls.get(attacker, 0)
            if made + wanted > a_card.flexible_rolls:
                raise RuleViolation(
                    f"rule 15: {a.name} may roll {a_card.flexible_rolls} time(s) per Game-Turn to "
                    f'enter "F" fire ("no indication means one roll only"); {made} made this '
                    "Game-Turn"
                )
            left = MAX_FLEXIBLE_ROLLS_PER_TARGET - record.flexible_rolls.get(target, 0)
            if wanted > left:
                raise RuleViolation(
                    f'rule 15: at most three "F" entry rolls per target per Game-Turn; {left} '
                    f"left against {t.name} this Game-Turn"
                )

    def decide(self, inputs: GunFireInputs, dice: DiceSource, draft: Draft) -> Decision:
        """Rules 12, 15, 8, 11: the entry rolls in order (the first success of each counts; a
        failed High Deflection roll spends ammunition, rule 12); then a d6 on the column's
        result table, whose hits mark the target (rules 22-27). Rule 14's fire record counts
        fixed fire per target and "F" entry rolls per firer and target."""
        tables = load_fire_tables()
        col = tables.fire_column(self.gun_factors(inputs), inputs.range_hexes)
        as_flexible = self.fixed_as_flexible(inputs)
        engagement = draft.engagement
        record = _record(engagement)
        self._check_state(inputs, engagement, record)
        spent = False
        flexible_rolls_made = 0
        failed: str | None = None
        entered: list[str] = []
        entry_terms: list[Term] = []
        for entry in self._entries(inputs):
            why = f" ({entry.why})" if entry.why else ""
            entry_terms.append(
                Term(f"needs above{why}", entry.above, entry.rule, f"{entry.purpose}: above")
            )
            ok = False
            for _ in range(entry.tries):
                r = dice.roll("d6", entry.purpose)
                entered.append(f"{entry.purpose}: {r.total} (needs above {entry.above})")
                if entry.flexible and inputs.gun_type == "F":
                    flexible_rolls_made += 1
                if r.total > entry.above:
                    ok = True
                    break
            if not ok:
                failed = f"no entry into fire ({entry.rule})"
                if spent_on_miss := entry.spends_ammunition_on_miss:
                    failed += ", ammunition spent"
                spent = spent_on_miss
                break
        code: str | None = None
        fire_total = 0
        if failed is None:
            fire_total = dice.roll("d6", f"fire result, column {col}").total
            code = tables.result(col, fire_total)
            spent = True
        notes: list[str] = []
        factors = self.gun_factors(inputs)
        terms = [Term("Total Gun Factors", inputs.total_gun_factors, "fire table", "gun factors")]
        if inputs.gun_type == "FH" and inputs.silhouette_modifier:
            if as_flexible:
                notes.append('"F" Gunnery Play: no silhouette (rules 14, 22)')
            else:
                s = inputs.silhouette_modifier
                terms.append(Term("Silhouette Modifier (FH guns)", s, "rule 14", "gun factors"))
                notes.append(
                    f"+{s} silhouette (rule 14): {inputs.total_gun_factors}{s:+d} = {factors} "
                    "gun factors"
                )
        if inputs.attacker:
            a = draft.get(inputs.attacker)
            if spent and Ledger.AMMUNITION in a.ledgers:
                draft.emit(
                    LedgerChanged(
                        aircraft=a.id,
                        ledger=Ledger.AMMUNITION,
                        delta=Fraction(-1),
                        reason="rule 12",
                    )
                )
        if inputs.target and inputs.attacker:
            draft.emit(self._recorded(record, inputs, flexible_rolls_made, failed is None))
        if code is not None:
            hits = parse_hit_code(code)
            mult = inputs.c_multiplier(as_flexible)
            if "C" in hits and mult > 1:
                hits["C"] *= mult
                notes.append(f"each C hit x{mult} (rules 22, 23)")
            if inputs.target:
                draft.emit(
                    *_mark_hits(
                        draft.get(inputs.target),
                        hits,
                        self.hemisphere(inputs),
                        inputs.attacker,
                        self.variants,
                    )
                )
        narrative = (
            f"{inputs.total_gun_factors} {inputs.gun_type} gun factors at {inputs.range_hexes} "
            f"hex(es): column {col}; "
            + (", ".join(entered) + "; " if entered else "")
            + (failed if failed else f"rolled {fire_total}: {code}")
            + (f" ({'; '.join(notes)})" if notes else "")
        )
        return Decision(code or "miss", narrative, modifiers=(*terms, *entry_terms))


def _mark_hits(
    target: AircraftState,
    hits: dict[str, int],
    hemisphere: Hemisphere,
    source: str | None,
    variants: frozenset[str],
) -> list[Event]:
    """DamageTaken for the boxes, then the target's recomputed hit effects (rules 24-27)."""
    card = target.typed(Card, "card")
    boxes = dict(target.boxes)
    for k, n in hits.items():
        boxes[k] = boxes.get(k, 0) + n
    g_by = {h: state_of(target).g_hits.get(h, 0) for h in HEMISPHERES}
    if hits.get(Hit.G):
        g_by[hemisphere] += hits[Hit.G]
    effects = damage_effects(
        boxes=boxes,
        engine_rule=card.e_hit_rule,
        w_boxes=card.hit_boxes[Hit.W],
        heavy_bomber=card.role == "heavy_bomber",
        g_hits_by_hemisphere=g_by,
        variants=variants,
    )
    events: list[Event] = [DamageTaken(aircraft=target.id, boxes=hits, source=source)]
    events.append(
        AttributesSet(aircraft=target.id, values={**effects.as_attributes(), "g_hits": g_by})
    )
    if hits.get(Hit.E) and Status.ENGINE_DAMAGED not in target.status:
        events.append(StatusChanged(aircraft=target.id, set=(Status.ENGINE_DAMAGED,)))
    return events
