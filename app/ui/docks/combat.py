"""The combat panel: pick a procedure and its aircraft, fill the generated form, read the exact
odds of every outcome (table and bar chart) before anything is rolled, then resolve it with
Airboss's dice or with the dice the players rolled at the table.

At the table (issue 13): a "who acts now" line opens a clean form for its attacker and target;
values read from the cards are read-only until overridden (and the override is logged); the
cursor waits in the first field the umpire must type, each typed die moves on to the next, and
Enter resolves. Dice, Resolve and the last result sit in a footer that never scrolls away; a
roll the result owes (a critical hit, a fire check) opens next.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Any

from pydantic import BaseModel
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import MissingTableValue, RuleViolation
from app.core.procedure import Procedure
from app.core.ruleset import Acting
from app.ui.die_field import DieField
from app.ui.forms import AIRCRAFT_FIELDS, InputForm
from app.ui.message_bar import MessageBar, muted
from app.ui.model import EngagementModel
from app.ui.odds_chart import OddsChart
from app.ui.procedure_runner import ProcedureRunner
from app.ui.when_shown import WhenShown

NO_AIRCRAFT = "(none: what-if)"
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
    """Procedures with their forms, exact odds and dice."""

    #: a procedure was resolved and nothing is owed at once: the desk moves on ("who acts now")
    resolved = Signal()

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CombatDock")
        self.model = model
        self.form: InputForm | None = None
        self._missing: MissingTableValue | None = None
        self._odds: dict[str, Fraction] = {}
        self._pending: BaseModel | None = None
        #: the odds wait for a pause in the typing (ms)
        self._odds_timer = QTimer(self)
        self._odds_timer.setSingleShot(True)
        self._odds_timer.setInterval(ODDS_DELAY_MS)
        self._odds_timer.timeout.connect(self._compute_odds)

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
        self.prefill_button = QPushButton("Read from the c&ards")
        self.prefill_button.setToolTip(
            "Fill the numbers from the chosen aircraft's cards and state"
        )
        self.form_layout.addWidget(self.prefill_button)
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

        self.procedure.currentIndexChanged.connect(self._procedure_chosen)
        for combo in (self.attacker, self.target, self.aircraft):
            combo.currentIndexChanged.connect(self._aircraft_chosen)
        self.prefill_button.clicked.connect(self.prefill)
        self.runner.triggered.connect(self.resolve)
        self.runner.submitted.connect(self.resolve)
        self.open_tables.clicked.connect(self._open_tables)
        self.resolve_button.installEventFilter(self)

        #: out of view a new game waits until the panel is shown
        self.when_shown = WhenShown(self, self._reset)
        model.reset.connect(self.when_shown.wrap(self._reset))
        model.aircraft_changed.connect(self.when_shown.unless_stale(self._aircraft_list_changed))
        self._reset()

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

    def _ids(self) -> dict[str, str | None]:
        proc = self.current_procedure
        if proc is None:
            return {}
        fields = proc.Inputs.model_fields
        combos = {"attacker": self.attacker, "target": self.target, "aircraft": self.aircraft}
        return {k: combos[k].currentData() or None for k in AIRCRAFT_FIELDS if k in fields}

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
        for field, aid in self._ids().items():
            a = e.aircraft.get(aid) if aid else None
            out[field.capitalize()] = a.name if a is not None else "none"
        return out

    def open_for(self, procedure_id: str, attacker: str, target: str | None = None) -> None:
        """A "who acts now" line: this procedure for this attacker (and target), on a clean
        form (the judgement fields back to their defaults), the cursor in the first field to
        type. Without a named target the first enemy in play is offered."""
        self.when_shown.fresh()
        self.procedure.blockSignals(True)
        self.select_procedure(procedure_id)
        self.procedure.blockSignals(False)
        for combo in (self.attacker, self.aircraft):
            combo.blockSignals(True)
            combo.setCurrentIndex(max(combo.findData(attacker), 0))
            combo.blockSignals(False)
        self._fill_targets()
        proc = self.current_procedure
        if proc is not None and "target" in proc.Inputs.model_fields:
            if target is None or self.target.findData(target) < 0:
                target = self.target.itemData(1) if self.target.count() > 1 else None
            self.target.blockSignals(True)
            self.target.setCurrentIndex(max(self.target.findData(target or NONE), 0))
            self.target.blockSignals(False)
        self.notice.clear_refusal()
        self._procedure_chosen()
        self.focus_first()

    def focus_first(self) -> None:
        """The cursor in the first field the umpire must type, else the first die to type."""
        if self.form is not None and self.form.focus_first():
            return
        if self.model.dice_mode.players_roll and self.dice_fields:
            self.dice_fields[0].edit.setFocus()

    # -- rebuilding --------------------------------------------------------------------------

    def _reset(self) -> None:
        keep = self.procedure.currentData() if self.procedure.count() else None
        self.procedure.blockSignals(True)
        self.procedure.clear()
        if self.model.has_session:
            rs = self.model.session.ruleset
            for pid, proc in rs.procedures.items():
                if pid == rs.initiative:  # the Initiative panel's, not a second form here
                    continue
                self.procedure.addItem(f"{proc.title} ({proc.rule})", pid)
        self.procedure.blockSignals(False)
        self._fill_aircraft()
        self._default_aircraft()
        self.result.clear()
        self.refusal.clear_refusal()
        if keep is not None and self.procedure.findData(keep) >= 0:
            self.procedure.setCurrentIndex(self.procedure.findData(keep))
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
        for a in aircraft:
            combo.addItem(aircraft_label(a.name, a.side), a.id)
        i = combo.findData(keep)
        combo.setCurrentIndex(i if i >= 0 else 0)
        combo.blockSignals(False)

    def _default_aircraft(self) -> None:
        """A fresh game: the first aircraft attacks the first one of another side."""
        e = self.model.engagement
        if not e.aircraft or self._ids_chosen():
            return
        pid = self.procedure.currentData() or self.procedure.itemData(0)
        proc = self.model.session.ruleset.procedures.get(pid) if pid else None

        def reads(a: Any) -> bool:
            """The procedure reads this aircraft's card (a UFO's move is not a fighter's)."""
            if proc is None or "aircraft" not in proc.Inputs.model_fields:
                return True
            try:
                proc.prefill(e, a.id, None)
            except (RuleViolation, KeyError, ValueError):
                return False
            return True

        aircraft = list(e.aircraft.values())
        first = next((a for a in aircraft if reads(a)), aircraft[0])
        other = next((a for a in e.aircraft.values() if a.side != first.side), None)
        for combo in (self.attacker, self.aircraft):
            combo.blockSignals(True)
            combo.setCurrentIndex(combo.findData(first.id))
            combo.blockSignals(False)
        if other is not None:
            self.target.blockSignals(True)
            self.target.setCurrentIndex(self.target.findData(other.id))
            self.target.blockSignals(False)

    def _ids_chosen(self) -> bool:
        return any(
            c.currentData() for c in (self.attacker, self.target, self.aircraft) if c.count()
        )

    def _aircraft_list_changed(self, ids: list[str]) -> None:
        e = self.model.engagement
        known = {self.attacker.itemData(i) for i in range(1, self.attacker.count())}
        if known != set(e.aircraft) or any(
            self.attacker.itemText(self.attacker.findData(a))
            != aircraft_label(e.aircraft[a].name, e.aircraft[a].side)
            for a in ids
            if a in e.aircraft
        ):
            before = self._ids()
            self._fill_aircraft()
            if self._ids() != before:
                self._aircraft_chosen()

    def _procedure_chosen(self, *_: object) -> None:
        proc = self.current_procedure
        if self.form is not None:
            self.form_layout.removeWidget(self.form)
            self.form.hide()  # gone now, not when the event loop deletes it
            self.form.deleteLater()
            self.form = None
        self._missing = None
        self.open_tables.hide()
        self.refusal.clear_refusal()
        if proc is None:
            self.rule.setText("No game is open." if not self.model.has_session else "")
            for w in (self.attacker, self.target, self.aircraft):
                w.setVisible(False)
            for w in (self._attacker_label, self._target_label, self._aircraft_label):
                w.setVisible(False)
            self._show_odds(None)
            self.runner.set_dice([])
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
            proc.Inputs, exclude=(*AIRCRAFT_FIELDS, *proc.inputs_off()), fixed=self._ids()
        )
        self.form.setObjectName("inputs")
        self.form.changed.connect(self._inputs_changed)
        self.form.submitted.connect(self._submitted)
        self.form.typed_all.connect(self._to_dice)
        self.form_layout.insertWidget(0, self.form)
        self.form.show()  # now, not when the layout gets round to it: the cursor goes in it
        self.prefill_button.setVisible(pair or one)
        self.resolve_button.setEnabled(self.model.can_act)
        self._aircraft_chosen()

    def _aircraft_chosen(self, *_: object) -> None:
        if self.sender() is self.attacker:
            self._fill_targets()
        if self.form is None:
            return
        self.form.fixed = self._ids()
        self.prefill()

    def prefill(self) -> None:
        """Fill the form from the chosen aircraft (``procedure.prefill``), shown read-only until
        overridden, then recompute."""
        proc = self.current_procedure
        if proc is None or self.form is None:
            return
        ids = self._ids()
        first = ids.get("attacker") or ids.get("aircraft")
        values: dict[str, Any] = {}
        fields = proc.Inputs.model_fields
        if first or ids.get("target") or not ({"attacker", "target", "aircraft"} & set(fields)):
            try:
                self.form.set_choices(proc.choices(self.model.engagement, first, ids.get("target")))
                values = proc.prefill(self.model.engagement, first, ids.get("target"))
            except (RuleViolation, KeyError, ValueError) as e:
                self.refusal.show_refusal(f"Cannot read the cards: {e}")
        board = self._board_readings(first, ids.get("target"))
        values.update(board)
        # card and board values are shown read-only, each with an Override that is logged
        self.form.lock(values, proc.card_fields | set(board))  # validates, emits changed
        if board:
            said = ", ".join(
                f"{self.form.title(n)}: {('yes' if v else 'no') if isinstance(v, bool) else v}"
                for n, v in board.items()
            )
            self.notice.show_notice(f"From the board: {said}")

    def _board_readings(self, attacker: str | None, target: str | None) -> dict[str, Any]:
        """What the board says of the pair being resolved, for the fields this form has
        (issue 18: readings fill the forms); nothing while either has no position."""
        if self.form is None or not self.model.has_session:
            return {}
        try:
            said = self.model.session.board_readings({"attacker": attacker, "target": target})
        except (RuleViolation, ValueError) as e:
            self.refusal.show_refusal(f"Cannot read the board: {e}")
            return {}
        proc = self.current_procedure
        filled = proc.board_inputs(said) if proc is not None else {}
        return {k: v for k, v in filled.items() if k in self.form.names}

    # -- odds and dice -----------------------------------------------------------------------

    def _inputs_changed(self, inputs: BaseModel | None) -> None:
        """The dice fields follow at once; the odds a moment after the last keystroke (issue
        20: typing never waits for a calculation)."""
        proc = self.current_procedure
        if proc is None:
            return
        self._odds_timer.stop()
        self._pending = None
        if inputs is None:
            self._show_odds(
                None, f"Fix the inputs first: {self.form.error_text() if self.form else ''}"
            )
            return
        self._pending = inputs
        self._odds_timer.start()
        if not self.odds_message.isHidden() and not self._odds:
            # the inputs are good now: a refusal of the earlier ones must not stay up while
            # the odds are worked out (a new procedure's form passes through empty fields)
            self._show_odds(None)
        try:
            needed = list(proc.dice_needed(inputs))
        except Exception:  # noqa: BLE001 - then no typed dice can be offered
            needed = []
        self.runner.set_dice(needed)

    def _compute_odds(self) -> None:
        self._odds_timer.stop()
        proc, inputs, self._pending = self.current_procedure, self._pending, None
        if proc is None or inputs is None:
            return
        try:
            odds = proc.odds(inputs)
        except MissingTableValue as e:
            self._offer_tables(e)
            self._show_odds(None, str(e))
        except Exception as e:  # noqa: BLE001 - a ruleset bug must not lose the desk
            self._show_odds(None, f"No odds for these inputs: {e}")
        else:
            self._show_odds(odds)

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

    @property
    def odds(self) -> dict[str, Fraction]:
        """The odds for the inputs as they are now (outcome label -> exact probability); any
        calculation still waiting for the typing to pause is done first."""
        if self._pending is not None:
            self._compute_odds()
        return dict(self._odds)

    def _to_dice(self) -> None:
        """Every field to type is typed: on to the first die (when the players roll)."""
        if self.model.dice_mode.players_roll and self.dice_fields:
            empty = [f for f in self.dice_fields if not f.edit.text().strip()]
            (empty or self.dice_fields)[0].edit.setFocus()

    def _submitted(self) -> None:
        """Enter in a field: the first untyped die if the players roll, else resolve."""
        empty = self.runner.first_empty_die()
        if empty is not None:
            empty.edit.setFocus()
            return
        self.resolve()

    # -- resolving ---------------------------------------------------------------------------

    def resolve(self) -> None:
        """Resolve the procedure with the chosen dice; a refusal is shown here."""
        proc = self.current_procedure
        if proc is None or self.form is None:
            return
        inputs = self.form.value()
        if inputs is None:
            self.refusal.show_refusal(f"Not resolved: {self.form.error_text()}")
            return
        self._missing = None
        self.open_tables.hide()
        owed_before = set(self._owed())
        done, res, _dice = self.runner.run(proc, inputs, self.form.overrides())
        if not done:
            if self.runner.missing is not None:
                self._offer_tables(self.runner.missing)
            return
        rolled = ", ".join(str(r) for r in res.rolls)
        self.result.setText(
            f"<b>{escape(res.outcome)}</b>: {escape(res.narrative)} [{escape(proc.rule)}]"
            + (f"<br>Dice: {escape(rolled)}" if rolled else "")
        )
        self.notice.clear_refusal()
        self.runner.clear_dice()
        owed = [line for line in self._owed() if line not in owed_before and line[2] != proc.id] + [
            (who, "", pid) for pid, who in getattr(res, "follow_ups", ())
        ]
        if owed:
            line = owed[0]
            e = self.model.engagement
            who = e.aircraft[line[0]].name if line[0] in e.aircraft else line[0]
            title = self.model.session.ruleset.procedures[line[2]].title
            self.open_for(line[2], line[0], line[3] if len(line) > 3 else None)
            self.notice.show_notice(f"Owed now: {title} for {who}. Resolve it next.")
            if self.focusWidget() is None or not self.focusWidget().hasFocus():
                self.resolve_button.setFocus()
            return
        # a new shot starts clean: judgement fields back to their defaults, cards read again
        self._procedure_chosen()
        self.resolved.emit()

    def _owed(self) -> list[Acting]:
        """The "who acts now" lines that open a procedure (to see what a result made owed)."""
        if not self.model.has_session:
            return []
        rs = self.model.session.ruleset
        try:
            lines = rs.acting(self.model.engagement)
        except Exception:  # noqa: BLE001 - a ruleset bug must not lose the desk
            return []
        return [line for line in lines if len(line) >= 3 and line[2] in rs.procedures]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter on the focused Resolve button presses it (one key to accept a roll owed)."""
        if (
            watched is self.resolve_button
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self.resolve()
            return True
        return super().eventFilter(watched, event)

    def recompute(self) -> None:
        """Work the odds out again (a table value was saved)."""
        if self.when_shown.stale:
            return  # the panel rebuilds, odds and all, when it is shown
        self._inputs_changed(self.form.value() if self.form else None)

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
        editor.saved.connect(lambda _name: self.recompute())
        editor.show()
        self.tables_editor = editor


if __name__ == "__main__":
    from app.ui.preview import preview

    raise SystemExit(preview(CombatDock))
