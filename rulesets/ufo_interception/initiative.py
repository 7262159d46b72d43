"""Initiative per plane and the roll-off for ties (UFO rules, Turn Order: Roll Initiative)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.dice import DiceSource, read_pool
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import GameAttributesSet, InitiativeSet
from app.core.procedure import Decision, Draft, Procedure
from app.core.reckoning import Term, worked

from .card import card_of, details_of
from .sequence import INITIATIVE, RULE, require_step
from .state import fighter, game_of

#: variant: the higher roll-off roll moves first
ROLL_OFF_HIGHER_FIRST = "roll_off_higher_moves_first"


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


def order_by_dice(
    dice: DiceSource,
    purposes: Sequence[str],
    order: Callable[[Sequence[int]], list[list[str]]],
) -> tuple[list[int], list[list[str]]]:
    """A d6 per plane, read together as the moving order (``read_pool``: the odds run the
    decision once per order, not once per sequence of faces): the faces and the groups."""
    pool = read_pool(
        dice, [("d6", p) for p in purposes], lambda t: tuple(tuple(g) for g in order(t))
    )
    return [r.total for r in pool.rolls], [list(g) for g in pool.value]


class _Planes(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

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

    @staticmethod
    def _groups(inputs: InitiativeInputs, faces: Sequence[int]) -> list[list[str]]:
        keys = [(f + r, r) for f, r in zip(faces, inputs.reactions, strict=True)]
        return groups(inputs.planes, keys)

    def choices(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, list[tuple[Any, str]]]:
        """The planes by name: every fighter in play rolls (ticked by the prefill)."""
        return {
            "planes": [
                (a.id, a.name)
                for a in engagement.aircraft.values()
                if a.in_play and card_of(a).kind == "fighter"
            ]
        }

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        planes = [
            a for a in engagement.aircraft.values() if a.in_play and card_of(a).kind == "fighter"
        ]
        return {
            "planes": [a.id for a in planes],
            "reactions": [details_of(a).reaction for a in planes],
        }

    def decide(self, inputs: InitiativeInputs, dice: DiceSource, draft: Draft) -> Decision:
        e = draft.engagement
        names = list(inputs.planes)
        on_table = any(p in e.aircraft for p in names)
        if on_table:
            require_step(e, (INITIATIVE,), "rolling initiative")
            for p, r in zip(inputs.planes, inputs.reactions, strict=True):
                a = fighter(e, p)
                if details_of(a).reaction != r:
                    raise RuleViolation(f"{a.name}'s pilot reaction is {details_of(a).reaction}")
            names = [e.get(p).name for p in inputs.planes]
        faces, gs = order_by_dice(
            dice, [f"initiative for {n}" for n in names], lambda t: self._groups(inputs, t)
        )
        outcome = order_label(gs)
        if on_table:
            scores = {
                p: f + r for p, f, r in zip(inputs.planes, faces, inputs.reactions, strict=True)
            }
            draft.emit(
                InitiativeSet(order=tuple(p for g in gs for p in g), marker=None, scores=scores),
                GameAttributesSet(values={"initiative_ties": [g for g in gs if len(g) > 1]}),
            )
        shown = order_label(self._groups(inputs.model_copy(update={"planes": names}), faces))
        terms = self.terms(inputs, names)
        detail = ", ".join(
            f"{n} {worked(f, [t])}" for n, f, t in zip(names, faces, terms, strict=True)
        )
        return Decision(
            outcome,
            f"initiative {detail}: moving order {shown} ({self.rule})",
            modifiers=tuple(terms),
        )

    def terms(self, inputs: InitiativeInputs, names: Sequence[str]) -> list[Term]:
        """ "Each plane rolls d6+pilot reaction": each plane's pilot reaction, added to its die
        (``names``: the planes as their dice are named)."""
        return [
            Term("pilot reaction", r, self.rule, f"initiative for {n}")
            for n, r in zip(names, inputs.reactions, strict=True)
        ]


class RollOff(Procedure):
    """UFO rules, Turn Order: planes tied on initiative and pilot reaction "roll off for tied
    players only"; the higher roll moves second, as the higher reaction does. Equal rolls stay
    tied and roll off again.
    """

    id = "initiative_roll_off"
    title = "Initiative roll-off"
    rule = "UFO rules, Turn Order: Roll Initiative (roll off)"
    Inputs = _Planes

    def choices(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, list[tuple[Any, str]]]:
        """The planes still tied, by name."""
        ties = game_of(engagement).initiative_ties
        names = {a.id: a.name for a in engagement.aircraft.values()}
        return {"planes": [(p, names.get(p, p)) for group in ties for p in group]}

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        """The first group still tied after the initiative roll."""
        ties = game_of(engagement).initiative_ties
        return {"planes": list(ties[0])} if ties else {}

    def order(self, inputs: _Planes, faces: Sequence[int]) -> list[list[str]]:
        """The tied planes by their roll-off rolls: the higher roll moves second (or first,
        with the ``roll_off_higher_moves_first`` reading); equal rolls stay tied."""
        if ROLL_OFF_HIGHER_FIRST in self.variants:
            return groups(inputs.planes, [-f for f in faces])
        return groups(inputs.planes, faces)

    def decide(self, inputs: _Planes, dice: DiceSource, draft: Draft) -> Decision:
        e = draft.engagement
        names = list(inputs.planes)
        ties: list[list[str]] = []
        if any(p in e.aircraft for p in inputs.planes):
            ties = [list(t) for t in game_of(e).initiative_ties]
            if sorted(inputs.planes) not in [sorted(t) for t in ties]:
                raise RuleViolation(
                    "only planes tied on initiative and pilot reaction roll off ("
                    + RULE
                    + "); tied now: "
                    + ("; ".join(", ".join(e.get(p).name for p in t) for t in ties) or "none")
                )
            names = [e.get(p).name for p in inputs.planes]
        faces, gs = order_by_dice(
            dice, [f"roll-off for {n}" for n in names], lambda t: self.order(inputs, t)
        )
        outcome = order_label(gs)
        if ties:
            group = set(inputs.planes)
            new = iter(p for g in gs for p in g)
            order = tuple(next(new) if p in group else p for p in e.initiative_order)
            rest = [t for t in ties if sorted(t) != sorted(inputs.planes)]
            rest += [g for g in gs if len(g) > 1]
            draft.emit(
                InitiativeSet(
                    order=order,
                    marker=e.initiative_marker,
                    scores=dict(e.initiative_scores),
                ),
                GameAttributesSet(values={"initiative_ties": rest}),
            )
        detail = ", ".join(f"{n} {f}" for n, f in zip(names, faces, strict=True))
        shown = order_label(self.order(inputs.model_copy(update={"planes": names}), faces))
        return Decision(outcome, f"roll-off {detail}: {shown} ({self.rule})")
