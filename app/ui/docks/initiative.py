"""Initiative: runs the ruleset's initiative procedure with Airboss's dice or the dice typed
from the table, shows the order for this turn and who holds the marker, and passes it.

Like the Combat panel it is a view of one draft (``model.roll_draft``, issue 43): the sides,
aircraft and modifiers the game gives are read by the session, what the umpire types goes to
the draft, and the roll resolves exactly what the form shows."""

from __future__ import annotations

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
from shiboken6 import isValid

from app.core.draft import ActionDraft, Entry
from app.core.prepared import Prepared
from app.core.procedure import Procedure
from app.ui.action_form.binding import listen
from app.ui.action_form.dice import DiceView, DieField
from app.ui.action_form.fields import DraftForm
from app.ui.action_form.overrides import override_by_key
from app.ui.docks.turn import who_name
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.dice_mode import dice_mode_box
from app.ui.widgets.focus_in_view import keep_focus_in_view
from app.ui.widgets.message_bar import MessageBar, attempt_here


class InitiativeDock(QWidget):
    """Roll initiative (typed or rolled dice), see the order and the marker, pass the marker."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.draft: ActionDraft = model.roll_draft

        self.title = QLabel()
        self.title.setWordWrap(True)
        self.order = QListWidget()
        self.order.setObjectName("initiative_order")
        self.order.setAccessibleName("Initiative order")
        self.order.setAccessibleDescription("Who holds the marker and who acts first, in order")
        self.order.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.order.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        self.inputs_box = QGroupBox("Modifiers")
        inputs_layout = QVBoxLayout(self.inputs_box)
        inputs_layout.setContentsMargins(4, 4, 4, 4)
        self.form = DraftForm(self.draft)
        inputs_layout.addWidget(self.form)

        self.roll_action = QAction("Roll initiative", self)
        self.roll_action.setShortcut(QKeySequence("Ctrl+I"))
        self.roll_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.roll_action.triggered.connect(self.roll)
        self.addAction(self.roll_action)
        override_by_key(self, self.form)  # F2: the values read from the cards, to override
        self.dice = DiceView(self.draft)
        self.players_roll = dice_mode_box(model.dice_mode)
        # a key of its own: the Combat panel's box beside it on the desk has Alt+R (one key
        # shared by both only moved the cursor between them)
        self.players_roll.setText("Players roll real &dice")
        self.roll_button = QPushButton("Roll initiative (Ctrl+I)")
        self.roll_button.setObjectName("roll")
        self.roll_button.clicked.connect(self.roll_action.trigger)
        self.roll_button.installEventFilter(self)  # Enter on it rolls (issue 29)
        self.message = MessageBar()
        run = QHBoxLayout()
        run.addWidget(self.players_roll)
        run.addStretch(1)
        run.addWidget(self.roll_button)

        self.pass_to = QComboBox()
        self.pass_to.setAccessibleName("Pass the marker to")
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
        c.addWidget(self.dice)
        c.addLayout(run)
        c.addWidget(self.message)
        c.addWidget(self.pass_box)
        c.addStretch(1)
        # the modifiers can be many (Phantoms has ten): they scroll rather than crowd the window
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops on what is inside it only
        scroll.setWidget(self.controls)
        keep_focus_in_view(scroll)  # the dice and Roll below the modifiers: the cursor seen
        self.scroll_area = scroll

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.order)
        layout.addWidget(scroll, 1)

        #: out of view the panel paints nothing until it is shown, and the roll is not
        #: prepared on every change of the game: only when shown or read (issue 48)
        self.when_shown = WhenShown(self, self.rebuild)
        listen(self.draft.changed, self.when_shown.wrap(lambda _p: self.paint()), self)
        listen(self.draft.behind, self._behind, self)
        self.draft.shown = self._in_view
        listen(self.draft.focus, self._focus, self)
        model.dice_mode.changed.connect(lambda _on: self.paint())
        model.reset.connect(self.when_shown.wrap(self.rebuild))
        # Ctrl+I follows the game even out of view: enabled only where this desk may roll,
        # and once the roll is there (a new game's roll prepared in the ruleset's worker comes
        # after the reset: the draft says so when it is)
        model.reset.connect(self._enable_roll)
        listen(self.draft.changed, lambda _p: self._enable_roll(), self)
        model.initiative_changed.connect(self.when_shown.unless_stale(self.show_order))
        model.aircraft_changed.connect(self.when_shown.unless_stale(self.show_order))
        self.rebuild()
        self._enable_roll()

    def _in_view(self) -> bool:
        return isValid(self) and self.when_shown.on_screen

    def _behind(self) -> None:
        """The game changed out of view: the roll is prepared and painted when shown."""
        self.when_shown.stale = True

    def _enable_roll(self) -> None:
        """The roll on a game with an initiative roll that this desk may change (a game opened
        read-only changes nothing)."""
        can = self.procedure is not None and self.model.can_act
        self.roll_action.setEnabled(can)
        self.roll_button.setEnabled(can)

    # -- what tests and the desk read --------------------------------------------------------

    @property
    def procedure(self) -> Procedure | None:
        return self.draft.proc

    @property
    def prepared(self) -> Prepared | None:
        return self.draft.prepared

    @property
    def dice_fields(self) -> list[DieField]:
        return self.dice.fields

    def inputs(self) -> object | None:
        p = self.draft.prepared
        return p.inputs if p is not None else None

    # -- painting ----------------------------------------------------------------------------

    def rebuild(self) -> None:
        """A new game (or none): its initiative roll, and the order so far."""
        proc = self.procedure
        self.scroll_area.setVisible(proc is not None)
        if not self.model.has_session:
            self.title.setText("No game open")
        elif proc is None:
            self.title.setText(f"{self.model.ruleset.title} has no initiative roll.")
        else:
            by = self.model.ruleset.initiative_by or "side"
            self.title.setText(f"<b>{proc.title}</b> ({proc.rule}), by {by}")
        self.paint()
        self.show_order()

    def paint(self) -> None:
        """The roll's form, dice and refusal, from the draft."""
        d = self.draft
        d.catch_up()
        self.form.paint()
        self.dice.paint()
        self.inputs_box.setVisible(bool(self.form.names))
        if d.refusal:
            self.message.show_refusal(d.refusal)
        elif d.notice:
            self.message.show_notice(d.notice)
        else:
            self.message.clear_refusal()

    def _focus(self, entry: Entry) -> None:
        if entry.kind == "field":
            self.form.focus_field(entry.name)
        elif entry.kind == "die":
            self.dice.focus_die(entry.index)
        elif self.roll_button.isEnabled():
            self.roll_button.setFocus()
        elif self.form.names:
            self.form.setFocus()

    # -- actions ------------------------------------------------------------------------------

    def focus_form(self) -> None:
        """The cursor in the roll's first field to type."""
        self.when_shown.fresh()
        self._focus(self.draft.first_entry())

    @patient
    def roll(self) -> None:
        """Ctrl+I or the button: the roll the form shows, with the dice typed or Airboss's; with
        the players rolling and no die typed yet, the cursor in the first die."""
        self.when_shown.fresh()  # Ctrl+I works with the panel tabbed away
        if self.procedure is None or not self.model.can_act:
            return
        d = self.draft
        if d.players_roll and d.slots and not any(t.strip() for t in d.dice_texts):
            # nothing typed yet: the key brings the umpire to the dice, it refuses nothing (a
            # red "not resolved: type the number rolled" stayed in the status bar as he typed)
            self.focus_form()
            return
        d.resolve()

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

    @patient
    def pass_marker(self) -> None:
        """The ruleset's own rule for passing the marker (Phantoms 4.0), through the log."""
        if not self.model.has_session:
            return
        pid = self.model.ruleset.pass_initiative
        to = self.pass_to.currentData() if self.pass_to.count() else None
        if pid is None or to is None:
            self.message.show_refusal("Nobody to pass the marker to.")
            return
        attempt_here(self.model, lambda: self.model.actions.perform(pid, {"to": to}), self.message)

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
        by = self.model.ruleset.initiative_by
        candidates = (
            [(a.id, a.name) for a in e.aircraft.values() if a.in_play]
            if by == "aircraft"
            else [(s, s) for s in e.sides]
        )
        for key, name in candidates:
            if key != e.initiative_marker:
                self.pass_to.addItem(name, key)
        self.pass_button.setEnabled(self.pass_to.count() > 0 and self.model.can_act)
        self.pass_box.setVisible(self.model.ruleset.pass_initiative is not None)

    def order_lines(self) -> list[str]:
        return [self.order.item(i).text() for i in range(self.order.count())]


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(InitiativeDock))
