"""Shared reading of the projection: ledger ids, cards, and the damage effects of one action.

A procedure that applies several effects in one action (a damage roll costing DP, speed and
anti-grav) emits them through ``DamageEffects`` to its draft, which applies each at once: the
next effect and the crash and destruction checks read the values as they then stand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import (
    AttributesSet,
    DamageTaken,
    LedgerChanged,
    LedgerLimitChanged,
    StatusChanged,
)
from app.core.procedure import Draft

from .card import Card, HardPoint
from .state import state_of

ANTI_GRAV = "anti_grav"
MAX_SPEED = "max_speed"
#: variant: the vital-system check counts only the damage taken this turn
VITAL_THIS_TURN = "vital_this_turn"
#: variant: firing a ray gun does not spend its charge
RAY_GUN_KEEPS_CHARGE = "ray_gun_keeps_charge"
#: variant: "+d6 DP if hit" only when the weapon hit location roll picks the hard point
EXTRA_DP_ON_LOCATION_ONLY = "extra_dp_on_location_only"
#: variant: the higher roll-off roll moves first
ROLL_OFF_HIGHER_FIRST = "roll_off_higher_moves_first"
#: variant: "Recharge d6" is a d6 roll for the number of recharge dice
RECHARGE_DICE_ROLLED = "recharge_dice_rolled"
#: how many ray guns and hard points a card may have ledgers for
MAX_RAY_GUNS = 4
MAX_HARD_POINTS = 6


def ray_gun_ledger(n: int) -> str:
    return f"ray_gun_{n}"


def hard_point_ledger(n: int) -> str:
    return f"hard_point_{n}"


def card_of(a: AircraftState) -> Card:
    return a.typed(Card, "card")


def need(engagement: Engagement, aircraft_id: str) -> AircraftState:
    """The aircraft, in play; ``RuleViolation`` when it is out of play."""
    a = engagement.get(aircraft_id)
    if not a.in_play:
        flags = ", ".join(sorted(s.replace("_", " ") for s in a.status))
        raise RuleViolation(f"{a.name} is out of play ({flags})")
    return a


def fighter(engagement: Engagement, aircraft_id: str) -> AircraftState:
    a = need(engagement, aircraft_id)
    if card_of(a).kind != "fighter":
        raise RuleViolation(f"{a.name} is a UFO, not an aircraft with a pilot")
    return a


def ufo(engagement: Engagement, aircraft_id: str) -> AircraftState:
    a = need(engagement, aircraft_id)
    if card_of(a).kind != "ufo":
        raise RuleViolation(f"{a.name} is not a UFO")
    return a


def lost_hard_points(a: AircraftState) -> list[int]:
    return list(state_of(a).hard_points_lost)


def hard_point(a: AircraftState, number: int) -> HardPoint:
    card = card_of(a)
    hp = next((h for h in card.hard_points if h.number == number), None)
    if hp is None:
        raise RuleViolation(f"{a.name} has no hard point {number}")
    return hp


def fired_this_step(a: AircraftState, engagement: Engagement) -> bool:
    return state_of(a).fired == (engagement.turn, engagement.step)


@dataclass
class DamageEffects:
    """One aircraft's damage effects in one action, emitted to the draft as they happen.

    The draft applies each event at once, so every effect reads the values the earlier ones
    left (no ledger is asked to go below zero) and ``finish``'s crash and destruction checks see
    the final numbers. What is kept here is only what the log line needs: the notes, and the
    status flags, set together by ``finish`` after those checks.
    """

    draft: Draft
    aircraft: str
    notes: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def now(self) -> AircraftState:
        """The aircraft as the effects so far left it."""
        return self.draft.get(self.aircraft)

    @property
    def is_fighter(self) -> bool:
        return card_of(self.now).kind == "fighter"

    def take(self, points: int, source: str | None, why: str) -> None:
        if points <= 0:
            return
        turn = self.draft.engagement.turn
        # the damage taken this turn restarts from 0 with the first damage of a new turn
        so_far = state_of(self.now).damaged_in(turn)
        self.draft.emit(
            DamageTaken(aircraft=self.aircraft, points=points, source=source),
            AttributesSet(
                aircraft=self.aircraft,
                values={"damage_this_turn": so_far + points, "damaged_turn": turn},
            ),
        )
        self.notes.append(f"{points} DP ({why})")

    def lose(self, ledger: str, amount: int, why: str) -> int:
        """Take up to ``amount`` from a ledger (never below 0); the amount actually lost."""
        have = self.now.ledgers.get(ledger)
        if have is None or amount <= 0:
            return 0
        loss = min(Fraction(amount), have.value)
        if loss:
            self.draft.emit(
                LedgerChanged(aircraft=self.aircraft, ledger=ledger, delta=-loss, reason=why)
            )
            self.notes.append(f"{ledger.replace('_', ' ')} -{loss} ({why})")
        return int(loss)

    def lose_hard_point(self, number: int, why: str) -> None:
        a = self.now
        lost = lost_hard_points(a)
        if number in lost:
            return
        self.draft.emit(
            AttributesSet(aircraft=self.aircraft, values={"hard_points_lost": [*lost, number]})
        )
        ledger = hard_point_ledger(number)
        if ledger in a.ledgers:
            self.draft.emit(
                LedgerLimitChanged(aircraft=self.aircraft, ledger=ledger, maximum=Fraction(0))
            )
        self.notes.append(f"hard point {number} lost ({why})")

    def flag(self, *flags: str) -> None:
        self.flags.update(flags)

    def finish(self) -> list[str]:
        """The crash and destruction checks of UFO rules, Damage, then the new status flags
        (returned, for the log line)."""
        a = self.now
        if a.max_damage is not None and a.damage >= a.max_damage:
            self.flag(Status.DESTROYED)
        if Status.DESTROYED in a.status | self.flags and self.is_fighter:
            # "If a plane is destroyed the pilot dies."
            self.flag(Status.PILOT_KILLED)
        top = a.ledgers[MAX_SPEED].value if MAX_SPEED in a.ledgers else None
        if self.is_fighter and top == 0:
            # "Any aircraft reduced to 0 speed crashes." -- aircraft, not UFOs (issue 15)
            self.flag(Status.CRASHED)
        if not self.is_fighter and ANTI_GRAV in a.ledgers and a.ledgers[ANTI_GRAV].value == 0:
            # "Any UFO reduced to 0 Anti-Grav crashes"
            self.flag(Status.CRASHED)
        speed = state_of(a).speed
        if speed is not None and top is not None and speed > top:
            self.draft.emit(AttributesSet(aircraft=self.aircraft, values={"speed": int(top)}))
        new = tuple(sorted(self.flags - a.status))
        if new:
            self.draft.emit(StatusChanged(aircraft=self.aircraft, set=new))
        return list(new)
