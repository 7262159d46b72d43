"""Air Power's AIR-2 Genie nuclear rocket (rule "Air-to-Air Nuclear Rockets"): launch,
scatter, detonation and the blast zone."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, model_validator

from app.core import hexgrid
from app.core.data import cell
from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, LedgerChanged, StatusChanged
from app.core.procedure import Calculator, Decision, Draft, Procedure
from app.core.reckoning import Term, summed, total
from app.core.ruleset import AircraftInputs, ProcedureInputs
from rulesets.airpower.attacks import FormationInput, check_formation, pending_hit
from rulesets.airpower.geometry import HexPosition
from rulesets.airpower.state import Ledger, State
from rulesets.airpower.tables import GENIE, genie_table

GENIE_RULE = "Air Power, Air-to-Air Nuclear Rockets"
BLAST_HEXES = 6
#: rule "Genie Flight": "Each VFP expended must gain or lose two levels of altitude"
VFP_LEVELS = 2


def blast_range(hexes: int, altitude_difference: int) -> int:
    """Range from the point of detonation: hexes plus two altitude levels per hex (rounded
    down, as "count two altitude levels as 1 hex" in the original wording)."""
    if hexes < 0:
        raise ValueError("hexes cannot be negative")
    return hexes + abs(altitude_difference) // 2


def blast_terms(range_hexes: int, die: str = "") -> list[Term]:
    """Rule "Nuclear Attack": "The attack rating is 12 minus 2 for each hex of range from the
    point of detonation" (the worked example: 12 - (2 x 4 hexes) = 4), as its two terms, the
    range's with its minus sign; the zone extends to six hexes."""
    if not 0 <= range_hexes <= BLAST_HEXES:
        raise RuleViolation(
            f"range {range_hexes}: the blast zone extends to {BLAST_HEXES} hexes only"
        )
    rule = GENIE_RULE + ": Nuclear Attack"
    return [
        Term("Genie warhead", 12, rule, die),
        Term(f"{range_hexes} hex(es) of range, 2 each", -2 * range_hexes, rule, die),
    ]


def blast_rating(range_hexes: int) -> int:
    """Rule "Nuclear Attack": the attack rating at this range, the sum of ``blast_terms``."""
    return total(blast_terms(range_hexes))


def scatter_distance(roll: int) -> int:
    """Rule "Genie Scatter": the second roll halved, rounded down."""
    if not 1 <= roll <= 10:
        raise ValueError(f"{roll} is not a d10 roll")
    return roll // 2


class LaunchInputs(ProcedureInputs):
    launch_number: int | None = Field(
        None, ge=0, le=10, title="Genie launch number", description="default: the Genie table"
    )
    has_lock_on: bool = Field(True, title="Radar lock-on to the target")
    ends_wings_level: bool = Field(True, title="Ends its move neither turning nor maneuvering")
    close_formation_wingman: bool = Field(
        False, title="Wingman in a close formation", description="original wording only"
    )


class GenieLaunch(FormationInput, Procedure):
    """Rule "Genie Launch": with a radar lock-on to the target and ending its move neither
    turning nor maneuvering, roll in the air-to-air missile launch phase: at most the Genie's
    launch number launches; otherwise a dud motor or warhead, removed from play."""

    id = "genie_launch"
    title = "Genie launch"
    rule = GENIE_RULE + ": Genie Launch"
    Inputs = LaunchInputs

    def number(self, inputs: LaunchInputs) -> int:
        check_formation(inputs.close_formation_wingman, self.variants, "rockets")
        if not inputs.has_lock_on:
            raise RuleViolation("a Genie needs a radar lock-on to the target")
        if not inputs.ends_wings_level:
            raise RuleViolation(
                "a Genie launcher must end its move neither turning nor maneuvering"
            )
        if inputs.launch_number is not None:
            return inputs.launch_number
        return cell(genie_table().launch_number, GENIE, "launch number", self.rule)

    def decide(self, inputs: LaunchInputs, dice: DiceSource, draft: Draft) -> Decision:
        n = self.number(inputs)
        if inputs.attacker:
            # launched or a dud, the Genie is gone
            draft.emit(
                LedgerChanged(
                    aircraft=inputs.attacker,
                    ledger=Ledger.GENIES,
                    delta=Fraction(-1),
                    reason=self.rule,
                )
            )
        roll = dice.roll("d10", "Genie launch").total
        outcome = "launched" if roll <= n else "miss"
        given = inputs.launch_number is not None
        what = "Genie launch number" + (" (typed)" if given else " (the Genie table)")
        terms = (Term(what, n, self.rule, "Genie launch: at most"),)
        if outcome == "launched" and inputs.attacker:
            turn = draft.engagement.turn
            draft.emit(
                AttributesSet(aircraft=inputs.attacker, values={"genie_launched_turn": turn})
            )
        said = "launched" if outcome == "launched" else "dud motor or warhead, removed from play"
        return Decision(
            outcome,
            f"Genie launch: d10 {roll} against {n}: {said} ({self.rule})",
            modifiers=terms,
        )


class FlightInputs(AircraftInputs):
    """The launcher's flight in the game turn of launch and where the Genie starts."""

    launcher_fps: int = Field(1, ge=1, le=30, title="Launcher's FPs this game turn")
    launcher_vfps: int = Field(0, ge=0, le=30, title="Of which VFPs")
    vertical: Literal["climb", "dive"] = Field("climb", title="The launcher climbed or dived")
    altitude: int = Field(0, ge=0, title="Genie altitude level at launch")

    @model_validator(mode="after")
    def _vfps(self) -> FlightInputs:
        if self.launcher_vfps > self.launcher_fps:
            raise ValueError("more VFPs than FPs flown by the launcher")
        return self


#: the reading of "the same proportion" rounded to the nearest FP (the ruleset's variants)
GENIE_VFPS_NEAREST = "genie_vfps_nearest"


def genie_vfps(genie_fps: int, launcher_fps: int, launcher_vfps: int, nearest: bool = False) -> int:
    """Rule "Genie Flight": the Genie expends "the same proportion of FPs as VFPs that the
    attacker did". The text does not say how a fraction of an FP is rounded. Default: down
    (Air Power rounds thirds of a speed down); with the ``genie_vfps_nearest`` reading
    (``nearest``): to the nearest FP, a half up."""
    exact = Fraction(genie_fps * launcher_vfps, launcher_fps)
    return math.floor(exact + Fraction(1, 2)) if nearest else math.floor(exact)


class GenieFlight(Calculator):
    """Rule "Genie Flight": unguided, the Genie flies forward for its entire movement as HFPs,
    unless the launcher climbed or dived in the game turn of launch: then it climbs or dives
    with the same proportion of its FPs as VFPs, each VFP gaining or losing two levels."""

    id = "genie_flight"
    title = "Genie flight"
    rule = GENIE_RULE + ": Genie Flight"
    Inputs = FlightInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        """The launcher's FPs flown this game turn and its altitude, from its state."""
        state = a.typed(State, "attributes")
        out: dict[str, Any] = {"altitude": state.altitude}
        if state.this_turn:
            out["launcher_fps"] = len(state.this_turn)
        return out

    def compute(self, inputs: FlightInputs, draft: Draft) -> Decision:
        fps = cell(genie_table().fps, GENIE, "the Genie's FPs", self.rule)
        nearest = GENIE_VFPS_NEAREST in self.variants
        vfps = genie_vfps(fps, inputs.launcher_fps, inputs.launcher_vfps, nearest)
        levels = VFP_LEVELS * vfps
        sign = 1 if inputs.vertical == "climb" else -1
        die = "Genie altitude"
        terms = (
            Term("the launcher's altitude", inputs.altitude, self.rule, die),
            Term(
                f"{vfps} VFP(s) {inputs.vertical}ing, {VFP_LEVELS} levels each",
                sign * levels,
                self.rule,
                die,
            ),
        )
        end = total(terms)
        if end < 0:
            raise RuleViolation(
                f"the Genie dives {levels} levels from level {inputs.altitude}: it reaches the "
                "ground before the end of its flight"
            )
        outcome = f"{fps - vfps} HFPs, {vfps} VFPs: altitude {end}"
        said = (
            f"Genie flight: {fps} FPs, {vfps} of them VFPs ({inputs.launcher_vfps} of the "
            f"launcher's {inputs.launcher_fps} FPs), {inputs.vertical} {levels} levels to "
            f"altitude {summed(terms)}; {fps - vfps} hexes straight ahead ({self.rule})"
        )
        return Decision(outcome, said, modifiers=terms)


class ScatterInputs(AircraftInputs):
    x: float | None = Field(None, allow_inf_nan=False, title="Genie position x (column)")
    y: float | None = Field(None, allow_inf_nan=False, title="Genie position y")
    facing: int = Field(0, title="Genie facing")

    @model_validator(mode="after")
    def _position(self) -> ScatterInputs:
        if (self.x is None) != (self.y is None):
            raise ValueError("give both x and y of the Genie, or neither")
        if self.x is not None and self.y is not None:
            HexPosition(self.x, self.y, self.facing)
        return self


def _scatter_label(direction_roll: int, distance: int) -> str:
    return "no scatter" if distance == 0 else f"{distance} hex(es), direction roll {direction_roll}"


class GenieScatter(Procedure):
    """Rule "Genie Scatter": after the Genie and all aircraft have moved, a first d10 gives the
    direction (scatter figure) and a second d10, halved and rounded down, the hexes."""

    id = "genie_scatter"
    title = "Genie scatter"
    rule = GENIE_RULE + ": Genie Scatter"
    Inputs = ScatterInputs

    def landing(self, inputs: ScatterInputs, direction_roll: int, distance: int) -> str:
        """Where the Genie ends up, when the position is given and the figure filled in."""
        if inputs.x is None or inputs.y is None or distance == 0:
            return ""
        turn = cell(
            genie_table().direction[str(direction_roll)],
            GENIE,
            f"scatter direction for a roll of {direction_roll}",
            self.rule,
        )
        heading = (inputs.facing + turn) % 360
        if hexgrid.kind(inputs.x, inputs.y) == "side" or heading % 60 != 30:
            return f"; move it {distance} hex(es) towards {heading} degrees"
        x, y = inputs.x, inputs.y
        for _ in range(distance):
            x, y = hexgrid.step(x, y, heading)
        return f"; it lands at ({x:g}, {y:g})"

    def decide(self, inputs: ScatterInputs, dice: DiceSource, draft: Draft) -> Decision:
        direction = dice.roll("d10", "scatter direction").total
        distance_roll = dice.roll("d10", "scatter distance").total
        distance = scatter_distance(distance_roll)
        where = self.landing(inputs, direction, distance)
        return Decision(
            _scatter_label(direction, distance),
            f"Genie scatter: direction roll {direction}, distance roll {distance_roll} / 2 = "
            f"{distance} hex(es){where} ({self.rule})",
        )


class DetonationInputs(ProcedureInputs):
    """The aircraft in the blast zone and their range from the point of detonation."""

    in_zone: list[str] = Field(
        default_factory=list, title="Aircraft in the zone (ids)", max_length=200
    )
    hexes: list[int] = Field(
        default_factory=list, title="Hexes from the detonation, per aircraft", max_length=200
    )
    altitude_difference: list[int] = Field(
        default_factory=list, title="Altitude levels from the detonation, per aircraft"
    )

    @model_validator(mode="after")
    def _lengths(self) -> DetonationInputs:
        if not (len(self.in_zone) == len(self.hexes) == len(self.altitude_difference)):
            raise ValueError("give hexes and altitude difference for each aircraft in the zone")
        for h, a in zip(self.hexes, self.altitude_difference, strict=True):
            r = blast_range(h, a)
            if r > BLAST_HEXES:
                raise ValueError(f"range {r}: the blast zone extends to {BLAST_HEXES} hexes only")
        return self


class GenieDetonation(Procedure):
    """Rule "Nuclear Attack": after scattering, a d10: 10 is a dud; otherwise the blast zone
    reaches six hexes: aircraft in the same position are vaporised, others automatically hit
    with attack rating 12 - 2 x range."""

    id = "genie_detonation"
    title = "Genie detonation"
    rule = GENIE_RULE + ": Nuclear Attack"
    Inputs = DetonationInputs

    def effects(self, inputs: DetonationInputs) -> list[tuple[str, int | None]]:
        """(aircraft, attack rating), ``None`` for vaporised (same position)."""
        out: list[tuple[str, int | None]] = []
        for a, h, alt in zip(inputs.in_zone, inputs.hexes, inputs.altitude_difference, strict=True):
            out.append((a, None if h == 0 and alt == 0 else blast_rating(blast_range(h, alt))))
        return out

    def decide(self, inputs: DetonationInputs, dice: DiceSource, draft: Draft) -> Decision:
        roll = dice.roll("d10", "Genie warhead").total
        if roll == 10:
            return Decision("miss", f"Genie warhead: d10 10, a dud ({self.rule})")
        said = []
        terms: list[Term] = []
        ranges = [
            blast_range(h, alt)
            for h, alt in zip(inputs.hexes, inputs.altitude_difference, strict=True)
        ]
        for (aircraft, rating), r in zip(self.effects(inputs), ranges, strict=True):
            a = _in_zone(draft, aircraft)
            name = a.name if a is not None else aircraft
            if rating is not None:
                mine = blast_terms(r, f"attack rating on {name}")
                terms += mine
            if rating is None:
                said.append(f"{name} vaporised")
                if a is not None:
                    draft.emit(
                        StatusChanged(aircraft=a.id, set=(Status.DESTROYED, Status.PILOT_KILLED))
                    )
            else:
                said.append(f"{name} hit, attack rating {summed(mine)}")
                if a is not None:
                    draft.emit(pending_hit(draft, a.id, rating, "Genie", self.rule))
        return Decision(
            "detonation",
            f"Genie warhead: d10 {roll}, detonates: "
            + ("; ".join(said) if said else "no aircraft in the zone")
            + f" ({self.rule})",
            modifiers=tuple(terms),
        )


def _in_zone(draft: Draft, aircraft: str) -> AircraftState | None:
    """An aircraft named in the blast zone; ``None`` in a what-if (an engagement without
    aircraft: the odds before the roll), where it is only named in the narrative."""
    if not draft.engagement.aircraft:
        return None
    return draft.get(aircraft)
