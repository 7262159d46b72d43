"""The UFO interception ruleset: jets against UFOs, inches and d6s (seed 003, untitled rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.engagement import AircraftState, Engagement
from app.core.events import Event, GameAttributesSet, InitiativeSet
from app.core.ruleset import (
    Acting,
    CardBlock,
    CardSpec,
    KeyValues,
    LedgerSpec,
    Lines,
    Ruleset,
    Step,
    Table,
    Variant,
    critical_lines,
    damage_track,
    ledger_tracks,
)

from .card import Card, Details, catalogue, details_of, firing_initiative
from .common import (
    ANTI_GRAV,
    EXTRA_DP_ON_LOCATION_ONLY,
    MAX_HARD_POINTS,
    MAX_RAY_GUNS,
    MAX_SPEED,
    RAY_GUN_KEEPS_CHARGE,
    RECHARGE_DICE_ROLLED,
    ROLL_OFF_HIGHER_FIRST,
    VITAL_THIS_TURN,
    card_of,
    hard_point_ledger,
    lost_hard_points,
    ray_gun_ledger,
)
from .damage import DamageRoll, HitLocation, VitalSystem
from .geometry import InchesGeometry
from .guns import Cannon, RayGun, Recharge
from .initiative import Initiative, RollOff
from .missiles import MISSILE_DATA, MissileFlight, MissileLaunch, in_flight
from .movement import AircraftMove, UfoMove
from .sequence import (
    CANNON_1,
    CANNON_2,
    FIRST_HALF,
    INITIATIVE,
    MISSILES,
    SECOND_HALF,
    STEPS,
    UFO_MOVES,
)
from .state import GameState, State, state_of
from .tables import ARCS_TABLE, DAMAGE_TABLE

FOUR_AMRAAM = "four_amraam"


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


class UfoInterception(Ruleset):
    id = "ufo_interception"
    title = "UFO Interception"
    source = "untitled UFO interception rules (seed 003_184eec7a9e953b3d)"
    procedure_types = (
        Initiative,
        UfoMove,
        AircraftMove,
        Cannon,
        MissileLaunch,
        MissileFlight,
        RayGun,
        Recharge,
        DamageRoll,
        VitalSystem,
        HitLocation,
        RollOff,
    )
    ledgers = (
        *(
            LedgerSpec(ray_gun_ledger(n), f"Ray gun {n} charge", "ray_guns", rule="UFO rules, UFO")
            for n in range(1, MAX_RAY_GUNS + 1)
        ),
        *(
            LedgerSpec(
                hard_point_ledger(n), f"Hard point {n} missiles", "hard_points", rule="Missiles"
            )
            for n in range(1, MAX_HARD_POINTS + 1)
        ),
        LedgerSpec(ANTI_GRAV, "Anti Grav", "anti_grav", rule="UFO rules, Damage"),
        LedgerSpec(MAX_SPEED, "Max speed", "speed", rule="UFO rules, Movement; Damage"),
    )
    variant_list = (
        Variant(
            FOUR_AMRAAM,
            "Four AMRAAM on the Tornado",
            "The Tornado card prints 'Hard Point 3 - 4 Amraam' but only three boxes (OOO); "
            "by default the three boxes are used, with this variant the printed 4.",
            "UFO rules, Tornado card",
            off="the Tornado's Hard Point 3 has the three boxes printed (OOO).",
            on="it carries the printed 4 AMRAAM.",
        ),
        Variant(
            VITAL_THIS_TURN,
            "Vital systems: this turn's damage",
            "The vital-system check compares the d6 with the damage taken this turn, not the "
            "plane's total so far ('LESS than the total damage taken' can be read either way).",
            "UFO rules, Damage",
            off="the vital-system check compares the d6 with the plane's total damage.",
            on="it compares it with the damage taken this turn.",
        ),
        Variant(
            RAY_GUN_KEEPS_CHARGE,
            "Ray guns keep their charge when they fire",
            "'Roll one die for every point of charge' does not say what firing does to the "
            "charge. Default: firing spends it (the gun then recharges in turns it does not "
            "fire, 'Any turn the gun does not fire it may recharge'). With this variant: the "
            "charge stays; only damage ('Ray gun with highest charge loses d6') lowers it.",
            "UFO rules, Firing: UFO",
            off="firing spends the ray gun's charge.",
            on="the charge stays; only damage lowers it.",
        ),
        Variant(
            EXTRA_DP_ON_LOCATION_ONLY,
            "'+d6 DP if hit' only on a weapon hit location",
            "The Tornado card notes '+d6 DP if hit' beside Hard Point 3. Default: the d6 is "
            "added whenever that hard point is hit: picked by the weapon hit location roll, or "
            "lost to damage result 4 ('Roll for each hardpoint, 6 = lost'). With this variant: "
            "only when the hit location roll picks it.",
            "UFO rules, Tornado card",
            off="'+d6 DP if hit' whenever Hard Point 3 is hit (a hit location roll, or lost to "
            "damage result 4).",
            on="only when the weapon hit location roll picks it.",
        ),
        Variant(
            RECHARGE_DICE_ROLLED,
            "'Recharge d6': a d6 roll for the number of dice",
            "The Small UFO's card prints 'Power 9 Recharge d6', and the rules say 'Roll a "
            "number of dice equal to its recharge rating': the rating is written as a die.",
            "UFO rules, Firing: UFO (recharge); Small UFO card",
            off="the rating is one die: a recharge adds 1d6 (1-6, 7/2 on average).",
            on="the rating is a roll: a d6 gives the number of dice, then that many d6 are "
            "added (1-36, 49/4 on average).",
        ),
        Variant(
            ROLL_OFF_HIGHER_FIRST,
            "Roll-off: the higher roll moves first",
            "'In ties Highest pilot reaction moves second, other wise roll off for tied players "
            "only' does not say who wins. Default: the higher roll moves second, as the higher "
            "reaction does (lowest initiative moves first). With this variant: the higher roll "
            "moves first.",
            "UFO rules, Turn Order",
            off="the higher roll-off roll moves second, as the higher reaction does.",
            on="the higher roll moves first.",
        ),
    )
    Card = Card
    Details = Details
    State = State
    GameState = GameState
    uses_pilot_quality = False
    initiative = "initiative"
    initiative_by = "aircraft"
    geometry = InchesGeometry()

    @property
    def aircraft(self) -> Mapping[str, BaseModel]:
        return catalogue()

    def starting_ledgers(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Fraction]:
        c = Card.model_validate(dict(card))
        out: dict[str, Fraction] = {MAX_SPEED: Fraction(c.speed)}
        for hp in c.hard_points:
            if hp.store != "cannon":
                four = FOUR_AMRAAM in self.chosen and hp.store == "amraam"
                count = hp.printed_count if four and hp.printed_count else hp.boxes
                out[hard_point_ledger(hp.number)] = Fraction(count)
        if isinstance(c.anti_grav, int):
            out[ANTI_GRAV] = Fraction(c.anti_grav)
        if not isinstance(c.ray_guns, str):
            for i, gun in enumerate(c.ray_guns):
                # "Ray Guns start fully charged."
                out[ray_gun_ledger(i + 1)] = Fraction(gun.power)
        return out

    def max_damage(self, card: Mapping[str, Any], details: BaseModel) -> int:
        return Card.model_validate(dict(card)).damage_points

    def initial_attributes(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Any]:
        assert isinstance(details, Details)
        attrs: dict[str, Any] = {"damage_rolls_due": 0, "hard_points_lost": []}
        c = Card.model_validate(dict(card))
        if c.kind == "fighter":
            attrs["speed"] = details.speed if details.speed is not None else c.speed
        return attrs

    def table_files(self) -> Mapping[str, Path]:
        return {"damage_table": DAMAGE_TABLE, "arcs": ARCS_TABLE}

    # -- sequence of play -------------------------------------------------------------------

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        return STEPS

    def acting(self, engagement: Engagement) -> list[Acting]:
        step = engagement.step
        scores = engagement.initiative_scores
        if step == INITIATIVE:
            return [
                (a.id, f"rolls d6 + pilot reaction {details_of(a).reaction}", "initiative")
                for a in _fighters(engagement)
            ]
        out: list[Acting] = []
        if step == UFO_MOVES:
            for u in _ufos(engagement):
                limit = min(6, int(u.ledger(MAX_SPEED)))
                moved = state_of(u).moved_last_turn(engagement.turn)
                grav = u.ledgers.get(ANTI_GRAV)
                turn = (
                    "may not change direction"
                    if grav is not None and moved > grav.value
                    else "may change direction up to 90 degrees first"
                )
                out.append((u.id, f"moves up to {limit} inches ({turn})", "ufo_move"))
            return out
        planes = moving_order(engagement)
        if step in (FIRST_HALF, SECOND_HALF):
            which = "first" if step == FIRST_HALF else "second"
            return [
                (
                    a.id,
                    f"moves {which} half of its move "
                    f"({Fraction(state_of(a).speed or 0, 2)} inches)" + self._score(a, scores),
                    "aircraft_move",
                )
                for a in planes
            ]
        if step in (CANNON_1, CANNON_2):
            return [
                (a.id, "may fire its cannon" + self._score(a, scores), "cannon")
                for a in planes[::-1]
            ]
        assert step == MISSILES
        firing: list[tuple[int | None, str, str, str]] = [
            (
                scores.get(a.id),
                a.id,
                "fires 1 or 2 missiles of one type, or guns once",
                "missile_launch",
            )
            for a in planes[::-1]
        ]
        for u in _ufos(engagement):
            init = ufo_firing_initiative(u)
            if init is None:
                continue
            pos = next(
                (i for i, f in enumerate(firing) if f[0] is not None and f[0] <= init),
                len(firing),
            )
            tied = [engagement.get(f[1]).name for f in firing if f[0] == init]
            note = f" (tied with {', '.join(tied)}: the text gives no rule)" if tied else ""
            firing.insert(pos, (init, u.id, f"fires its ray gun or recharges{note}", "ray_gun"))
        out = [
            (
                aid,
                what + (f" (initiative {s})" if s is not None else " (no initiative rolled)"),
                proc,
            )
            for s, aid, what, proc in firing
        ]
        out += self._due(engagement)
        for m in in_flight(engagement):
            target = engagement.aircraft.get(m.target)
            name = MISSILE_DATA[m.type].name
            out.append(
                (
                    m.attacker,
                    f"its {name} {m.id} moves 12 inches at "
                    f"{target.name if target else m.target} ({m.turns_left} turn(s) left)",
                    "missile_flight",
                )
            )
        return out

    @staticmethod
    def _due(engagement: Engagement) -> list[Acting]:
        """Damage rolls waiting, and vital-system checks due this turn (UFO rules, Damage)."""
        out: list[Acting] = []
        for a in engagement.aircraft.values():
            if not a.in_play:
                continue
            st = state_of(a)
            due = st.damage_rolls_due
            if due:
                out.append((a.id, f"{due} roll(s) on the damage table due", "damage_roll"))
            damaged = st.damaged_turn == engagement.turn
            checked = st.vital_checked_turn == engagement.turn
            if card_of(a).kind == "fighter" and damaged and not checked:
                out.append(
                    (a.id, "vital system check: d6 less than total damage ejects", "vital_system")
                )
        return out

    @staticmethod
    def _score(a: AircraftState, scores: Mapping[str, int]) -> str:
        s = scores.get(a.id)
        return f" (initiative {s})" if s is not None else " (no initiative rolled)"

    def on_clock(self, engagement: Engagement, turn: int, step: int) -> list[Event]:
        """A new turn starts with a new initiative roll (UFO rules, Turn Order)."""
        if turn > engagement.turn and engagement.initiative_order:
            return [
                InitiativeSet(order=(), marker=None, scores={}),
                GameAttributesSet(values={"initiative_ties": []}),
            ]
        return []

    # -- the printed card -------------------------------------------------------------------

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        c = card_of(aircraft)
        items: list[tuple[str, str]] = [("Type", c.name)]
        if c.kind == "fighter":
            items += [
                ("Speed", str(c.speed)),
                ("Current speed", str(state_of(aircraft).speed)),
                ("Pilot reaction", str(details_of(aircraft).reaction)),
            ]
        else:
            items.append(("Anti Grav", str(c.anti_grav)))
        items.append(("DP", str(c.damage_points)))
        due = state_of(aircraft).damage_rolls_due
        if due:
            items.append(("Damage rolls due", str(due)))
        blocks: list[CardBlock] = [KeyValues("Data", tuple(items)), *damage_track(aircraft)]
        if c.hard_points:
            lost = lost_hard_points(aircraft)
            rows = []
            for hp in sorted(c.hard_points, key=lambda h: min(h.location)):
                faces = sorted(hp.location)
                where = str(faces[0]) if len(faces) == 1 else f"{faces[0]}-{faces[-1]}"
                store = "Cannon" if hp.store == "cannon" else MISSILE_DATA[hp.store].name
                if hp.printed_count is not None:
                    store = f"{hp.printed_count} {store}"
                note = "+d6 DP if hit" if hp.extra_damage else ""
                if hp.number in lost:
                    note = (note + " LOST").strip()
                rows.append((where, f"Hard Point {hp.number}", store, note))
            blocks.append(
                Table("Hit Location", ("d6", "Hard point", "Store", "Notes"), tuple(rows))
            )
        if not isinstance(c.ray_guns, str):
            for i, gun in enumerate(c.ray_guns):
                title = f"Ray Gun {i + 1}: Power {gun.power} Recharge {gun.recharge_dice}d6"
                charges = range(1, gun.power + 1)
                blocks.append(
                    Table(
                        title,
                        ("Charge", *(str(ch) for ch in charges)),
                        (("Initiative", *(str(firing_initiative(gun, ch)) for ch in charges)),),
                    )
                )
        blocks += ledger_tracks(self, aircraft)
        if c.notes:
            blocks.append(Lines("Notes", tuple(c.notes)))
        blocks += critical_lines(aircraft)
        return CardSpec(c.name, tuple(blocks))
