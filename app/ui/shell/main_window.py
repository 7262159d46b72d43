"""The umpire's desk: the main window, its menus and actions, the dock layout and its memory.

The window owns no game state: it hands the ``EngagementModel`` to every panel, opens and
closes games through ``GameSession`` and shows refusals and what just happened in the status
bar. The layout and window geometry are kept in ``QSettings`` and restored on the next start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QGuiApplication, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSizeGrip,
    QTabBar,
    QWidget,
)
from shiboken6 import isValid

from app.core.errors import StoreError, error_text
from app.core.where import is_url
from app.resources import ICON_SVG
from app.ui.model import EngagementModel
from app.ui.shell.desk_layout import (
    DESK,
    HEIGHTS,
    LEFT_WIDTH,
    TABLE,
    TABLE_HEIGHTS,
    TABLE_LEFT_WIDTH,
    used_panels,
)
from app.ui.shell.dock_registry import (
    FIRST,
    LEFT,
    PANELS,
    RIGHT,
    Compact,
    InView,
    PanelEntry,
    PrintsBoard,
    SelectsAircraft,
    ShowsActing,
    ShowsLogLine,
)
from app.ui.shell.guest_worker import patient
from app.ui.shell.qt_app import APP_NAME, version
from app.ui.shell.when_shown import in_view
from app.ui.widgets.kept_frame import keep_frames_under
from app.ui.widgets.kept_scroll_bar import keep_scroll_bars_under
from app.ui.widgets.kept_title_dock import KeptTitleDock
from app.ui.widgets.kept_width import WidestLabel
from app.ui.widgets.message_bar import MessageBar
from app.ui.widgets.wheel_guard import guard_wheel_under

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QShowEvent

    # the game's models, the session and the rulesets load with the first game or the first
    # look at the rulesets, not with the window: it paints before them (issue 20)
    from app.core.events import Envelope
    from app.session import GameSession
    from app.ui.shell.ruleset_watch import RulesetWatch

#: a layout: columns of tab groups (``app.ui.shell.desk_layout``)
Layout = tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]

LICENCE = "GPL-3.0-or-later"
RECENT_MAX = 8
#: the first window's size where the screen has room; a smaller screen's available area else
FIRST_SIZE = (1400, 900)
#: room kept above a window as tall as the screen for a window manager's title bar
TITLE_BAR = 32
StandardKey = QKeySequence.StandardKey
#: the panels whose shortcuts bring them forward: what they ask for is typed there (issue 47)
BROUGHT_FORWARD = ("initiative",)
#: a standard key's binding where the platform gives none
FALLBACK = {StandardKey.Quit: "Ctrl+Q", StandardKey.Print: "Ctrl+P", StandardKey.Find: "Ctrl+F"}
#: how much larger type is in table mode
TABLE_SCALE = 1.4
#: the status bar's margins around a passing message (QStatusBar paints it from x 6 to the
#: first label, less 1)
MESSAGE_MARGINS = 7 + 6


class MainWindow(QMainWindow):
    """The desk. ``settings`` holds layout, recent games and the last game."""

    def __init__(
        self,
        model: EngagementModel,
        settings: QSettings,
        parent: QWidget | None = None,
        *,
        panels_later: bool = False,
    ) -> None:
        """With ``panels_later`` only the roster and the turn are built with the window, to
        paint first (issue 20); ``build_panels`` builds the others once it has painted. The
        window draws the game the model shows: open, or at start-up from the rows kept in its
        file (``EngagementModel.show_stored``, issue 36)."""
        super().__init__(parent)
        self.model = model
        self.settings = settings
        model.dice_mode.remember_in(settings)
        #: the first start asks how the dice are rolled (once: the answer is kept)
        self.dice_question: QWidget | None = None
        if not model.dice_mode.asked:
            self._ask_dice()
        self.persist_layout = True
        self._shown_once = False
        self._hidden_for_game: set[str] = set()
        self.docks: dict[str, QDockWidget] = {}
        self.panels: dict[str, QWidget] = {}
        self.missing_panels: dict[str, str] = {}
        self.player_view: QWidget | None = None
        #: the players' screens (issue 48): made when View > Players' screens is first opened
        self.players_bridge: Any = None
        self.players_dialog: QWidget | None = None
        #: the question asked before undoing another window's or station's action (issue 43)
        self.undo_question: QMessageBox | None = None
        #: Player displays of server games opened read-only (File > Open from server)
        self.player_displays: list[QWidget] = []
        self._base_font = QFont(self.font())
        self.setObjectName("airboss-main")
        self.setDockOptions(
            QMainWindow.DockOption.AllowTabbedDocks
            | QMainWindow.DockOption.AllowNestedDocks
            | QMainWindow.DockOption.AnimatedDocks
        )
        #: the panels whose actions are in the Game menu (each added once its panel is built)
        self._in_menu: set[str] = set()
        self.game_actions: list[QAction] = []
        # "bring this panel forward" is the model's event (the panel then hears its draft)
        model.panel_wanted.connect(self._bring_forward)
        model.log_line_requested.connect(self._show_log_line)
        #: a dock coming into view builds its panel if it has none yet (after the first paint)
        self._build_on_view = False
        self._add_docks()
        self._build_status_bar()
        self._build_menus()
        for entry in PANELS:
            if not panels_later or entry.name in FIRST:
                self._build_panel(entry)
        self._build_on_view = not panels_later
        self.setGeometry(first_geometry(available_geometry(self)))
        self._laid_out_for: str | None = None
        self._desk_state: QByteArray | None = None
        self.arrange(DESK, used_panels(None))
        self._default_state = self.saveState()
        self._restore_layout()  # Qt puts a saved window that does not fit back on the screen
        self.set_table_mode(bool(self.settings.value("view/table_mode", False, type=bool)))

        model.reset.connect(self._game_changed)
        model.appended.connect(self._appended)
        model.refused.connect(self.show_refusal)
        #: every failure of a ruleset's own code, said in the message bar (issue 46); made
        #: with the first game (it imports the guard of ruleset calls: after the first paint)
        self.ruleset_watch: RulesetWatch | None = None
        self._problems_said = 0
        model.clock_changed.connect(self._update_status)
        model.initiative_changed.connect(self._update_status)
        # after the panels' own refresh, which enables their actions for any open game
        model.clock_changed.connect(self._apply_read_only)
        model.initiative_changed.connect(self._apply_read_only)
        self._game_changed()

    # -- panels -------------------------------------------------------------------------------

    def _add_docks(self) -> None:
        """A dock for every registered panel; ``arrange`` puts them in place (the desk's
        layout) and ``_build_panel`` builds each panel into its dock."""
        for entry in PANELS:
            dock = KeptTitleDock(entry.title, self)
            dock.setObjectName(entry.name)
            dock.visibilityChanged.connect(partial(self._dock_seen, entry))
            self.docks[entry.name] = dock

    def _dock_seen(self, entry: PanelEntry, on: bool) -> None:
        """A dock came into view (or went): its panel is built now if it was not."""
        if on and self._build_on_view:
            self._build_missing(entry)

    def build_panels(self) -> None:
        """Once the desk has painted (a window made with ``panels_later``): the panels in view,
        and those that give the menus an action, are built now; each of the others when its
        dock first comes into view or the desk needs it (``panel``). Until then a panel does
        nothing at all: a long game's log is not even read (issue 20)."""
        self._build_on_view = True
        for entry in PANELS:
            dock = self.docks[entry.name]
            if entry.name not in self.panels and (in_view(dock) or entry.menu_actions):
                self._build_panel(entry)

    def panel(self, name: str) -> QWidget | None:
        """The panel ``name``, built now if it was not yet; None if it cannot be built."""
        entry = next((e for e in PANELS if e.name == name), None)
        if entry is not None and name not in self.panels:
            self._build_panel(entry)
        return self.panels.get(name)

    def _build_missing(self, entry: PanelEntry) -> None:
        if entry.name not in self.panels:
            self._build_panel(entry, shown=True)

    def _build_panel(self, entry: PanelEntry, shown: bool = False) -> bool:
        """Build one panel in its dock (``shown``: as the dock comes into view) and connect it
        to the desk. A panel that fails (a ruleset's error while it fills, a broken install)
        is reported in the status bar and in its dock, and tried again when its dock comes
        into view, the desk needs it or another game is opened; the desk carries on."""
        dock = self.docks[entry.name]
        try:
            widget = entry.load()(self.model)
        except Exception as e:  # noqa: BLE001 - one broken panel must not stop the desk
            why = f"{type(e).__name__}: {e}"
            self.missing_panels[entry.name] = why
            note = QLabel(
                f"The {entry.title} panel could not be built: {why}\n\nIt is tried again "
                "when this panel is shown again or another game is opened."
            )
            note.setObjectName("panel_failed")
            note.setWordWrap(True)
            note.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            note.setMargin(8)
            dock.setWidget(note)
            self.show_refusal(f"The {entry.title} panel could not be built: {why}")
            return False
        self.missing_panels.pop(entry.name, None)
        if isinstance(widget, Compact):  # built in table mode: as table mode has it (Turn panel)
            widget.set_compact(getattr(self, "_desk_state", None) is not None)
        before = dock.widget()  # the note of a try that failed
        dock.setWidget(widget)
        self.panels[entry.name] = widget
        guard_wheel_under(widget)
        keep_scroll_bars_under(widget)
        keep_frames_under(widget)
        if isinstance(widget, InView):  # out of view, the panel does no work (issue 20)
            widget.when_shown.attach(dock, shown)
        self._connect_panels()
        self._apply_read_only()
        if before is not None:
            before.deleteLater()
        return True

    def _connect_panels(self) -> None:
        """The actions of the panels that give the menus one (the Turn panel's steps, the
        Initiative panel's roll: each panel's own ``QWidget.actions()``) in the Game menu, each
        added once its panel is built (panels talk through the model, never to each other).
        A shortcut of the Initiative panel's (Ctrl+I) brings it forward before it acts: the
        dice it asks for are typed there (issue 47; a shortcut reaches its action as a
        ``QEvent.Shortcut`` first)."""
        for entry in PANELS:
            widget = self.panels.get(entry.name)
            if entry.menu_actions and widget is not None and entry.name not in self._in_menu:
                self.game_menu.addActions(widget.actions())
                self.game_actions += widget.actions()
                self._in_menu.add(entry.name)
                if entry.name in BROUGHT_FORWARD:
                    for act in widget.actions():
                        act.setProperty("airboss_panel", entry.name)
                        act.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Shortcut and isinstance(watched, QAction):
            panel = watched.property("airboss_panel")
            if isinstance(panel, str):
                self.bring_forward(panel)
        return super().eventFilter(watched, event)

    def bring_forward(self, name: str) -> None:
        """Panel ``name``'s dock shown and in front of its tab group."""
        dock = self.docks.get(name)
        if dock is not None:
            dock.show()
            dock.raise_()

    @patient
    def open_procedure(self, procedure_id: str, aircraft_id: str, target_id: str = "") -> None:
        """Open this procedure for a "who acts now" line's aircraft (the model's
        ``request_procedure``: its panel comes forward, its draft opens on the line)."""
        self.model.request_procedure(procedure_id, aircraft_id, target_id)

    def _bring_forward(self, name: str) -> None:
        """The model wants this panel in front (its draft was opened on a line): built now if
        it was not, its dock shown and raised."""
        panel = self.panel(name)
        if panel is None:
            self.show_refusal(f"There is no {name} panel: {self.missing_panels.get(name, '')}")
            return
        dock = self.docks[name]
        dock.show()
        dock.raise_()
        if isinstance(panel, InView):
            panel.when_shown.fresh()

    def _show_log_line(self, action: int) -> None:
        """The Game log in front on this action's line (an After-action point clicked); a log
        panel built just now takes the request it could not hear yet."""
        built = "game_log" in self.panels
        panel = self.panel("game_log")
        if panel is None:
            return
        self.docks["game_log"].show()
        self.docks["game_log"].raise_()
        if not built and isinstance(panel, ShowsLogLine):
            panel.show_action(action)

    def arrange(self, layout: Layout, used: frozenset[str]) -> None:
        """Lay the panels out in columns of tab groups (``app.ui.shell.desk_layout``); the panels
        this game does not use are hidden (the View menu still shows them on demand)."""
        for dock in self.docks.values():
            if dock.isFloating():
                dock.setFloating(False)
            self.removeDockWidget(dock)
        firsts: dict[str, list[QDockWidget]] = {}
        for column, groups in layout:
            area = LEFT if column == "left" else RIGHT
            above: QDockWidget | None = None
            for group in groups:
                present = [self.docks[n] for n in group if n in self.docks and n in used]
                if not present:
                    continue
                first = present[0]
                self.addDockWidget(area, first)
                if above is not None:
                    self.splitDockWidget(above, first, Qt.Orientation.Vertical)
                first.show()
                for other in present[1:]:
                    self.tabifyDockWidget(first, other)
                    other.show()
                first.raise_()
                firsts.setdefault(column, []).append(first)
                above = first
        for name, dock in self.docks.items():
            if name not in used:
                dock.hide()
        for fronts in firsts.values():
            fronts[0].raise_()  # Combat in front, even where Qt merged a column's groups
        self._hidden_for_game = {n for n in self.docks if n not in used}
        self._sizes(firsts)

    def _sizes(self, firsts: dict[str, list[QDockWidget]]) -> None:
        width, height = max(self.width(), 800), max(self.height(), 500)
        left, right = firsts.get("left", []), firsts.get("right", [])
        if left and right:
            share = int(width * (TABLE_LEFT_WIDTH if self._desk_state is not None else LEFT_WIDTH))
            self.resizeDocks([left[0], right[0]], [share, width - share], Qt.Orientation.Horizontal)
        for column in (left, right):
            if len(column) > 1:
                heights = TABLE_HEIGHTS if self._desk_state is not None else HEIGHTS
                shares = [heights.get(d.objectName(), 0.5) for d in column]
                self.resizeDocks(column, [int(height * s) for s in shares], Qt.Orientation.Vertical)

    def _fit_game(self) -> None:
        """Show the panels this game uses and hide the others, once per ruleset opened (or
        drawn from its kept rows at start-up)."""
        desk = self.model.desk_rows()
        key = desk["ruleset"] if desk is not None else None
        if key != self._laid_out_for:
            used = frozenset(desk["used"]) if desk is not None else used_panels(None)
            self._show_used(key, used)

    def _show_used(self, ruleset: str | None, used: frozenset[str]) -> None:
        """The panels a game of this ruleset uses shown, the others hidden."""
        self._laid_out_for = ruleset
        for name, dock in self.docks.items():
            if name not in used:
                dock.hide()
            elif name in self._hidden_for_game:
                dock.show()
        self._hidden_for_game = {n for n in self.docks if n not in used}

    # -- menus --------------------------------------------------------------------------------

    def _act(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[[], Any],
        key: str | QKeySequence | QKeySequence.StandardKey | None = None,
    ) -> QAction:
        act = menu.addAction(text)
        if isinstance(key, QKeySequence.StandardKey):
            # every binding of the platform (Redo: Ctrl+Y and Ctrl+Shift+Z); where it has none
            # (Quit outside KDE and GNOME), the usual one
            act.setShortcuts(QKeySequence.keyBindings(key) or [QKeySequence(FALLBACK[key])])
        elif key is not None:
            act.setShortcut(QKeySequence(key))
        act.triggered.connect(lambda _=False: slot())
        return act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        f = bar.addMenu("&File")
        self.new_action = self._act(
            f, "&New game…", self.new_game_dialog, QKeySequence.StandardKey.New
        )
        self.open_action = self._act(f, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.server_action = self._act(
            f, "Open from &server…", self.open_from_server_dialog, "Ctrl+Shift+O"
        )
        self.recent_menu = f.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.save_action = self._act(f, "&Save", self.save, StandardKey.Save)
        self.copy_action = self._act(
            f, "Save a &copy as…", self.save_copy_dialog, StandardKey.SaveAs
        )
        self.close_action = self._act(f, "&Close", self.close_game, QKeySequence.StandardKey.Close)
        f.addSeparator()
        self.print_action = self._act(f, "&Print cards…", self.print_cards, StandardKey.Print)
        self.print_board_action = self._act(f, "Print &board…", self.print_board)
        f.addSeparator()
        self.quit_action = self._act(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        e = bar.addMenu("&Edit")
        self.undo_action = self._act(e, "&Undo", self.undo, StandardKey.Undo)
        self.redo_action = self._act(e, "&Redo", self.redo, StandardKey.Redo)
        e.addSeparator()
        self.find_action = self._act(e, "&Find an aircraft…", self.find_aircraft, StandardKey.Find)
        self.cards_action = self._act(e, "Aircraft &cards…", self.edit_cards, "Ctrl+Shift+C")
        self.tables_action = self._act(e, "&Tables…", self.edit_tables, "Ctrl+Shift+B")

        # the Turn panel's Next and Previous step and the Initiative panel's roll, added as
        # those panels are built (``_connect_panels``)
        self.game_menu = bar.addMenu("&Game")

        v = bar.addMenu("&View")
        for dock in self.docks.values():
            v.addAction(dock.toggleViewAction())
        v.addSeparator()
        self.reset_layout_action = self._act(v, "Reset &layout", self.reset_layout)
        self.table_mode_action = self._act(
            v, "&Table mode (fewer, larger panels)", self._toggle_table
        )
        self.table_mode_action.setCheckable(True)
        self.table_mode_action.setShortcut(QKeySequence("Ctrl+Shift+T"))
        v.addSeparator()
        self.player_action = self._act(
            v, "&Player display", self._toggle_player_view, "Ctrl+Shift+P"
        )
        self.player_action.setCheckable(True)
        self.player_full_action = self._act(
            v, "Player display &full screen", self.player_full_screen, "F11"
        )
        self.players_action = self._act(v, "Pla&yers' screens…", self.open_players_screens)

        h = bar.addMenu("&Help")
        self.guide_action = self._act(
            h, "&User guide", self.show_user_guide, StandardKey.HelpContents
        )
        self.about_action = self._act(h, f"&About {APP_NAME}", self.show_about)
        self.rulesets_action = self._act(h, "&Rulesets", self.show_rulesets)
        self.readings_action = self._act(
            h, "Rules &readings and variants…", self.show_readings, "Ctrl+F1"
        )

    # -- status bar ---------------------------------------------------------------------------

    def _ask_dice(self) -> None:
        """The first start's question, in the status bar (no height taken from the panels)
        until it is answered."""
        from app.ui.widgets.dice_mode import DiceQuestion

        question = DiceQuestion(self.model.dice_mode)
        self.statusBar().addPermanentWidget(question)
        question.answered.connect(lambda _on: self.statusBar().removeWidget(question))
        self.dice_question = question

    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        self.refusal = MessageBar()
        self.refusal.setObjectName("refusal")
        sb.addWidget(self.refusal, 1)
        #: each keeps the widest of its words in the game: a step's shorter words do not move
        #: the labels beside them, nor lay out and paint the whole bar again (issue 48)
        self.status_labels: dict[str, WidestLabel] = {}
        #: the game the status bar's labels keep their widths for (title, ruleset)
        self._status_game: tuple[str, str] | None = None
        #: the desk's rows the labels show (``EngagementModel.desk_rows``: one per change)
        self._status_from: object = None
        for key in ("role", "game", "ruleset", "turn", "phase", "segment", "initiative"):
            label = WidestLabel()
            label.setObjectName(f"status-{key}")
            label.setContentsMargins(6, 0, 6, 0)
            sb.addPermanentWidget(label)
            self.status_labels[key] = label
        # the whole of a message cut to its room, in the tooltip only while it shows
        sb.messageChanged.connect(self._message_changed)
        self._refusal_timer = QTimer(self)
        self._refusal_timer.setSingleShot(True)
        self._refusal_timer.timeout.connect(self.refusal.clear_refusal)

    def _message_changed(self, text: str) -> None:
        if not text:
            self.statusBar().setToolTip("")

    def say(self, text: str, ms: int = 10_000) -> None:
        """A passing message in the status bar, beside the game's labels: cut to the room it
        has with "…" where it is longer (Qt cuts it mid-word, with no sign of more); the whole
        of it is the bar's tooltip while it shows."""
        sb = self.statusBar()
        right = min(  # the game's labels, and the first start's dice question left of them
            (
                w.x()
                for w in sb.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                if w.isVisible()
                and w.width() > 0
                and w is not self.refusal
                and not isinstance(w, QSizeGrip)
            ),
            default=sb.width(),
        )
        room = max(right - MESSAGE_MARGINS, 0)
        shown = sb.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)
        sb.setToolTip(text)
        sb.showMessage(shown, ms)

    def show_refusal(self, text: str) -> None:
        """A refusal in red in the status bar until the next action (or half a minute)."""
        self.refusal.show_refusal(text)
        self._refusal_timer.start(30_000)

    @patient
    def _update_status(self) -> None:
        labels = self.status_labels
        desk = self.model.desk_rows()
        if desk is self._status_from and desk is not None:
            return  # the rows shown already (a step: on the append and the clock's change)
        self._status_from = desk
        if desk is None:
            self._status_game = None
            for label in labels.values():
                label.setText("")
                label.forget()
            labels["game"].setText("No game open")
            return
        labels["game"].setText(f"Game: {desk['title']}")
        variants = f" + {', '.join(desk['variants'])}" if desk["variants"] else ""
        labels["ruleset"].setText(f"Ruleset: {desk['ruleset_title']}{variants}")
        game = (desk["title"], desk["ruleset"])
        if game != self._status_game:  # another game: its own widest words
            self._status_game = game
            for label in labels.values():
                label.forget()
        labels["turn"].setText(f"Turn {desk['turn']}")
        labels["initiative"].setText(
            f"Initiative: {desk['initiative']}" if desk["initiative"] else ""
        )
        labels["phase"].setText(desk["phase"])
        labels["segment"].setText(desk["segment"])

    @patient
    def _appended(self, envelopes: Sequence[Envelope]) -> None:
        self.refusal.clear_refusal()
        problems = self.model.game_log.problems if self.model.has_session else []
        if len(problems) > self._problems_said:  # left out while following (issue 46)
            from app.ui.shell.ruleset_watch import problems_notice

            self.refusal.show_notice(problems_notice(problems[self._problems_said :]))
            self._problems_said = len(problems)
        said = [env.narrative for env in envelopes if env.narrative]
        if said:
            self.say(said[-1])
        self._update_edit_actions()
        self._update_status()

    def _acting_actions(self) -> list[QAction]:
        """The menu actions that change the game (refused on a read-only game)."""
        return [self.undo_action, self.redo_action, *self.game_actions]

    def _apply_read_only(self) -> None:
        """A game opened read-only (an HQ desk on a server, a file that cannot be written)
        follows live, but every action that would change it is disabled and says why."""
        ro = self.model.has_session and not self.model.can_act
        label = self.status_labels["role"]
        if not ro:
            label.setText("")
            label.setToolTip("")
            for act in (*self._acting_actions(), self.print_action):
                act.setStatusTip("")
            return
        why = read_only_reason(self.model.game_log.store.where)
        label.setText("Read-only")
        label.setToolTip(why)
        for act in (*self._acting_actions(), self.print_action):
            act.setEnabled(False)
            act.setStatusTip(why)
            act.setToolTip(why)

    def _update_edit_actions(self) -> None:
        has = self.model.has_session
        undo = self.model.undoing.undo_text if has else None
        redo = self.model.undoing.redo_text if has else None
        elsewhere = has and self.model.undoing.undo_elsewhere
        whose = "another window's action: " if elsewhere else ""
        self.undo_action.setText(f"&Undo {whose}{_short(undo)}" if undo else "&Undo")
        self.undo_action.setEnabled(undo is not None)
        self.undo_action.setToolTip(f"Undo: {undo}" if undo else "Nothing to undo")
        self.redo_action.setText(f"&Redo {_short(redo)}" if redo else "&Redo")
        self.redo_action.setEnabled(redo is not None)
        self.redo_action.setToolTip(f"Redo: {redo}" if redo else "Nothing to redo")
        self._apply_read_only()

    @patient
    def _game_changed(self) -> None:
        self._fit_game()
        for entry in PANELS:  # a panel that failed is tried again on another game
            if entry.name in self.missing_panels and in_view(self.docks[entry.name]):
                self._build_panel(entry)
        has = self.model.has_session
        for act in (
            self.copy_action,
            self.close_action,
            self.print_action,
            self.cards_action,
            self.tables_action,
        ):
            act.setEnabled(has)
        desk = self.model.desk_rows()
        title = f"{desk['title']} — {APP_NAME}" if desk is not None else APP_NAME
        if desk is not None and desk["read_only"]:
            title = f"{desk['title']} [read-only] — {APP_NAME}"
        self.setWindowTitle(title)
        self._update_edit_actions()
        self._update_status()

    # -- edit ---------------------------------------------------------------------------------

    def find_aircraft(self, text: str | None = None) -> list[str]:
        """Edit > Find (Ctrl+F): the aircraft whose name holds ``text`` (asked for when not
        given) selected in the Roster, which comes forward; their ids."""
        roster = self.panel("roster")
        if not self.model.has_session or not isinstance(roster, SelectsAircraft):
            return []
        if text is None:
            text, ok = QInputDialog.getText(self, "Find an aircraft", "Name (or part of it):")
            if not ok:
                return []
        wanted = text.strip().casefold()
        found = [
            a.id
            for a in self.model.engagement.aircraft.values()
            if wanted and wanted in a.name.casefold()
        ]
        if not found:
            self.show_refusal(f"No aircraft's name holds {text.strip()!r}.")
            return []
        self.bring_forward("roster")
        roster.select(found)
        roster.tree.setFocus()
        return found

    def save(self) -> None:
        """File > Save (Ctrl+S): there is nothing to save, and the umpire is told so."""
        where = self.game_path
        self.say(
            f"Every action is saved the moment it is made: {where} is up to date."
            if where
            else "No game is open."
        )

    @patient
    def undo(self) -> None:
        """Edit > Undo (Ctrl+Z wherever the cursor is, a die field included): this window's
        last action at once; another window's or station's is undone only once the umpire
        says so, the question naming it (issue 43)."""
        self._undo_or_redo("undo")

    @patient
    def redo(self) -> None:
        self._undo_or_redo("redo")

    def _undo_or_redo(self, which: str) -> None:
        if not self.model.has_session:
            return
        undoing = self.model.undoing
        self.model.follow()  # the others' actions first: the newest is the one in question
        verb, done = ("Undo", "undone") if which == "undo" else ("Redo", "redone")
        theirs = undoing.undo_elsewhere if which == "undo" else undoing.redo_elsewhere
        act = undoing.undo if which == "undo" else undoing.redo

        def text() -> str | None:
            return undoing.undo_text if which == "undo" else undoing.redo_text

        if not theirs:
            self.model.attempt(act)
            return
        what = text()
        box = QMessageBox(
            QMessageBox.Icon.Question,
            f"{verb} another window's action?",
            f"The last action to {which} was made in another window or station:\n\n{what}"
            f"\n\n{verb} it here?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setObjectName(f"{which}_question")
        box.setDefaultButton(QMessageBox.StandardButton.No)

        @patient
        def answered(button: int) -> None:
            if button != QMessageBox.StandardButton.Yes:
                self.show_refusal(f"Not {done}: {what}")
            elif not self.model.has_session or self.model.undoing is not undoing or text() != what:
                self.show_refusal(
                    f"Nothing was {done}: the game changed while you were asked; look, then "
                    "ask again."
                )
            else:
                self.model.attempt(act)

        box.finished.connect(answered)
        self.undo_question = box
        box.open()

    def edit_cards(self) -> None:
        """Edit > Aircraft cards: the game's ruleset's catalogue, starting from the selected
        aircraft's type."""
        if not self.model.has_session:
            return
        from app.ui.editors.card_editor import CardEditor

        e = self.model.engagement
        chosen = [e.aircraft[i] for i in self.model.selection if i in e.aircraft]
        type_id = chosen[0].type_id if chosen else None
        self.card_editor = CardEditor(self.model.ruleset, self, type_id=type_id)
        self.card_editor.show()

    def edit_tables(self) -> None:
        """Edit > Tables: the ruleset's tables; a saved value is used by the next procedure."""
        if not self.model.has_session:
            return
        from app.ui.editors.tables_editor import TablesEditor

        self.tables_editor = TablesEditor(self.model.ruleset, self)
        self.tables_editor.saved.connect(lambda _name: self.model.tables_saved())
        self.tables_editor.show()

    # -- games --------------------------------------------------------------------------------

    @property
    def game_path(self) -> str | None:
        return self.model.game_log.store.where if self.model.has_session else None

    def show_session(self, session: GameSession | None) -> None:
        """Show this game (the previous one is closed) and remember it as the last game."""
        if session is not None and self.ruleset_watch is None:
            from app.ui.shell.ruleset_watch import RulesetWatch

            self.ruleset_watch = RulesetWatch(self)
            self.ruleset_watch.failed.connect(self.show_refusal)
        self.model.set_session(session)
        where = session.store.where if session is not None else ""
        self.settings.setValue("last_game", where)
        if session is not None:
            self._remember(where)
        self.refusal.clear_refusal()
        if session is not None and session.store.open_elsewhere:
            self.refusal.show_notice(
                f"{where} is also open elsewhere (another window or program): this window "
                "follows its changes."
            )
        if session is not None and session.read_only:
            self.refusal.show_notice(read_only_reason(session.store.where))
        self._problems_said = 0
        if session is not None and session.log.problems:  # issue 46: what opening left out
            from app.ui.shell.ruleset_watch import problems_notice

            self._problems_said = len(session.log.problems)
            self.refusal.show_notice(problems_notice(session.log.problems))

    def _remember(self, where: str) -> None:
        recent = [r for r in self.recent_games() if r != where]
        self.settings.setValue("recent", [where, *recent][:RECENT_MAX])

    def recent_games(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):  # a list of one, as an INI file gives it back
            return [value] if value else []
        return [str(v) for v in value] if isinstance(value, list | tuple) else []

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_games()
        for where in recent:
            act = self.recent_menu.addAction(where)
            act.triggered.connect(lambda _=False, w=where: self.open_game(w))
        if not recent:
            self.recent_menu.addAction("(no recent games)").setEnabled(False)

    def new_game(self, path: str | Path, ruleset: str, title: str, variants: Sequence[str]) -> bool:
        from app.session import GameSession

        try:
            session = GameSession.create(path, ruleset, title, list(variants))
        except (StoreError, KeyError, ValueError) as e:
            self.show_refusal(f"New game not created: {error_text(e)}")
            return False
        except Exception as e:  # noqa: BLE001 - a ruleset's own error, shown not crashed
            self.show_refusal(f"New game not created: {type(e).__name__}: {e}")
            return False
        self.show_session(session)
        return True

    def new_game_dialog(self) -> None:
        from app.ui.dialogs.new_game import NewGameDialog

        dialog = NewGameDialog(self, players_roll=self.model.dice_mode.players_roll)
        if dialog.exec():
            self.model.dice_mode.choose(dialog.players_roll())
            if self.dice_question is not None:
                self.dice_question.hide()
            self.new_game(*dialog.values())

    def open_game(self, where: str | Path) -> bool:
        from app.session import GameSession

        try:
            session = GameSession.open(where)
        except Exception as e:  # noqa: BLE001 - a corrupt or foreign file is a message
            self.show_refusal(f"Could not open {where}: {error_text(e)}")
            return False
        self.show_session(session)
        return True

    def open_dialog(self) -> None:
        start = (
            str(Path(self.game_path).parent)
            if self.game_path and not is_url(self.game_path)
            else ""
        )
        path, _ = QFileDialog.getOpenFileName(
            self, "Open game", start, "Airboss games (*.airboss);;All files (*)"
        )
        if path:
            self.open_game(path)

    def open_from_server_dialog(self) -> None:
        """File > Open from server: a server's games, opened as a station, read-only at this
        desk (HQ) or as the Player display."""
        from app.ui.dialogs.open_from_server import OpenFromServerDialog

        dialog = OpenFromServerDialog(self.settings, self)
        if dialog.exec():
            chosen = dialog.chosen()
            if chosen is not None:
                self.open_from_server(*chosen)

    def open_from_server(self, url: str, game_id: str, role: str = "station") -> bool:
        """Open a server's game: ``station`` (this desk acts), ``hq`` (this desk read-only) or
        ``players`` (a read-only Player display of its own: only what the players may see;
        the desk keeps what it shows)."""
        from app.session import GameSession
        from app.ui.dialogs.open_from_server import PLAYERS
        from app.ui.players.display import PlayerView

        try:
            session = GameSession.open(url, game=game_id, read_only=role != "station")
        except Exception as e:  # noqa: BLE001 - an unreachable server is a message
            self.show_refusal(f"Could not open the game on the server: {error_text(e)}")
            return False
        if role == PLAYERS:
            model = EngagementModel(session)
            view = PlayerView(model)
            model.setParent(view)
            view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            view.closed.connect(lambda: model.set_session(None))
            view.destroyed.connect(lambda _=None, v=view: self._forget_display(v))
            self.player_displays.append(view)
            view.show()
            return True
        self.show_session(session)
        return True

    def _forget_display(self, view: QWidget) -> None:
        if view in self.player_displays:
            self.player_displays.remove(view)

    def save_copy(self, target: str | Path) -> bool:
        """Copy the open game to another file (a consistent copy, even mid-game)."""
        where = self.game_path
        if where is None:
            return False
        target = Path(target)
        if not is_url(where) and target.resolve() == Path(where).resolve():
            self.show_refusal(f"{target}: that is the open game; choose another name")
            return False
        try:
            self.model.session.save_copy(target)
        except StoreError as e:
            self.show_refusal(str(e))
            return False
        self.say(f"A copy of the game was saved as {target}")
        return True

    def save_copy_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Save a copy as", "", "Airboss games (*.airboss)"
        )
        if path:
            self.save_copy(path if path.endswith(".airboss") else path + ".airboss")

    def close_game(self) -> None:
        self.show_session(None)

    def print_cards(self) -> None:
        if not self.model.has_session:
            return
        try:
            from app.ui import cards
        except ImportError as e:
            self.show_refusal(f"Printing cards is not available: {e}")
            return
        dialog_cls = getattr(cards, "PrintCardsDialog", None)
        if dialog_cls is None:
            self.show_refusal("Printing cards is not available yet (no PrintCardsDialog).")
            return
        dialog_cls(self.model, list(self.model.selection), self).exec()

    def print_board(self) -> None:
        """The board as a PDF page: positions, arcs and readings (issue 18)."""
        board = self.panel("angle_off") if self.model.has_session else None
        if not isinstance(board, PrintsBoard):
            self.show_refusal("There is no board to print.")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Print board", "board.pdf", "PDF (*.pdf)")
        if path:
            board.board_pdf(path)

    # -- view ---------------------------------------------------------------------------------

    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geometry))
        if isinstance(state, QByteArray | bytes):
            self.restoreState(QByteArray(state))

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()

    def reset_layout(self) -> None:
        """The desk's default layout for this game (table mode off)."""
        if self.table_mode:
            self.table_mode_action.setChecked(False)
            self.set_table_mode(False)
        rs = self.model.ruleset if self.model.has_session else None
        cursor = self._cursor()
        self.arrange(DESK, used_panels(rs))
        self._put_cursor_back(cursor)

    def show_all_panels(self, untab: bool = False) -> None:
        """Every panel this game uses shown; with ``untab`` tabbed panels are split so each is
        on screen (beside each other on the left, one above the other elsewhere)."""
        rs = self.model.ruleset if self.model.has_session else None
        used = used_panels(rs)
        for name, dock in self.docks.items():
            dock.setFloating(False)
            dock.setVisible(name in used)
        if not untab:
            return
        # every panel its own group, in the desk's columns and order
        self.arrange(
            tuple((col, tuple((n,) for g in groups for n in g)) for col, groups in DESK), used
        )
        settle()
        # the tab bars the regrouping left behind are only deleted later: keep them off the
        # picture
        for bar in self.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            bar.hide()

    def _toggle_table(self) -> None:
        self.set_table_mode(self.table_mode_action.isChecked())

    def set_table_mode(self, on: bool) -> None:
        """Table mode is a layout for reading at arm's length: fewer, larger panels (Roster and
        Turn on the left, Combat on the right, the rest tabbed behind) in larger type; leaving
        it puts the desk back as it was."""
        was = self._desk_state is not None
        rs = self.model.ruleset if self.model.has_session else None
        cursor = self._cursor()
        if on and not was:
            self._desk_state = self.saveState()
            self.arrange(TABLE, used_panels(rs))
        elif not on and was:
            state, self._desk_state = self._desk_state, None
            if state is not None:
                self.restoreState(state)
        font = QFont(self._base_font)
        if on:
            font.setPointSizeF(self._base_font.pointSizeF() * TABLE_SCALE)
        self.setFont(font)
        for dock in self.docks.values():
            dock.setFont(font)  # floating docks are windows of their own
        for panel in self.panels.values():  # the Turn panel leaves out its list of steps
            if isinstance(panel, Compact):
                panel.set_compact(on)
        self.table_mode_action.setChecked(on)
        self.settings.setValue("view/table_mode", on)
        self._put_cursor_back(cursor)

    def _cursor(self) -> QWidget | None:
        """The widget of this window with the keyboard, before the panels are laid out again."""
        focus = QApplication.focusWidget()
        return focus if focus is not None and focus.window() is self else None

    def _put_cursor_back(self, cursor: QWidget | None) -> None:
        """The keyboard where it was before the panels were laid out again (removing a dock
        takes it from its widgets), or on "who acts now" if that widget is out of view: never
        nowhere, nor on a tab bar, where Space and Enter do nothing."""
        if cursor is not None and isValid(cursor) and cursor.isVisible():
            cursor.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        turn = self.panels.get("turn")
        if isinstance(turn, ShowsActing) and turn.acting.isVisible():
            turn.acting.setFocus(Qt.FocusReason.OtherFocusReason)

    @property
    def table_mode(self) -> bool:
        return self.table_mode_action.isChecked()

    def _toggle_player_view(self) -> None:
        if self.player_action.isChecked():
            self.open_player_view()
        elif self.player_view is not None:
            self.player_view.close()

    def open_player_view(self) -> QWidget:
        from app.ui.players.display import PlayerView

        if self.player_view is None:
            self.player_view = PlayerView(self.model)
            self.player_view.closed.connect(lambda: self.player_action.setChecked(False))
        if self.player_view.isVisible():
            self.player_view.raise_()
        else:
            self.player_view.show()
        self.player_action.setChecked(True)
        return self.player_view

    def player_full_screen(self) -> None:
        """F11: the player display full screen (opened if needed), or back to a window."""
        view = self.open_player_view()
        if view.isFullScreen():
            view.showNormal()
        else:
            view.showFullScreen()

    # -- help ---------------------------------------------------------------------------------

    def show_user_guide(self) -> QWidget:
        """Help > User guide (F1): the README's guide to the desk, in a window of its own."""
        from app.ui.dialogs.user_guide import UserGuide

        guide = getattr(self, "user_guide", None)
        if guide is None:
            guide = self.user_guide = UserGuide(self)
        guide.show()
        guide.raise_()
        guide.activateWindow()
        return guide

    def about_text(self) -> str:
        from app.log_file import log_path
        from app.plugins import available_rulesets, load_ruleset

        lines = [
            f"<h3>{APP_NAME} {version()}</h3>",
            "<p>The umpire's desk for face-to-face air-combat wargames.</p>",
            f"<p>Licence: {LICENCE}</p>",
            f"<p>Log file (what went wrong, for whoever helps): <br>{_esc(str(log_path()))}</p>",
            "<p><b>Rulesets</b></p><ul>",
        ]
        for rid in available_rulesets():
            rs = load_ruleset(rid)
            source = f" — {rs.source}" if rs.source else ""
            lines.append(f"<li>{_esc(rs.title)} ({rid}){_esc(source)}</li>")
        lines.append("</ul>")
        return "".join(lines)

    def show_about(self) -> None:
        box = QMessageBox(self)
        box.setWindowTitle(f"About {APP_NAME}")
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(self.about_text())
        box.setIconPixmap(QIcon(str(ICON_SVG)).pixmap(96, 96))
        box.exec()

    def rulesets_text(self) -> str:
        from app.plugins import available_rulesets, broken_rulesets, load_ruleset

        lines = ["<p><b>Installed</b></p><ul>"]
        for rid, title in available_rulesets().items():
            rs = load_ruleset(rid)
            procs = ", ".join(p.title for p in rs.procedures.values())
            lines.append(f"<li><b>{_esc(title)}</b> ({rid}): {_esc(procs)}</li>")
        lines.append("</ul>")
        broken = broken_rulesets()
        if broken:
            lines.append("<p><b>Broken (not loaded)</b></p><ul>")
            lines += [f"<li><b>{rid}</b>: {_esc(err)}</li>" for rid, err in broken.items()]
            lines.append("</ul>")
        return "".join(lines)

    def show_rulesets(self) -> None:
        box = QMessageBox(self)
        box.setWindowTitle("Rulesets")
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(self.rulesets_text())
        box.exec()

    def show_readings(self) -> None:
        """Help > Rules readings: every variant with its default (non-modal, stays open beside
        the desk)."""
        current: str | None = None
        chosen: tuple[str, ...] = ()
        if self.model.has_session:
            current = self.model.ruleset.id
            chosen = self.model.engagement.variants
        from app.ui.dialogs.readings import ReadingsDialog

        self.readings_dialog = ReadingsDialog(current, chosen, self)
        self.readings_dialog.show()

    def open_players_screens(self) -> QWidget | None:
        """View > Players' screens (issue 48): each side's page, off until started there; an
        installation without its web server (starlette, uvicorn) says so, as printing does."""
        try:
            from app.ui.players.bridge import PlayersBridge
            from app.ui.players.dialog import PlayersDialog
        except ImportError as e:
            self.show_refusal(
                f"The players' screens are not available: {e} (run ./scripts/setup again)"
            )
            return None
        if self.players_dialog is None:
            self.players_bridge = PlayersBridge(self.model, self)
            self.players_dialog = PlayersDialog(self.players_bridge, self)
        self.players_dialog.show()
        self.players_dialog.raise_()
        return self.players_dialog

    # -- closing ------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        """The first time the desk shows, the keyboard is in the Turn panel's "who acts now"
        (Space: Next step; Enter: the line's roll)."""
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            turn = self.panels.get("turn")
            if isinstance(turn, ShowsActing):
                turn.acting.setFocus()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.persist_layout:
            self.save_layout()
        if self.players_bridge is not None:
            self.players_bridge.stop()
        if self.player_view is not None:
            self.player_view.close()
        for view in list(self.player_displays):
            view.close()
        super().closeEvent(event)


def available_geometry(widget: QWidget) -> QRect:
    """The free area (less panels and docks) of the screen ``widget`` is on, or the primary
    screen's; a large area where Qt knows of no screen."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, *FIRST_SIZE)


def first_geometry(available: QRect) -> QRect:
    """The first window: ``FIRST_SIZE`` where it fits, else as large as the free area allows
    (a title bar's height kept above it), centred in it; never larger (issue 47: a 1400x900
    window on a 1366x768 screen hid the Combat panel's right side and the status bar)."""
    width = min(FIRST_SIZE[0], available.width())
    room = available.height() - TITLE_BAR
    height = min(FIRST_SIZE[1], room)
    x = available.x() + (available.width() - width) // 2
    y = available.y() + TITLE_BAR + (room - height) // 2
    return QRect(x, y, width, height)


def read_only_reason(where: str) -> str:
    """Why nothing can be done at the desk showing the game at ``where`` (a file or a server),
    for the status bar and the disabled actions."""
    return (
        f"{where} is open read-only: this desk follows the game live but "
        "changes nothing (open it as a station to act)."
    )


def _short(text: str, limit: int = 60) -> str:
    """A narrative shortened for a menu item."""
    text = text.replace("&", "&&")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def settle() -> None:
    """Let pending layout and paint events run (used before a screenshot)."""
    app = QApplication.instance()
    if app is not None:
        for _ in range(5):
            app.processEvents()
