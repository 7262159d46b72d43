"""The one procedure runner of the desk (issue 19): the dice a procedure needs -- typed from the
table, one field per die, or rolled by Airboss --, the button that resolves it, and the refusal
line. The Combat and Initiative panels both resolve through it, so dice entry, the dice mode and
the handling of a refusal or a ruleset's bug are the same everywhere.

A roll the rules repeat (a tie re-rolled) asks for more dice: ``run`` reports a typed source that
ran out, and ``set_dice(dice, extra_rounds=n)`` adds ``n`` rounds of fields, keeping what was
typed. The dice belong to one prepared action (issue 28): ``clear_dice`` empties them when the
umpire leaves it, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.core.dice import SeededDice, TableDice
from app.core.errors import MissingTableValue, RuleViolation
from app.core.prepared import DieToType
from app.store import ConcurrentAppend, StoreError
from app.ui.dice_mode import dice_mode_box
from app.ui.die_field import DieField
from app.ui.message_bar import MessageBar, attempt_here
from app.ui.model import EngagementModel

if TYPE_CHECKING:
    from app.core.prepared import Prepared

Dice = tuple[DieToType, ...]


_DIE_OF = re.compile(r"^(?P<stem>.*) \(die (?P<i>\d+) of (?P<n>\d+)\)$")


def pools(dice: list[DieToType]) -> list[tuple[Any, str, int]]:
    """``(spec, label, count)`` for each field: the dice of one roll of several identical dice
    ("... (die 1 of 6)" to "(die 6 of 6)") make one pool field, labelled once."""
    out: list[tuple[Any, str, int]] = []
    i = 0
    while i < len(dice):
        d = dice[i]
        m = _DIE_OF.match(d.label)
        n = int(m["n"]) if m and m["i"] == "1" else 1
        group = dice[i : i + n]
        same = (
            len(group) == n
            and all(
                g.spec == d.spec and (mm := _DIE_OF.match(g.label)) and mm["stem"] == m["stem"]
                for g in group
            )
            if m
            else False
        )
        if n > 1 and same:
            assert m is not None
            out.append((d.spec, m["stem"], n))
            i += n
        else:
            out.append((d.spec, d.label, 1))
            i += 1
    return out


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
        self._needed: Dice | None = None
        self._more: Dice = ()
        #: the next die the rules roll after the dice typed (``None``: no more; "": not
        #: known), set by the panel for its prepared action
        self.next_die: Callable[[list[int]], DieToType | str | None] | None = None
        self.extra_rounds = 0
        #: the last run's error when it was a missing table value (the dock offers the editor)
        self.missing: MissingTableValue | None = None
        #: the last run lost a race: another station or window acted first
        self.raced = False

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

    def set_dice(self, dice: Dice, extra_rounds: int = 0) -> None:
        """The fields for ``dice`` (and each re-roll round), what was typed kept: one field a
        die, or one for a pool of identical dice typed as one string (issue 29)."""
        if dice == self._needed and extra_rounds == self.extra_rounds:
            return
        self._needed, self.extra_rounds = tuple(dice), extra_rounds
        self._more = ()
        self._build()

    def ask_more(self, dice: Dice) -> None:
        """The result asked for dice nobody could know before the roll (a UFO damage result
        that rolls one more die; each further roll of "up to 3 rolls" asks again): their fields
        after the others, what was typed kept."""
        self._more = (*self._more, *dice)
        self._build()

    def _build(self) -> None:
        typed = [f.edit.text() for f in self.dice_fields]
        # the die the cursor is in stays the one it is in (the dice changed as the umpire typed
        # the last field: a die field hidden with the cursor in it sends it elsewhere, issue 29)
        cursor = next((i for i, f in enumerate(self.dice_fields) if f.edit.hasFocus()), None)
        for f in self.dice_fields:
            self.dice_grid.removeWidget(f)
            f.hide()  # never a parentless window of its own (it kept the keyboard focus)
            f.deleteLater()
        self.dice_fields = []
        dice = self._needed or ()
        rounds = [list(dice)] + [
            [DieToType(d.spec, f"{d.label} (re-roll {n})") for d in dice]
            for n in range(1, self.extra_rounds + 1)
        ]
        rounds.append(list(self._more))
        for batch in rounds:
            for spec, label, count in pools(batch):
                field = DieField(spec, label, count=count)
                field.edit.returnPressed.connect(self.submitted)
                n = len(self.dice_fields)
                field.completed.connect(lambda n=n: self._next_die(n))
                field.edit.textEdited.connect(lambda _t, n=n: self._edited_die(n))
                self.dice_grid.addWidget(field, n, 0)
                field.show()  # at once, so the cursor can go in it
                self.dice_fields.append(field)
        for f, text in zip(self.dice_fields, typed, strict=False):
            f.edit.setText(text)
        self._dice_mode()
        if cursor is not None and self.dice_fields:
            self.dice_fields[min(cursor, len(self.dice_fields) - 1)].edit.setFocus()

    def _dice_mode(self, *_: object) -> None:
        typed = self.model.dice_mode.players_roll
        self.dice_area.setVisible(typed and bool(self.dice_fields))
        self.no_dice.setVisible(typed and self._needed is not None and not self.dice_fields)

    def _next_die(self, n: int) -> None:
        """Die ``n`` is typed: on to the next die the rules roll with the dice typed so far
        (``next_die``); the dice they never roll (an entry roll after the first that hits)
        are skipped, marked "not rolled", and left out (issue 29)."""
        later = self.dice_fields[n + 1 :]
        self._reopen(n)
        die: DieToType | str | None = ""
        typed_so_far = [f for f in self.dice_fields[: n + 1] if f.isEnabled()]
        if self.next_die is not None and all(f.values() for f in typed_so_far):
            die = self.next_die([v for f in typed_so_far for v in f.values() or ()])
        if not later:
            if isinstance(die, DieToType):  # the roll goes on: its next die asked for now
                self.ask_more((die,))
                self.dice_fields[-1].edit.setFocus()
            return
        wanted = die.label if isinstance(die, DieToType) else die
        if wanted == "":  # not known: simply the next field
            later[0].edit.setFocus()
            later[0].edit.selectAll()
            return
        stem = m["stem"] if wanted and (m := _DIE_OF.match(wanted)) else wanted
        to = next((f for f in later if f.purpose in (wanted, stem)), None) if wanted else None
        if wanted and to is None:  # a die this form does not list: the next field
            later[0].edit.setFocus()
            return
        for f in later:
            if f is to:
                break
            f.edit.clear()
            f.setEnabled(False)
            f.edit.setPlaceholderText("not rolled")
        if to is not None:
            to.edit.setFocus()
            to.edit.selectAll()

    def _edited_die(self, n: int) -> None:
        """A die typed again, not yet a whole roll: the dice after it are open again."""
        f = self.dice_fields[n] if n < len(self.dice_fields) else None
        if f is not None and len(f.values() or ()) != f.count:
            self._reopen(n)

    def _reopen(self, n: int) -> None:
        """A die typed again: the dice after it are the rules' to ask for again."""
        for f in self.dice_fields[n + 1 :]:
            if not f.isEnabled():
                f.setEnabled(True)
                f.edit.setPlaceholderText(f.placeholder)

    def first_empty_die(self) -> DieField | None:
        """The first die still to type when the players roll (``None``: all typed, or the
        desk rolls)."""
        if not self.model.dice_mode.players_roll:
            return None
        return next(
            (f for f in self.dice_fields if f.isEnabled() and not f.edit.text().strip()), None
        )

    def clear_dice(self) -> bool:
        """Each roll is typed afresh: True if there were typed dice to clear."""
        had = any(f.edit.text().strip() for f in self.dice_fields)
        if self._more:
            self._more = ()
            self._build()
        for f in self.dice_fields:
            f.edit.clear()
            f.check(required=False)
        return had

    def dice(self) -> TableDice | SeededDice | None:
        """The dice to resolve with: the typed values (``None``, each wrong one's reason shown
        in place and in the refusal line, if any is missing or impossible), or Airboss's."""
        if not self.model.dice_mode.players_roll:
            return SeededDice()
        rolled = [f for f in self.dice_fields if f.isEnabled()]  # not those the rules skip
        ok = [f.check(required=True) for f in rolled]
        if not all(ok):
            bad = [f.error.text() for f in rolled if f.error.text()]
            self.refusal.show_refusal("Not resolved: " + "; ".join(bad))
            first = next(f for f, good in zip(rolled, ok, strict=True) if not good)
            first.edit.setFocus()
            return None
        return TableDice([v for f in rolled for v in f.values() or ()])

    # -- running ----------------------------------------------------------------------------

    def run(self, prepared: Prepared) -> tuple[bool, Any, TableDice | SeededDice | None]:
        """Resolve exactly ``prepared`` through the session with this runner's dice: (done, its
        resolution, the dice used). A refusal, a missing table value (kept in ``missing``) or a
        ruleset's bug is shown in the refusal line and nothing is written."""
        self.missing = None
        self.raced = False
        dice = self.dice()
        if dice is None:
            return False, None, None
        self.model.follow()  # another window's action first: then this one is refused, said so
        session = self.model.session

        def resolve() -> Any:
            try:
                return session.resolve(prepared, dice)
            except MissingTableValue as e:
                self.missing = e
                raise
            except ConcurrentAppend:
                self.raced = True  # the same roll, resolved again on the game as it is now
                raise
            except (RuleViolation, ValidationError, StoreError):
                raise
            except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
                raise RuleViolation(
                    f"{prepared.title}: the ruleset could not resolve these inputs "
                    f"({type(e).__name__}: {e}); nothing was written"
                ) from e

        done, res = attempt_here(self.model, resolve, self.refusal)
        return done, res, dice
