"""Air-to-air combat (7.0): the firing restrictions every attack shares, and gun attacks (7.2)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pydantic import Field, field_validator

from app.core import hexgrid
from app.core.contest import opposed
from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, LedgerChanged
from app.core.procedure import Decision, Draft, Party, Procedure
from app.core.reckoning import Term, sides_total
from app.core.ruleset import PilotQuality, ProcedureInputs
from rulesets.phantoms.card import Card, card_of
from rulesets.phantoms.clock import now_impulse
from rulesets.phantoms.damage import damage_events, hits_label
from rulesets.phantoms.geometry import readings_of
from rulesets.phantoms.spotting import UnspottedInput, is_spotted, unspotted_modifier
from rulesets.phantoms.state import Ledger, State, in_play, maneuver_now, pilot_of, state_of
from rulesets.phantoms.tables import tables


def check_enemy(a: AircraftState, t: AircraftState, rule: str) -> None:
    """7.0: guns, missiles and radar lock-ons are aimed at the other side, never a friend."""
    if a.side == t.side:
        raise RuleViolation(f"{a.name} and {t.name} are on the same side ({rule})")


def check_can_fire(engagement: Engagement, a: AircraftState, kind: str) -> int | None:
    """7.0: out of control or just recovered may not fire; guns or missiles, not both."""
    in_play(a)
    if Status.OUT_OF_CONTROL in a.status:
        raise RuleViolation(f"{a.name} is out of control and may not fire (7.0)")
    now = now_impulse(engagement)
    if now is not None and state_of(a).recovered_at == now:
        raise RuleViolation(f"{a.name} has just recovered control and may not fire (7.0)")
    fired = state_of(a).fired
    if now is not None and fired is not None and fired.at == now:
        if kind == "gun" or fired.kind == "gun":
            raise RuleViolation(
                f"{a.name} has already fired {fired.kind} this impulse; "
                "guns or missiles, not both, and one gun target (7.0, 7.2)"
            )
    return now


def check_vertical(a: AircraftState, t: AircraftState, now: int | None, rule: str) -> None:
    """7.2, 7.1.2: an aircraft that climbed this impulse may not fire at lower targets, one
    that dove may not fire at higher ones."""
    if now is None:
        return
    alt_a, alt_t = state_of(a).altitude, state_of(t).altitude
    if state_of(a).climbed_at == now and alt_t < alt_a:
        raise RuleViolation(f"{a.name} climbed this impulse: no fire at lower aircraft ({rule})")
    if state_of(a).dove_at == now and alt_t > alt_a:
        raise RuleViolation(f"{a.name} dove this impulse: no fire at higher aircraft ({rule})")


def same_hex_on_board(a: AircraftState, t: AircraftState) -> dict[str, bool]:
    """7.2: whether the two stand in the same hex at the same altitude, and face the same way,
    read off their places on the board (nothing when either is not placed)."""
    pa, pt = a.position, t.position
    if pa is None or pt is None:
        return {}
    try:
        hexes = hexgrid.hex_distance((pa.x, pa.y), (pt.x, pt.y))
    except ValueError:
        return {}
    same = hexes == 0 and state_of(a).altitude == state_of(t).altitude
    return {
        "same_hex_same_altitude": same,
        "same_facing": same and hexgrid.normalize(pa.facing - pt.facing) == 0,
    }


def check_same_hex(
    inputs: GunInputs, a: AircraftState | None, t: AircraftState | None, now: int | None
) -> None:
    """7.2: "If in the same hex as the target at the same altitude, the firing aircraft must be
    facing the same direction as the target and be the last aircraft to enter the hex. If the
    aircraft entered the hex in the same impulse and are facing the same direction, only the
    slowest aircraft (after all adjustments for maneuvers and climb/dive) may fire."

    Every move enters a new hex (6.0), so an aircraft entered its hex in the impulse it last
    moved; the firer moved this impulse (7.0). "The slowest" names one aircraft: at equal
    speeds neither is slower, and neither may fire."""
    if not inputs.same_hex_same_altitude:
        return
    if not inputs.same_facing:
        raise RuleViolation(
            "in the same hex at the same altitude the firing aircraft must face the same way "
            "as the target (7.2)"
        )
    if a is None or t is None or now is None:
        return
    if state_of(t).moved_at == now:
        sa, st = state_of(a).speed, state_of(t).speed
        if not sa < st:
            raise RuleViolation(
                f"{a.name} (speed {sa}) and {t.name} (speed {st}) both entered the hex this "
                "impulse: only the slower aircraft may fire (7.2)"
            )


def fired_event(a: AircraftState, now: int | None, kind: str) -> AttributesSet:
    fired = state_of(a).fired
    count = fired.count + 1 if fired is not None and fired.at == now and now is not None else 1
    return AttributesSet(aircraft=a.id, values={"fired": {"at": now, "kind": kind, "count": count}})


def gun_modifiers(
    engagement: Engagement, a: AircraftState, t: AircraftState, variants: frozenset[str]
) -> int:
    """The Gun Firing Modifiers chart (7.2) the desk can read off the aircraft's state. A
    maneuver completed in this impulse's movement still counts (as for missiles, 7.1.3),
    unless the ``maneuver_ends_at_marker`` reading is chosen."""
    g = tables().gun
    m = g.wounded if Status.WOUNDED in a.status else 0
    if state_of(a).altitude != state_of(t).altitude:
        m += g.different_altitude
    if Status.OUT_OF_CONTROL in t.status:
        m += g.target_spinning
    if "maneuver_ends_at_marker" in variants:
        marker = state_of(a).maneuver
        kind = marker.kind if marker is not None else None
    else:
        kind = maneuver_now(engagement, a)
    if kind in ("hard_turn", "loop"):
        m += g.own_hard_turn_or_loop
    elif kind in ("turn", "slip"):
        m += g.own_turn_or_sideslip
    return m


# --- 7.2 Gun attacks --------------------------------------------------------------------------


class GunInputs(ProcedureInputs):
    attacker_gun_value: int = Field(title="Gun Attack Value", description="from the card")
    position_modifier: int = Field(
        ge=-9,
        le=9,
        title="Gun Firing Position Diagram",
        description="the number shown; it is subtracted (one digit: the diagram's numbers)",
    )
    attacker_pilot: PilotQuality = Field("average", title="Attacker pilot")
    target_defense: int = Field(title="Target Defense Factor")
    target_pilot: PilotQuality = Field("average", title="Target pilot")
    attacker_unspotted: bool = Field(False, title="Attacker not spotted (13.0, +4)")
    attacker_modifiers: int = Field(
        0,
        title="Other modifiers",
        description="different altitude -2, target spinning -2, own hard turn/loop -3, "
        "own turn/sideslip -1, wounded -1",
    )
    same_hex_same_altitude: bool = Field(
        False, title="Target in the same hex and altitude (7.2)", description="from the board"
    )
    same_facing: bool = Field(
        False,
        title="Facing the same way as the target",
        description="7.2: needed to fire in the same hex at the same altitude",
    )
    hits_by_difference: list[int] = Field(
        title="Gun Combat Information Chart",
        description="hits for a winning difference of 1, 2, ...; larger differences use the last",
    )

    @field_validator("hits_by_difference")
    @classmethod
    def _hits(cls, v: list[int]) -> list[int]:
        if not v:
            raise ValueError("the Gun Combat Information Chart needs at least one entry")
        if any(h < 0 for h in v):
            raise ValueError("hits cannot be negative")
        return v


class GunAttack(UnspottedInput, Procedure):
    """7.2 Gun attack: d10 + gun value - position + pilot (+4 unspotted) against
    d10 + defense + pilot; the winning difference is read on the Gun Combat Information Chart."""

    unspotted_field = "attacker_unspotted"

    id = "gun_attack"
    title = "Gun attack"
    rule = "7.2"
    Inputs = GunInputs
    spends = (Ledger.GUN,)

    def terms(self, i: GunInputs) -> list[Term]:
        """7.2: every term of each side's total, with its sign -- the attacker's Gun Attack
        Value, minus the Gun Firing Position Diagram's number, its pilot (+4 Ace, +2
        Experienced, -2 Green), +4 not spotted (13.0), the other Gun Firing Modifiers; the
        target's Defense Factor and pilot (+2 Ace, +1 Experienced)."""
        t = tables()
        a, d = "gun attack: attacker", "gun attack: target"
        out = [
            Term("Gun Attack Value", i.attacker_gun_value, "7.2", a),
            Term("Gun Firing Position Diagram", -i.position_modifier, "7.2", a),
        ]
        pilot = t.pilot.gun_attack[i.attacker_pilot]
        if pilot:
            out.append(Term(f"{i.attacker_pilot.capitalize()} pilot", pilot, "7.2", a))
        unspotted = unspotted_modifier(i.attacker_unspotted, self.variants, t.gun.unspotted)
        if unspotted:
            out.append(Term("not spotted", unspotted, "13.0", a))
        if i.attacker_modifiers:
            out.append(Term("Gun Firing Modifiers chart", i.attacker_modifiers, "7.2", a))
        out.append(Term("Defense Factor", i.target_defense, "7.2", d))
        pilot = t.pilot.gun_defense[i.target_pilot]
        if pilot:
            out.append(Term(f"{i.target_pilot.capitalize()} pilot (target)", pilot, "7.2", d))
        return out

    def modifiers(self, i: GunInputs) -> tuple[int, int]:
        return sides_total(self.terms(i))

    @staticmethod
    def hits(i: GunInputs, difference: int) -> int:
        if difference <= 0:
            return 0
        return i.hits_by_difference[min(difference, len(i.hits_by_difference)) - 1]

    def arrange(self, odds: dict[str, Fraction]) -> dict[str, Fraction]:
        """From "miss" up to the most hits, the order an umpire reads a damage chart in."""
        return dict(sorted(odds.items(), key=lambda kv: _hits_of(kv[0])))

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if a:
            out.update(
                attacker_pilot=pilot_of(a.aircraft), hits_by_difference=a.card.gun_hits or [0]
            )
            if a.card.gun_value is not None:
                out["attacker_gun_value"] = a.card.gun_value
        if t:
            out.update(target_defense=t.card.defense, target_pilot=pilot_of(t.aircraft))
        if a and t:
            out["attacker_modifiers"] = gun_modifiers(
                engagement, a.aircraft, t.aircraft, self.variants
            )
            out["attacker_unspotted"] = not is_spotted(engagement, a.id, t.id, self.variants)
            out.update(same_hex_on_board(a.aircraft, t.aircraft))
        return out

    def board_inputs(self, readings: Mapping[str, Any]) -> dict[str, Any]:
        """7.2: the Gun Firing Position Diagram's number for the attacker's position on the
        board, once the umpire has filled that cell in."""
        out = super().board_inputs(readings)
        number = readings_of(readings).gun_position_modifier
        if number is not None:
            out["position_modifier"] = number
        return out

    def decide(self, inputs: GunInputs, dice: DiceSource, draft: Draft) -> Decision:
        a = t = None
        now: int | None = None
        if inputs.attacker:
            a = draft.get(inputs.attacker)
            if card_of(a).gun_value is None:
                raise RuleViolation(f"{a.name} has no gun (7.2)")
            now = check_can_fire(draft.engagement, a, "gun")
            if now is not None and state_of(a).moved_at != now:
                raise RuleViolation(
                    f"{a.name} did not move this impulse; only aircraft that moved fire guns (7.0)"
                )
        if inputs.target:
            t = draft.get(inputs.target)
            in_play(t)
            if a is not None:
                check_enemy(a, t, "7.2")
                if abs(state_of(a).altitude - state_of(t).altitude) > 1:
                    raise RuleViolation("guns reach only within one altitude level (7.2)")
                check_vertical(a, t, now, "7.2")
        check_same_hex(inputs, a, t, now)
        att, dfn = self.modifiers(inputs)
        c = opposed(dice, "gun attack", att, dfn)
        r1, r2 = c.first_roll, c.second_roll
        hits = self.hits(inputs, c.margin)
        outcome = hits_label(hits)
        if a is not None:
            draft.emit(
                LedgerChanged(aircraft=a.id, ledger=Ledger.GUN, delta=Fraction(-1), reason="7.2"),
                fired_event(a, now, "gun"),
            )
        if t is not None:
            draft.emit(
                *damage_events(
                    t, hits, missile=False, source=inputs.attacker, variants=self.variants
                )
            )
        return Decision(
            outcome,
            f"gun attack: attacker {r1}{att:+d} = {r1 + att} vs target "
            f"{r2}{dfn:+d} = {r2 + dfn}: {outcome} (7.2)",
            modifiers=tuple(self.terms(inputs)),
        )


def _hits_of(label: str) -> int:
    """The hits an outcome label names ("miss" = 0)."""
    return 0 if label == "miss" else int(label.split()[0])
