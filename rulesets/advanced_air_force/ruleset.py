"""The Advanced Air Force ruleset object: procedures, ledgers, card, sequence of play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.engagement import AircraftState, Engagement
from app.core.events import Event
from app.core.procedure import Procedure
from app.core.ruleset import ActingLine, CardSpec, LedgerSpec, Ruleset, Step, Variant

from . import advantage_state, sequence
from .advantage import DeclareAdvantage, EndAdvantage
from .altitude import AltitudeChange
from .card import Card, catalogue
from .chain import AafChain
from .geometry import AdvancedAirForceGeometry
from .gun_range import RANGE_BY_SUM, GunRange, Snapshot
from .guns import BEAM_HITS_REAR, FIXED_F_GUNNERY_AS_FLEXIBLE, FLEXIBLE_HD_ONE_ROLL, GunFire
from .hits import E_NAMED_ONCE, W_INTACT_REMAINING
from .printed_card import card_spec
from .speed import ClimbRate, SpeedChange, StallSpeed
from .state import GameState, Ledger, State
from .tables import FIRE_TABLES
from .vertical import V_DIVE_RATE_ADDED, VDiveSurvival, VerticalClimb, VerticalDive

PROCEDURES: tuple[type[Procedure], ...] = (
    GunFire,
    GunRange,
    Snapshot,
    DeclareAdvantage,
    EndAdvantage,
    SpeedChange,
    StallSpeed,
    ClimbRate,
    AltitudeChange,
    VerticalDive,
    VDiveSurvival,
    VerticalClimb,
)


class AdvancedAirForce(Ruleset):
    id = "advanced_air_force"
    title = "Advanced Air Force"
    source = "Advanced Air Force (a variant of Avalon Hill's Air Force), seed 001"
    procedure_types = PROCEDURES
    ledgers = (
        LedgerSpec(
            Ledger.AMMUNITION, "Ammunition (fire resolutions)", "ammunition", rule="rule 12"
        ),
    )
    variant_list = (
        Variant(
            RANGE_BY_SUM,
            "Gun range adds the altitude hexes",
            "Rule 4 makes 300 ft of altitude one hex but does not say how that combines with "
            "the hexes apart. By default the range is the larger of the two; with this variant "
            "the two are added.",
            "rule 4",
            off="the gun range is the larger of the hexes apart and the altitude hexes.",
            on="the two are added.",
        ),
        Variant(
            E_NAMED_ONCE,
            "Rule 24's named types: one loss at the hit named",
            "Rule 24 gives the Il-2 '-1 Power Factor and -1 Max. Level Sp. from 3rd E hit only' "
            "and the P-47 group '-1 Max. Level Sp. from 2nd E hit, -1 Power Factor from 3rd'. "
            "By default each loss is taken for every E hit from the one named on; with this "
            "variant each is taken once, at the hit named.",
            "rule 24",
            off="each loss is taken for every E hit from the one named on.",
            on="each loss is taken once, at the hit named.",
        ),
        Variant(
            W_INTACT_REMAINING,
            "Rule 27: '7+ W intact' counts the unhit W boxes",
            "Rule 27 allows -.5 instead of -.4 'if 7+ W intact'. Default (on): the W boxes "
            "still unhit, the natural reading of 'intact'. Off: the card's number of W boxes.",
            "rule 27",
            default=True,
            off="'7+ W intact' counts the card's number of W boxes.",
            on="it counts the W boxes still unhit.",
        ),
        Variant(
            V_DIVE_RATE_ADDED,
            "V. Dive Rate: '+ 500%' added to the Max. Dive",
            "V. Dive rule 3 modifies the black Max. Dive by '+ 500%, 400% from Maneuver Sp.' "
            "(+ 400% on the second consecutive V. Dive) and makes exit mandatory 'below 500% "
            "black Max. Dive'. Default: the V. Dive Rate is 5 (4) times the Max. Dive, as that "
            "exit limit reads it. With this variant: the percentage is added to the value, 6 "
            "(5) times.",
            "Vertical Dive rule 3",
            off="the V. Dive Rate is 5 (4 on the second) times the black Max. Dive.",
            on="the percentage is added to the value: 6 (5) times.",
        ),
        Variant(
            BEAM_HITS_REAR,
            "Rule 26: fire from 3 or 9 o'clock hits the rear hemisphere",
            "Rule 26 takes 4 flexible Gun Factors off 'the front or the rear hemisphere' per G "
            "hit, but the 3 and 9 o'clock positions are in neither the front (10 to 2) nor the "
            "rear (4 to 8). Default: the front; with this variant: the rear. Either way the "
            "umpire may name the hemisphere in the form.",
            "rule 26",
            off="fire from the 3 or 9 o'clock hits the front hemisphere.",
            on="it hits the rear hemisphere.",
        ),
        Variant(
            FIXED_F_GUNNERY_AS_FLEXIBLE,
            'Fixed guns in "F" Gunnery Play: rules 14 and 22 as for flexible guns',
            "Rules 8 and 11 and V. Dive rule 6 'treat' some fixed-gun fire (a Snapshot into a "
            "hex entered from the front, interlocking front hemispheres at 10+ Speed Points, "
            "fire at a V. Diver) 'as \"F\" Gunnery Play'. Rule 14 adds the Silhouette "
            'Modifier to "FH" guns only; rule 22 multiplies C hits of "F" gunfire and '
            "denies it the Silhouette Modifier. The text does not say whether such fixed fire "
            'becomes "F" gunfire for rules 14 and 22 or only enters fire as it does.',
            "rules 8, 11, 14, 22; V. Dive rule 6",
            off='only the entry is "F" Gunnery Play (one roll above 5): an "FH" gun keeps '
            "its Silhouette Modifier and C hits count once.",
            on='the fire is "F" gunfire for rules 14 and 22 too: no Silhouette Modifier, '
            "and each C hit x2 (seven gun factors or less) or x3 (eight or more).",
        ),
        Variant(
            FLEXIBLE_HD_ONE_ROLL,
            "Flexible guns at High Deflection: the High Deflection roll only",
            "Rule 12's High Deflection roll 'applies to all types of gunfire, including Flexible "
            "(F) gunfire'; rule 15 makes F guns roll a 6 to enter fire. Default: F guns at the "
            "2, 4, 8 or 10 o'clock make both rolls. With this variant: the High Deflection roll "
            "replaces the rule 15 roll there.",
            "rules 12, 15",
            off='"F" guns at the 2, 4, 8 or 10 o\'clock make both the High Deflection roll and '
            "the rule 15 roll.",
            on="the High Deflection roll replaces the rule 15 roll there.",
        ),
    )
    Card = Card
    State = State
    GameState = GameState
    geometry = AdvancedAirForceGeometry()
    uses_pilot_quality = False
    #: rule 2: movement is written secretly; a ruling shown to the players leaves the plot out
    secret_inputs = {
        "speed_change": frozenset(
            {
                "power_used",
                "brake_used",
                "dive_gain",
                "maneuver_and_climb_cost",
                "slips",
                "inverted",
                "half_loop",
                "outside_loop",
                "half_rolls",
                "h_loop_from_level_or_inverted_bank",
            }
        )
    }

    def chain_model(self) -> AafChain:
        """Gunfire and what it leaves on the target (issue 45): no roll owed after it."""
        return AafChain(self.chosen)

    @property
    def aircraft(self) -> Mapping[str, BaseModel]:
        return catalogue()

    def initial_attributes(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Any]:
        return State().model_dump(mode="json", include={"g_hits"})

    def table_headings(self) -> Mapping[str, Mapping[str, Sequence[str]]]:
        """The fire tables as printed: the range columns 1 to 6 hexes, the die rolls 1 to 6."""
        return {
            "fire_tables": {
                "range_table.bands.columns": [
                    f"{n} hex{'es' if n > 1 else ''}" for n in range(1, 7)
                ],
                "result_table.columns": [f"roll {n}" for n in range(1, 7)],
            }
        }

    def table_files(self) -> Mapping[str, Path]:
        return {"fire_tables": FIRE_TABLES}

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        return card_spec(self, aircraft, engagement)

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        return sequence.STEPS

    def on_clock(self, engagement: Engagement, turn: int, step: int) -> list[Event]:
        return sequence.on_clock(engagement, turn, step)

    def acting(self, engagement: Engagement) -> list[ActingLine]:
        return sequence.acting(engagement)

    def written_plot(self, engagement: Engagement, line: ActingLine) -> bool:
        """Rule 2: the unaffected aircraft's movements are "secretly written", and the
        Advantaged plot theirs after the Disadvantaged have moved; the Disadvantaged move in
        the open. So an Airspeed line is a written plot unless its aircraft is Disadvantaged."""
        return line.procedure == "speed_change" and line.who not in advantage_state.disadvantaged(
            engagement
        )
