"""What the After-action panel and report read of a game: its series, its rolls with their
odds, and its typed dice, all from the log (``app.core.after_action``, ``luck``,
``dice_check``). No Qt and no plotting here: the panel, the report and the benchmark share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from app.core.after_action import AfterAction, read_after_action, undone_actions
from app.core.dice_check import DieCheck, TypedDice, dice_checks, read_typed_dice
from app.core.errors import RuleViolation
from app.core.luck import RollOdds, Tally, luck_rolls, tally

if TYPE_CHECKING:
    from app.session.clock import Clock
    from app.session.log import GameLog


def step_labels(clock: Clock) -> list[str]:
    """The steps of a turn of this game as its ruleset names them (its sequence of play)."""
    try:
        try:
            return [step.label for step in clock.steps()]
        except RuleViolation:
            return []
    except Exception:  # noqa: BLE001 - a ruleset that cannot say counts turns only
        return []


def ledger_titles(log: GameLog) -> dict[str, str]:
    """Every ledger id of the game's aircraft -> the title its ruleset gives it."""
    rs = log.ruleset
    out = {spec.id: spec.title for spec in rs.ledgers}
    for a in log.engagement.aircraft.values():
        try:
            specs = rs.ledgers_for(a.card)
        except Exception:  # noqa: BLE001 - a card the ruleset cannot read keeps the ids
            continue
        out.update({spec.id: spec.title for spec in specs})
    return out


@dataclass
class GameReading:
    """One game's log read for the plots: the series at once, the rolls' odds and the dice
    when first asked for (the odds mean replaying the game). Given the session's log and its
    clock (for the steps' names), not the whole session."""

    log: GameLog
    clock: Clock
    undone: set[int] = field(default_factory=set)
    series: AfterAction = field(init=False)
    #: the typed dice, by die and by the dice named at the table, against fair ones
    dice: list[DieCheck] = field(init=False)
    #: the typed dice and the dice named at the table now
    typed: TypedDice = field(init=False)

    def __post_init__(self) -> None:
        # the log read once for the series and the dice, and let go: a long game is not kept
        events = list(self.log.iter_stored())
        self.undone = undone_actions(events)
        labels = step_labels(self.clock)
        self.series = read_after_action(
            events, max(1, len(labels)), ledger_titles(self.log), self.undone, labels
        )
        self.typed = read_typed_dice(events, self.undone)
        self.dice = dice_checks(self.typed.faces)

    @cached_property
    def rolls(self) -> list[RollOdds]:
        """Every roll that counts, with its odds before the roll (the game replayed: read
        when first asked for)."""
        rs = self.log.ruleset
        return luck_rolls(self.log.iter_stored(), rs.procedures, self.undone, chains=rs)

    def sides(self) -> list[Tally]:
        return tally(self.rolls, "side")

    def aircraft(self) -> list[Tally]:
        return tally(self.rolls, "aircraft")

    @property
    def unknown_odds(self) -> list[RollOdds]:
        """The rolls whose odds could not be worked out again (said, never guessed)."""
        return [r for r in self.rolls if not r.known]
