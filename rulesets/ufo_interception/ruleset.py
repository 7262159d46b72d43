"""The UFO interception ruleset: jets against UFOs, inches and d6s (seed 003, untitled rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.engagement import AircraftState, Engagement
from app.core.events import Event
from app.core.ruleset import (
    ActingLine,
    CardSpec,
    LedgerSpec,
    Ruleset,
    Step,
    Variant,
)

from . import sequence
from .card import Card, Details, catalogue
from .chain import UfoChain
from .damage import (
    DP_EXHAUSTED_NOT_DESTROYED,
    EXTRA_DP_ON_LOCATION_ONLY,
    UFO_ZERO_SPEED_CRASHES,
    VITAL_THIS_TURN,
    DamageRoll,
    HitLocation,
    VitalSystem,
)
from .geometry import InchesGeometry
from .guns import RAY_GUN_KEEPS_CHARGE, RECHARGE_DICE_ROLLED, Cannon, RayGun, Recharge
from .initiative import ROLL_OFF_HIGHER_FIRST, Initiative, RollOff
from .missiles import MissileFlight, MissileLaunch
from .movement import AircraftMove, UfoMove
from .printed_card import card_spec
from .sequence import (
    STEPS,
    VITAL_EACH_DAMAGE_ROLL,
)
from .state import (
    MAX_HARD_POINTS,
    MAX_RAY_GUNS,
    GameState,
    Ledger,
    State,
    hard_point_ledger,
    ray_gun_ledger,
)
from .tables import ARCS_TABLE, DAMAGE_TABLE, damage_table

FOUR_AMRAAM = "four_amraam"


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
        LedgerSpec(Ledger.ANTI_GRAV, "Anti Grav", "anti_grav", rule="UFO rules, Damage"),
        LedgerSpec(Ledger.MAX_SPEED, "Max speed", "speed", rule="UFO rules, Movement; Damage"),
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
            VITAL_EACH_DAMAGE_ROLL,
            "Vital systems: a check after each damage roll",
            "UFO rules, Damage: 'Any turn a plane takes damage roll d6. If the result is LESS "
            "than the total damage taken then a vital system has been hit'. Read as written, "
            "one check a turn, after the damage; read per damage, one after each roll on the "
            "damage table that does damage.",
            "UFO rules, Damage",
            off="one vital-system check in a turn the plane takes damage, after its damage rolls.",
            on="one check after each damage roll that does damage, before the next roll.",
        ),
        Variant(
            DP_EXHAUSTED_NOT_DESTROYED,
            "Damage points: losing the last one does not destroy by itself",
            "UFO rules, Damage: 'Fighter 6 Damage points', 'Small UFO 10DP' and the cards' "
            "boxes (DP 6 OOOOOO). The text never says what happens when they are all taken; "
            "it destroys on 'Critical- plane destroyed' and crashes at 0 speed or 0 Anti-Grav.",
            "UFO rules, Damage",
            off="the damage points are what it can take: the last one destroys it (a plane's "
            "pilot dies with it, 'If a plane is destroyed the pilot dies').",
            on="damage beyond them destroys nothing by itself; a plane's vital-system check "
            "(d6 less than the damage) still ejects its pilot.",
        ),
        Variant(
            UFO_ZERO_SPEED_CRASHES,
            "A UFO at 0 maximum speed crashes",
            "UFO rules, Damage: 'Any aircraft reduced to 0 speed crashes.' The UFO column's "
            "Power Plant and Engine results lower a UFO's maximum speed ('Max speed -d6', "
            "'Engine: max speed-1'); 'Any UFO reduced to 0 Anti-Grav crashes' names UFOs apart.",
            "UFO rules, Damage",
            off="'aircraft' are the planes: a UFO at 0 maximum speed stays up (it crashes at "
            "0 Anti-Grav).",
            on="a UFO reduced to 0 maximum speed crashes too.",
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
        out: dict[str, Fraction] = {Ledger.MAX_SPEED: Fraction(c.speed)}
        for hp in c.hard_points:
            if hp.store != "cannon":
                four = FOUR_AMRAAM in self.chosen and hp.store == "amraam"
                count = hp.printed_count if four and hp.printed_count else hp.boxes
                out[hard_point_ledger(hp.number)] = Fraction(count)
        if isinstance(c.anti_grav, int):
            out[Ledger.ANTI_GRAV] = Fraction(c.anti_grav)
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

    # -- sequence of play, the printed card -------------------------------------------------

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        return STEPS

    def acting(self, engagement: Engagement) -> list[ActingLine]:
        return sequence.acting(engagement, self.chosen)

    def chain_model(self) -> UfoChain:
        """Damage rolls, hard points and vital-system checks as a Markov chain (issue 45),
        kept with what it has worked out until the damage table changes."""
        model: UfoChain | None = getattr(self, "_chain", None)
        if model is None or model.table is not damage_table():
            model = self._chain = UfoChain(self.chosen)
        return model

    def on_clock(self, engagement: Engagement, turn: int, step: int) -> list[Event]:
        return sequence.on_clock(engagement, turn, step)

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        return card_spec(self, aircraft, engagement)
