"""Turn: the ruleset's sequence of play, where the game is now, and who acts, in order.

Next (Space) and Previous (Shift+Space) move the clock through the session; each is an event.

The panel draws the model's rows (``EngagementModel.turn_rows``, ``app.startup.summary``): the
steps, which is current and who acts now, as plain data, from the live game or at start-up from the
summary kept in the game file, before the game's models and its ruleset are imported (issue
36).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QFont, QKeyEvent, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.startup.summary import (
    ActingRow,
    phase_name,
    step_heading,
    step_label,
    step_where,
    who_name,
)
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.accessible import named
from app.ui.widgets.message_bar import MessageBar, attempt_here
from app.ui.widgets.sized_lines import SizedLines
from app.ui.widgets.steady_label import SteadyLabel

#: the names other panels have always taken from here
__all__ = ["TurnDock", "phase_name", "step_heading", "step_label", "step_where", "who_name"]

#: the tooltips of Next and Previous
NEXT_TIP = "Advance to the next step of the sequence of play (Space)"
PREVIOUS_TIP = "Go back one step (Shift+Space)"


#: a line of who acts now as drawn: its words, what it opens (procedure, aircraft, target),
#: its tooltip and its words' colour (None: the list's own)
_Line = tuple[str, tuple[str, str, str] | None, str | None, QBrush | None]


#: the one line of a step in which nobody acts
NOBODY = "nobody acts in this step"
#: the start of the one line said when a ruleset failed to say who acts
CANNOT_SHOW = "who acts now cannot be shown"
#: what Enter on a line with no roll says (a move, a speed set at the table)
AT_THE_TABLE = (
    "nothing to roll or type at the desk for this line: it is done at the table. Space: next step."
)


def acting_text(n: int, line: ActingRow) -> str:
    """One line of who acts now as the panel shows it."""
    tick = "✓ " if line["done"] else ""
    marker = "  ★ marker" if line["marker"] else ""
    text = f"{tick}{n}. {line['name']} — {line['what']}{marker}"
    return f"{text} — cannot: {line['cannot']}" if line["cannot"] else text


class TurnDock(QWidget):
    """The sequence of play with the current step highlighted; Next and Previous.

    Its widgets: ``heading``, the Previous and Next buttons (``previous_button``,
    ``next_button``; ``previous_action``, ``next_action``: Shift+Space, Space), the refusal bar
    (``message``), the sequence of play (``step_list``), what the current step says (``what``)
    and who acts now (``acting_title``, ``acting``). The heading and the step's words stand in
    the panel's layout in frames of their own (``heading_frame``, ``what_frame``).

    A line of "who acts now" that names a procedure opens it on a double-click (or Enter):
    ``open_procedure(procedure id, aircraft id, target id or "")``. A line whose procedure the
    aircraft has resolved in this step is ticked off; the next one is selected.
    """

    open_procedure = Signal(str, str, str)

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        #: the sequence of play as drawn (label and rule of each step), so a step on only
        #: moves the marker; and the rows "who acts now" was drawn from: a step on draws it
        #: once, not on the append and again on the clock's change (issue 48)
        self._steps_shown: list[tuple[str, str]] = []
        self._current_shown = -1
        self._look: tuple[int, int, str] = (0, 0, "")
        self._acting_from: object = None
        self._build()
        self.acting.itemActivated.connect(self._activated)
        #: the line Enter was pressed on that has nothing for the desk (its notice shown)
        self._said_for: QListWidgetItem | None = None
        self.acting.currentItemChanged.connect(self._line_moved)
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
        # what the players' pages sent, on its line (issue 48): drawn again, in view or not
        model.pending_changed.connect(self._forget_acting)
        model.pending_changed.connect(self.when_shown.wrap(self._refresh_acting))
        for key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):  # rejects it
            reject = QShortcut(QKeySequence(key), self.acting)
            reject.setContext(Qt.ShortcutContext.WidgetShortcut)
            reject.activated.connect(self._reject_current)
        model.appended.connect(self._back_after_roll)
        self.refresh()

    def _build(self) -> None:
        self.heading = QLabel()
        font = QFont(self.heading.font())
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)

        self.step_list = SizedLines()
        self.step_list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.step_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        named(
            self.step_list,
            "Sequence of play",
            "The steps of a turn, the current one marked; Space: next step, Shift+Space: back.",
        )

        self.what = QLabel()
        self.what.setWordWrap(True)
        self.what.setTextFormat(Qt.TextFormat.PlainText)
        # each in a frame of its own: a step's words lay the panel out again only when they
        # need another height (issue 48)
        self.heading_frame = SteadyLabel(self.heading)
        self.what_frame = SteadyLabel(self.what)
        self.acting_title = QLabel("<b>Who acts now, in order</b>")
        self.acting = SizedLines()
        self.acting.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        named(
            self.acting,
            "Who acts now, in order",
            "One line per aircraft or side that acts in this step; Enter or a double-click "
            "opens the line's roll; Space: next step.",
        )
        for view in (self.step_list, self.acting):
            view.setMinimumHeight(60)
        # the list is sized after it is filled (the desk laid out, table mode left): the
        # current step is brought into view again whenever its height changes
        self.step_list.viewport().installEventFilter(self)

        self.previous_button = QPushButton("◀ Previous")
        self.previous_button.setToolTip(PREVIOUS_TIP)
        self.next_button = QPushButton("Next ▶")
        self.next_button.setToolTip(NEXT_TIP)
        self.next_button.setDefault(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.previous_button)
        buttons.addWidget(self.next_button)

        self.message = MessageBar()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading_frame)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.step_list, 1)
        layout.addWidget(self.what_frame)
        layout.addWidget(self.acting_title)
        layout.addWidget(self.acting, 2)

    def set_compact(self, on: bool) -> None:
        """Table mode (issue 47): the sequence of play's list, the current step's words and the
        list's title are left out, the heading says where the game is (its tooltip has the
        step's words), so every line of "who acts now" of an eight-aircraft game shows at
        1366x768."""
        self.step_list.setVisible(not on)
        # the heading says where the game is; the step's words (on the heading's tooltip) and
        # the list's title give their lines to "who acts now" (Air Power: 13 for 8 aircraft)
        self.what_frame.setVisible(not on)
        self.acting_title.setVisible(not on)
        # a line wider than the panel is cut at its edge (its tooltip has it whole): no
        # horizontal scroll bar takes a line's height
        self.acting.setHorizontalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAlwaysOff if on else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        )

    # -- rendering ----------------------------------------------------------------------------

    def _enable(self) -> None:
        has = self.model.can_act
        for w in (self.next_button, self.previous_button):
            w.setEnabled(has)
        self.next_action.setEnabled(has)
        self.previous_action.setEnabled(has)

    @patient
    def refresh(self) -> None:
        self._enable()
        rows = self.model.turn_rows()
        if rows is None:
            self._show_steps([], -1)
            self.heading.setText("No game open")
            self.what.setText("")
            self.heading.setToolTip("")
            self.acting.clear()
            self._acting_from = None
            return
        if rows["steps_error"]:  # a guest that failed: said, the desk carries on
            self.model.refused.emit(rows["steps_error"])
        current, now = rows["current"], rows["now"]
        self.heading.setText(f"Turn {rows['turn']}" + (f" — {now['heading']}" if now else ""))
        self._show_steps([(s["label"], s["rule"]) for s in rows["steps"]], current)
        if now is not None:
            self._show_current_step()
            rule = f" ({now['rule']})" if now["rule"] else ""
            # two lines kept for the step's words, most steps' (issue 48): a step of one line
            # after one of two does not lay out the panel again, its lists resized and painted
            two = 2 * self.what.fontMetrics().lineSpacing()
            if self.what_frame.minimumHeight() != two:
                self.what_frame.setMinimumHeight(two)
            self.what.setText(f"{now['where']}: {now['text']}{rule}")
            self.heading.setToolTip(self.what.text())
        else:
            self.what.setText("")
            self.heading.setToolTip("")
        if rows is not self._acting_from:  # (drawn already on this change's append)
            self._acting_from = rows
            self._show_acting(rows["acting"], rows["acting_error"])

    def _show_steps(self, steps: list[tuple[str, str]], current: int) -> None:
        """The sequence of play, ``current`` marked: the same steps as drawn only move the
        marker (two lines drawn again, not every step of the turn)."""
        pal = self.palette()
        look = (
            pal.highlight().color().rgba(),
            pal.highlightedText().color().rgba(),
            self.step_list.font().toString(),
        )
        if steps != self._steps_shown or look != self._look:
            self._look = look
            self.step_list.clear()
            for i, step in enumerate(steps):
                self.step_list.addItem(self._step_item(step, i == current))
            self.step_list.keep_sizes(range(len(steps)))
        elif current != self._current_shown:
            moved = [i for i in (self._current_shown, current) if 0 <= i < len(steps)]
            for i in moved:
                self._mark(self.step_list.item(i), steps[i], i == current)
            self.step_list.keep_sizes(moved)
        self._steps_shown, self._current_shown = steps, current

    def _show_current_step(self) -> None:
        """The marked step whole in view in the sequence of play."""
        i = self._current_shown
        if 0 <= i < self.step_list.count():
            self.step_list.scrollToItem(self.step_list.item(i))

    def _step_text(self, step: tuple[str, str], here: bool) -> str:
        label, rule = step
        rule = f"   [{rule}]" if rule else ""
        return ("▶ " if here else "    ") + label + rule

    def _mark(self, item: QListWidgetItem, step: tuple[str, str], here: bool) -> None:
        """``item`` made what ``_step_item`` makes of ``step``."""
        item.setText(self._step_text(step, here))
        if here:
            self._marked(item)
        else:  # no font, background or foreground of its own: the list's, as a new line's
            for role in (
                Qt.ItemDataRole.FontRole,
                Qt.ItemDataRole.BackgroundRole,
                Qt.ItemDataRole.ForegroundRole,
            ):
                item.setData(role, None)

    def _marked(self, item: QListWidgetItem) -> None:
        bold = QFont(self.step_list.font())
        bold.setBold(True)
        item.setFont(bold)
        item.setBackground(self.palette().highlight())
        item.setForeground(self.palette().highlightedText())

    def _step_item(self, step: tuple[str, str], here: bool) -> QListWidgetItem:
        item = QListWidgetItem(self._step_text(step, here))
        if here:
            self._marked(item)
        return item

    def _forget_acting(self) -> None:
        self._acting_from = None

    def _refresh_acting(self, *_: object) -> None:
        rows = self.model.turn_rows()
        self._acting_from = rows
        if rows is None:
            self.acting.clear()
            return
        self._show_acting(rows["acting"], rows["acting_error"])

    def _show_acting(self, lines: list[ActingRow], error: str) -> None:
        muted = self.palette().placeholderText()
        if error:  # a guest that failed: said in place (issue 31)
            self._put_acting([(f"{CANNOT_SHOW}: {error}", None, None, muted)])
            self.acting.setCurrentRow(-1)
            return
        wanted: list[_Line] = []
        next_row = None
        for n, line in enumerate(lines, 1):
            text, target, tip, colour = acting_text(n, line), None, None, None
            if line["procedure"]:
                target = (line["procedure"], line["who"], line["target"])
                on = f" on {line['target_name']}" if line["target"] else ""
                opens = f"{line['procedure_title']} for {line['name']}{on}"
                tip = f"Double-click or Enter: open {opens}"
                sent = self.model.sent_on(target)
                if sent is not None:  # a player's page sent it: Enter takes it (issue 48)
                    shown = sent.desk_text(not self.model.sealed(sent))
                    text = f"{text}  \u2709 {shown}"
                    tip = f"{shown}\nEnter: take it into the form; Delete: reject it"
                if line["cannot"]:  # not offered as if it could act (issue 29): opening says why
                    tip = f"{line['cannot']}\n(Double-click or Enter opens it, to see why)"
                    colour = muted
            if line["done"]:
                colour = muted
            elif next_row is None:
                next_row = n - 1
            wanted.append((text, target, tip, colour))
        if not lines:
            wanted.append((NOBODY, None, None, muted))
        self._put_acting(wanted)
        if lines and next_row is not None:
            self.acting.setCurrentRow(next_row)
            self.acting.scrollToItem(self.acting.item(next_row))
        else:  # no line to act: no cursor, as on a list made afresh
            self.acting.setCurrentRow(-1)
        self._mute_title(not lines)

    def _put_acting(self, wanted: list[_Line]) -> None:
        """Who acts now's lines made what ``wanted`` says, changing only the lines that differ
        (issue 48: most steps change few or none of them; a list cleared and filled again is
        laid out and painted whole). A line whose words changed is measured again."""
        acting = self.acting
        user, tip_role, fg = (
            Qt.ItemDataRole.UserRole,
            Qt.ItemDataRole.ToolTipRole,
            Qt.ItemDataRole.ForegroundRole,
        )
        have = acting.count()
        if have > len(wanted):
            acting.model().removeRows(len(wanted), have - len(wanted))
        worded = []
        for i, (text, target, tip, colour) in enumerate(wanted):
            roles = ((user, target), (tip_role, tip), (fg, colour))
            if i >= have:  # a new line, made whole before it is added
                item = QListWidgetItem(text)
                for role, value in roles:
                    if value is not None:
                        item.setData(role, value)
                acting.addItem(item)
                worded.append(i)
                continue
            item = acting.item(i)
            if item.text() != text:
                item.setText(text)
                worded.append(i)
            for role, value in roles:
                if item.data(role) != value:
                    item.setData(role, value)
        if worded:
            acting.keep_sizes(worded)

    def _mute_title(self, on: bool) -> None:
        """The title of "who acts now" in the muted colour while nobody acts. Its text's colour
        in its palette, not a style sheet: a style sheet set restyles the title and lays out
        the panel, the dock and the window again (issue 48; the same pixels)."""
        title = self.acting_title
        role = QPalette.ColorRole.Text
        muted_now = title.testAttribute(Qt.WidgetAttribute.WA_SetPalette)
        if not on:
            if muted_now:
                title.setPalette(QPalette())  # the panel's palette again, every colour
            return
        colour = self.palette().color(QPalette.ColorRole.PlaceholderText)
        if muted_now and title.palette().color(role) == colour:
            return
        palette = QPalette()
        palette.setColor(role, colour)
        title.setPalette(palette)

    def acting_lines(self) -> list[str]:
        """The lines of "who acts now", as shown."""
        return [self.acting.item(i).text() for i in range(self.acting.count())]

    def _back_after_roll(self, envelopes: list[Any]) -> None:
        """This desk rolled the initiative (issue 29): the Turn panel comes back in front,
        the cursor on the next line to act."""
        if not self.model.has_session:
            return
        from app.core.events import ProcedureResolved  # loaded with the game, not the desk

        initiative, actor = self.model.ruleset.initiative, self.model.game_log.actor
        rolled = any(
            isinstance(env.event, ProcedureResolved)
            and env.event.procedure == initiative
            and env.actor == actor
            for env in envelopes
        )
        if rolled:
            dock = self.parentWidget()
            if isinstance(dock, QDockWidget):
                dock.raise_()
            self.focus_next()

    def focus_next(self) -> None:
        """The cursor on the next line still to act (Enter opens it)."""
        self.when_shown.fresh()
        self.acting.setFocus()

    @patient
    def _activated(self, item: QListWidgetItem) -> None:
        target = item.data(Qt.ItemDataRole.UserRole)
        if (
            not target
            and self.model.has_session
            and item.text() != NOBODY
            and not (item.text().startswith(CANNOT_SHOW))
        ):
            # a line done at the table (a move, a speed to set): Enter answers, not silence
            self.message.show_notice(f"{item.text()}: {AT_THE_TABLE}")
            self._said_for = item
            return
        if target and self.model.has_session:
            sent = self.model.sent_on(tuple(target))
            if sent is not None:  # the umpire's key takes what the player's page sent
                self.model.accept_pending(sent)
                return
            self.open_procedure.emit(*target)

    def _line_moved(self, *_: object) -> None:
        """What Enter said of a line done at the table goes when the cursor leaves it."""
        if self._said_for is not None and self.acting.currentItem() is not self._said_for:
            self._said_for = None
            self.message.clear_refusal()

    def _reject_current(self) -> bool:
        item = self.acting.currentItem()
        target = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        sent = self.model.sent_on(tuple(target)) if target else None
        if sent is None:
            return False
        self.model.reject_pending(sent)
        return True

    def _focus_moved(self, old: QWidget | None, new: QWidget | None) -> None:
        if old is not None:
            old.removeEventFilter(self)
        if isinstance(new, QAbstractButton | QComboBox):
            new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Space on a focused button, check box or combo box of another panel presses it, not
        Next step; in this panel Space is always Next step (issue 47: Previous focused).
        The sequence of play's list resized: its current step in view again."""
        if watched is self.step_list.viewport() and event.type() == QEvent.Type.Resize:
            self._show_current_step()
            return False
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Space
            and isinstance(watched, QAbstractButton | QComboBox)
            and watched.window() is self.window()
            and not self.isAncestorOf(watched)
        ):
            event.accept()
            return True
        return super().eventFilter(watched, event)

    # -- actions ------------------------------------------------------------------------------

    @patient
    def next_step(self) -> None:
        if self.model.has_session:
            attempt_here(self.model, self.model.clock.next_step, self.message)

    def previous_step(self) -> None:
        if self.model.has_session:
            attempt_here(self.model, self.model.clock.previous_step, self.message)


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(TurnDock))
