"""Advantage procedures (rules 2, 3, 6, 7; Vertical Dive rule 6).

The advantage table lives in the game attribute ``advantage`` (see ``advantage_state``).
"""

from __future__ import annotations

from pydantic import Field

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import Event
from app.core.procedure import Calculator, Decision, Draft
from app.core.ruleset import AircraftInputs, ProcedureInputs

from . import advantage_state
from .card import Card
from .state import Advantage, state_of

ADVANTAGE_ALTITUDE_FT = 1200
V_DIVE_ADVANTAGE_FT = 2400


class DeclareAdvantageInputs(ProcedureInputs):
    attacker: str | None = Field(None, title="Pursuer")
    target: str | None = Field(None, title="Target")
    altitude_difference_ft: int = Field(
        0,
        ge=-30000,
        le=30000,
        title="Target altitude minus pursuer altitude (ft)",
        description="Resulting Game-Turn altitudes (rules 1, 3)",
    )
    pursuer_in_v_dive: bool = Field(False, title="Pursuer in a Vertical Dive")
    target_in_v_dive: bool = Field(False, title="Target in a Vertical Dive")
    hexes_from_v_dive_hex: int = Field(
        0,
        ge=0,
        le=30,
        title="Pursuer's hexes from the target's V. Dive hex",
        description="V. Dive rules 4, 6: within 2 hexes inclusively",
    )


def altitude_allows(inputs: DeclareAdvantageInputs) -> str | None:
    """Why rule 3 or V. Dive rules 4 and 6 forbid this Advantage, or None if they allow it."""
    d = inputs.altitude_difference_ft
    if inputs.pursuer_in_v_dive != inputs.target_in_v_dive:
        return (
            "V. Dive rule 6: no Advantage gain between V. Divers and non-V. Divers (gunfire only)"
        )
    if inputs.pursuer_in_v_dive:
        if not -V_DIVE_ADVANTAGE_FT <= d <= -100:
            return (
                "V. Dive rule 6: in a Vertical Dive the Advantage is gained only on a V. Diving "
                "aircraft .1 to 2400 ft directly below"
            )
        if inputs.hexes_from_v_dive_hex > 2:
            return (
                "V. Dive rules 4, 6: the Advantage over a V. Diver holds only within 2 hexes "
                "of its V. Dive hex"
            )
        return None
    if abs(d) > ADVANTAGE_ALTITUDE_FT:
        return f"rule 3: the Advantage altitude limit is 1200 ft above or below ({d:+} ft)"
    return None


class DeclareAdvantage(Calculator):
    """Rules 2, 3, 7 (V. Dive rules 4, 6): gain or repeat the Advantage over a target within
    1200 ft (2400 ft directly below between V. Divers)."""

    id = "declare_advantage"
    title = "Declare Advantage"
    rule = "rules 2, 3, 6, 7"
    Inputs = DeclareAdvantageInputs

    def compute(self, inputs: DeclareAdvantageInputs, draft: Draft) -> Decision:
        why = altitude_allows(inputs)
        if why:
            raise RuleViolation(why)
        if inputs.attacker is None or inputs.target is None:
            return Decision("advantage", "altitudes allow the Advantage (rule 3)")
        engagement = draft.engagement
        att, tgt = inputs.attacker, inputs.target
        if att == tgt:
            raise RuleViolation("an aircraft cannot hold the Advantage over itself")
        a, t = engagement.get(att), engagement.get(tgt)
        for x in (a, t):
            if not x.in_play:
                raise RuleViolation(f"{x.name} is out of play")
        table = advantage_state.advantages(engagement)
        if att in advantage_state.disadvantaged(engagement):
            raise RuleViolation(f"rule 7: {a.name} is Disadvantaged and cannot hold an Advantage")
        card = a.typed(Card, "card")
        if not card.is_fighter and not card.has_fixed_guns:
            raise RuleViolation(
                f"rule 2: {a.name} is not a fighter and has no fixed guns: no Advantage"
            )
        held = table.get(att)
        consecutive = 1
        if held is not None:
            if held.target != tgt:
                other = engagement.get(held.target).name
                raise RuleViolation(
                    f"rule 2: {a.name} holds the Advantage over {other}, which forbids "
                    f"Disadvantaging {t.name}; end that Advantage first"
                )
            if held.turn == engagement.turn:
                raise RuleViolation(
                    f"{a.name} already declared the Advantage over {t.name} this Game-Turn"
                )
            if held.turn == engagement.turn - 1:
                consecutive = 2
                if state_of(a).factors_on_resulting_turn == engagement.turn:
                    raise RuleViolation(
                        f"rule 2: {a.name} used Power or Brake Factors on the Resulting "
                        "Airspeed this Game-Turn; to repeat the Advantage they are used only on "
                        "the Current Game-Turn Airspeed"
                    )
        table[att] = Advantage(target=tgt, turn=engagement.turn, consecutive=consecutive)
        lost = table.pop(tgt, None)
        outcome = "second consecutive advantage" if consecutive == 2 else "advantage"
        narrative = f"{a.name} holds the {outcome} over {t.name} (rules 2, 3)"
        if lost is not None:
            narrative += f"; {t.name}, now Disadvantaged, loses its own Advantage (rule 7)"
        draft.emit(advantage_state.table_set(table))
        return Decision(outcome, narrative)


class EndAdvantageInputs(AircraftInputs):
    aircraft: str | None = Field(None, title="Advantaged aircraft")


class EndAdvantage(Calculator):
    """Rules 2, 6: the pursuer loses (or gives up) its Advantage."""

    id = "end_advantage"
    title = "End Advantage"
    rule = "rules 2, 6"
    Inputs = EndAdvantageInputs

    def compute(self, inputs: EndAdvantageInputs, draft: Draft) -> Decision:
        if inputs.aircraft is None:
            return Decision("advantage ended", "advantage ended (rules 2, 6)")
        a = draft.get(inputs.aircraft)
        table = advantage_state.advantages(draft.engagement)
        if inputs.aircraft not in table:
            raise RuleViolation(f"{a.name} holds no Advantage")
        table.pop(inputs.aircraft)
        draft.emit(advantage_state.table_set(table))
        return Decision("advantage ended", f"{a.name} no longer holds the Advantage (rules 2, 6)")


def expire_advantages(engagement: Engagement, turn: int) -> list[Event]:
    """At a new Game-Turn, drop Advantages not repeated on the Game-Turn before (rule 2)."""
    if turn <= engagement.turn:
        return []
    table = advantage_state.advantages(engagement)
    kept = {k: v for k, v in table.items() if v.turn >= turn - 1}
    if kept == table:
        return []
    return [advantage_state.table_set(kept)]
