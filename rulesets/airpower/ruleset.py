"""The Air Power ruleset: its procedures, ledgers, variant, steps, new-turn clock and cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.data import load_catalogue
from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.events import Event
from app.core.ruleset import ActingLine, CardSpec, LedgerSpec, MovementHelp, Ruleset, Step, Variant
from rulesets.airpower import sequence, tables
from rulesets.airpower.attacks import GUN_RULE, ORIGINAL, ROCKET_RULE, SSGT_SLOW_NONE
from rulesets.airpower.card import Card, Details, air_to_air_factors
from rulesets.airpower.chain import AirPowerChain
from rulesets.airpower.damage import DamageRoll
from rulesets.airpower.flight import DefensivePreemption, RecordFlight
from rulesets.airpower.genie import (
    GENIE_VFPS_NEAREST,
    GenieDetonation,
    GenieFlight,
    GenieLaunch,
    GenieScatter,
)
from rulesets.airpower.geometry import AirPowerGeometry
from rulesets.airpower.guns import AbortGunAttack, GunAttack
from rulesets.airpower.printed_card import card_spec
from rulesets.airpower.radar import RadarRanging
from rulesets.airpower.rockets import RocketAttack
from rulesets.airpower.state import GameState, Ledger, State

AIRCRAFT_DIR = Path(__file__).parent / "aircraft"

ORIGINAL_WORDING = Variant(
    ORIGINAL,
    "Original wording",
    "The rules as first written (with the errata of editions 1B and 1C) where they differ from "
    "the revised text in a number or a permission:\n"
    "- Angle-off, borderline at equal speeds: the original examples assume the target is "
    '"co-speed or faster", so equal speeds move the target forward (revised: the arc with the '
    "more beneficial modifier).\n"
    "- SSGT: only an attacker in the 60 or less angle-off arc may track its target (revised: "
    "on a tracking line of the SSGT figure), and the thirds of its speed are counted with the "
    "1/3-2/3 conversion table, not printed: fill it in (Tables editor) (revised: a third of "
    "the speed, rounded down).\n"
    "- Rocket restrictions: any aircraft (not only one in level flight) may fire rockets at a "
    "target in another hex only at the same or an adjacent altitude level (before the 2B "
    "errata).\n"
    "- Rocket modifiers: only target size, angle-off, gunsight, SSGT, radar ranging, CC attack "
    "and pilot quality apply (before 2B); attacker damage and the same-location vertical "
    "modifier do not.\n"
    "- CC rocket attack: the attacker must start the game turn with its lock-on to the target "
    "(revised: have a lock-on).\n"
    "- Head-on return fire: needs only the two-shot limit, the higher/lower target "
    "restrictions and the ET turn rate prohibition (and, 1B errata, no roll at the end of the "
    "previous game turn) (revised, 2B: every normal requirement except sighting).\n"
    "- Formation Restrictions: wingmen in a close formation may not fire guns or rockets "
    "(Genies included) at air-to-air targets (revised: the section is dropped; no restriction).",
    "Air Power (original wording)",
    off="the revised text.",
    on="the original wording (with the 1B and 1C errata) where it differs, as listed above.",
)

EQUAL_HEADING = "borderline_equal_heading"
BORDERLINE_EQUAL_HEADING = Variant(
    EQUAL_HEADING,
    "Angle-off borderline, equal modifiers: the arc the attacker heads into",
    "Angle-Off: an attacker left on a borderline is in 'the arc that benefits the attacker'. "
    "When both arcs have the same hit-roll modifier the text names neither. Default: the more "
    "rearward arc (it also meets the SSGT and CA radar-ranging arc requirements, so it is the "
    "one that benefits the attacker). With this variant: the arc the attacker's own move "
    "heads into. The board's reading, which fills the attack form, follows the choice.",
    "Air Power, Angle-Off",
    off="the more rearward arc.",
    on="the arc the attacker's own move heads into.",
)

RANGE_TYPED = "gun_range_from_figure"
GUN_RANGE_FROM_FIGURE = Variant(
    RANGE_TYPED,
    "Horizontal gun range typed from the gun-attack figure",
    "Air-to-Air Gun Combat, Range: 'The horizontal range is determined using Figure "
    "air-to-air gun attacks' (not the same procedure as in the rest of the game), a figure "
    "the text does not print. Default: the board fills the horizontal range with the hexes "
    "between the two map locations (0 in the same location). With this variant: the board "
    "shows the hexes apart but the umpire types the horizontal range read off the figure.",
    "Air Power, Air-to-Air Gun Combat: Range",
    off="the board fills the horizontal range with the hexes between the two map locations.",
    on="the umpire types the horizontal range read off the figure.",
)


SSGT_SLOW_NO_MODIFIER = Variant(
    SSGT_SLOW_NONE,
    "SSGT below speed 3: no modifier",
    "SSGT Modifiers: '-1 modifier of each 1/3 of its speed (round down) in accumulated FPs'. "
    "Below speed 3 a third rounds down to 0 FPs, which the text does not provide for.",
    "Air Power, Steady-State Gunsight Tracking: SSGT Modifiers",
    off="a third is taken as 1 FP: each FP of SSGT is -1, up to -2 (speed 2, 2 FPs: -2).",
    on="a third of 0 FPs is never accumulated: no SSGT modifier below speed 3.",
)

GENIE_NEAREST = Variant(
    GENIE_VFPS_NEAREST,
    "Genie flight: the proportion of VFPs rounded to the nearest",
    "Genie Flight: the Genie climbs or dives 'expending the same proportion of FPs as VFPs "
    "that the attacker did'; the text does not say how a fraction of an FP is rounded.",
    "Air Power, Air-to-Air Nuclear Rockets: Genie Flight",
    off="rounded down (Air Power rounds thirds of a speed down): 10 Genie FPs after 4 VFPs "
    "of the launcher's 6 FPs are 6 VFPs (6 2/3).",
    on="rounded to the nearest FP, a half up: the same flight is 7 VFPs.",
)


class AirPower(Ruleset):
    id = "airpower"
    title = "Air Power"
    source = "J.D. Webster, Air Power (revised text, seed 000_8bb6a36db64f6e01)"
    procedure_types = (
        GunAttack,
        AbortGunAttack,
        RadarRanging,
        RocketAttack,
        RecordFlight,
        DefensivePreemption,
        GenieLaunch,
        GenieFlight,
        GenieScatter,
        GenieDetonation,
        DamageRoll,
    )
    ledgers = (
        LedgerSpec(
            Ledger.GUN_AMMUNITION, "Gun ammunition", "gun_ammunition", Fraction(1, 2), GUN_RULE
        ),
        LedgerSpec(
            Ledger.POD_AMMUNITION, "Gun pod ammunition", "pod_ammunition", Fraction(1, 2), GUN_RULE
        ),
        LedgerSpec(
            Ledger.ROCKET_FACTORS, "Rocket factors", "rocket_factors", Fraction(1, 2), ROCKET_RULE
        ),
        LedgerSpec(
            Ledger.GENIES, "Genie rockets", "genies", rule="Air Power, Air-to-Air Nuclear Rockets"
        ),
    )
    variant_list = (
        ORIGINAL_WORDING,
        BORDERLINE_EQUAL_HEADING,
        GUN_RANGE_FROM_FIGURE,
        SSGT_SLOW_NO_MODIFIER,
        GENIE_NEAREST,
    )
    Card = Card
    Details = Details
    State = State
    GameState = GameState
    geometry = AirPowerGeometry()

    def __init__(self, variants: Sequence[str] = ()) -> None:
        super().__init__(variants)
        self.geometry = AirPowerGeometry(
            original_wording=ORIGINAL in self.chosen,
            equal_modifiers_heading=EQUAL_HEADING in self.chosen,
            range_typed=RANGE_TYPED in self.chosen,
        )

    @property
    def aircraft(self) -> Mapping[str, BaseModel]:
        return load_catalogue(AIRCRAFT_DIR, Card, self.id)

    def starting_ledgers(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Fraction]:
        assert isinstance(details, Details)
        c = Card.model_validate(card)
        allowed = set(c.gun_pod_stations)
        for station in details.gun_pods:
            if station not in allowed:
                raise RuleViolation(
                    f"the ADC's station limits do not allow a gun pod on {station} "
                    f"(allowed: {', '.join(sorted(allowed)) or 'none'})"
                )
        out: dict[str, Fraction] = {}
        if c.gun:
            out[Ledger.GUN_AMMUNITION] = c.gun.ammunition
        if details.gun_pods and details.gun_pod_type:
            pods = tables.gun_pods().pods
            if details.gun_pod_type not in pods:
                raise RuleViolation(
                    f"no gun pod type {details.gun_pod_type!r}; known: {', '.join(pods)}"
                )
            ammo = pods[details.gun_pod_type].ammunition
            if not isinstance(ammo, int):
                raise RuleViolation(
                    f"the ammunition of the {details.gun_pod_type} gun pod is not printed in the "
                    "rules text: fill it in (Tables editor, gun_pods) first"
                )
            out[Ledger.POD_AMMUNITION] = Fraction(ammo * len(details.gun_pods))
        rockets = c.rocket_factors + air_to_air_factors(details.ag_rockets, details.ag_rocket_pods)
        if rockets:
            out[Ledger.ROCKET_FACTORS] = rockets
        if c.genies:
            out[Ledger.GENIES] = Fraction(c.genies)
        return out

    def initial_attributes(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Any]:
        assert isinstance(details, Details)
        state = State(
            speed=details.speed or Card.model_validate(card).speed, altitude=details.altitude
        )
        return state.model_dump(
            mode="json", include={"speed", "altitude", "this_turn", "last_turn", "ssgt_fps"}
        )

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        return sequence.STEPS

    def chain_model(self) -> AirPowerChain:
        """The damage rolls a hit owes, as a Markov chain (issue 45), kept with what it has
        worked out until the damage table changes."""
        model: AirPowerChain | None = getattr(self, "_chain", None)
        if model is None or model.table is not tables.damage_table():
            model = self._chain = AirPowerChain(self.chosen)
        return model

    def acting(self, engagement: Engagement) -> Sequence[ActingLine]:
        return sequence.acting(engagement)

    def on_clock(self, engagement: Engagement, turn: int, step: int) -> list[Event]:
        return sequence.on_clock(engagement, turn, step)

    def movement_help(self, engagement: Engagement, aircraft_id: str) -> MovementHelp | None:
        """Rule "Recovery Periods" and the flight record: the FPs flown this game turn and the
        FPs left of its speed, and what the FP just flown allows."""
        a = engagement.get(aircraft_id)
        state = a.typed(State, "attributes")
        speed = state.speed if state.speed is not None else a.typed(Card, "card").speed
        flown = len(state.this_turn)
        lines = [
            ("FPs flown this game turn", f"{flown} of {speed:g}"),
            ("FPs left", f"{max(speed - flown, 0):g}"),
        ]
        if state.tracking_since is not None:
            lines.append(("SSGT", f"{state.ssgt_fps} FP(s) since FP {state.tracking_since}"))
        return MovementHelp(lines=tuple(lines))

    def table_files(self) -> Mapping[str, Path]:
        return tables.table_files()

    def table_headings(self) -> Mapping[str, Mapping[str, Sequence[str]]]:
        """The damage table's modified rolls, the rockets' ranges, the SSGT thirds."""
        return {
            "aircraft_damage": {"results": [f"roll {r}" for r in tables.DAMAGE_ROLLS]},
            "rockets": {
                "rows.hit": [f"Hit at {n} hex{'es' if n > 1 else ''}" for n in range(1, 5)]
            },
            "ssgt_conversion": {"fps": ["1/3", "2/3"]},
        }

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        return card_spec(self, aircraft, engagement)
