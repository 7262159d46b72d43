"""The turn order exactly as the text lists it (UFO rules, Turn Order): the steps, who acts in
each (planes by initiative, UFOs by their ray guns' charge), and the new turn's fresh initiative."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.events import Event, GameAttributesSet, InitiativeSet
from app.core.ruleset import ActingLine, Step

from .card import MISSILE_DATA, card_of, details_of, firing_initiative, printed_anti_grav
from .geometry import inches
from .state import Ledger, in_flight, ray_gun_ledger, state_of

RULE = "UFO rules, Turn Order"
#: variant: a vital-system check after each damage roll that does damage, not once a turn
VITAL_EACH_DAMAGE_ROLL = "vital_each_damage_roll"

INITIATIVE, UFO_MOVES, FIRST_HALF, CANNON_1, SECOND_HALF, CANNON_2, MISSILES = range(7)

STEPS: tuple[Step, ...] = (
    Step(
        "Roll Initiative",
        "Roll Initiative",
        "Each plane rolls d6+pilot reaction. In ties Highest pilot reaction moves second, "
        "other wise roll off for tied players only",
        RULE,
    ),
    Step("UFO Moves", "UFO Moves", "UFO Moves", RULE),
    Step(
        "Move first half",
        "Move first half",
        "Move first half of move in order of initiative, lowest first.",
        RULE,
    ),
    Step(
        "Cannon firing",
        "at the half way point",
        "Cannon firing, highest initiative first.",
        RULE,
    ),
    Step(
        "Move second half",
        "Move second half",
        "Move second half of move in order of initiative, lowest first.",
        RULE,
    ),
    Step(
        "Cannon firing",
        "at the end of the move",
        "Cannon firing, highest initiative first.",
        RULE,
    ),
    Step(
        "Missile Firing",
        "Missile Firing",
        "Missile Firing- Highest Initiative first. For purposes of firing, UFO initiative is "
        "13 minus current charge of ray gun",
        RULE,
    ),
)


def require_step(engagement: Engagement, allowed: tuple[int, ...], what: str) -> None:
    """``RuleViolation`` unless the game is in one of the ``allowed`` steps."""
    if engagement.step not in allowed:
        names = " or ".join(STEPS[i].label for i in allowed)
        raise RuleViolation(
            f"{what} happens in {names} ({RULE}); the game is at {STEPS[engagement.step].label}"
        )


def _fighters(engagement: Engagement) -> list[AircraftState]:
    return [a for a in engagement.aircraft.values() if a.in_play and card_of(a).kind == "fighter"]


def _ufos(engagement: Engagement) -> list[AircraftState]:
    return [a for a in engagement.aircraft.values() if a.in_play and card_of(a).kind == "ufo"]


def moving_order(engagement: Engagement) -> list[AircraftState]:
    """Planes in play, lowest initiative first (after the tie rules); unrolled planes last."""
    planes = {a.id: a for a in _fighters(engagement)}
    ordered = [planes[p] for p in engagement.initiative_order if p in planes]
    return ordered + [a for a in planes.values() if a not in ordered]


def ufo_firing_initiative(u: AircraftState) -> int | None:
    """UFO rules, Turn Order: "For purposes of firing, UFO initiative is 13 minus current charge
    of ray gun" (of its highest-charge gun); ``None`` if the card gives no ray guns."""
    guns = card_of(u).ray_guns
    if isinstance(guns, str) or not guns:
        return None
    charges = [
        (int(u.ledgers[ray_gun_ledger(i + 1)].value), g)
        for i, g in enumerate(guns)
        if ray_gun_ledger(i + 1) in u.ledgers
    ]
    if not charges:
        return None
    charge, gun = max(charges, key=lambda c: c[0])
    return firing_initiative(gun, charge)


def acting(engagement: Engagement, variants: frozenset[str] = frozenset()) -> list[ActingLine]:
    """Who acts in the current step, in the order of UFO rules, Turn Order, and the rolls owed.

    A hit's rolls on the damage table are owed from the hit until they are rolled, so they are
    listed in every step, not only in Missile Firing: the text rolls the hits as they are
    scored ("this is number of hits on Damage Table", "Any 5 or 6 is a hit- roll on damage
    table", "explodes for 1d6 rolls on Damage Table", UFO rules, Hitting). So is the
    vital-system check the ``vital_each_damage_roll`` reading owes after each damage roll. The
    once-a-turn check of the text's reading ("Any turn a plane takes damage roll d6", UFO
    rules, Damage) is listed in Missile Firing, the turn's last step, once the plane's damage
    rolls are all rolled (it compares the d6 with "the total damage taken")."""
    if engagement.step == MISSILES:
        return _missile_firing(engagement, variants)
    return _step_lines(engagement) + _due(engagement, variants, end_of_turn=False)


def _step_lines(engagement: Engagement) -> list[ActingLine]:
    """Who acts in a step before Missile Firing."""
    step = engagement.step
    scores = engagement.initiative_scores
    if step == INITIATIVE:
        return [
            ActingLine(
                a.id, f"rolls d6 + pilot reaction {details_of(a).reaction}", procedure="initiative"
            )
            for a in _fighters(engagement)
        ]
    out: list[ActingLine] = []
    if step == UFO_MOVES:
        for u in _ufos(engagement):
            limit = min(6, int(u.ledger(Ledger.MAX_SPEED)))
            moved = state_of(u).moved_last_turn(engagement.turn)
            grav = u.ledgers.get(Ledger.ANTI_GRAV)
            turn = (
                "may not change direction"
                if grav is not None and moved > grav.value
                else "may change direction up to 90 degrees first"
            )
            if grav is None and printed_anti_grav(u) is None:
                # asked for in the form, as a table cell the text does not print (issue 43)
                turn += f"; the {card_of(u).name} card prints no anti-grav rating: give it"
            out.append(
                ActingLine(u.id, f"moves up to {inches(limit)} ({turn})", procedure="ufo_move")
            )
        return out
    planes = moving_order(engagement)
    if step in (FIRST_HALF, SECOND_HALF):
        which = "first" if step == FIRST_HALF else "second"
        return [
            ActingLine(
                a.id,
                f"moves {which} half of its move "
                f"({inches(Fraction(state_of(a).speed or 0, 2))})" + _score(a, scores),
                procedure="aircraft_move",
            )
            for a in planes
        ]
    assert step in (CANNON_1, CANNON_2)
    return [
        ActingLine(a.id, "may fire its cannon" + _score(a, scores), procedure="cannon")
        for a in planes[::-1]
    ]


def _missile_firing(engagement: Engagement, variants: frozenset[str]) -> list[ActingLine]:
    """Missile Firing, highest initiative first (a UFO at 13 minus its ray gun's charge), then
    the rolls owed, then the missiles in flight (UFO rules, Turn Order; Firing: Missile lock)."""
    scores = engagement.initiative_scores
    planes = moving_order(engagement)
    firing: list[tuple[int | None, str, str, str]] = [
        (
            scores.get(a.id),
            a.id,
            "fires 1 or 2 missiles of one type, or guns once",
            "missile_launch",
        )
        for a in planes[::-1]
    ]
    unarmed: list[tuple[int | None, str, str, str]] = []
    for u in _ufos(engagement):
        init = ufo_firing_initiative(u)
        if init is None:
            if isinstance(card_of(u).ray_guns, str):  # its line says why it cannot (issue 43)
                unarmed.append((None, u.id, "fires its ray gun or recharges", "ray_gun"))
            continue
        pos = next(
            (i for i, f in enumerate(firing) if f[0] is not None and f[0] <= init),
            len(firing),
        )
        tied = [engagement.get(f[1]).name for f in firing if f[0] == init]
        note = f" (tied with {', '.join(tied)}: the text gives no rule)" if tied else ""
        firing.insert(pos, (init, u.id, f"fires its ray gun or recharges{note}", "ray_gun"))
    out = [
        ActingLine(
            aid,
            what + (f" (initiative {s})" if s is not None else " (no initiative rolled)"),
            procedure=proc,
        )
        for s, aid, what, proc in firing
    ]
    out += [
        ActingLine(aid, f"{what} (no initiative: no ray guns known)", procedure=proc)
        for _, aid, what, proc in unarmed
    ]
    out += _due(engagement, variants, end_of_turn=True)
    for m in in_flight(engagement):
        target = engagement.aircraft.get(m.target)
        name = MISSILE_DATA[m.type].name
        out.append(
            ActingLine(
                m.attacker,
                f"its {name} {m.id} moves 12 inches at "
                f"{target.name if target else m.target} ({m.turns_left} turn(s) left)",
                procedure="missile_flight",
            )
        )
    return out


def _due(
    engagement: Engagement, variants: frozenset[str], *, end_of_turn: bool
) -> list[ActingLine]:
    """Damage rolls waiting, and vital-system checks due (UFO rules, Damage): once in a turn
    the plane took damage, after its damage rolls (listed at the ``end_of_turn`` only, Missile
    Firing, and only once none is due); with the ``vital_each_damage_roll`` reading, one after
    each damage roll that did damage, before the next (listed in every step, as the damage
    rolls are)."""
    out: list[ActingLine] = []
    for a in engagement.aircraft.values():
        if not a.in_play:
            continue
        st = state_of(a)
        fighter = card_of(a).kind == "fighter"
        check = ActingLine(
            a.id, "vital system check: d6 less than total damage ejects", procedure="vital_system"
        )
        if VITAL_EACH_DAMAGE_ROLL in variants and fighter and st.vital_checks_due:
            out.append(check)
        due = st.damage_rolls_due
        if due:
            out.append(
                ActingLine(a.id, f"{due} roll(s) on the damage table due", procedure="damage_roll")
            )
        damaged = st.damaged_turn == engagement.turn
        checked = st.vital_checked_turn == engagement.turn
        once = VITAL_EACH_DAMAGE_ROLL not in variants and end_of_turn and not due
        if once and fighter and damaged and not checked:
            out.append(check)
    return out


def _score(a: AircraftState, scores: Mapping[str, int]) -> str:
    s = scores.get(a.id)
    return f" (initiative {s})" if s is not None else " (no initiative rolled)"


def on_clock(engagement: Engagement, turn: int, step: int) -> list[Event]:
    """A new turn starts with a new initiative roll (UFO rules, Turn Order)."""
    if turn > engagement.turn and engagement.initiative_order:
        return [
            InitiativeSet(order=(), marker=None, scores={}),
            GameAttributesSet(values={"initiative_ties": []}),
        ]
    return []
