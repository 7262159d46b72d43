"""Initiative (4.0): one modified d10 per side, ties re-rolled; the marker may be passed."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.core.dice import DiceSource, reroll_until
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import InitiativeSet
from app.core.procedure import Calculator, Decision, Draft, Procedure
from app.core.reckoning import Term, total, worked
from app.core.ruleset import ProcedureInputs
from rulesets.phantoms.state import is_loaded, state_of
from rulesets.phantoms.tables import D10, tables


class InitiativeInputs(ProcedureInputs):
    first_side: str = Field("Blue", title="First side")
    second_side: str = Field("Red", title="Second side")
    first_ace: bool = Field(False, title="First side has an Ace pilot (+2)")
    first_loaded: bool = Field(False, title="First side has a loaded aircraft (-2)")
    first_only_green_or_inexperienced: bool = Field(
        False, title="First side: only Inexp./Green (-2)"
    )
    first_controller: bool = Field(False, title="First side: ground/airborne controller (+1)")
    second_ace: bool = Field(False, title="Second side has an Ace pilot (+2)")
    second_loaded: bool = Field(False, title="Second side has a loaded aircraft (-2)")
    second_only_green_or_inexperienced: bool = Field(
        False, title="Second side: only Inexp./Green (-2)"
    )
    second_controller: bool = Field(False, title="Second side: ground/airborne controller (+1)")


def side_terms(
    ace: bool, loaded: bool, only_green: bool, controller: bool, die: str = ""
) -> list[Term]:
    """4.0 "The modifiers for the initiative roll for the side": Ace Pilot +2, Loaded
    Aircraft -2, Only Inexp. or Green Pilots -2, Ground or Airborne Controller +1, each with
    its sign, added to the side's die (``die``: its purpose)."""
    t = tables().initiative
    out = []
    if ace:
        out.append(Term("Ace Pilot", t.ace, "4.0", die))
    if loaded:
        out.append(Term("Loaded Aircraft", t.loaded, "4.0", die))
    if only_green:
        out.append(Term("Only Inexp. or Green Pilots", t.only_green_or_inexperienced, "4.0", die))
    if controller:
        out.append(Term("Ground or Airborne Controller", t.controller, "4.0", die))
    return out


def side_modifier(ace: bool, loaded: bool, only_green: bool, controller: bool) -> int:
    """4.0 Initiative Marker die roll modifiers for a side: the sum of ``side_terms``."""
    return total(side_terms(ace, loaded, only_green, controller))


class Initiative(Procedure):
    """4.0 Initiative: each side rolls a d10 and adds its modifiers; the higher holds the
    Initiative Marker (places maneuver markers and fires first); ties are re-rolled."""

    id = "initiative"
    title = "Initiative"
    rule = "4.0"
    Inputs = InitiativeInputs

    def terms(self, i: InitiativeInputs) -> tuple[list[Term], list[Term]]:
        """Each side's 4.0 modifiers, added to its die ("initiative for <side>")."""
        return (
            side_terms(
                i.first_ace,
                i.first_loaded,
                i.first_only_green_or_inexperienced,
                i.first_controller,
                f"initiative for {i.first_side}",
            ),
            side_terms(
                i.second_ace,
                i.second_loaded,
                i.second_only_green_or_inexperienced,
                i.second_controller,
                f"initiative for {i.second_side}",
            ),
        )

    def modifiers(self, i: InitiativeInputs) -> tuple[int, int]:
        one, two = self.terms(i)
        return total(one), total(two)

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        sides = engagement.sides
        if len(sides) < 2:
            return {}
        out: dict[str, Any] = {"first_side": sides[0], "second_side": sides[1]}
        for key, side in (("first", sides[0]), ("second", sides[1])):
            planes = [a for a in engagement.on_side(side) if a.in_play]
            out[f"{key}_ace"] = any(a.pilot == "ace" for a in planes)
            out[f"{key}_loaded"] = any(is_loaded(a) for a in planes)
            out[f"{key}_only_green_or_inexperienced"] = bool(planes) and all(
                a.pilot in ("green", "inexperienced") for a in planes
            )
            out[f"{key}_controller"] = any(state_of(a).controller for a in planes)
        return out

    def decide(self, inputs: InitiativeInputs, dice: DiceSource, draft: Draft) -> Decision:
        """4.0: a modified d10 per side, the higher holds the marker; a tie rolls both again
        (``reroll_until``: the odds are one round's, conditioned on a round without a tie)."""
        if inputs.first_side == inputs.second_side:
            raise RuleViolation("initiative is rolled between two different sides")
        t1, t2 = self.terms(inputs)
        m1, m2 = total(t1), total(t2)
        rolled = reroll_until(
            dice,
            (
                (D10, f"initiative for {inputs.first_side}"),
                (D10, f"initiative for {inputs.second_side}"),
            ),
            lambda t: t[0] + m1 != t[1] + m2,
        )
        ties = rolled.value
        s1, s2 = rolled.rolls[0].total + m1, rolled.rolls[1].total + m2
        first = s1 > s2
        holder = inputs.first_side if first else inputs.second_side
        other = inputs.second_side if first else inputs.first_side
        outcome = f"{holder} holds the marker"
        draft.emit(
            InitiativeSet(
                order=(holder, other),
                marker=holder,
                scores={inputs.first_side: s1, inputs.second_side: s2},
            )
        )
        extra = f" after {ties} tie(s) re-rolled" if ties else ""
        f1, f2 = rolled.rolls[0].total, rolled.rolls[1].total
        return Decision(
            outcome,
            f"initiative {inputs.first_side} {worked(f1, t1)} vs {inputs.second_side} "
            f"{worked(f2, t2)}{extra}: {outcome} (4.0)",
            modifiers=(*t1, *t2),
        )


class PassInputs(ProcedureInputs):
    to: str | None = Field(
        None, title="Pass the marker to", description="a side (empty: the next side in order)"
    )


class PassInitiative(Calculator):
    """4.0: a side may pass the Initiative Marker to the other side at the end of any segment."""

    id = "pass_initiative"
    title = "Pass the Initiative Marker"
    rule = "4.0"
    Inputs = PassInputs

    def compute(self, inputs: PassInputs, draft: Draft) -> Decision:
        engagement = draft.engagement
        if engagement.initiative_marker is None:
            if not engagement.aircraft:  # a what-if: no game, no marker to check
                return Decision("marker passed", "the Initiative Marker is passed (4.0)")
            raise RuleViolation("nobody holds the Initiative Marker yet: roll initiative (4.0)")
        holder = engagement.initiative_marker
        others = [s for s in (engagement.initiative_order or engagement.sides) if s != holder]
        if not others:
            raise RuleViolation("there is no other side to pass the marker to")
        new = inputs.to or others[0]
        if new not in others:
            raise RuleViolation(
                f"{new} cannot take the marker from {holder}: pass it to "
                + " or ".join(others)
                + " (4.0)"
            )
        others = [new, *[s for s in others if s != new]]
        draft.emit(
            InitiativeSet(
                order=(new, *[s for s in others[1:]], holder),
                marker=new,
                scores=dict(engagement.initiative_scores),
            )
        )
        return Decision("marker passed", f"{holder} passes the Initiative Marker to {new} (4.0)")
