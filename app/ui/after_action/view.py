"""The After-action panel's content (issue 35): three tabs of pyqtgraph plots -- the fight over
game time, luck, and dice at the table -- with the clicked log line and the exports. Built by
``app.ui.docks.after_action`` when the panel is first shown (this module imports pyqtgraph).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.after_action import Series
from app.core.dice_check import NO_AIRCRAFT
from app.core.luck import attacks
from app.ui.after_action.data import GameReading
from app.ui.after_action.export import export_csv, export_plot
from app.ui.after_action.plots import draw_die, draw_luck, draw_series, plot_widget
from app.ui.widgets.accessible import named
from app.ui.widgets.tab_leaves import let_tab_leave


class AfterActionView(QWidget):
    """The plots of one game reading; ``log_line`` says which action a click chose."""

    #: a point was clicked: the action (its first event's sequence number) it came from
    log_line = Signal(int)
    #: the umpire names the dice a side (aircraft "") or an aircraft rolls: side, aircraft, dice
    dice_named = Signal(str, str, str)
    #: the umpire asks for the ruling of the action last clicked (issue 34)
    ruling_asked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reading: GameReading | None = None
        self.tabs = QTabWidget()
        self.tabs.setObjectName("after_action_tabs")

        # -- the fight ---------------------------------------------------------------------
        self.quantity = QComboBox()
        self.quantity.setObjectName("quantity")
        self.per = QComboBox()
        self.per.addItem("per side", "side")
        self.per.addItem("per aircraft", "aircraft")
        self.fight_plot = plot_widget()
        self.fight_plot.setObjectName("fight_plot")
        named(
            self.fight_plot,
            "The fight plot",
            "The chosen quantity per aircraft or side over game time in turns; hover a point "
            "for its value and log line, click it for the Game log.",
        )
        self.fight_items: list[tuple[Series, pg.PlotCurveItem, pg.ScatterPlotItem]] = []
        fight = QWidget()
        row = QHBoxLayout()
        row.addWidget(QLabel("Show"))
        row.addWidget(self.quantity, 1)
        row.addWidget(self.per)
        col = QVBoxLayout(fight)
        col.addLayout(row)
        col.addWidget(self.fight_plot, 1)
        self.tabs.addTab(fight, "The fight")

        # -- luck ----------------------------------------------------------------------------
        self.side = QComboBox()
        self.side.setObjectName("luck_side")
        self.luck_of = QComboBox()
        self.luck_of.addItem("hits", False)
        self.luck_of.addItem("kills", True)
        self.luck_text = QLabel()
        self.luck_text.setObjectName("luck_text")
        self.luck_text.setWordWrap(True)
        self.luck_plot = plot_widget()
        self.luck_plot.setObjectName("luck_plot")
        named(
            self.luck_plot,
            "The luck plot",
            "Cumulative hits against the expected, inside the band of 90% of fair games.",
        )
        self.luck_items: dict[str, Any] = {}  # pyqtgraph's items, by what they draw
        self.luck_table = QTableWidget(0, 5)
        named(
            self.luck_table,
            "Luck per aircraft",
            "Each aircraft's attack rolls, hits and kills, expected against actual, and luck.",
        )
        self.luck_table.setHorizontalHeaderLabels(
            ["aircraft", "attack rolls", "hits: expected / actual", "kills: expected / actual",
             "luckier than"]
        )  # fmt: skip
        self.luck_table.verticalHeader().hide()
        let_tab_leave(self.luck_table)  # Tab goes on past the luck, never round its cells
        self.luck_table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.luck_table.horizontalHeader().setStretchLastSection(True)
        self.luck_table.setMaximumHeight(150)
        luck = QWidget()
        row = QHBoxLayout()
        row.addWidget(QLabel("Side"))
        row.addWidget(self.side, 1)
        row.addWidget(self.luck_of)
        col = QVBoxLayout(luck)
        col.addWidget(self.luck_text)
        col.addLayout(row)
        col.addWidget(self.luck_plot, 1)
        col.addWidget(self.luck_table)
        self.tabs.addTab(luck, "Luck")

        # -- dice at the table ------------------------------------------------------------
        self.die = QComboBox()
        self.die.setObjectName("die")
        named(self.die, "Which die", "The die, or the physical die or player, to check")
        self.dice_text = QLabel()
        self.dice_text.setObjectName("dice_text")
        self.dice_text.setWordWrap(True)
        self.dice_plot = plot_widget()
        self.dice_plot.setObjectName("dice_plot")
        named(
            self.dice_plot,
            "The dice plot",
            "How often each face of the chosen die was typed, against a fair die's count.",
        )
        self.dice_items: dict[str, Any] = {}
        # which physical dice (or player) a side or an aircraft rolls, set once, for the
        # rolls typed after it (a record in the log: ``Roster.set_dice``)
        self.dice_who = QComboBox()
        self.dice_who.setObjectName("dice_who")
        self.dice_name = QLineEdit()
        self.dice_name.setObjectName("dice_name")
        named(self.dice_name, "The dice's name", "Who or which dice roll from now on")
        self.dice_name.setPlaceholderText("the red d10s, Anna's dice … (empty: not named)")
        self.dice_name.setMaxLength(80)
        self.dice_set_button = QPushButton("Name their dice")
        self.dice_set_button.setObjectName("dice_set")
        self.dice_named_text = QLabel()
        self.dice_named_text.setObjectName("dice_named_text")
        self.dice_named_text.setWordWrap(True)
        dice = QWidget()
        row = QHBoxLayout()
        row.addWidget(QLabel("Die"))
        row.addWidget(self.die, 1)
        naming = QHBoxLayout()
        naming.addWidget(QLabel("From now on"))
        naming.addWidget(self.dice_who)
        naming.addWidget(QLabel("rolls with"))
        naming.addWidget(self.dice_name, 1)
        naming.addWidget(self.dice_set_button)
        col = QVBoxLayout(dice)
        col.addWidget(self.dice_text)
        col.addLayout(row)
        col.addWidget(self.dice_plot, 1)
        col.addLayout(naming)
        col.addWidget(self.dice_named_text)
        self.tabs.addTab(dice, "Dice at the table")

        # -- the log line and the exports ---------------------------------------------------
        self.line = QLabel("Click a point to see its log line.")
        self.line.setObjectName("log_line")
        self.line.setWordWrap(True)
        # the ruling of the point last clicked: why that number is what it is (issue 34)
        self.ruling_button = QPushButton("R&uling…")
        self.ruling_button.setEnabled(False)
        self._clicked: int | None = None
        self.export_plot_button = QPushButton("Export plot…")
        self.export_data_button = QPushButton("Export data…")
        self.report_button = QPushButton("Report PDF…")
        buttons = QHBoxLayout()
        buttons.addWidget(self.line, 1)
        buttons.addWidget(self.ruling_button)
        for b in (self.export_plot_button, self.export_data_button, self.report_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)

        self.quantity.currentIndexChanged.connect(lambda _i: self.draw_fight())
        self.per.currentIndexChanged.connect(lambda _i: self.draw_fight())
        self.side.currentIndexChanged.connect(lambda _i: self.draw_luck())
        self.luck_of.currentIndexChanged.connect(lambda _i: self.draw_luck())
        self.die.currentIndexChanged.connect(lambda _i: self.draw_dice())
        self.dice_set_button.clicked.connect(self._name_dice)
        self.dice_name.returnPressed.connect(self._name_dice)
        self.tabs.currentChanged.connect(lambda _i: self._tab_shown())
        self.ruling_button.clicked.connect(self._ask_ruling)
        self.export_plot_button.clicked.connect(self._ask_plot)
        self.export_data_button.clicked.connect(self._ask_csv)
        self.report_button.clicked.connect(self._ask_report)
        self._luck_drawn = self._dice_drawn = False

    # -- showing a reading ------------------------------------------------------------------

    def show_reading(self, reading: GameReading | None) -> None:
        """Show this game (None: no game); the luck and dice tabs draw when first shown."""
        if reading is None or self.reading is None or reading.log is not self.reading.log:
            self._clicked = None  # a point clicked belongs to the game it was clicked in
            self.ruling_button.setEnabled(False)
        self.reading = reading
        self._luck_drawn = self._dice_drawn = False
        keep = self.quantity.currentData()
        keep_die, keep_who = self.die.currentData(), self.dice_who.currentData()
        keep_side = self.side.currentData()
        for box in (self.quantity, self.side, self.die, self.dice_who):
            box.blockSignals(True)
            box.clear()
        if reading is not None:
            for key, title in reading.series.quantities().items():
                self.quantity.addItem(title, key)
            at = self.quantity.findData(keep)
            self.quantity.setCurrentIndex(max(0, at))
            for side in reading.series.sides:  # each side, then each of its aircraft
                self.side.addItem(side, f"side:{side}")
                for aircraft, plane in reading.series.planes.items():
                    if plane.side == side:
                        self.side.addItem(f"  {plane.name}", f"aircraft:{aircraft}")
            self.side.setCurrentIndex(max(0, self.side.findData(keep_side)))
            for check in reading.dice:
                self.die.addItem(check.label, check.label)
            self.die.setCurrentIndex(max(0, self.die.findData(keep_die)))
            for side in reading.series.sides:
                self.dice_who.addItem(side, f"side:{side}")
                for aircraft, plane in reading.series.planes.items():
                    if plane.side == side:
                        self.dice_who.addItem(f"  {plane.name}", f"aircraft:{aircraft}")
            self.dice_who.addItem(NO_AIRCRAFT, "side:")
            self.dice_who.setCurrentIndex(max(0, self.dice_who.findData(keep_who)))
        for box in (self.quantity, self.side, self.die, self.dice_who):
            box.blockSignals(False)
        self.draw_fight()
        self._tab_shown()

    def _tab_shown(self) -> None:
        i = self.tabs.currentIndex()
        if i == 1 and not self._luck_drawn:
            self.draw_luck()
        elif i == 2 and not self._dice_drawn:
            self.draw_dice()

    def draw_fight(self) -> None:
        quantity = self.quantity.currentData()
        if self.reading is None or quantity is None:
            self.fight_plot.clear()
            self.fight_items = []
            return
        self.fight_items = draw_series(
            self.fight_plot,
            self.reading.series,
            quantity,
            self.per.currentData(),
            on_click=self.show_line,
        )

    def draw_luck(self) -> None:
        """The luck tab: every side's sentence, the chosen side's (or aircraft's) plot, the
        aircraft table."""
        self._luck_drawn = True
        r = self.reading
        chosen = self.side.currentData()
        if r is None or chosen is None:
            self.luck_plot.clear()
            self.luck_text.setText("No attack rolls yet.")
            self.luck_table.setRowCount(0)
            return
        sentences = [t.sentence() for t in r.sides()]
        unknown = r.unknown_odds
        if unknown:
            sentences.append(
                f"{len(unknown)} roll(s) left out: their odds could not be worked out again "
                f"({unknown[0].why})."
            )
        self.luck_text.setText("\n".join(sentences) or "No attack rolls yet.")
        kind, _, who = chosen.partition(":")
        sides = r.series.sides
        if kind == "aircraft":
            plane = r.series.planes[who]
            rolls = [x for x in attacks(r.rolls) if x.roller == who]
            name, side = plane.name, plane.side
        else:
            rolls, name, side = attacks(r.rolls, who), who, who
        self.luck_items = draw_luck(
            self.luck_plot,
            rolls,
            name,
            r.series.steps_per_turn,
            kills=bool(self.luck_of.currentData()),
            line=r.series.line,
            on_click=self.show_line,
            side_index=sides.index(side) if side in sides else 0,
        )
        rows = r.aircraft()
        self.luck_table.setRowCount(len(rows))
        for i, t in enumerate(rows):
            cells = (
                t.name,
                str(t.rolls),
                f"{float(t.expected_hits):.2f} / {t.hits}",
                f"{float(t.expected_kills):.2f} / {t.kills}",
                f"{t.luckier_than:.0%}",
            )
            for j, text in enumerate(cells):
                self.luck_table.setItem(i, j, QTableWidgetItem(text))
        self.luck_table.resizeColumnsToContents()

    def draw_dice(self) -> None:
        """The dice tab: every die's verdict, the chosen die's histogram, the dice named."""
        self._dice_drawn = True
        r = self.reading
        named = r.typed.said() if r is not None else []
        self.dice_named_text.setText(
            "Dice named now: " + "; ".join(named) + "."
            if named
            else "No dice named: typed dice are checked by die. Name the dice a side or a "
            "player rolls, and the rolls typed from then on are checked per those dice."
        )
        self.dice_who.setEnabled(r is not None and self.dice_who.count() > 0)
        label = self.die.currentData()
        checks = {c.label: c for c in (r.dice if r is not None else [])}
        if label not in checks:
            self.dice_plot.clear()
            self.dice_items = {}
            self.dice_text.setText(
                "No typed dice yet: the dice the players roll at the table and the umpire "
                "types are checked here."
            )
            return
        self.dice_text.setText("\n".join(c.verdict() for c in checks.values()))
        self.dice_items = draw_die(self.dice_plot, checks[label])

    def _name_dice(self) -> None:
        who, r = self.dice_who.currentData(), self.reading
        if who is None or r is None:
            return
        kind, _, name = who.partition(":")
        if kind == "aircraft":
            self.dice_named.emit(r.series.planes[name].side, name, self.dice_name.text())
        else:
            self.dice_named.emit(name, "", self.dice_name.text())

    def show_line(self, action: int) -> None:
        """A point was clicked: its log line here, and ``log_line`` for whoever follows."""
        if self.reading is not None:
            self.line.setText(self.reading.series.line(action))
        self._clicked = action
        self.ruling_button.setEnabled(True)
        self.log_line.emit(action)

    def _ask_ruling(self) -> None:
        if self._clicked is not None:
            self.ruling_asked.emit(self._clicked)

    # -- exports ------------------------------------------------------------------------------

    def current_plot(self) -> pg.PlotWidget:
        return (self.fight_plot, self.luck_plot, self.dice_plot)[self.tabs.currentIndex()]

    def export_plot(self, path: Path) -> Path:
        return export_plot(self.current_plot(), path)

    def export_csv(self, path: Path) -> Path:
        r = self.reading
        if r is None:
            raise ValueError("no game is open")
        return export_csv(path, r.series, r.rolls, r.dice)

    def export_report(self, path: Path) -> Path:
        from app.ui.after_action.report import write_report

        if self.reading is None:
            raise ValueError("no game is open")
        return write_report(self.reading, path)

    def _ask(self, title: str, filters: str, do: object) -> None:
        name, _ = QFileDialog.getSaveFileName(self, title, "", filters)
        if name:
            try:
                do(Path(name))  # type: ignore[operator]
            except (OSError, ValueError) as e:
                self.line.setText(f"Not exported: {e}")
            else:
                self.line.setText(f"Exported to {name}")

    def _ask_plot(self) -> None:
        self._ask("Export plot", "PNG image (*.png);;SVG drawing (*.svg)", self.export_plot)

    def _ask_csv(self) -> None:
        self._ask("Export data", "CSV (*.csv)", self.export_csv)

    def _ask_report(self) -> None:
        self._ask("After-action report", "PDF (*.pdf)", self.export_report)
