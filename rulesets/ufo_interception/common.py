"""Shared reading of the projection: ledger ids, cards, and a running tally of damage effects.

A procedure that applies several effects in one action (a damage roll costing DP, speed and
anti-grav) works on a ``Tally``: it knows the values as they stand after the effects so far, so
no ledger is asked to go below zero and the crash and destruction checks see the final numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import (
    AttributesSet,
    DamageTaken,
    Event,
    LedgerChanged,
    LedgerLimitChanged,
    StatusChanged,
)

from .cards import Card, HardPoint

ANTI_GRAV = "anti_grav"
MAX_SPEED = "max_speed"
#: variant: the vital-system check counts only the damage taken this turn
VITAL_THIS_TURN = "vital_this_turn"
#: how many ray guns and hard points a card may have ledgers for
MAX_RAY_GUNS = 4
MAX_HARD_POINTS = 6


def ray_gun_ledger(n: int) -> str:
    return f"ray_gun_{n}"


def hard_point_ledger(n: int) -> str:
    return f"hard_point_{n}"


def card_of(a: AircraftState) -> Card:
    return Card.model_validate(dict(a.card))


def need(engagement: Engagement | None, aircraft_id: str) -> AircraftState:
    """The aircraft, in play; ``RuleViolation`` without an engagement or when it is out of play."""
    if engagement is None:
        raise RuleViolation("aircraft ids need the game they belong to")
    a = engagement.get(aircraft_id)
    if not a.in_play:
        flags = ", ".join(sorted(s.replace("_", " ") for s in a.status))
        raise RuleViolation(f"{a.name} is out of play ({flags})")
    return a


def fighter(engagement: Engagement | None, aircraft_id: str) -> AircraftState:
    a = need(engagement, aircraft_id)
    if a.card.get("kind") != "fighter":
        raise RuleViolation(f"{a.name} is a UFO, not an aircraft with a pilot")
    return a


def ufo(engagement: Engagement | None, aircraft_id: str) -> AircraftState:
    a = need(engagement, aircraft_id)
    if a.card.get("kind") != "ufo":
        raise RuleViolation(f"{a.name} is not a UFO")
    return a


def lost_hard_points(a: AircraftState) -> list[int]:
    return [int(n) for n in a.attributes.get("hard_points_lost", [])]


def hard_point(a: AircraftState, number: int) -> HardPoint:
    card = card_of(a)
    hp = next((h for h in card.hard_points if h.number == number), None)
    if hp is None:
        raise RuleViolation(f"{a.name} has no hard point {number}")
    return hp


def fired_this_step(a: AircraftState, engagement: Engagement) -> bool:
    return a.attributes.get("fired") == [engagement.turn, engagement.step]


@dataclass
class Tally:
    """One aircraft's damage, ledgers and flags as they stand during one action."""

    aircraft: AircraftState
    turn: int
    damage: int = 0
    ledgers: dict[str, Fraction] = field(default_factory=dict)
    status: set[str] = field(default_factory=set)
    attributes: dict[str, Any] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, a: AircraftState, turn: int) -> Tally:
        return cls(
            a,
            turn,
            a.damage,
            {k: v.value for k, v in a.ledgers.items()},
            set(a.status),
            {"hard_points_lost": lost_hard_points(a)},
        )

    @property
    def id(self) -> str:
        return self.aircraft.id

    @property
    def is_fighter(self) -> bool:
        return self.aircraft.card.get("kind") == "fighter"

    def take(self, points: int, source: str | None, why: str) -> None:
        if points <= 0:
            return
        self.damage += points
        self.events.append(DamageTaken(aircraft=self.id, points=points, source=source))
        # the damage taken this turn restarts from 0 with the first damage of a new turn
        last = {**self.aircraft.attributes, **self.attributes}
        so_far = (
            int(last.get("damage_this_turn", 0)) if last.get("damaged_turn") == self.turn else 0
        )
        self.attributes["damage_this_turn"] = so_far + points
        self.attributes["damaged_turn"] = self.turn
        self.notes.append(f"{points} DP ({why})")

    def lose(self, ledger: str, amount: int, why: str) -> int:
        """Take up to ``amount`` from a ledger (never below 0); the amount actually lost."""
        have = self.ledgers.get(ledger)
        if have is None or amount <= 0:
            return 0
        loss = min(Fraction(amount), have)
        if loss:
            self.ledgers[ledger] = have - loss
            self.events.append(
                LedgerChanged(aircraft=self.id, ledger=ledger, delta=-loss, reason=why)
            )
            self.notes.append(f"{ledger.replace('_', ' ')} -{loss} ({why})")
        return int(loss)

    def lose_hard_point(self, number: int, why: str) -> None:
        lost: list[int] = self.attributes["hard_points_lost"]
        if number in lost:
            return
        self.attributes["hard_points_lost"] = [*lost, number]
        ledger = hard_point_ledger(number)
        if ledger in self.ledgers:
            self.ledgers[ledger] = Fraction(0)
            self.events.append(
                LedgerLimitChanged(aircraft=self.id, ledger=ledger, maximum=Fraction(0))
            )
        self.notes.append(f"hard point {number} lost ({why})")

    def flag(self, *flags: str) -> None:
        self.status.update(flags)

    def finish(self) -> list[Event]:
        """The events, after the crash and destruction checks of UFO rules, Damage."""
        a = self.aircraft
        if a.max_damage is not None and self.damage >= a.max_damage:
            self.flag(Status.DESTROYED)
        if Status.DESTROYED in self.status and self.is_fighter:
            # "If a plane is destroyed the pilot dies."
            self.flag(Status.PILOT_KILLED)
        if self.is_fighter and self.ledgers.get(MAX_SPEED) == 0:
            # "Any aircraft reduced to 0 speed crashes." -- aircraft, not UFOs (issue 15)
            self.flag(Status.CRASHED)
        if not self.is_fighter and self.ledgers.get(ANTI_GRAV) == 0:
            # "Any UFO reduced to 0 Anti-Grav crashes"
            self.flag(Status.CRASHED)
        speed = a.attributes.get("speed")
        top = self.ledgers.get(MAX_SPEED)
        if isinstance(speed, int) and top is not None and speed > top:
            self.attributes["speed"] = int(top)
        events = list(self.events)
        before = {**a.attributes, "hard_points_lost": lost_hard_points(a)}
        changed = {k: v for k, v in self.attributes.items() if before.get(k) != v}
        if changed:
            events.append(AttributesSet(aircraft=self.id, values=changed))
        new = tuple(sorted(self.status - a.status))
        if new:
            events.append(StatusChanged(aircraft=self.id, set=new))
        return events
