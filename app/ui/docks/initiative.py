"""Initiative: runs the ruleset's initiative procedure with Airboss's dice or the dice typed
from the table, shows the order for this turn and who holds the marker, and passes it.

Like the Combat panel it renders one prepared action (``GameSession.prepare``, issue 28): the
sides, aircraft and modifiers the game gives are read by the session, never worked out here,
and the roll resolves exactly what the form shows."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.core.prepared import Prepared
from app.core.procedure import Procedure
from app.ui.die_field import DieField
from app.ui.docks.turn import who_name
from app.ui.forms import AIRCRAFT_FIELDS, InputForm
from app.ui.message_bar import attempt_here
from app.ui.model import EngagementModel
from app.ui.procedure_runner import ProcedureRunner
from app.ui.when_shown import WhenShown


class InitiativeDock(QWidget):
    """Roll initiative (typed or rolled dice), see the order and the marker, pass the marker."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.form: InputForm | None = None
        #: the roll as the form shows it and the roll resolves it
        self.prepared: Prepared | None = None
        self._typed: dict[str, Any] = {}
        self._roster_key: tuple[tuple[str, str, str | None, bool], ...] = ()

        self.title = QLabel()
        self.title.setWordWrap(True)
        self.order = QListWidget()
        self.order.setAccessibleName("Initiative order")
        self.order.setAccessibleDescription("Who holds the marker and who acts first, in order")
        self.order.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.order.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        self.inputs_box = QGroupBox("Modifiers")
        self.inputs_layout = QVBoxLayout(self.inputs_box)
        self.inputs_layout.setContentsMargins(4, 4, 4, 4)

        self.roll_action = QAction("Roll initiative", self)
        self.roll_action.setShortcut(QKeySequence("Ctrl+I"))
        self.roll_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.roll_action.triggered.connect(self.roll)
        self.addAction(self.roll_action)
        self.runner = ProcedureRunner(model, "Roll initiative (Ctrl+I)")
        self.runner.triggered.connect(self.roll_action.trigger)
        self.runner.submitted.connect(self._submitted)
        self.roll_button = self.runner.button
        self.roll_button.installEventFilter(self)  # Enter on it rolls (issue 29)
        self.players_roll = self.runner.players_roll
        self.message = self.runner.refusal

        self.pass_to = QComboBox()
        self.pass_button = QPushButton("Pass marker")
        self.pass_button.setToolTip("Pass the initiative marker to the chosen side or aircraft")
        self.pass_button.clicked.connect(self.pass_marker)
        #: only for a ruleset whose marker can be passed (``Ruleset.pass_initiative``)
        self.pass_box = QWidget()
        pass_row = QHBoxLayout(self.pass_box)
        pass_row.setContentsMargins(0, 0, 0, 0)
        pass_row.addWidget(QLabel("Pass the marker to"))
        pass_row.addWidget(self.pass_to, 1)
        pass_row.addWidget(self.pass_button)

        self.controls = QWidget()
        c = QVBoxLayout(self.controls)
        c.setContentsMargins(0, 0, 0, 0)
        c.addWidget(self.inputs_box)
        c.addWidget(self.runner)
        c.addWidget(self.pass_box)

        c.addStretch(1)
        # the modifiers can be many (Phantoms has ten): they scroll rather than crowd the window
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.controls)
        self.scroll = scroll

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.order)
        layout.addWidget(scroll, 1)

        #: out of view a new game waits until the panel is shown
        self.when_shown = WhenShown(self, self.rebuild)
        model.reset.connect(self.when_shown.wrap(self.rebuild))
        # Ctrl+I follows the game even out of view: enabled only where this desk may roll
        model.reset.connect(self._enable_roll)
        model.initiative_changed.connect(self.when_shown.unless_stale(self.show_order))
        model.aircraft_changed.connect(self.when_shown.unless_stale(self._roster_changed))
        model.appended.connect(self.when_shown.unless_stale(self._game_changed))
        self.rebuild()
        self._enable_roll()

    def _enable_roll(self) -> None:
        """The roll on a game with an initiative roll that this desk may change (a game opened
        read-only changes nothing)."""
        can = self.procedure is not None and self.model.can_act
        self.roll_action.setEnabled(can)
        self.roll_button.setEnabled(can)

    # -- the procedure ------------------------------------------------------------------------

    @property
    def procedure(self) -> Procedure | None:
        if not self.model.has_session:
            return None
        rs = self.model.session.ruleset
        return rs.procedures.get(rs.initiative) if rs.initiative else None

    def rebuild(self) -> None:
        """A new game (or none): the form for its initiative procedure."""
        if self.form is not None:
            # unparented, the old form belongs to Python again and goes with its last reference
            self.inputs_layout.removeWidget(self.form)
            self.form.setParent(None)
            self.form = None
        proc = self.procedure
        self.scroll.setVisible(proc is not None)
        if not self.model.has_session:
            self.title.setText("No game open")
        elif proc is None:
            self.title.setText(f"{self.model.session.ruleset.title} has no initiative roll.")
        else:
            by = self.model.session.ruleset.initiative_by or "side"
            self.title.setText(f"<b>{proc.title}</b> ({proc.rule}), by {by}")
            self.form = InputForm(
                proc.Inputs, exclude=(*AIRCRAFT_FIELDS, *proc.inputs_off()), prepared=True
            )
            self.form.edited.connect(self._edited)
            self.form.submitted.connect(self._submitted)
            self.inputs_layout.insertWidget(0, self.form)
            self.inputs_box.setVisible(bool(self.form.names))
            self.prefill()
        self.message.clear_refusal()
        self.show_order()

    def prefill(self) -> None:
        """Read the game afresh: what was typed gives way to what the game now says."""
        self._roster_key = self._roster()
        self._typed = {}
        self._prepare()

    def _prepare(self, extra_rounds: int = 0) -> None:
        proc = self.procedure
        if proc is None or self.form is None:
            self.prepared = None
            return
        session = self.model.session
        try:
            p = session.prepare(proc.id, {}, self._typed)
            shown = self.form.unset_shown(p)
            if shown:  # a spin box shows a number: that number is the one used
                self._typed.update(shown)
                p = session.prepare(proc.id, {}, self._typed)
        except RuleViolation as e:
            self.prepared = None
            self.message.show_refusal(f"Cannot prepare {proc.title}: {e}")
            return
        except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
            self.prepared = None
            self.message.show_refusal(
                f"{proc.title}: the ruleset could not prepare the roll ({type(e).__name__}: {e})"
            )
            return
        self.prepared = p
        self.form.show_prepared(p)
        self.runner.set_dice(p.dice, extra_rounds)

    def _edited(self, changed: dict[str, Any]) -> None:
        self._typed.update(changed)
        self._prepare(self.runner.extra_rounds)

    def _roster(self) -> tuple[tuple[str, str, str | None, bool], ...]:
        """What the prefilled inputs depend on: who is on which side, pilots, who is in play."""
        return tuple(
            (a.id, a.side, a.pilot, a.in_play) for a in self.model.engagement.aircraft.values()
        )

    def _roster_changed(self, _ids: list[str]) -> None:
        # read afresh only when the roster itself changed: the umpire's own edits survive a shot
        if self._roster() != self._roster_key:
            self.prefill()
        self.show_order()

    def _game_changed(self, _envelopes: list[Any]) -> None:
        """Any action: the roll is prepared again on the game as it is now."""
        if self._roster() != self._roster_key:
            self.prefill()
        else:
            self._prepare(self.runner.extra_rounds)

    def inputs(self) -> Any | None:
        return self.prepared.inputs if self.prepared is not None else None

    # -- dice ---------------------------------------------------------------------------------

    @property
    def dice_fields(self) -> list[DieField]:
        return self.runner.dice_fields

    def _submitted(self) -> None:
        """Enter in a field or a die: the first untyped die if the players roll, else roll."""
        empty = self.runner.first_empty_die()
        if empty is not None:
            empty.edit.setFocus()
            return
        self.roll_action.trigger()

    # -- actions ------------------------------------------------------------------------------

    def focus_form(self) -> None:
        """The cursor in the roll's first field to type (Turn panel's "who acts now")."""
        self.when_shown.fresh()
        if self.form is not None and self.form.focus_first():
            return
        empty = self.runner.first_empty_die()
        if empty is not None:  # nothing to type but the dice: the cursor on the first die
            empty.edit.setFocus()
        elif self.roll_button.isEnabled():
            self.roll_button.setFocus()
        elif self.form is not None:
            self.form.setFocus()

    def roll(self) -> None:
        self.when_shown.fresh()  # Ctrl+I works with the panel tabbed away
        p = self.prepared
        if self.procedure is None or p is None:
            return
        if p.inputs is None:
            self.message.show_refusal(f"Not rolled: {p.error}")
            return
        done, _res, dice = self.runner.run(p)
        if done:
            self.runner.clear_dice()
            self._prepare()
        elif isinstance(dice, TableDice) and dice.ran_out:
            # a tie the rules re-roll: ask for the next round of dice, keeping what was typed
            self.runner.set_dice(p.dice, self.runner.extra_rounds + 1)
            self.message.show_refusal(
                "A tie: the rules re-roll it. Type the re-rolled dice in the new fields."
            )
            self.dice_fields[-1].edit.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter on the focused roll button rolls (a roll with nothing to type is one key)."""
        if (
            watched is self.roll_button
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self.roll_action.trigger()
            return True
        return super().eventFilter(watched, event)

    def pass_marker(self) -> None:
        """The ruleset's own rule for passing the marker (Phantoms 4.0), through the log."""
        if not self.model.has_session:
            return
        pid = self.model.session.ruleset.pass_initiative
        to = self.pass_to.currentData() if self.pass_to.count() else None
        if pid is None or to is None:
            self.message.show_refusal("Nobody to pass the marker to.")
            return
        attempt_here(self.model, lambda: self.model.session.perform(pid, {"to": to}), self.message)

    # -- the order ----------------------------------------------------------------------------

    def show_order(self, *_: object) -> None:
        self.order.clear()
        self.pass_to.clear()
        if not self.model.has_session:
            return
        e = self.model.engagement
        for n, who in enumerate(e.initiative_order, 1):
            score = e.initiative_scores.get(who)
            text = f"{n}. {who_name(e, who)}" + (f"   ({score})" if score is not None else "")
            item = QListWidgetItem(text)
            if e.initiative_marker == who:
                item.setText(text + "   ★ holds the marker")
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.order.addItem(item)
        if not e.initiative_order:
            item = QListWidgetItem("Not rolled yet")
            item.setForeground(self.palette().placeholderText())
            self.order.addItem(item)
        rows = self.order.count()
        self.order.setMaximumHeight(self.order.sizeHintForRow(0) * min(max(rows, 2), 8) + 6)
        by = self.model.session.ruleset.initiative_by
        candidates = (
            [(a.id, a.name) for a in e.aircraft.values() if a.in_play]
            if by == "aircraft"
            else [(s, s) for s in e.sides]
        )
        for key, name in candidates:
            if key != e.initiative_marker:
                self.pass_to.addItem(name, key)
        self.pass_button.setEnabled(self.pass_to.count() > 0 and self.model.can_act)
        self.pass_box.setVisible(self.model.session.ruleset.pass_initiative is not None)

    def order_lines(self) -> list[str]:
        return [self.order.item(i).text() for i in range(self.order.count())]


if __name__ == "__main__":
    from app.ui.preview import preview

    raise SystemExit(preview(InitiativeDock))
