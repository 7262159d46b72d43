"""The Nth Fleet ruleset: counters of air points on Air Base Displays (Nth Fleet 1-2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.engagement import AircraftState, Engagement
from app.core.errors import MissingTableValue
from app.core.events import AircraftAdded
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
    ledger_tracks,
)
from rulesets.nth_fleet.air_combat import (
    BELOW_TABLE_NO_DAMAGE,
    INTS_SCREEN,
    ONE_ROLL,
    AirAttack,
    AirCombat,
)
from rulesets.nth_fleet.card import Card as TypeCard
from rulesets.nth_fleet.card import Details, catalogue, per_point
from rulesets.nth_fleet.combat import EW_EACH
from rulesets.nth_fleet.displays import (
    PLACES,
    TRACK_TITLES,
    base_display,
    base_of,
    start_tracks,
    tracks_of,
)
from rulesets.nth_fleet.missions import (
    LaunchMissionProc,
    MissionEffectiveness,
    MoveAirPoints,
    ReturnToBase,
    effectiveness_kind,
)
from rulesets.nth_fleet.state import GameState, State, state_of
from rulesets.nth_fleet.tables import TABLE_FILES
from rulesets.nth_fleet.values import attack_value, defence_value, in_int_mode


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
    ledgers = (LedgerSpec("air_points", "Air points", "air_points", rule="Nth Fleet 2.1"),)
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
        return {"air_points": Fraction(_details(details).points)}

    def initial_attributes(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Any]:
        d = _details(details)
        return State(tracks=start_tracks(d.points, d.track)).dump()

    # -- the printed card ------------------------------------------------------------------

    def displays(self, engagement: Engagement) -> list[CardBlock]:
        """Each base's Air Base Display (2.1): its counters' air points per track, with totals."""
        out: list[CardBlock] = []
        header = ("Counter", *(TRACK_TITLES[p] for p in PLACES))
        for base, places in base_display(engagement).items():
            names = list(dict.fromkeys(n for p in PLACES for n in places[p]))
            rows = [(n, *(str(places[p].get(n, 0)) for p in PLACES)) for n in names]
            rows.append(("Total", *(str(sum(places[p].values())) for p in PLACES)))
            out.append(Table(f"Air Base Display: {base} (2.1)", header, tuple(rows)))
        return out

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        card = aircraft.typed(TypeCard, "card")
        blocks: list[CardBlock] = [
            self._counter_block(aircraft, card),
            self._values_block(aircraft, card),
            self._display_block(aircraft, engagement),
            *ledger_tracks(self, aircraft),
            *critical_lines(aircraft),
        ]
        if card.sample:
            blocks.append(
                Lines("Sample data", ("Sample values, not the game's counters: edit the card.",))
            )
        return CardSpec(card.name, tuple(blocks))

    @staticmethod
    def _counter_block(a: AircraftState, card: TypeCard) -> KeyValues:
        s = state_of(a)
        mission = s.mission
        state = "" if mission is None else str(mission)
        if mission is not None and s.mission_name:
            state += f" ({s.mission_name})"
        if mission is not None and effectiveness_kind(mission):
            state += {True: ", effective", False: ", ineffective", None: ", roll pending"}[
                s.effective
            ]
        role = card.role + (f" ({card.specialty})" if card.specialty else "")
        return KeyValues(
            "Counter",
            (
                ("Type", card.name),
                ("Role", role),
                ("Base", base_of(a)),
                ("Air points", str(a.ledger("air_points"))),
                ("Mission", state or "none"),
            ),
        )

    @staticmethod
    def _values_block(a: AircraftState, card: TypeCard) -> KeyValues:
        mission = state_of(a).mission
        try:
            attack = str(attack_value(a.type_id, card, mission))
        except MissingTableValue:
            attack = "half the defence value (missing)"
        try:
            defence = str(defence_value(a.type_id, card))
        except MissingTableValue:
            defence = "missing (Defence Value Table)"
        items = [
            ("Printed air-air", "-" if card.air_air is None else str(card.air_air)),
            ("Attack value" + (" (INT)" if in_int_mode(card, mission) else ""), attack),
            ("Defence value", defence),
        ]
        points = a.ledger("air_points")
        for title, printed in (("Air-surface", card.air_surface), ("ASW", card.asw)):
            value = per_point(printed, card.unit_sides)
            if value is not None:
                items.append((f"{title} per air point (2.4)", f"{value} ({value * points} now)"))
        return KeyValues("Values", tuple(items))

    @staticmethod
    def _display_block(a: AircraftState, engagement: Engagement) -> Table:
        base = base_of(a)
        counters = [c for c in engagement.aircraft.values() if base_of(c) == base]
        rows = [(c.name, *(str(tracks_of(c).at(p)) for p in PLACES)) for c in counters]
        totals = [sum(tracks_of(c).at(p) for c in counters) for p in PLACES]
        rows.append(("Total", *(str(t) for t in totals)))
        return Table(
            f"Air Base Display: {base} (2.1)",
            ("Counter", *(TRACK_TITLES[p] for p in PLACES)),
            tuple(rows),
        )

    # -- sequence of play ------------------------------------------------------------------

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        """The air phases the text names; the rest of the turn is the Fleet series' (1.1)."""
        return (
            Step(
                "Strategic air phase",
                "Strategic air phase",
                "Strategic non-INT missions under 4 air points roll for effectiveness (2.3); "
                "combat aborts RCN and tactical coordination points (2.14).",
                "Nth Fleet 2.3, 2.14",
            ),
            Step(
                "Activation phase",
                "Activation phase",
                "Strikes fly with their escorts; combat aborts strike points (2.13).",
                "Nth Fleet 2.2, 2.13",
            ),
            Step(
                "Return to base phase",
                "Return to base phase",
                "Missions aloft, ineffective ones too, land on the used track (2.1, 2.3).",
                "Nth Fleet 2.1, 2.3",
            ),
        )

    def acting(self, engagement: Engagement) -> list[Acting]:
        """Who acts in each air phase (issue 14), each line opening its procedure: counters
        with unused points may launch missions (2.2: strategic ones in the strategic phase,
        strikes, escorts and CAP at activation); aloft missions roll for effectiveness (2.3);
        when both sides have points aloft or on CAP at activation, a side line opens the air
        combat (2.9-2.12); at return to base every mission aloft lands (2.1)."""
        steps = self.steps(engagement)
        if not 0 <= engagement.step < len(steps):
            return []
        phase = steps[engagement.step].phase
        counters = list(engagement.aircraft.values())
        if phase == "Return to base phase":
            return [
                (a.id, "returns to base (2.1)", "return_to_base")
                for a in counters
                if tracks_of(a).aloft
            ]
        out: list[Acting] = []
        strategic = phase == "Strategic air phase"
        what = (
            "may fly a strategic mission (2.2)"
            if strategic
            else ("may launch a strike, escort or CAP (2.2)")
        )
        out += [(a.id, what, "launch_mission") for a in counters if tracks_of(a).unused]
        out += [
            (a.id, "rolls for mission effectiveness (2.3)", "mission_effectiveness")
            for a in counters
            if state_of(a).tracks.aloft
            and state_of(a).effective is None
            and effectiveness_kind(state_of(a).mission)
        ]
        if not strategic:
            up = [a for a in counters if tracks_of(a).aloft or tracks_of(a).cap]
            sides = [s for s in engagement.sides if any(a.side == s for a in up)]
            if len(sides) >= 2:
                # the line names a counter of each force (issue 28): the air combat opens
                # with its attacking force and the enemy's, their totals shown before the roll
                lead = next(a for a in up if a.side == sides[0])
                enemy = next(a for a in up if a.side != sides[0])
                out.append(
                    (
                        lead.id,
                        f"{lead.side}: air combat against {enemy.side}'s forces (2.9-2.12)",
                        "air_combat",
                        enemy.id,
                    )
                )
        return out
