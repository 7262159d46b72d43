"""The Nth Fleet ruleset: counters of air points on Air Base Displays (Nth Fleet 1-2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.engagement import AircraftState, Engagement
from app.core.events import AircraftAdded
from app.core.ruleset import (
    ActingLine,
    CardBlock,
    CardSpec,
    LedgerSpec,
    Ruleset,
    Step,
    Variant,
)
from rulesets.nth_fleet import displays, sequence
from rulesets.nth_fleet.air_combat import (
    BELOW_TABLE_NO_DAMAGE,
    INTS_SCREEN,
    ONE_ROLL,
    AirAttack,
    AirCombat,
)
from rulesets.nth_fleet.card import Card as TypeCard
from rulesets.nth_fleet.card import Details, catalogue
from rulesets.nth_fleet.combat import EW_EACH
from rulesets.nth_fleet.displays import (
    start_tracks,
)
from rulesets.nth_fleet.missions import (
    LaunchMissionProc,
    MissionEffectiveness,
    MoveAirPoints,
    ReturnToBase,
)
from rulesets.nth_fleet.printed_card import card_spec
from rulesets.nth_fleet.state import GameState, Ledger, State
from rulesets.nth_fleet.tables import TABLE_FILES


def _details(details: BaseModel) -> Details:
    return details if isinstance(details, Details) else Details.model_validate(details)


class NthFleet(Ruleset):
    id = "nth_fleet"
    title = "Nth Fleet air rules"
    #: losses are air points (rule 2.1): there is no critical hit to keep
    uses_critical_hits = False
    source = "Nth Fleet Games, Air Rules (variant for Victory Games' Fleet series)"
    procedure_types = (
        LaunchMissionProc,
        MissionEffectiveness,
        AirAttack,
        AirCombat,
        ReturnToBase,
        MoveAirPoints,
    )
    ledgers = (LedgerSpec(Ledger.AIR_POINTS, "Air points", "air_points", rule="Nth Fleet 2.1"),)
    variant_list = (
        Variant(
            ONE_ROLL,
            "One roll for a split attack",
            "An attack split over several columns (2.9) makes one 2d5 roll and reads it on "
            "every column, instead of one roll per column.",
            "Nth Fleet 2.9",
            off="one 2d5 roll per column of a split attack.",
            on="one 2d5 roll, read on every column.",
        ),
        Variant(
            BELOW_TABLE_NO_DAMAGE,
            "A modified roll below the attack table: no damage",
            "2.10 and 2.11 modify the 2d5 roll (0-10) by up to -3 or +3, so the modified roll "
            "can fall off the table's printed rows; 2.9 does not say how it is read. Default: "
            "on the nearest printed row (below the first row: the first row; above the last: "
            "the last). With this variant: a modified roll below the first row inflicts no "
            "damage on that column (above the last row is still read on the last row).",
            "Nth Fleet 2.9",
            off="a modified roll off the table is read on the nearest printed row.",
            on="a modified roll below the first row inflicts no damage on that column (above "
            "the last row is still read on the last row).",
        ),
        Variant(
            EW_EACH,
            "Each EW aircraft: +/-1",
            "2.10: 'The air-to-air attack roll is modified +/- 1 for friendly/enemy EW "
            "aircraft.' It does not say what several EW aircraft give.",
            "Nth Fleet 2.10",
            off="+1 for friendly EW and -1 for enemy EW, however many EW aircraft there are.",
            on="+1 for each friendly EW aircraft and -1 for each enemy one (an EW air point is "
            "an aircraft, as 2.2 counts them: an effective 2-point EW mission gives +2).",
        ),
        Variant(
            INTS_SCREEN,
            "INTs screen the others",
            "Damage left over reaches non-INT air points only once every INT air point is shot "
            "down (the text: 'If damage points are still left over, then apply them to non-INT "
            "aircraft' is otherwise read as any damage the INTs could not absorb).",
            "Nth Fleet 2.12",
            off="damage the INTs could not absorb goes on to the non-INT air points.",
            on="non-INT air points are hit only once every INT air point is shot down.",
        ),
    )
    Card = TypeCard
    Details = Details
    State = State
    GameState = GameState
    uses_pilot_quality = False

    @property
    def aircraft(self) -> Mapping[str, TypeCard]:
        return catalogue()

    def table_files(self) -> Mapping[str, Path]:
        return dict(TABLE_FILES)

    def new_aircraft(
        self,
        aircraft_id: str,
        name: str,
        side: str,
        type_id: str,
        pilot: str | None,
        details: Mapping[str, Any],
    ) -> AircraftAdded:
        """A counter on a base display; without a count, the type's own sides give it (2.1)."""
        d = dict(details)
        types = self.aircraft
        counted = any(d.get(k) is not None for k in ("air_points", "count", "unit_sides"))
        if not counted and type_id in types:
            d["unit_sides"] = types[type_id].unit_sides
        return super().new_aircraft(aircraft_id, name, side, type_id, pilot, d)

    def count_of(self, details: BaseModel) -> int:
        return _details(details).points

    def starting_ledgers(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Fraction]:
        return {Ledger.AIR_POINTS: Fraction(_details(details).points)}

    def initial_attributes(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Any]:
        d = _details(details)
        return State(tracks=start_tracks(d.points, d.track)).dump()

    # -- the Displays panel, the printed card, the sequence of play ----------------------------

    def displays(self, engagement: Engagement) -> list[CardBlock]:
        return displays.displays(engagement)

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        return card_spec(self, aircraft, engagement)

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        return sequence.STEPS

    def acting(self, engagement: Engagement) -> list[ActingLine]:
        return sequence.acting(engagement)
