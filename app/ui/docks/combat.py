"""The combat panel: pick a procedure and its aircraft, fill the generated form, read the exact
odds of every outcome before anything is rolled, then resolve it with Airboss's dice or with
the dice the players rolled at the table.

The panel is a view of one draft (``model.draft``, an ``app.core.draft.ActionDraft``, issue
43): the pickers, each field's text, the dice, the refusal and notice lines and the odds are
painted from it, and every key, pick and click goes to it. No widget here keeps a value of its
own, so what the umpire sees is what Resolve sends. The panel holds no rules: which aircraft
takes which role, what the cards and the board say, what a result makes owed, all come from
the session through the draft.

At the table (issue 13): a "who acts now" line opens a clean form for its aircraft; values read
from the cards are read-only until overridden (and the override is logged); the cursor waits
in the first field the umpire must type, each typed die moves on to the next, and Enter
resolves. Dice, Resolve and the last result sit in a footer that never scrolls away; a roll the
result owes (a critical hit, a fire check) opens next.
"""

from __future__ import annotations

import re
from fractions import Fraction
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.core.draft import ActionDraft, Entry
from app.core.prepared import Prepared
from app.core.procedure import Procedure, Resolution
from app.ui.action_form.binding import listen
from app.ui.action_form.dice import DiceView, DieField
from app.ui.action_form.fields import DraftForm
from app.ui.action_form.keys import desk_keys
from app.ui.action_form.odds import OddsView
from app.ui.action_form.overrides import override_by_key
from app.ui.action_form.tab_chain import TabChain
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient
from app.ui.shell.when_shown import WhenShown
from app.ui.widgets.dice_mode import dice_mode_box
from app.ui.widgets.message_bar import MessageBar

NO_AIRCRAFT = "(none: what-if)"
#: the roles a procedure may have, in the order the panel shows their pickers
ROLE_FIELDS = ("attacker", "target", "aircraft")
#: item data of the "no aircraft" entry: a string, never None (see critical_log.ALL)
NONE = ""


#: what goes on from a rule number to more of them: "-6.3", ", 7.1.4", " and 6.2", "6.1.1"
MORE_RULES = re.compile(r"\s*(?:[-\u2013\u2014,&/]|and\b|to\b)\s*\d|\.?\w")


def without_rule(doc: str, rule: str) -> str:
    """``doc`` without the rule shown in bold before it: taken off only when the text begins
    with that rule alone, never off a range or list of rules it begins ("6.1-6.3 Maneuver
    marking" stays whole for rule 6.1, as "7.1.1b, 7.1.4: ..." does for 7.1.1b)."""
    if not doc.startswith(rule) or MORE_RULES.match(doc, len(rule)):
        return doc
    return doc[len(rule) :].lstrip(" :,.")


def aircraft_label(name: str, side: str) -> str:
    return f"{name} ({side})"


class CombatDock(QWidget):
    """Procedures with their forms, exact odds and dice: a view of the desk's action draft."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CombatDock")
        self.model = model
        self.draft: ActionDraft = model.draft
        self._painting = False
        #: the Tables editor opened from this form on a missing cell
        self.tables_editor: Any = None
        self.result_seq: int | None = None
        #: the action the last result is of (the seq of its first event), its text as
        #: resolved, and the actions of the events last appended (seq -> action)
        self.result_action: int | None = None
        self._result_text = ""
        self._appended_actions: dict[int, int] = {}
        self.ruling_window: QWidget | None = None

        body = QWidget()
        outer = QVBoxLayout(body)
        top = QFormLayout()
        self.procedure = QComboBox()
        self.procedure.setObjectName("procedure")
        self.procedure.setAccessibleName("Procedure")
        top.addRow("&Procedure", self.procedure)
        self.attacker = QComboBox()
        self.attacker.setObjectName("attacker")
        self.target = QComboBox()
        self.target.setObjectName("target")
        self.aircraft = QComboBox()
        self.aircraft.setObjectName("aircraft")
        for combo, name in ((self.attacker, "Attacker"), (self.target, "Target")):
            combo.setAccessibleName(name)
        self.aircraft.setAccessibleName("Aircraft")
        for combo in (self.procedure, self.attacker, self.target, self.aircraft):
            # long procedure titles must not widen the panel past its dock (clipped at 1366)
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(12)
        self._labels = {
            "attacker": QLabel("&Attacker"),
            "target": QLabel("&Target"),
            "aircraft": QLabel("A&ircraft"),  # (Alt+R is "Players roll real dice")
        }
        for role, combo in self._combos().items():
            self._labels[role].setBuddy(combo)
            top.addRow(self._labels[role], combo)
        self.rule = QLabel()
        self.rule.setWordWrap(True)
        top.addRow(self.rule)
        outer.addLayout(top)

        self.form_box = QGroupBox("Inputs")
        form_layout = QVBoxLayout(self.form_box)
        self.form = DraftForm(self.draft)
        form_layout.addWidget(self.form)
        # why the umpire overrode a card or board value: logged, and shown in the ruling
        # (issue 34); offered once a value is overridden
        self.override_why = QLineEdit()
        self.override_why.setObjectName("override_why")
        self.override_why.setPlaceholderText("Why the override? (goes into the log and the ruling)")
        self.override_why.setAccessibleName("Why the override")
        self.override_why.hide()
        self.override_why.textChanged.connect(self._reason_typed)
        self.override_why.returnPressed.connect(lambda: self.draft.enter(None))
        desk_keys(self.override_why)
        form_layout.addWidget(self.override_why)
        outer.addWidget(self.form_box)

        self.odds_view = OddsView(model, self.draft)
        outer.addWidget(self.odds_view)
        outer.addStretch(1)

        footer = QWidget()
        footer.setObjectName("combat_footer")
        foot = QVBoxLayout(footer)
        foot.setContentsMargins(6, 2, 6, 4)
        self.sent_bar = self._sent_bar()
        foot.addWidget(self.sent_bar)
        self.dice = DiceView(self.draft)
        foot.addWidget(self.dice)
        self.players_roll = dice_mode_box(model.dice_mode)
        self.resolve_button = QPushButton("Re&solve")
        self.resolve_button.setObjectName("resolve")
        self.resolve_button.setToolTip("Resolve the procedure (Enter in a field, or Ctrl+Return)")
        self.resolve_button.clicked.connect(self.resolve)
        run = QHBoxLayout()
        run.addWidget(self.players_roll)
        run.addStretch(1)
        run.addWidget(self.resolve_button)
        foot.addLayout(run)
        self.refusal = MessageBar()
        foot.addWidget(self.refusal)
        self.notice = MessageBar()
        self.notice.setObjectName("notice")
        self.notice.setAccessibleName("Notice")
        foot.addWidget(self.notice)
        self.open_tables = QPushButton("Open the tables &editor to fill it in")
        self.open_tables.setObjectName("open_tables")
        self.open_tables.hide()
        self.open_tables.clicked.connect(self._open_tables)
        foot.addWidget(self.open_tables)
        self.result = QLabel()
        self.result.setObjectName("result")
        self.result.setAccessibleName("Last result")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        foot.addWidget(self.result)

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        # no Tab stop of its own: Tab goes from control to control inside it (a stop on the
        # area showed the cursor nowhere)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        scroll.setWidget(body)
        self.scroll_area = scroll
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(scroll, 1)
        column.addWidget(footer)
        self.footer = footer

        for key in ("Ctrl+Return", "Ctrl+Enter"):
            sc = QShortcut(QKeySequence(key), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(self.resolve)
        escape_key = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape_key.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape_key.activated.connect(self._escape)
        override_by_key(self, self.form)  # F2: the values read from the cards, to override

        self.procedure.currentIndexChanged.connect(self._picked_procedure)
        for role, combo in self._combos().items():
            combo.currentIndexChanged.connect(lambda _i, r=role: self._picked_role(r))
        for w in (self.resolve_button, self.open_tables, *self._pickers()):
            w.installEventFilter(self)  # Enter resolves; a number picks (issue 29)

        #: Tab through the panel as the umpire works it (set again as the form or dice change)
        self.tab_chain = TabChain()
        #: out of view the panel paints nothing until it is shown (issue 20)
        self.when_shown = WhenShown(self, self.paint)
        #: what the form was last painted from (``_look``): a step on that leaves it as it is
        #: paints only what follows the game (issue 48)
        self._painted: tuple[Any, ...] | None = None
        listen(self.draft.changed, self.when_shown.wrap(lambda _p: self._draft_changed()), self)
        listen(self.draft.focus, self._focus, self)
        listen(self.draft.resolved, self._resolved, self)
        model.dice_mode.changed.connect(lambda _on: self.paint())
        model.reset.connect(self.when_shown.wrap(self._reset))
        model.pending_changed.connect(self._sent_arrived)
        model.appended.connect(self._appended)
        self._ruling_hooks()
        self._reset()

    # -- what tests and the desk read --------------------------------------------------------

    @property
    def prepared(self) -> Prepared | None:
        """The action as the form shows it and Resolve sends it (``None``: nothing to resolve)."""
        return self.draft.prepared

    @property
    def current_procedure(self) -> Procedure | None:
        return self.draft.proc

    @property
    def dice_fields(self) -> list[DieField]:
        return self.dice.fields

    @property
    def odds(self) -> dict[str, Fraction]:
        return self.odds_view.odds

    @property
    def odds_table(self) -> Any:
        return self.odds_view.table

    @property
    def odds_message(self) -> QLabel:
        return self.odds_view.message

    @property
    def chart(self) -> Any:
        return self.odds_view.chart

    @property
    def chain(self) -> Any:
        return self.odds_view.chain

    @property
    def compare(self) -> Any:
        return self.odds_view.compare

    def _combos(self) -> dict[str, QComboBox]:
        return {"attacker": self.attacker, "target": self.target, "aircraft": self.aircraft}

    def _pickers(self) -> tuple[QComboBox, ...]:
        return (self.procedure, self.attacker, self.target, self.aircraft)

    # -- what the umpire does (each goes to the draft) ------------------------------------------

    def select_procedure(self, procedure_id: str) -> None:
        self.draft.choose_procedure(procedure_id)

    def set_aircraft(self, attacker: str | None = None, target: str | None = None) -> None:
        """Choose the aircraft: the attacker is also the one-aircraft choice."""
        fields = self.draft.proc.Inputs.model_fields if self.draft.proc is not None else {}
        if attacker is not None:
            self.draft.set_role("attacker" if "attacker" in fields else "aircraft", attacker)
        if target is not None:
            self.draft.set_role("target", target)

    @patient
    def open_for(self, procedure_id: str, who: str, other: str | None = None) -> None:
        """A "who acts now" line on this panel (the desk asks through the model)."""
        self.when_shown.fresh()
        self.draft.open_line(procedure_id, who, other)

    def focus_first(self) -> None:
        self._focus(self.draft.first_entry())

    def clear_dice(self, why: str) -> None:
        self.draft.clear_dice(why)

    @patient
    def resolve(self) -> None:
        """Resolve exactly the action the form shows. Another window's action taken in now
        makes it refused, saying what was done (the dice stay: Enter resolves again)."""
        if not self.model.can_act:
            return
        self.draft.resolve()

    def _escape(self) -> None:
        self.draft.clear_dice("Escape")
        self.odds_view.clear()

    def _picked_procedure(self, _index: int) -> None:
        if not self._painting:
            pid = self.procedure.currentData()
            if pid:
                self.draft.choose_procedure(pid)

    def _picked_role(self, role: str) -> None:
        if self._painting:
            return
        combo = self._combos()[role]
        aid = combo.currentData() if combo.count() else NONE
        # "(none: what-if)" picked in Target is the umpire's own what-if
        self.draft.set_role(role, aid if aid else ("" if role == "target" else None))

    def _reason_typed(self, text: str) -> None:
        if not self._painting:
            self.draft.set_reason(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter on the focused Resolve button presses it (one key to accept a roll owed);
        Enter in a picker goes on as in a field; a number in an aircraft picker picks the
        aircraft listed with it (issue 29: picking is one key)."""
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return super().eventFilter(watched, event)
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if watched is self.resolve_button and enter:
            self.resolve()
            return True
        if watched is self.open_tables and enter:
            self._open_tables()
            return True
        if watched is self.take_sent and enter:
            self._take_sent()
            return True
        if isinstance(watched, QComboBox) and watched.view().isVisible():
            return super().eventFilter(watched, event)
        if enter and watched in self._pickers():
            self.draft.enter(Entry("target") if watched is self.target else None)
            return True
        if watched in (self.attacker, self.target, self.aircraft) and event.text().isdigit():
            assert isinstance(watched, QComboBox)
            n = int(event.text())
            if 0 < n < watched.count():
                watched.setCurrentIndex(n)  # item 0 is "(none: what-if)"
            return True
        return super().eventFilter(watched, event)

    # -- painting ------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.result.clear()
        self.result_seq = self.result_action = None
        self._result_text = ""
        self._appended_actions = {}
        self.paint()

    def _look(self) -> tuple[Any, ...]:
        """What the pickers, the fields and the dice are painted from: the draft's look, the
        game's aircraft as the pickers list them (each one's id, name, side and whether it is
        in play: an aircraft that moved or took damage is listed as it was; what the action
        reads of it is in the draft's look) and ruleset (its procedures), whether the desk
        may act."""
        has = self.model.has_session
        e = self.model.engagement if has else None
        return (
            self.draft.look(),
            tuple((a.id, a.name, a.side, a.in_play) for a in e.aircraft.values())
            if e is not None
            else None,
            self.model.ruleset if has else None,
            self.model.can_act,
        )

    def _draft_changed(self) -> None:
        """The draft changed: the form painted from it again. When only the game moved on
        (a step, another window's action) and the form would show the same, the pickers,
        fields and dice stay as painted (issue 48: a step on with a form open painted all of
        it, 2 ms of the step's frame); the odds and what depends on the game are painted."""
        painted, self._painted = self._painted, None
        if self.draft.moving_on and painted is not None:
            look = self._look()
            try:
                same = bool(look == painted)
            except Exception:  # noqa: BLE001 - values that cannot be compared are not the same
                same = False
            if same:
                self._painted = look
                self._paint_rest()
                return
        self.paint()

    def paint(self) -> None:
        """Everything the panel shows, from the draft."""
        d = self.draft
        self._painting = True
        self._painted = None
        try:
            self._paint_pickers()
            self.form.paint()
            self.dice.paint()
            self._order_tabs()
            over = bool(d.overridden)
            self.override_why.setVisible(over)
            if self.override_why.text() != d.reason:
                self.override_why.setText(d.reason)
        finally:
            self._painting = False
        self._paint_rest()
        self._painted = self._look()

    def _order_tabs(self) -> None:
        """Tab goes from the pickers through the form's fields, why the override, what a page
        sent, the dice, to Resolve and the offer to fill in a table (Shift+Tab back); the odds,
        who rolls and the last result follow. Set again whenever the form shown or the dice
        fields change: a form shown again, or a die field made, is put at the end of the
        window's Tab chain, so Tab from the last field left the panel."""
        self.tab_chain.order(
            [
                *self._pickers(),
                *(self.form.editor(n) for n in self.form.names),
                self.override_why,
                self.take_sent,
                self.reject_sent,
                *(f.edit for f in self.dice.fields),
                self.resolve_button,
                self.open_tables,
            ]
        )

    def _paint_rest(self) -> None:
        """What the panel shows beside the form: the odds (the game's as it is), the red and
        blue lines, the offer to fill in a table, Resolve, what a page sent."""
        d = self.draft
        self.odds_view.show_for(d.prepared)
        if d.refusal:
            self.refusal.show_refusal(d.refusal)
        else:
            self.refusal.clear_refusal()
        if d.notice:
            self.notice.show_notice(d.notice)
        else:
            self.notice.clear_refusal()
        missing = d.missing
        self.open_tables.setVisible(missing is not None)
        if missing is not None:
            self.open_tables.setText(f"Fill in {missing.table}: {missing.cell} (tables editor)")
        self.resolve_button.setEnabled(self.model.can_act and d.can_resolve)
        self._paint_sent()

    def _paint_pickers(self) -> None:
        d = self.draft
        rs = self.model.ruleset if self.model.has_session else None
        wanted = (
            [
                (f"{p.title} ({p.rule})", pid)
                for pid, p in rs.procedures.items()
                if pid != rs.initiative
            ]
            if rs is not None
            else []
        )
        have = [
            (self.procedure.itemText(i), self.procedure.itemData(i))
            for i in range(self.procedure.count())
        ]
        if have != wanted:
            self.procedure.clear()
            for text, pid in wanted:
                self.procedure.addItem(text, pid)
        at = self.procedure.findData(d.procedure) if d.procedure else -1
        if self.procedure.currentIndex() != at:
            self.procedure.setCurrentIndex(at)
        proc = d.proc
        if proc is None:
            self.rule.setText("No game is open." if not self.model.has_session else "")
        else:
            doc = " ".join((proc.__doc__ or "").strip().split("\n\n")[0].split())
            doc = without_rule(doc, proc.rule)
            self.rule.setText(f"<b>{escape(proc.rule)}</b>" + (f": {escape(doc)}" if doc else ""))
        fields = proc.Inputs.model_fields if proc is not None else {}
        pair = "attacker" in fields or "target" in fields
        shown = {
            "attacker": "attacker" in fields,
            "target": "target" in fields,
            "aircraft": "aircraft" in fields and not pair,
        }
        e = self.model.engagement
        everyone = list(e.aircraft.values())
        first = d.roles.get("attacker") or d.roles.get("aircraft")
        a = e.aircraft.get(first) if first else None
        enemies = [t for t in everyone if (a is None or t.side != a.side) and t.in_play]
        for role, combo in self._combos().items():
            combo.setVisible(shown[role])
            self._labels[role].setVisible(shown[role])
            _fill(combo, enemies if role == "target" else everyone)
            aid = d.roles.get(role)
            if role == "aircraft" and "aircraft" not in d.roles:
                aid = first
            i = combo.findData(aid or NONE)
            combo.setCurrentIndex(max(i, 0))

    # -- the draft's events ----------------------------------------------------------------------

    def _focus(self, entry: Entry) -> None:
        """The cursor where the draft says: a field, a die, Target, or Resolve."""
        if entry.kind == "field":
            self.form.focus_field(entry.name)
        elif entry.kind == "die":
            self.dice.focus_die(entry.index)
        elif entry.kind == "target" and not self.target.isHidden():
            self.target.setFocus()
        elif entry.kind == "missing":
            self.paint()  # the offer shown now, so the cursor can go on it
            self.open_tables.setFocus()
        elif entry.kind in ("resolve", "target") and self.resolve_button.isEnabled():
            self.resolve_button.setFocus()

    def _resolved(self, res: Resolution, p: Prepared) -> None:
        rolled = ", ".join(str(r) for r in res.rolls)
        self._result_text = (
            f"<b>{escape(res.headline or res.outcome)}</b>: {escape(res.narrative)} "
            f"[{escape(p.rule)}]" + (f"<br>Dice: {escape(rolled)}" if rolled else "")
        )
        self.result.setText(self._result_text)
        self.result_seq = self.model.engagement.seq  # its ruling (issue 34)
        self.result_action = self._appended_actions.get(self.result_seq)

    def _appended(self, envelopes: list[Any]) -> None:
        """The last result follows its action: undone (Ctrl+Z, here or at another station),
        it says so; redone, it is the result again."""
        self._appended_actions = {env.seq: env.action for env in envelopes}
        if self.result_action is None and self.result_seq in self._appended_actions:
            self.result_action = self._appended_actions[self.result_seq]  # (resolved first)
        if self.result_action is None:
            return
        from app.core.events import Restored, Reverted  # (pydantic: not before the first paint)

        for env in envelopes:
            ev = env.event
            if isinstance(ev, (Reverted, Restored)) and ev.action == self.result_action:
                undone = isinstance(ev, Reverted)
                self.result.setText(
                    f"<b>Undone</b>: {self._result_text}<br>This action no longer counts "
                    "(Redo puts it back)."
                    if undone
                    else self._result_text
                )

    # -- what a player's page sent for the line open here (issue 48) -----------------------------

    def _sent_bar(self) -> QWidget:
        bar = QWidget()
        bar.setObjectName("sent_bar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 0)
        self.sent_text = QLabel()
        self.sent_text.setObjectName("sent_text")
        self.sent_text.setWordWrap(True)
        self.take_sent = QPushButton("Ta&ke them (Enter)")  # (Alt+T is Target)
        self.take_sent.setObjectName("take_sent")
        self.take_sent.clicked.connect(self._take_sent)
        self.take_sent.installEventFilter(self)
        reject = QPushButton("Reject")
        self.reject_sent = reject
        reject.setObjectName("reject_sent")
        reject.clicked.connect(self._reject_sent)
        row.addWidget(self.sent_text, 1)
        row.addWidget(self.take_sent)
        row.addWidget(reject)
        bar.hide()
        return bar

    def _sent_entry(self) -> Any:
        line = self.draft.line
        if line is None:
            return None
        return self.model.sent_on((line.procedure, line.who, line.other))

    def _paint_sent(self) -> None:
        entry = self._sent_entry()
        self.sent_bar.setVisible(entry is not None)
        if entry is not None:
            shown = entry.desk_text(not self.model.sealed(entry))
            self.sent_text.setText(f"\u2709 {shown}")

    def _sent_arrived(self) -> None:
        """A page sent something for this line while the cursor waits in a die: the key
        that takes it is where the cursor is."""
        waiting = self.focusWidget() in [f.edit for f in self.dice.fields]
        self._paint_sent()
        if waiting and self.sent_bar.isVisible():
            self.take_sent.setFocus()

    def _take_sent(self) -> None:
        entry = self._sent_entry()
        if entry is not None:
            self.model.accept_pending(entry)

    def _reject_sent(self) -> None:
        entry = self._sent_entry()
        if entry is not None:
            self.model.reject_pending(entry)

    # -- the last result's ruling (issue 34) ---------------------------------------------------

    def _ruling_hooks(self) -> None:
        """A double-click or Enter on the last result opens its ruling."""
        from app.ui.dialogs.ruling import OpensRuling

        self.result.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.result.setToolTip("Double-click or Enter: the ruling of this result")
        OpensRuling(self.result, lambda: None if self.open_result_ruling() else None)

    def open_result_ruling(self) -> QWidget | None:
        if self.result_seq is None or not self.result.text():
            return None
        from app.ui.dialogs.ruling import open_ruling

        self.ruling_window = open_ruling(self.model, self.result_seq, self)
        return self.ruling_window

    # -- a table cell the text does not print ----------------------------------------------------

    def _open_tables(self) -> None:
        e = self.draft.missing
        if e is None or not self.model.has_session:
            return
        from app.ui.editors.tables_editor import TablesEditor

        editor = TablesEditor(self.model.ruleset, self, select=(e.table, e.cell))
        editor.saved.connect(lambda _name: self._tables_saved())
        editor.show()
        editor.activateWindow()
        editor.table.setFocus()  # the cursor on the cell: the umpire types it, then Ctrl+S
        self.tables_editor = editor

    def _tables_saved(self) -> None:
        """A table value was saved from the form's flow (issue 29): every draft is prepared
        again (a resolve that stopped at the missing cell goes on with the dice typed); the
        editor goes on to the next missing cell the action needs, or closes and the cursor is
        back in the form."""
        editor = self.tables_editor
        resolving = self.draft.missing is not None and bool(self.draft.refusal)
        self.model.tables_saved()
        if editor is None:
            return
        missing = self.draft.missing
        if missing is not None:
            editor.go_to(missing.table, missing.cell)
            editor.activateWindow()
            editor.table.setFocus()
            return
        editor.close()
        self.window().activateWindow()
        if not resolving:
            self.focus_first()


def _fill(combo: QComboBox, aircraft: list[Any]) -> None:
    """The picker's items: "(none: what-if)", then each aircraft (keys 1-9 pick them)."""
    want = [(NO_AIRCRAFT, NONE)] + [(aircraft_label(a.name, a.side), a.id) for a in aircraft]
    have = [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]
    if have == want:
        return
    combo.clear()
    for n, (text, aid) in enumerate(want):
        combo.addItem(text, aid)
        if 0 < n <= 9:
            combo.setItemData(n, f"Key {n} picks it", Qt.ItemDataRole.ToolTipRole)


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(CombatDock))
