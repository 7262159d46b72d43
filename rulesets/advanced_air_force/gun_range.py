"""Gun range and Snapshot geometry (rules 1, 4, 5, 8, 13; Vertical Dive rules 5, 6)."""

from __future__ import annotations

from pydantic import Field

from app.core.errors import RuleViolation
from app.core.procedure import Calculator, Decision, Draft
from app.core.reckoning import Term, summed, total
from app.core.ruleset import ProcedureInputs

from .card import GunKind

FEET_PER_HEX = 300
RANGE_BY_SUM = "range_adds_altitude"


def altitude_hexes(altitude_difference_ft: int) -> int:
    """Rule 4: 300 ft of altitude differential equals one hex (fractions ignored)."""
    return abs(altitude_difference_ft) // FEET_PER_HEX


class GunRangeInputs(ProcedureInputs):
    horizontal_hexes: int = Field(ge=0, le=30, title="Hexes apart")
    altitude_difference_ft: int = Field(
        0,
        ge=-30000,
        le=30000,
        title="Target altitude minus firer altitude (ft)",
        description="Resulting Game-Turn altitudes (rule 1)",
    )
    gun_type: GunKind = Field("FF", title="Guns")
    attacker_inverted: bool = Field(False, title="Firer inverted", description="rule 13")
    attacker_in_v_dive: bool = Field(False, title="Firer in a Vertical Dive")


class GunRange(Calculator):
    """Rules 1, 4, 5, 13 and V. Dive rule 5: the range in hexes for the fire table.

    The text gives the altitude differential in hexes (300 ft each, fractions ignored) but not
    how it combines with the hexes apart; the default reading takes the larger of the two, the
    variant ``range_adds_altitude`` adds them.
    """

    id = "gun_range"
    title = "Gun range"
    rule = "rules 1, 4, 5, 13; V. Dive rule 5"
    Inputs = GunRangeInputs

    def compute(self, inputs: GunRangeInputs, draft: Draft) -> Decision:
        d = inputs.altitude_difference_ft
        alt = altitude_hexes(d)
        if inputs.attacker_in_v_dive:
            if inputs.horizontal_hexes != 0 or d > 0:
                raise RuleViolation(
                    "V. Dive rule 5: in a Vertical Dive guns fire downward in the V. Dive hex only"
                )
            if -d > 1800:
                raise RuleViolation("V. Dive rule 5: the vertical gun range is at most 1800 ft")
        elif inputs.gun_type == "FF" and (d > 600 or d < -1200):
            raise RuleViolation(
                'rule 5: "FF" guns fire at most 600 ft from below and 1200 ft from above '
                f"({d:+} ft)"
            )
        terms: tuple[Term, ...] = ()
        if RANGE_BY_SUM in self.variants:
            terms = (
                Term("hexes apart", inputs.horizontal_hexes, "rule 1", "range (hexes)"),
                Term("altitude differential, 300 ft a hex", alt, "rule 4", "range (hexes)"),
            )
            rng = total(terms)
        else:
            rng = max(inputs.horizontal_hexes, alt)
        rng = max(rng, 1)
        limit = 2 if inputs.attacker_inverted else 6
        if rng > limit:
            raise RuleViolation(
                f"range {rng} hexes is beyond the maximum gun range of {limit}"
                + (" (rule 13: inverted)" if inputs.attacker_inverted else "")
            )
        shown = str(rng)
        if terms:
            shown = summed(terms) + (f", at least {rng}" if total(terms) != rng else "")
        return Decision(
            f"range {rng}",
            f"{inputs.horizontal_hexes} hex(es) apart, {abs(d)} ft = {alt} hex(es) of altitude: "
            f"range {shown} ({self.rule})",
            modifiers=terms,
        )


class SnapshotInputs(ProcedureInputs):
    target_disadvantaged_or_straight_bomber: bool = Field(
        title="Target is Disadvantaged or a straight-course bomber"
    )
    crosses_target_hex: bool = Field(True, title="Attacker crosses the target's Resulting hex")
    hexes_beyond: int = Field(ge=0, le=20, title="Resulting hexes beyond the side opposite entry")
    attacker_current_altitude_ft: int = Field(ge=0, le=60000)
    attacker_resulting_altitude_ft: int = Field(ge=0, le=60000)
    target_resulting_altitude_ft: int = Field(ge=0, le=60000)
    entered_from_front_hemisphere: bool = Field(False)
    ends_in_target_hex: bool = Field(False, title="Attacker's Resulting hex is the target's")


class Snapshot(Calculator):
    """Rule 8: whether a Snapshot may be taken, and how it is resolved."""

    id = "snapshot_check"
    title = "Snapshot"
    rule = "rule 8"
    Inputs = SnapshotInputs

    def compute(self, inputs: SnapshotInputs, draft: Draft) -> Decision:
        if not inputs.target_disadvantaged_or_straight_bomber:
            raise RuleViolation(
                "rule 8: a Snapshot is taken only at a Disadvantaged aircraft or a "
                "straight-course bomber"
            )
        if not inputs.crosses_target_hex or inputs.hexes_beyond > 2:
            raise RuleViolation(
                "rule 8: the attacker must cross the target's Resulting hex and end no more "
                "than 2 hexes beyond the side opposite its entry"
            )
        cur = inputs.attacker_current_altitude_ft
        tgt = inputs.target_resulting_altitude_ft
        if inputs.ends_in_target_hex or cur == tgt:
            needed = tgt
        elif cur > tgt:
            needed = tgt - 300
        else:
            needed = tgt + 300
        if inputs.attacker_resulting_altitude_ft != needed:
            raise RuleViolation(
                f"rule 8: the attacker's Resulting Altitude must be {needed} ft "
                f"(300 ft on the side opposite its Current Altitude of {cur} ft, or equal)"
            )
        how = (
            "all guns: 1 hex single-roll F Gunnery Play (fire mode snapshot_front)"
            if inputs.entered_from_front_hemisphere
            else "fixed guns: 1 hex K-14 High Deflection; entry-side F guns: 1 hex F Gunnery "
            "Play (fire mode snapshot)"
        )
        return Decision("snapshot allowed", f"Snapshot allowed: {how} ({self.rule})")
