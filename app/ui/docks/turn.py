"""Turn: the ruleset's sequence of play, where the game is now, and who acts, in order.

Next (Space) and Previous (Shift+Space) move the clock through the session; each is an event.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QFont, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDockWidget,
    QListWidgetItem,
    QWidget,
)

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import Envelope, ProcedureResolved
from app.core.ruleset import Step
from app.ui.docks.turn_view import NEXT_TIP, PREVIOUS_TIP, TurnView
from app.ui.message_bar import attempt_here, muted
from app.ui.model import EngagementModel
from app.ui.when_shown import WhenShown


def who_name(engagement: Engagement, who: str) -> str:
    """An aircraft id as the aircraft's name; a side as itself."""
    a = engagement.aircraft.get(who)
    return a.name if a is not None else who


def phase_name(step: Step) -> str:
    """The phase, with its impulse: ``Impulse 2``, ``Movement, impulse 2``, ``Set speed``."""
    if step.impulse is None:
        return step.phase
    if step.phase.lower() == "impulse":
        return f"{step.phase} {step.impulse}"
    return f"{step.phase}, impulse {step.impulse}"


def step_where(step: Step) -> str:
    """Where in the turn a step is: ``Impulse 2, segment B``."""
    return phase_name(step) + (f", segment {step.segment}" if step.segment else "")


def step_heading(step: Step) -> str:
    """The step as the Turn heading names it: its title, with its phase when the title only
    goes on from it (the UFO game's "Cannon firing, at the half way point")."""
    if step.title[:1].islower() and step.phase and step.phase != step.title:
        return f"{step.phase}, {step.title}"
    return step.title


def step_label(step: Step) -> str:
    """A step as one line of the sequence of play: ``Impulse 1 · a) Movement``."""
    if step.segment:
        return f"{phase_name(step)} · {step.segment}) {step.title}"
    if step.title != step.phase:
        return f"{phase_name(step)} · {step.title}"
    return phase_name(step)


class TurnDock(TurnView):
    """The sequence of play with the current step highlighted; Next and Previous.

    The live Turn panel: ``TurnView`` (its widgets, ``glance`` and ``show_glance``) filled from
    the game, with Next and Previous connected (``next_action``, ``previous_action``: Space,
    Shift+Space).

    A line of "who acts now" that names a procedure opens it on a double-click (or Enter):
    ``open_procedure(procedure id, aircraft id, target id or "")``. A line whose procedure the
    aircraft has resolved in this step is ticked off; the next one is selected.
    """

    open_procedure = Signal(str, str, str)

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.steps: list[Step] = []
        self.acting.itemActivated.connect(self._activated)
        # "open this procedure" and "resolved, move on" go through the model (issue 28)
        self.open_procedure.connect(model.request_procedure)
        model.procedure_done.connect(self.focus_next)

        self.next_action = QAction("Next step", self)
        self.next_action.setShortcut(QKeySequence(Qt.Key.Key_Space))
        self.next_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.next_action.setToolTip(NEXT_TIP)
        self.next_action.triggered.connect(self.next_step)
        self.previous_action = QAction("Previous step", self)
        self.previous_action.setShortcut(QKeySequence("Shift+Space"))
        self.previous_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.previous_action.setToolTip(PREVIOUS_TIP)
        self.previous_action.triggered.connect(self.previous_step)
        self.addAction(self.next_action)
        self.addAction(self.previous_action)
        self.previous_button.clicked.connect(self.previous_action.trigger)
        self.next_button.clicked.connect(self.next_action.trigger)

        app = QApplication.instance()
        if isinstance(app, QApplication):
            # the filter sits on the focused button or combo box only, not on the whole
            # application, which would pass every event of the desk through Python (issue 20)
            app.focusChanged.connect(self._focus_moved)
        #: hidden or tabbed away, the sequence and "who acts now" wait until shown (issue 20);
        #: Next and Previous (in the Game menu too) always follow whether a game is open
        self.when_shown = WhenShown(self, self.refresh)
        model.reset.connect(self._enable)
        model.reset.connect(self.when_shown.wrap(self.refresh))
        model.clock_changed.connect(self.when_shown.wrap(self.refresh))
        # every change of who acts (aircraft, initiative, a procedure resolved) is an append
        model.appended.connect(self.when_shown.wrap(self._refresh_acting))
        model.appended.connect(self._back_after_roll)
        self.refresh()

    # -- rendering ----------------------------------------------------------------------------

    @property
    def current(self) -> Step | None:
        e = self.model.engagement
        return self.steps[e.step] if 0 <= e.step < len(self.steps) else None

    def _enable(self) -> None:
        has = self.model.can_act
        for w in (self.next_button, self.previous_button):
            w.setEnabled(has)
        self.next_action.setEnabled(has)
        self.previous_action.setEnabled(has)

    def refresh(self) -> None:
        has = self.model.has_session
        self._enable()
        self.step_list.clear()
        if not has:
            self.steps = []
            self.heading.setText("No game open")
            self.what.setText("")
            self.acting.clear()
            return
        e = self.model.engagement
        try:
            self.steps = self.model.session.steps()
        except RuleViolation as err:  # a guest that failed: said, the desk carries on
            self.steps = []
            self.model.refused.emit(str(err))
        step = self.current
        self.heading.setText(f"Turn {e.turn}" + (f" — {step_heading(step)}" if step else ""))
        bold = QFont(self.step_list.font())
        bold.setBold(True)
        for i, s in enumerate(self.steps):
            here = i == e.step
            text = ("▶ " if here else "    ") + step_label(s) + (f"   [{s.rule}]" if s.rule else "")
            item = QListWidgetItem(text)
            if here:
                item.setFont(bold)
                item.setBackground(self.palette().highlight())
                item.setForeground(self.palette().highlightedText())
            self.step_list.addItem(item)
        if step is not None:
            self.step_list.scrollToItem(self.step_list.item(e.step))
            rule = f" ({step.rule})" if step.rule else ""
            self.what.setText(f"{step_where(step)}: {step.text or step.title}{rule}")
        else:
            self.what.setText("")
        self._refresh_acting()

    def _refresh_acting(self, *_: object) -> None:
        self.acting.clear()
        if not self.model.has_session:
            return
        e = self.model.engagement
        rs = self.model.session.ruleset
        try:
            order = self.model.session.acting()
        except RuleViolation as err:  # a guest that failed: said in place (issue 31)
            item = QListWidgetItem(f"who acts now cannot be shown: {err}")
            item.setForeground(self.palette().placeholderText())
            self.acting.addItem(item)
            return
        acted = self.model.acted_now()
        next_row = None
        for n, line in enumerate(order, 1):
            who, what = line[0], line[1]
            marker = "  ★ marker" if e.initiative_marker == who else ""
            done = len(line) >= 3 and (
                (line[2], who) in acted or (line[2] == rs.initiative and (line[2], "") in acted)
            )  # the initiative roll is every roll line's (issue 29)
            tick = "✓ " if done else ""
            item = QListWidgetItem(f"{tick}{n}. {who_name(e, who)} — {what}{marker}")
            if len(line) >= 3 and line[2] in rs.procedures:
                target = line[3] if len(line) > 3 else ""
                item.setData(Qt.ItemDataRole.UserRole, (line[2], who, target))
                title = rs.procedures[line[2]].title
                on = f" on {who_name(e, target)}" if target else ""
                item.setToolTip(f"Double-click or Enter: open {title} for {who_name(e, who)}{on}")
                why = "" if done else self.model.session.line_refusal(line[2], who, target or None)
                if why:  # not offered as if it could act (issue 29); opening it explains
                    item.setText(f"{item.text()} — cannot: {why}")
                    item.setToolTip(f"{why}\n(Double-click or Enter opens it, to see why)")
                    item.setForeground(self.palette().placeholderText())
            if done:
                item.setForeground(self.palette().placeholderText())
            elif next_row is None:
                next_row = n - 1
            self.acting.addItem(item)
        if not order:
            item = QListWidgetItem("nobody acts in this step")
            item.setForeground(self.palette().placeholderText())
            self.acting.addItem(item)
        elif next_row is not None:
            self.acting.setCurrentRow(next_row)
            self.acting.scrollToItem(self.acting.item(next_row))
        self.acting_title.setStyleSheet("" if order else f"color: {muted(self)}")

    def acting_lines(self) -> list[str]:
        """The lines of "who acts now", as shown."""
        return [self.acting.item(i).text() for i in range(self.acting.count())]

    def focus_next(self) -> None:
        """The cursor on the next line still to act (Enter opens it)."""
        self.when_shown.fresh()
        self.acting.setFocus()

    def _back_after_roll(self, envelopes: list[Envelope]) -> None:
        """This desk rolled the initiative (issue 29): the Turn panel comes back in front,
        the cursor on the next line to act."""
        if not self.model.has_session:
            return
        session = self.model.session
        rolled = any(
            isinstance(env.event, ProcedureResolved)
            and env.event.procedure == session.ruleset.initiative
            and env.actor == session.actor
            for env in envelopes
        )
        if rolled:
            dock = self.parentWidget()
            if isinstance(dock, QDockWidget):
                dock.raise_()
            self.focus_next()

    def _activated(self, item: QListWidgetItem) -> None:
        target = item.data(Qt.ItemDataRole.UserRole)
        if target:
            self.open_procedure.emit(*target)

    def _focus_moved(self, old: QWidget | None, new: QWidget | None) -> None:
        if old is not None:
            old.removeEventFilter(self)
        if isinstance(new, QAbstractButton | QComboBox):
            new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Space on a focused button, check box or combo box presses it, not Next step."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Space
            and isinstance(watched, QAbstractButton | QComboBox)
            and watched.window() is self.window()
        ):
            event.accept()
            return True
        return super().eventFilter(watched, event)

    # -- actions ------------------------------------------------------------------------------

    def next_step(self) -> None:
        if self.model.has_session:
            attempt_here(self.model, self.model.session.next_step, self.message)

    def previous_step(self) -> None:
        if self.model.has_session:
            attempt_here(self.model, self.model.session.previous_step, self.message)


if __name__ == "__main__":
    from app.ui.preview import preview

    raise SystemExit(preview(TurnDock))
