"""The combat panel: pick a procedure and its aircraft, fill the generated form, read the exact
odds of every outcome (table and bar chart) before anything is rolled, then resolve it with
Airboss's dice or with the dice the players rolled at the table.

The panel renders one prepared action (``app.core.prepared``, made by the session) and sends
it back (issue 28): every keystroke, aircraft picked, piece moved, card or table edited and
action of another station prepares it again, and the form shows exactly the values resolve
will use. The panel holds no rules: which aircraft takes which role, what the cards and the
board say, what a result makes owed, all come from the session.

At the table (issue 13): a "who acts now" line opens a clean form for its aircraft; values read
from the cards are read-only until overridden (and the override is logged); the cursor waits
in the first field the umpire must type, each typed die moves on to the next, and Enter
resolves. Dice, Resolve and the last result sit in a footer that never scrolls away; a roll the
result owes (a critical hit, a fire check) opens next. The dice belong to one prepared action:
another line, a refusal, Escape or another attacker or target clears them, and the panel says
so.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.dice import SeededDice, TableDice
from app.core.errors import MissingTableValue, RuleViolation
from app.core.prepared import Prepared, dice_of
from app.core.procedure import Procedure, UnknownOdds
from app.ui.chain_odds_view import ChainOddsLine
from app.ui.compare_odds import CompareOdds
from app.ui.die_field import DieField
from app.ui.forms import AIRCRAFT_FIELDS, InputForm
from app.ui.guest_worker import GuestWorker
from app.ui.message_bar import MessageBar, attempt_here, muted
from app.ui.model import EngagementModel
from app.ui.odds_chart import OddsChart
from app.ui.procedure_runner import ProcedureRunner
from app.ui.when_shown import WhenShown

NO_AIRCRAFT = "(none: what-if)"
#: the roles a procedure may have, in the order the panel shows their pickers
ROLE_FIELDS = ("attacker", "target", "aircraft")
#: how long the odds wait after a keystroke before they are worked out (issue 20)
ODDS_DELAY_MS = 120
#: item data of the "no aircraft" entry: a string, never None (see critical_log.ALL)
NONE = ""


def percent(p: Fraction) -> str:
    """A probability as a percentage with one decimal (exact ones without)."""
    v = p * 100
    return f"{int(v)}%" if v.denominator == 1 else f"{float(v):.1f}%"


def aircraft_label(name: str, side: str) -> str:
    return f"{name} ({side})"


class CombatDock(QWidget):
    """Procedures with their forms, exact odds and dice: one prepared action at a time."""

    #: a procedure was resolved and nothing is owed at once: the desk moves on ("who acts now")
    resolved = Signal()

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CombatDock")
        self.model = model
        self.form: InputForm | None = None
        #: the action as the form shows it and Resolve sends it (``None``: nothing to resolve)
        self.prepared: Prepared | None = None
        #: what the umpire typed in the form, and the locked values overridden
        self._typed: dict[str, Any] = {}
        self._overridden: set[str] = set()
        #: the umpire picked "(none: what-if)" as target himself (a line never does)
        self._no_target = False
        self._missing: MissingTableValue | None = None
        #: the rules' refusal of the prepared action as said in the refusal line (issue 29)
        self._refused_said = ""
        #: numbers a spin box shows that the umpire has not typed: a refusal waits for them
        self._pending: set[str] = set()
        #: the panel as a new game opens it, the umpire not yet at it: a refusal of the
        #: procedure shown is said in the odds, not in red (a line, a pick or a key ends it)
        self._quiet = False
        #: the Tables editor opened from this form on a missing cell
        self.tables_editor: Any = None
        self._odds: dict[str, Fraction] = {}
        self._odds_due = False
        #: the odds wait for a pause in the typing (ms)
        self._odds_timer = QTimer(self)
        self._odds_timer.setSingleShot(True)
        self._odds_timer.setInterval(ODDS_DELAY_MS)
        self._odds_timer.timeout.connect(self._compute_odds)
        #: the odds are worked out off the GUI thread, with the ruleset's time limit (issue 31)
        self._odds_worker = GuestWorker(self)
        self._odds_worker.answered.connect(self._odds_answered)
        self._odds_worker.failed.connect(self._odds_failed)
        self._odds_worker.waiting.connect(self._odds_waiting)

        body = QWidget()
        outer = QVBoxLayout(body)

        top = QFormLayout()
        self.procedure = QComboBox()
        self.procedure.setObjectName("procedure")
        top.addRow("&Procedure", self.procedure)
        self.attacker = QComboBox()
        self.attacker.setObjectName("attacker")
        self.target = QComboBox()
        self.target.setObjectName("target")
        self.aircraft = QComboBox()
        self.aircraft.setObjectName("aircraft")
        for combo in (self.procedure, self.attacker, self.target, self.aircraft):
            # long procedure titles must not widen the panel past its dock (clipped at 1366)
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(12)
        self._attacker_label = QLabel("&Attacker")
        self._attacker_label.setBuddy(self.attacker)
        self._target_label = QLabel("&Target")
        self._target_label.setBuddy(self.target)
        self._aircraft_label = QLabel("Ai&rcraft")
        self._aircraft_label.setBuddy(self.aircraft)
        top.addRow(self._attacker_label, self.attacker)
        top.addRow(self._target_label, self.target)
        top.addRow(self._aircraft_label, self.aircraft)
        self.rule = QLabel()
        self.rule.setWordWrap(True)
        top.addRow(self.rule)
        outer.addLayout(top)

        self.form_box = QGroupBox("Inputs")
        self.form_layout = QVBoxLayout(self.form_box)
        # why the umpire overrode a card or board value: logged, and shown in the ruling
        # (issue 34); offered once a value is overridden
        self.override_why = QLineEdit()
        self.override_why.setObjectName("override_why")
        self.override_why.setPlaceholderText("Why the override? (goes into the log and the ruling)")
        self.override_why.setAccessibleName("Why the override")
        self.override_why.hide()
        self.override_why.textEdited.connect(lambda _t: self._prepare())
        self.override_why.returnPressed.connect(self._submitted)
        self.form_layout.addWidget(self.override_why)
        outer.addWidget(self.form_box)

        odds_box = QGroupBox("Odds before the roll")
        odds_layout = QVBoxLayout(odds_box)
        self.odds_table = QTableWidget(0, 3)
        self.odds_table.setObjectName("odds_table")
        self.odds_table.setHorizontalHeaderLabels(["Outcome", "Exact", "Percent"])
        self.odds_table.verticalHeader().hide()
        self.odds_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.odds_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.odds_table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.odds_message = QLabel()
        self.odds_message.setObjectName("odds_message")
        self.odds_message.setWordWrap(True)
        self.odds_message.hide()
        self.chart = OddsChart()
        odds_layout.addWidget(self.odds_table)
        odds_layout.addWidget(self.odds_message)
        odds_layout.addWidget(self.chart)
        self.chain = ChainOddsLine()  # odds to the end of the chain (issue 34)
        odds_layout.insertWidget(1, self.chain)
        self.compare = CompareOdds()  # what-ifs side by side (issue 34)
        odds_layout.addWidget(self.compare)
        outer.addWidget(odds_box)

        footer = QWidget()
        footer.setObjectName("combat_footer")
        foot = QVBoxLayout(footer)
        foot.setContentsMargins(6, 2, 6, 4)
        self.runner = ProcedureRunner(model, "Re&solve")
        self.resolve_button = self.runner.button
        self.resolve_button.setObjectName("resolve")
        self.resolve_button.setToolTip("Resolve the procedure (Enter in a field, or Ctrl+Return)")
        self.players_roll = self.runner.players_roll
        self.refusal = self.runner.refusal
        foot.addWidget(self.runner)
        self.notice = MessageBar()
        self.notice.setObjectName("notice")
        foot.addWidget(self.notice)
        self.open_tables = QPushButton("Open the tables &editor to fill it in")
        self.open_tables.setObjectName("open_tables")
        self.open_tables.hide()
        foot.addWidget(self.open_tables)
        self.result = QLabel()
        self.result.setObjectName("result")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        foot.addWidget(self.result)
        outer.addStretch(1)

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.scroll = scroll
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
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(lambda: self.clear_dice("Escape"))

        self.procedure.currentIndexChanged.connect(self._picked_procedure)
        for combo in (self.attacker, self.target, self.aircraft):
            combo.currentIndexChanged.connect(self._roles_changed)
        self.target.activated.connect(self._target_picked)
        self.resolved.connect(model.procedure_done)
        self.runner.triggered.connect(self.resolve)
        self.runner.submitted.connect(self._submitted)
        self.open_tables.clicked.connect(self._open_tables)
        self.resolve_button.installEventFilter(self)
        self.open_tables.installEventFilter(self)
        for combo in (self.procedure, self.attacker, self.target, self.aircraft):
            combo.installEventFilter(self)  # Enter resolves; a number picks (issue 29)

        #: out of view a new game waits until the panel is shown
        self.when_shown = WhenShown(self, self._reset)
        model.reset.connect(self.when_shown.wrap(self._reset))
        model.aircraft_changed.connect(self.when_shown.unless_stale(self._aircraft_list_changed))
        # any action (ours, the board's, another station's) prepares the action again
        model.appended.connect(self.when_shown.unless_stale(self._game_changed))
        self._reset()
        self._ruling_hooks()
        self._compare_hooks()

    # -- what is chosen ----------------------------------------------------------------------

    @property
    def current_procedure(self) -> Procedure | None:
        pid = self.procedure.currentData() if self.procedure.count() else None
        if not pid or not self.model.has_session:
            return None
        return self.model.session.ruleset.procedures.get(pid)

    @property
    def dice_fields(self) -> list[DieField]:
        return self.runner.dice_fields

    def _combos(self) -> dict[str, QComboBox]:
        return {"attacker": self.attacker, "target": self.target, "aircraft": self.aircraft}

    def _roles(self) -> dict[str, str | None]:
        """The aircraft picked for the procedure's roles: ``None`` where none is picked (the
        session chooses a target for an attacker), ``""`` for the umpire's own what-if."""
        proc = self.current_procedure
        if proc is None:
            return {}
        fields = proc.Inputs.model_fields
        out: dict[str, str | None] = {}
        for role, combo in self._combos().items():
            if role not in fields or (role == "aircraft" and {"attacker", "target"} & set(fields)):
                continue
            aid = combo.currentData() if combo.count() else NONE
            out[role] = aid or ("" if role == "target" and self._no_target else None)
        return out

    def select_procedure(self, procedure_id: str) -> None:
        i = self.procedure.findData(procedure_id)
        if i >= 0:
            self.procedure.setCurrentIndex(i)

    def set_aircraft(self, attacker: str | None = None, target: str | None = None) -> None:
        """Choose the aircraft (from the roster): the attacker is also the one-aircraft choice."""
        for combo, aid in ((self.attacker, attacker), (self.aircraft, attacker)):
            if aid is not None:
                combo.setCurrentIndex(max(combo.findData(aid), 0))
        if target is not None:
            self.target.setCurrentIndex(max(self.target.findData(target), 0))

    def show_selection(self, ids: list[str]) -> None:
        """The roster's selection: the first is the attacker (or aircraft), a second the target.
        The panel says what changed, so a form being filled never changes hands silently."""
        if not ids:
            return
        before = self._names()
        self.set_aircraft(ids[0], ids[1] if len(ids) > 1 else None)
        after = self._names()
        changed = [
            f"{role} is now {after[role]} (was {before[role]})"
            for role in after
            if before.get(role) != after[role]
        ]
        if changed:
            self.notice.show_notice("Chosen in the Roster: " + "; ".join(changed) + ".")

    def _names(self) -> dict[str, str]:
        e = self.model.engagement
        out = {}
        for role, aid in self._roles().items():
            a = e.aircraft.get(aid) if aid else None
            out[role.capitalize()] = a.name if a is not None else "none"
        return out

    def open_for(self, procedure_id: str, who: str, other: str | None = None) -> None:
        """A "who acts now" line: this procedure for the line's aircraft, each in the role the
        session gives it (the aircraft that owes a roll is the one it applies to), on a clean
        form with the cursor in the first field to type. Dice typed for another action are
        cleared, and the panel says so."""
        self.when_shown.fresh()
        if not self.model.has_session:
            return
        self._quiet = False
        try:
            line = self.model.session.prepare_line(procedure_id, who, other)
        except RuleViolation as e:
            self.refusal.show_refusal(f"Cannot open this line: {e}")
            return
        self.notice.clear_refusal()
        cleared = self.runner.clear_dice()
        self.procedure.blockSignals(True)
        self.select_procedure(procedure_id)
        self.procedure.blockSignals(False)
        self._show_roles(line.roles)
        self._no_target = False
        self._new_form()
        if cleared:
            self.notice.show_notice("The dice typed for the last action were cleared.")
        self.focus_first()

    def focus_first(self) -> None:
        """The cursor in the first field the umpire must type, else the first die to type,
        else on Resolve: Enter resolves a form with nothing to type (issue 29). An action the
        rules refuse as it stands puts it in Target, where one key picks another."""
        p = self.prepared
        if p is not None and p.refused and not self.target.isHidden():
            self.target.setFocus()
            return
        if self.form is not None and self.form.focus_first():
            return
        if self.model.dice_mode.players_roll and self.dice_fields:
            self.dice_fields[0].edit.setFocus()
            return
        if self.resolve_button.isEnabled():
            self.resolve_button.setFocus()

    def clear_dice(self, why: str) -> None:
        """Empty the typed dice (they belong to the action they were typed for) and say so."""
        if self.runner.clear_dice():
            self.notice.show_notice(f"Dice cleared ({why}): type the dice of this action.")

    # -- rebuilding --------------------------------------------------------------------------

    def _reset(self) -> None:
        self._quiet = True
        keep = self.procedure.currentData() if self.procedure.count() else None
        self.procedure.blockSignals(True)
        self.procedure.clear()
        if self.model.has_session:
            rs = self.model.session.ruleset
            for pid, proc in rs.procedures.items():
                if pid == rs.initiative:  # the Initiative panel's, not a second form here
                    continue
                self.procedure.addItem(f"{proc.title} ({proc.rule})", pid)
        if keep is not None and self.procedure.findData(keep) >= 0:
            self.procedure.setCurrentIndex(self.procedure.findData(keep))
        self.procedure.blockSignals(False)
        self._fill_aircraft()
        self._default_aircraft()
        self.result.clear()
        self.refusal.clear_refusal()
        self._procedure_chosen()

    def _fill_aircraft(self) -> None:
        e = self.model.engagement
        for combo in (self.attacker, self.aircraft):
            self._fill(combo, list(e.aircraft.values()))
        self._fill_targets()

    def _fill_targets(self) -> None:
        """Only legal targets: aircraft of another side than the attacker, still in play."""
        e = self.model.engagement
        first = self.attacker.currentData() if self.attacker.count() else NONE
        a = e.aircraft.get(first) if first else None
        enemies = [t for t in e.aircraft.values() if (a is None or t.side != a.side) and t.in_play]
        self._fill(self.target, enemies)

    @staticmethod
    def _fill(combo: QComboBox, aircraft: list[Any]) -> None:
        keep = combo.currentData() if combo.count() else NONE
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(NO_AIRCRAFT, NONE)
        for n, a in enumerate(aircraft, 1):
            combo.addItem(aircraft_label(a.name, a.side), a.id)
            if n <= 9:
                combo.setItemData(n, f"Key {n} picks it", Qt.ItemDataRole.ToolTipRole)
        i = combo.findData(keep)
        combo.setCurrentIndex(i if i >= 0 else 0)
        combo.blockSignals(False)

    def _show_roles(self, roles: Any) -> None:
        """Set the pickers to these roles without preparing again."""
        for combo in self._combos().values():
            combo.blockSignals(True)
        try:
            if "aircraft" in roles:
                for combo in (self.attacker, self.aircraft):
                    combo.setCurrentIndex(max(combo.findData(roles["aircraft"] or NONE), 0))
            if "attacker" in roles:
                for combo in (self.attacker, self.aircraft):
                    combo.setCurrentIndex(max(combo.findData(roles["attacker"] or NONE), 0))
            self._fill_targets()
            if "target" in roles:
                self.target.setCurrentIndex(max(self.target.findData(roles["target"] or NONE), 0))
        finally:
            for combo in self._combos().values():
                combo.blockSignals(False)

    def _default_aircraft(self) -> None:
        """A fresh game: the session's first aircraft for the procedure shown (one whose cards
        it reads), and a target for it."""
        e = self.model.engagement
        pid = self.procedure.currentData() if self.procedure.count() else None
        if not pid or not e.aircraft:
            return
        if any(c.currentData() for c in self._combos().values() if c.count()):
            return
        try:
            roles = self.model.session.first_roles(pid)
        except Exception:  # noqa: BLE001 - then the umpire picks them
            return
        self._show_roles(roles)

    def _aircraft_list_changed(self, ids: list[str]) -> None:
        e = self.model.engagement
        known = {self.attacker.itemData(i) for i in range(1, self.attacker.count())}
        if known != set(e.aircraft) or any(
            self.attacker.itemText(self.attacker.findData(a))
            != aircraft_label(e.aircraft[a].name, e.aircraft[a].side)
            for a in ids
            if a in e.aircraft
        ):
            self._fill_aircraft()

    def _picked_procedure(self, *_: object) -> None:
        self._quiet = False
        self._procedure_chosen()

    def _procedure_chosen(self, *_: object) -> None:
        """Another procedure: a clean form for it, the dice of the last one cleared."""
        if self.runner.clear_dice():
            self.notice.show_notice("Dice cleared (another procedure): type the dice of this one.")
        self._new_form()

    def _new_form(self) -> None:
        """A fresh form for the current procedure and aircraft: nothing typed, nothing
        overridden."""
        proc = self.current_procedure
        if self.form is not None:
            self.form_layout.removeWidget(self.form)
            self.form.hide()  # gone now, not when the event loop deletes it
            self.form.deleteLater()
            self.form = None
        self._typed, self._overridden = {}, set()
        self._pending = set()
        self.override_why.clear()
        self.override_why.hide()
        self._missing = None
        self.open_tables.hide()
        self.refusal.clear_refusal()
        if proc is None:
            self.prepared = None
            self.rule.setText("No game is open." if not self.model.has_session else "")
            for w in (self.attacker, self.target, self.aircraft):
                w.setVisible(False)
            for w in (self._attacker_label, self._target_label, self._aircraft_label):
                w.setVisible(False)
            self._show_odds(None)
            self.runner.set_dice(())
            self.resolve_button.setEnabled(False)
            return
        doc = " ".join((proc.__doc__ or "").strip().split("\n\n")[0].split())
        if doc.startswith(proc.rule):
            doc = doc[len(proc.rule) :].lstrip(" :")
        self.rule.setText(f"<b>{escape(proc.rule)}</b>" + (f": {escape(doc)}" if doc else ""))
        fields = proc.Inputs.model_fields
        pair = "attacker" in fields or "target" in fields
        one = "aircraft" in fields
        for w in (self.attacker, self._attacker_label):
            w.setVisible("attacker" in fields)
        for w in (self.target, self._target_label):
            w.setVisible("target" in fields)
        for w in (self.aircraft, self._aircraft_label):
            w.setVisible(one and not pair)
        self.form = InputForm(
            proc.Inputs, exclude=(*AIRCRAFT_FIELDS, *proc.inputs_off()), prepared=True
        )
        self.form.setObjectName("inputs")
        self.form.edited.connect(self._edited)
        self.form.override_asked.connect(self._override)
        self.form.submitted.connect(self._field_submitted)
        self.form.keyed.connect(lambda name: self._pending.discard(name))
        self.form.typed_all.connect(self._to_dice)
        self.form_layout.insertWidget(0, self.form)
        self.form.show()  # now, not when the layout gets round to it: the cursor goes in it
        self.resolve_button.setEnabled(self.model.can_act)
        self._prepare()

    # -- the prepared action -----------------------------------------------------------------

    def _prepare(self) -> None:
        """Prepare the action again from what is picked and typed, and show it."""
        proc = self.current_procedure
        if proc is None or self.form is None or not self.model.has_session:
            return
        session = self.model.session
        try:
            p = session.prepare(
                proc.id, self._roles(), self._typed, self._overridden, pending=self._pending
            )
            shown = self.form.unset_shown(p)
            if shown:  # a spin box shows a number: that number is the one used
                self._typed.update(shown)
                # ... but a refusal that reads it waits until the umpire types it (issue 29)
                self._pending |= {n for n in shown if self.form.kind(n) == "int"}
                p = session.prepare(
                    proc.id, self._roles(), self._typed, self._overridden, pending=self._pending
                )
        except RuleViolation as e:
            self.prepared = None
            self.refusal.show_refusal(f"Cannot prepare {proc.title}: {e}")
            return
        except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
            self.prepared = None
            self.refusal.show_refusal(
                f"{proc.title}: the ruleset could not prepare this action "
                f"({type(e).__name__}: {e}); nothing was written"
            )
            return
        self._show(p)

    def _show(self, p: Prepared) -> None:
        assert self.form is not None
        if p.overrides:  # the reason typed goes with the action it explains (issue 34)
            p = replace(p, reason=self.override_why.text().strip())
        self.override_why.setVisible(bool(self._overridden))
        self.prepared = p
        self._show_roles(p.roles)
        self.form.show_prepared(p)
        if p.cannot:
            self.refusal.show_refusal(p.cannot)
        # a refusal of the rules as the action stands is said now, in the form, and Resolve
        # is not offered while it stands (issue 29); it goes once what it depended on changes
        said = f"Cannot resolve: {p.refused}" if p.refused and not self._quiet else ""
        if said:
            self.refusal.show_refusal(said)
        elif self._refused_said and self.refusal.message == self._refused_said:
            self.refusal.clear_refusal()
        self._refused_said = said
        self.resolve_button.setEnabled(self.model.can_act and not p.refused)
        if p.notes:
            self.notice.show_notice(" ".join(p.notes))
        if p.missing is not None:
            self._offer_tables(p.missing)
        self.runner.set_dice(p.dice)
        self.runner.next_die = lambda typed, p=p: self.model.session.next_die(p, typed)
        self._odds_timer.stop()
        if p.cannot or p.refused:  # it cannot act: opening it explains, no odds as if it could
            self._odds_due = False
            self._show_odds(None, p.cannot or p.refused)
            return
        if p.inputs is None:
            self._odds_due = False
            self._show_odds(None, f"Fix the inputs first: {p.error}")
            return
        self._odds_due = True
        self._odds_timer.start()
        if not self.odds_message.isHidden() and not self._odds:
            # good inputs now: a refusal of the earlier ones must not stay up meanwhile
            self._show_odds(None)

    def _edited(self, changed: dict[str, Any]) -> None:
        """The umpire typed or picked: prepare again with it."""
        self._quiet = False
        self._typed.update(changed)
        self._pending -= set(changed)
        self._prepare()

    def _override(self, name: str) -> None:
        """The umpire overrides a locked value: it becomes his to change, and is logged."""
        if self.prepared is not None:
            self._typed[name] = self.prepared.value(name).value
        self._overridden.add(name)
        self._prepare()

    def _target_picked(self, index: int) -> None:
        """The umpire himself picked in Target: "(none: what-if)" is then meant."""
        self._no_target = not self.target.itemData(index)

    def _roles_changed(self, *_: object) -> None:
        """Another attacker, target or aircraft: its cards are read (values typed for what
        the new cards say give way to them) and the dice typed for the last pair cleared."""
        self._quiet = False
        if self.sender() is self.attacker:
            self._fill_targets()
        if self.sender() is not self.target:
            self._no_target = False
        if self.runner.clear_dice():
            self.notice.show_notice("Dice cleared (another aircraft): type the dice of this pair.")
        if self.form is None:
            return
        self._prepare()
        p = self.prepared
        if p is not None:
            stale = {
                v.name
                for v in p.values
                if v.source == "typed" and v.read is not None and v.name not in self._overridden
            }
            if stale:
                for name in stale:
                    self._typed.pop(name, None)
                self._prepare()

    def _game_changed(self, _envelopes: list[Any]) -> None:
        """Something was appended (a piece moved, a card edited, another station's action):
        the form shows the action as it would resolve now."""
        if self.form is not None:
            self._prepare()

    # -- odds and dice -----------------------------------------------------------------------

    def _compute_odds(self, now: bool = False) -> None:
        """Ask for the odds of the prepared action: off the GUI thread (the answer comes back
        to ``_odds_answered``), or ``now``, in this thread (for the ``odds`` property)."""
        self._odds_timer.stop()
        self._odds_worker.cancel()
        p, due, self._odds_due = self.prepared, self._odds_due, False
        if p is None or p.inputs is None or not due or not self.model.has_session:
            return
        if not now:
            self._odds_worker.ask(p, self.model.session.odds, p)
            return
        try:
            odds = self.model.session.odds(p)
        except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
            self._odds_failed(p, e)
        else:
            self._odds_answered(p, odds)

    def _odds_answered(self, p: Prepared, odds: dict[str, Fraction]) -> None:
        if isinstance(odds, UnknownOdds):  # a table the text does not print: named
            self._odds_failed(p, odds.missing)
        elif p is self.prepared:  # else the action changed meanwhile: its odds are asked for
            self._show_odds(odds)

    def _odds_failed(self, p: Prepared, e: BaseException) -> None:
        if p is not self.prepared:
            return
        if isinstance(e, MissingTableValue):
            self._offer_tables(e)
            self._show_odds(None, str(e))
        else:
            self._show_odds(None, f"No odds for these inputs: {e}")

    def _odds_waiting(self, p: Prepared) -> None:
        if p is self.prepared:
            self._show_odds(None, "Working out the odds…")

    def _show_odds(self, odds: dict[str, Fraction] | None, message: str = "") -> None:
        self._odds = dict(odds or {})
        rows = list(self._odds.items())
        self.odds_table.setRowCount(len(rows))
        for r, (label, p) in enumerate(rows):
            for c, text in enumerate((label, str(p), percent(p))):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.odds_table.setItem(r, c, item)
        self.chart.show_odds(rows)
        header = self.odds_table.horizontalHeader().height()
        self.odds_table.setFixedHeight(
            header
            + 2 * self.odds_table.frameWidth()
            + 2
            + sum(self.odds_table.rowHeight(r) for r in range(len(rows)))
        )
        self.odds_message.setText(message)
        self.odds_message.setStyleSheet(f"color: {muted(self)};")
        self.odds_message.setVisible(bool(message))
        self._odds_shown(odds)

    @property
    def odds(self) -> dict[str, Fraction]:
        """The odds of the prepared action as it is now (outcome label -> exact probability);
        any calculation still waiting for the typing to pause is done first."""
        if self._odds_worker.pending:
            self._odds_due = True  # asked off the GUI thread: worked out now instead
        if self._odds_due:
            self._compute_odds(now=True)
        return dict(self._odds)

    def _to_dice(self) -> None:
        """Every field to type is typed: on to the first die (when the players roll)."""
        if self.model.dice_mode.players_roll and self.dice_fields:
            empty = [f for f in self.dice_fields if not f.edit.text().strip()]
            (empty or self.dice_fields)[0].edit.setFocus()

    def _field_submitted(self) -> None:
        """Enter in a field of the form: on to a number the umpire must judge and has not
        typed yet (its spin box shows one until he does; Enter there takes it), else as in any
        field (issue 29: a missile picked, Enter goes on to its range)."""
        form = self.form
        if form is not None and self._pending:
            focus = QApplication.focusWidget()
            here = {n for n in self._pending if n in form.names and form.editor(n) is focus}
            if here:  # Enter in it: the number shown is the umpire's
                self._pending -= here
                self._prepare()
            todo = next((n for n in form.must_type() if n in self._pending), None)
            if todo is not None:
                form.focus_field(todo)
                return
        self._submitted()

    def _submitted(self) -> None:
        """Enter in a field: the first untyped die if the players roll, else resolve."""
        empty = self.runner.first_empty_die()
        if empty is not None:
            empty.edit.setFocus()
            return
        self.resolve()

    # -- resolving ---------------------------------------------------------------------------

    def resolve(self) -> None:
        """Resolve exactly the prepared action with the chosen dice; a refusal is shown here
        (and clears the dice typed for it)."""
        p = self.prepared
        if p is None or self.form is None:
            return
        if p.inputs is None:
            self.refusal.show_refusal(f"Not resolved: {p.error}")
            self.form.focus_first()
            return
        if p.refused:  # said in the form already (Ctrl+Return): the rules say it again,
            # through the desk (the Ledgers panel hears one that names a ledger), before any
            # die is rolled: nothing is written
            attempt_here(
                self.model, lambda: self.model.session.resolve(p, SeededDice()), self.refusal
            )
            self._refused_said = self.refusal.message  # it goes when the refusal does
            return
        self._missing = None
        self.open_tables.hide()
        done, res, dice = self.runner.run(p)
        if not done:
            if isinstance(dice, TableDice) and dice.ran_out and dice.wanted is not None:
                # the result rolls a die nobody could know of before (UFO damage 2, 8, 12):
                # asked for here, in the same form, the dice typed kept (issue 29)
                spec, purpose = dice.wanted
                names = {
                    r: self.model.engagement.aircraft[a].name
                    for r, a in p.roles.items()
                    if a and a in self.model.engagement.aircraft
                }
                self.runner.ask_more(dice_of([(spec, purpose)], names))
                self.refusal.show_refusal(
                    f"The result rolls more: {purpose}. Type it and press Enter."
                )
                self.dice_fields[-1].edit.setFocus()
                return
            if self.runner.missing is not None:
                self._offer_tables(self.runner.missing)
                self.open_tables.setFocus()  # Enter opens the editor on the cell (issue 29)
            elif dice is not None and not self.runner.raced and self.runner.clear_dice():
                self.notice.show_notice(
                    "The dice typed for this action were cleared: it was not resolved."
                )
            return
        rolled = ", ".join(str(r) for r in res.rolls)
        self.result.setText(
            f"<b>{escape(res.headline or res.outcome)}</b>: {escape(res.narrative)} "
            f"[{escape(p.rule)}]" + (f"<br>Dice: {escape(rolled)}" if rolled else "")
        )
        self.result_seq = self.model.engagement.seq  # its ruling (issue 34)
        self.notice.clear_refusal()
        self.runner.clear_dice()
        if res.follows is not None:
            who, _what, pid, *other = res.follows
            e = self.model.engagement
            name = e.aircraft[who].name if who in e.aircraft else who
            title = self.model.session.ruleset.procedures[pid].title
            self.open_for(pid, who, other[0] if other else None)
            self.notice.show_notice(f"Owed now: {title} for {name}. Resolve it next.")
            if self.focusWidget() is None or not self.focusWidget().hasFocus():
                self.resolve_button.setFocus()
            return
        # a new shot starts clean: judgement fields back to their defaults, cards read again;
        # the umpire is not at it until he opens a line, picks or types (no red refusal yet)
        self._quiet = True
        self._new_form()
        self.resolved.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter on the focused Resolve button presses it (one key to accept a roll owed);
        Enter in a picker goes on as in a field (the next die, or resolve); a number in an
        aircraft picker picks the aircraft listed with it (issue 29: picking is one key)."""
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return super().eventFilter(watched, event)
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if watched is self.resolve_button and enter:
            self.resolve()
            return True
        if watched is self.open_tables and enter:
            self._open_tables()
            return True
        if isinstance(watched, QComboBox) and watched.view().isVisible():
            return super().eventFilter(watched, event)
        if enter and watched in (self.procedure, self.attacker, self.target, self.aircraft):
            self._submitted()
            return True
        if watched in (self.attacker, self.target, self.aircraft) and event.text().isdigit():
            assert isinstance(watched, QComboBox)
            n = int(event.text())
            if 0 < n < watched.count():
                watched.setCurrentIndex(n)  # item 0 is "(none: what-if)"
                if watched is self.target:
                    self._no_target = False
            return True
        return super().eventFilter(watched, event)

    # -- the chain and the what-ifs (issue 34) -------------------------------------------------

    def _compare_hooks(self) -> None:
        """Escape clears the kept columns too; a chain worked out joins its column."""
        self.chain.shown.connect(lambda p: self.compare.chain_ready(p, self.chain.result))
        for sc in self.findChildren(QShortcut):
            if sc.key() == QKeySequence(Qt.Key.Key_Escape):
                sc.activated.connect(self.compare.clear)

    def _odds_shown(self, odds: dict[str, Fraction] | None) -> None:
        """The odds of the form's action are shown: its chain is worked out, and its column
        of the comparison is the form as it is now."""
        session = self.model.session if odds and self.model.has_session else None
        self.chain.show_for(session, self.prepared)
        names = {a.id: a.name for a in self.model.engagement.aircraft.values()}
        self.compare.show_now(self.prepared if odds else None, odds, names)

    # -- the last result's ruling (issue 34) ---------------------------------------------------

    def _ruling_hooks(self) -> None:
        """A double-click or Enter on the last result opens its ruling."""
        from app.ui.ruling_window import OpensRuling

        self.result_seq: int | None = None
        self.ruling_window: QWidget | None = None
        self.result.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.result.setToolTip("Double-click or Enter: the ruling of this result")
        OpensRuling(self.result, self.open_result_ruling)

    def open_result_ruling(self) -> QWidget | None:
        if self.result_seq is None or not self.result.text():
            return None
        from app.ui.ruling_window import open_ruling

        self.ruling_window = open_ruling(self.model, self.result_seq, self)
        return self.ruling_window

    def recompute(self) -> None:
        """Prepare the action again (a table value was saved)."""
        if self.when_shown.stale:
            return  # the panel rebuilds, odds and all, when it is shown
        self._prepare()

    def _offer_tables(self, e: MissingTableValue) -> None:
        self._missing = e
        self.open_tables.setText(f"Fill in {e.table}: {e.cell} (tables editor)")
        self.open_tables.show()

    def _open_tables(self) -> None:
        if self._missing is None or not self.model.has_session:
            return
        from app.ui.editors.tables_editor import TablesEditor

        e = self._missing
        editor = TablesEditor(self.model.session.ruleset, self, select=(e.table, e.cell))
        editor.saved.connect(lambda _name: self._tables_saved())
        editor.show()
        editor.activateWindow()
        editor.table.setFocus()  # the cursor on the cell: the umpire types it, then Ctrl+S
        self.tables_editor = editor

    def _tables_saved(self) -> None:
        """A table value was saved from the form's flow (issue 29): the form is prepared
        again; a resolve that stopped at the missing cell goes on with the dice typed; the
        editor goes on to the next missing cell the action needs, or closes and the cursor
        is back in the form."""
        editor = self.tables_editor
        resolving = self.runner.missing is not None
        self._missing = None
        self.open_tables.hide()
        self.recompute()
        if resolving and self.prepared is not None and self.prepared.missing is None:
            self.resolve()
        if editor is None:
            return
        if self._missing is not None:
            editor.go_to(self._missing.table, self._missing.cell)
            editor.activateWindow()
            editor.table.setFocus()
            return
        editor.close()
        self.window().activateWindow()
        if not resolving:
            self.focus_first()


if __name__ == "__main__":
    from app.ui.preview import preview

    raise SystemExit(preview(CombatDock))
