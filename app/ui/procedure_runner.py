"""The one procedure runner of the desk (issue 19): the dice a procedure needs -- typed from the
table, one field per die, or rolled by Airboss --, the button that resolves it, and the refusal
line. The Combat and Initiative panels both resolve through it, so dice entry, the dice mode and
the handling of a refusal or a ruleset's bug are the same everywhere.

A roll the rules repeat (a tie re-rolled) asks for more dice: ``run`` reports a typed source that
ran out, and ``set_dice(needed, extra_rounds=n)`` adds ``n`` rounds of fields, keeping what was
typed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.core.dice import DiceSpec, SeededDice, TableDice
from app.core.errors import MissingTableValue, RuleViolation
from app.ui.dice_mode import dice_mode_box
from app.ui.die_field import DieField
from app.ui.message_bar import MessageBar, attempt_here
from app.ui.model import EngagementModel

Needed = list[tuple[str, str]]


class ProcedureRunner(QWidget):
    """Dice fields, the players-roll choice, the run button and the refusal line."""

    #: Enter in a die field (the dock decides: the next empty die, or run)
    submitted = Signal()
    #: the run button was pressed
    triggered = Signal()

    def __init__(
        self, model: EngagementModel, button_text: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.dice_fields: list[DieField] = []
        self._needed: Needed | None = None
        self.extra_rounds = 0
        #: the last run's error when it was a missing table value (the dock offers the editor)
        self.missing: MissingTableValue | None = None

        self.dice_area = QWidget()
        self.dice_grid = QGridLayout(self.dice_area)
        self.dice_grid.setContentsMargins(0, 0, 0, 0)
        self.no_dice = QLabel("This procedure rolls no dice.")
        self.players_roll = dice_mode_box(model.dice_mode)
        self.button = QPushButton(button_text)
        self.button.clicked.connect(self.triggered)
        self.refusal = MessageBar()

        row = QHBoxLayout()
        row.addWidget(self.players_roll)
        row.addStretch(1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.dice_area)
        layout.addWidget(self.no_dice)
        layout.addLayout(row)
        layout.addWidget(self.refusal)
        model.dice_mode.changed.connect(self._dice_mode)
        self._dice_mode()

    # -- the dice ---------------------------------------------------------------------------

    def set_dice(self, needed: Needed, extra_rounds: int = 0) -> None:
        """One field per die of ``needed`` (and of each re-roll round), what was typed kept."""
        if needed == self._needed and extra_rounds == self.extra_rounds:
            return
        self._needed, self.extra_rounds = list(needed), extra_rounds
        typed = [f.edit.text() for f in self.dice_fields]
        for f in self.dice_fields:
            self.dice_grid.removeWidget(f)
            f.hide()  # never a parentless window of its own (it kept the keyboard focus)
            f.deleteLater()
        self.dice_fields = []
        rounds = [needed] + [
            [(spec, f"{purpose} (re-roll {n})") for spec, purpose in needed]
            for n in range(1, extra_rounds + 1)
        ]
        for batch in rounds:
            for spec_text, purpose in batch:
                spec = DiceSpec.parse(spec_text)
                for i in range(spec.count):
                    which = (
                        f"{purpose} (die {i + 1} of {spec.count})" if spec.count > 1 else purpose
                    )
                    one = DiceSpec(1, spec.low, spec.high, spec.die_name, spec.zero_reads)
                    field = DieField(one, which)
                    field.edit.returnPressed.connect(self.submitted)
                    n = len(self.dice_fields)
                    field.completed.connect(lambda n=n: self._next_die(n))
                    self.dice_grid.addWidget(field, n, 0)
                    field.show()  # at once, so the cursor can go in it
                    self.dice_fields.append(field)
        for f, text in zip(self.dice_fields, typed, strict=False):
            f.edit.setText(text)
        self._dice_mode()

    def _dice_mode(self, *_: object) -> None:
        typed = self.model.dice_mode.players_roll
        self.dice_area.setVisible(typed and bool(self.dice_fields))
        self.no_dice.setVisible(typed and self._needed is not None and not self.dice_fields)

    def _next_die(self, n: int) -> None:
        if n + 1 < len(self.dice_fields):
            self.dice_fields[n + 1].edit.setFocus()
            self.dice_fields[n + 1].edit.selectAll()

    def first_empty_die(self) -> DieField | None:
        """The first die still to type when the players roll (``None``: all typed, or the
        desk rolls)."""
        if not self.model.dice_mode.players_roll:
            return None
        return next((f for f in self.dice_fields if not f.edit.text().strip()), None)

    def clear_dice(self) -> None:
        """Each roll is typed afresh."""
        for f in self.dice_fields:
            f.edit.clear()
            f.check(required=False)

    def dice(self) -> TableDice | SeededDice | None:
        """The dice to resolve with: the typed values (``None``, each wrong one's reason shown
        in place and in the refusal line, if any is missing or impossible), or Airboss's."""
        if not self.model.dice_mode.players_roll:
            return SeededDice()
        ok = [f.check(required=True) for f in self.dice_fields]
        if not all(ok):
            bad = [f.error.text() for f in self.dice_fields if f.error.text()]
            self.refusal.show_refusal("Not resolved: " + "; ".join(bad))
            first = next(f for f, good in zip(self.dice_fields, ok, strict=True) if not good)
            first.edit.setFocus()
            return None
        return TableDice([v for f in self.dice_fields if (v := f.value()) is not None])

    # -- running ----------------------------------------------------------------------------

    def run(
        self,
        procedure: Any,
        inputs: BaseModel | Mapping[str, Any],
        overrides: frozenset[str] = frozenset(),
    ) -> tuple[bool, Any, TableDice | SeededDice | None]:
        """Perform ``procedure`` through the session with this runner's dice: (done, its
        resolution, the dice used). A refusal, a missing table value (kept in ``missing``) or a
        ruleset's bug is shown in the refusal line and nothing is written."""
        self.missing = None
        dice = self.dice()
        if dice is None:
            return False, None, None
        session = self.model.session

        def perform() -> Any:
            try:
                return session.perform(procedure.id, inputs, dice, overrides=overrides)
            except MissingTableValue as e:
                self.missing = e
                raise
            except (RuleViolation, ValidationError):
                raise
            except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
                raise RuleViolation(
                    f"{procedure.title}: the ruleset could not resolve these inputs "
                    f"({type(e).__name__}: {e}); nothing was written"
                ) from e

        done, res = attempt_here(self.model, perform, self.refusal)
        return done, res, dice
