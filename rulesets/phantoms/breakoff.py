"""Disengaging and break-off checks (10.0)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.core.contest import opposed
from app.core.dice import DiceSource
from app.core.engagement import Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, StatusChanged
from app.core.procedure import Calculator, Decision, Draft, Procedure
from app.core.reckoning import Term, total
from app.core.ruleset import AircraftInputs, PilotQuality, prefill_subject
from rulesets.phantoms.spotting import UnspottedInput, unspotted_modifier
from rulesets.phantoms.state import in_play, pilot_of, state_of, tailed
from rulesets.phantoms.tables import tables


def turn_modifier(turn: int, chart: bool) -> int:
    """10.0 game-turn modifier: the text's (default) or the Game Turn chart's."""
    row = tables().break_off.chart_turns if chart else tables().break_off.text_turns
    return row[min(turn, len(row)) - 1]


class BreakOffInputs(AircraftInputs):
    turn: int = Field(1, ge=1, title="Game turn")
    pilot: PilotQuality = Field("average", title="Pilot quality")
    unspotted: bool = Field(False, title="Aircraft not spotted (13.0, +5)")
    tailed: bool = Field(False, title="An enemy is in tailing position (6.1.1): not allowed")


class BreakOff(UnspottedInput, Procedure):
    """10.0 Break-off check: d10 + game-turn modifier + pilot (+5 unspotted) must beat an
    enemy's d10; not allowed with an enemy in tailing position."""

    unspotted_field = "unspotted"

    id = "break_off"
    title = "Break-off check"
    rule = "10.0"
    Inputs = BreakOffInputs

    def terms(self, i: BreakOffInputs) -> list[Term]:
        """10.0's modifiers of the break-off die: the game turn's, the pilot's (+1 Ace, -2
        Green), +5 not spotted (13.0)."""
        t = tables()
        die = "break-off: aircraft"
        chart = "breakoff_chart_modifiers" in self.variants
        out = [Term(f"game turn {i.turn}", turn_modifier(i.turn, chart), "10.0", die)]
        pilot = t.pilot.break_off[i.pilot]
        if pilot:
            out.append(Term(f"{i.pilot.capitalize()} pilot", pilot, "10.0", die))
        unspotted = unspotted_modifier(i.unspotted, self.variants, t.break_off.unspotted)
        if unspotted:
            out.append(Term("not spotted", unspotted, "13.0", die))
        return out

    def modifier(self, i: BreakOffInputs) -> int:
        return total(self.terms(i))

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        a = prefill_subject(engagement, attacker, target)
        if a is None:
            return {"turn": engagement.turn}
        return {"turn": engagement.turn, "pilot": pilot_of(a), "tailed": a.id in tailed(engagement)}

    def decide(self, inputs: BreakOffInputs, dice: DiceSource, draft: Draft) -> Decision:
        e = draft.engagement
        a = None
        if inputs.aircraft:
            a = draft.get(inputs.aircraft)
            in_play(a)
            if e.step != 1:
                raise RuleViolation(
                    "break-off checks are made in the Break-Off Check Phase (3.0, 10.0)"
                )
            if state_of(a).break_off_turn == e.turn:
                raise RuleViolation(f"{a.name} has already attempted to break off this turn")
            known = self.prefill(e, a.id, None)
            inputs = inputs.model_copy(
                update={k: v for k, v in known.items() if k != "tailed" or v}
            )
        if inputs.tailed:
            raise RuleViolation(
                "an aircraft with an enemy in tailing position may not break off (10.0)"
            )
        m = self.modifier(inputs)
        c = opposed(dice, "break-off", m, sides=("aircraft", "enemy"))
        r1, r2 = c.first_roll, c.second_roll
        outcome = "broken off" if c.won else "still engaged"
        if a is not None:
            if outcome == "broken off":
                draft.emit(StatusChanged(aircraft=a.id, set=(Status.BROKEN_OFF,)))
            draft.emit(AttributesSet(aircraft=a.id, values={"break_off_turn": e.turn}))
        return Decision(
            outcome,
            f"break-off {r1}{m:+d} = {r1 + m} vs enemy {r2}: {outcome} (10.0)",
            modifiers=tuple(self.terms(inputs)),
        )


class Disengage(Calculator):
    """10.0: with a static map an aircraft may leave the game by flying off the map edge."""

    id = "disengage"
    title = "Fly off the map"
    rule = "10.0"
    Inputs = AircraftInputs

    def compute(self, inputs: AircraftInputs, draft: Draft) -> Decision:
        if inputs.aircraft:
            # a what-if names no aircraft: nothing leaves the game, so the map is not checked
            if "static_map" not in self.variants:
                raise RuleViolation("flying off the map disengages only on a static map (10.0)")
            a = draft.get(inputs.aircraft)
            in_play(a)
            draft.emit(StatusChanged(aircraft=a.id, set=(Status.BROKEN_OFF,)))
        return Decision("disengaged", "the aircraft flies off the map and leaves the game (10.0)")
