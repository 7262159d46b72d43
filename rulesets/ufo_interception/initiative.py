"""Initiative per plane and the roll-off for ties (UFO rules, Turn Order: Roll Initiative)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import Event, GameAttributesSet, InitiativeSet
from app.core.procedure import OddsTooLarge
from app.core.ruleset import Procedure, Resolution

from .common import fighter
from .sequence import INITIATIVE, RULE, require_step

#: exact odds of the whole order enumerate every roll: 6**6 = 46656 cases at most; any
#: number of planes rolls (the text lets every plane roll), the odds stop at six
MAX_ODDS_PLANES = 6


def groups(names: Sequence[str], keys: Sequence[Any]) -> list[list[str]]:
    """``names`` in ascending ``keys`` (lowest moves first); equal keys form one group."""
    ranked = sorted(range(len(names)), key=lambda i: keys[i])
    out: list[list[str]] = []
    last: Any = object()
    for i in ranked:
        if out and keys[i] == last:
            out[-1].append(names[i])
        else:
            out.append([names[i]])
        last = keys[i]
    return out


def order_label(gs: list[list[str]]) -> str:
    """Moving order, lowest first; a still-tied group is bracketed for a roll-off."""
    return ", ".join(g[0] if len(g) == 1 else "[" + " = ".join(g) + " roll off]" for g in gs)


def _enumerate(n: int, label: Any) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    p = Fraction(1, 6**n)
    for faces in itertools.product(range(1, 7), repeat=n):
        key = label(faces)
        out[key] = out.get(key, Fraction(0)) + p
    return out


class _Planes(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    planes: list[str] = Field(
        min_length=1,
        title="Planes",
        description="aircraft ids (or names for a what-if)",
    )

    @model_validator(mode="after")
    def _unique(self) -> _Planes:
        if len(set(self.planes)) != len(self.planes):
            raise ValueError("each plane rolls once")
        return self


class InitiativeInputs(_Planes):
    reactions: list[int] = Field(title="Pilot reactions", description="one per plane, in order")

    @model_validator(mode="after")
    def _same_length(self) -> InitiativeInputs:
        if len(self.reactions) != len(self.planes):
            raise ValueError("give one pilot reaction per plane")
        return self


class Initiative(Procedure):
    """UFO rules, Turn Order: "Roll Initiative- Each plane rolls d6+pilot reaction. In ties
    Highest pilot reaction moves second, other wise roll off for tied players only". Planes move
    lowest initiative first and fire highest first.
    """

    id = "initiative"
    title = "Initiative"
    rule = "UFO rules, Turn Order: Roll Initiative"
    Inputs = InitiativeInputs

    def dice_needed(self, inputs: InitiativeInputs) -> list[tuple[str, str]]:
        return [("d6", f"initiative for {p}") for p in inputs.planes]

    @staticmethod
    def _groups(inputs: InitiativeInputs, faces: Sequence[int]) -> list[list[str]]:
        keys = [(f + r, r) for f, r in zip(faces, inputs.reactions, strict=True)]
        return groups(inputs.planes, keys)

    def odds(self, inputs: InitiativeInputs) -> dict[str, Fraction]:
        if len(inputs.planes) > MAX_ODDS_PLANES:
            raise OddsTooLarge(
                f"{len(inputs.planes)} planes: the odds of the whole moving order are worked out "
                f"for up to {MAX_ODDS_PLANES}; roll or type the dice to resolve it"
            )
        return _enumerate(len(inputs.planes), lambda f: order_label(self._groups(inputs, f)))

    def choices(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, list[tuple[Any, str]]]:
        """The planes by name: every fighter in play rolls (ticked by the prefill)."""
        return {
            "planes": [
                (a.id, a.name)
                for a in engagement.aircraft.values()
                if a.in_play and a.card.get("kind") == "fighter"
            ]
        }

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        planes = [
            a for a in engagement.aircraft.values() if a.in_play and a.card.get("kind") == "fighter"
        ]
        return {
            "planes": [a.id for a in planes],
            "reactions": [int(a.details.get("reaction", 0)) for a in planes],
        }

    def resolve(
        self, inputs: InitiativeInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        names = list(inputs.planes)
        on_table = engagement is not None and any(p in engagement.aircraft for p in names)
        if engagement is not None and on_table:
            require_step(engagement, (INITIATIVE,), "rolling initiative")
            for p, r in zip(inputs.planes, inputs.reactions, strict=True):
                a = fighter(engagement, p)
                if int(a.details.get("reaction", 0)) != r:
                    raise RuleViolation(f"{a.name}'s pilot reaction is {a.details.get('reaction')}")
            names = [engagement.get(p).name for p in inputs.planes]
        rolls = [dice.roll("d6", f"initiative for {n}") for n in names]
        faces = [r.total for r in rolls]
        gs = self._groups(inputs, faces)
        outcome = order_label(gs)
        scores = {p: f + r for p, f, r in zip(inputs.planes, faces, inputs.reactions, strict=True)}
        ties = [g for g in gs if len(g) > 1]
        events: list[Event] = [self.record(inputs, rolls, outcome)]
        if on_table:
            order = tuple(p for g in gs for p in g)
            events += [
                InitiativeSet(order=order, marker=None, scores=scores),
                GameAttributesSet(values={"initiative_ties": ties}),
            ]
        shown = order_label(self._groups(inputs.model_copy(update={"planes": names}), faces))
        detail = ", ".join(
            f"{n} {f}+{r}={f + r}" for n, f, r in zip(names, faces, inputs.reactions, strict=True)
        )
        return Resolution(
            tuple(events),
            f"initiative {detail}: moving order {shown} ({self.rule})",
            outcome,
            tuple(rolls),
        )


class RollOff(Procedure):
    """UFO rules, Turn Order: planes tied on initiative and pilot reaction "roll off for tied
    players only"; the higher roll moves second, as the higher reaction does. Equal rolls stay
    tied and roll off again.
    """

    id = "initiative_roll_off"
    title = "Initiative roll-off"
    rule = "UFO rules, Turn Order: Roll Initiative (roll off)"
    Inputs = _Planes

    def dice_needed(self, inputs: _Planes) -> list[tuple[str, str]]:
        return [("d6", f"roll-off for {p}") for p in inputs.planes]

    def choices(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, list[tuple[Any, str]]]:
        """The planes still tied, by name."""
        ties = engagement.attributes.get("initiative_ties") or []
        names = {a.id: a.name for a in engagement.aircraft.values()}
        return {"planes": [(p, names.get(p, p)) for group in ties for p in group]}

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        """The first group still tied after the initiative roll."""
        ties = engagement.attributes.get("initiative_ties") or []
        return {"planes": list(ties[0])} if ties else {}

    def odds(self, inputs: _Planes) -> dict[str, Fraction]:
        return _enumerate(len(inputs.planes), lambda f: order_label(groups(inputs.planes, f)))

    def resolve(
        self, inputs: _Planes, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        names = list(inputs.planes)
        ties: list[list[str]] = []
        if engagement is not None and any(p in engagement.aircraft for p in inputs.planes):
            ties = [list(t) for t in engagement.attributes.get("initiative_ties", [])]
            if sorted(inputs.planes) not in [sorted(t) for t in ties]:
                raise RuleViolation(
                    "only planes tied on initiative and pilot reaction roll off ("
                    + RULE
                    + "); tied now: "
                    + ("; ".join(", ".join(t) for t in ties) or "none")
                )
            names = [engagement.get(p).name for p in inputs.planes]
        rolls = [dice.roll("d6", f"roll-off for {n}") for n in names]
        faces = [r.total for r in rolls]
        gs = groups(inputs.planes, faces)
        outcome = order_label(gs)
        events: list[Event] = [self.record(inputs, rolls, outcome)]
        if engagement is not None and ties:
            old = list(engagement.initiative_order)
            group = set(inputs.planes)
            new = iter(p for g in gs for p in g)
            order = tuple(next(new) if p in group else p for p in old)
            rest = [t for t in ties if sorted(t) != sorted(inputs.planes)]
            rest += [g for g in gs if len(g) > 1]
            events += [
                InitiativeSet(
                    order=order,
                    marker=engagement.initiative_marker,
                    scores=dict(engagement.initiative_scores),
                ),
                GameAttributesSet(values={"initiative_ties": rest}),
            ]
        detail = ", ".join(f"{n} {f}" for n, f in zip(names, faces, strict=True))
        shown = order_label(groups(names, faces))
        return Resolution(
            tuple(events),
            f"roll-off {detail}: {shown} ({self.rule})",
            outcome,
            tuple(rolls),
        )
