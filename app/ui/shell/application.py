"""``airboss [GAME] [--screenshot PATH] [--startup-profile]``: the Qt application around the
main window.

Opens GAME, or the last game, or on the very first start a new game from the built-in demo
engagement. With ``--screenshot`` it renders the window with every panel and exits; with
``--startup-profile`` it prints how long each phase of start-up took, up to the first paint.

Start-up is ordered for the first paint (issues 20 and 36). A game file keeps, beside its log,
the rows the desk draws its roster, turn, title and status bar from (``app.startup.summary_file``,
written by the desk after every change and by a game session as it closes, and checked
against the log's last sequence number).
When they are current, the window paints from them first, before pydantic, the game's models
and its ruleset are even imported; then the game is opened and the same roster and turn
panels draw the same rows from the live game. When a game file keeps none (last written by
an older Airboss or another program, or by one killed before it kept them) a child process
works them out while the window is built (``app.startup.summary_child``), and the window paints from
them the same way. At the very first start the demo game's rows are shipped with Airboss
(``app.startup.demo_rows``): the window paints them, then the demo game is made and opened.
Otherwise (a server game, a child that could not be made or gave no rows, a first start whose data
folder holds the umpire's tables or aircraft) the game is opened, or made, first.
Either way only the roster and the turn are built for the first paint, and the other panels
once it has painted (``MainWindow.build_panels``). The garbage collector,
turned off by the command line for start-up, runs again once the desk has painted, with what
start-up built frozen out of its passes (``gc.freeze``), so later collections, and leaving,
do not walk it.
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QImage

from app.core.errors import error_text
from app.core.paths import user_data_dir
from app.core.where import is_url
from app.resources import DEMO
from app.startup.summary import UNREAD, kept_rows
from app.startup.summary_child import Pending
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow, settle
from app.ui.shell.qt_app import application

if TYPE_CHECKING:
    from app.session import GameSession
    from app.startup.summary import Summary

#: the window size of a ``--screenshot``; taller where every panel of the game, untabbed, needs
#: more (Phantoms' nine panels: 1272 pixels)
SCREENSHOT_SIZE = (1600, 1000)
#: milliseconds after the desk is up before the After-action plots' libraries are imported
PRELOAD_AFTER_MS = 300
#: the PNG writer's quality of a screenshot: 80 is zlib's level 1 (the default, -1, is level
#: 6: on a window's flat colours twice the time, for a file no smaller)
PNG_QUALITY = 80


def app_settings() -> QSettings:
    """The desk's settings file, beside the umpire's own data (one per user data dir)."""
    path = user_data_dir() / "settings.ini"
    path.parent.mkdir(parents=True, exist_ok=True)
    return QSettings(str(path), QSettings.Format.IniFormat)


def start_game(
    game: str | None,
    game_id: str | None,
    settings: QSettings,
    demo: Path = DEMO,
    strict: bool = True,
) -> tuple[GameSession | None, str]:
    """The game to show at start and a message for the umpire if something was not opened.

    An explicit GAME that cannot be opened raises when ``strict`` (a screenshot, a start-up
    profile: the command line reports it and fails); for the desk it is a message, also on
    stderr, and the desk starts empty: a game file double-clicked in a file manager
    (``packaging/airboss.desktop``) has no terminal to say it in. A last game that has gone
    missing is a message too.
    """
    from app.session import GameSession

    if game:
        try:
            return GameSession.open(game, game=game_id), ""
        except Exception as e:
            if strict:
                raise
            problem = f"Could not open {game}: {_why(game, e)}"
            print(f"airboss: {problem}", file=sys.stderr)
            return None, problem
    last = settings.value("last_game")
    if last is None:
        try:
            from app.startup.demo import create_demo_game  # the very first start only

            return create_demo_game(demo=demo), ""
        except Exception as e:  # noqa: BLE001 - no demo is a message, not a crash
            return None, f"No demo game: {error_text(e)}"
    if last:
        if not is_url(str(last)) and not Path(str(last)).exists():
            return None, f"The last game, {last}, is no longer there."
        try:
            return GameSession.open(str(last)), ""
        except Exception as e:  # noqa: BLE001 - a damaged last game must not stop the desk
            return None, f"Could not reopen the last game {last}: {_why(str(last), e)}"
    return None, ""


def _why(target: str, e: Exception) -> str:
    """Why ``target`` was not opened, its name said once: the store's messages begin with the
    game file's name, which the desk's own message has just said."""
    why = error_text(e)
    head, sep, rest = why.partition(": ")
    if sep and not is_url(target):
        try:
            if Path(head).resolve() == Path(target).resolve():
                return rest
        except (OSError, ValueError):
            pass
    return why


def stored_rows(game: str | None, game_id: str | None, settings: QSettings) -> Summary | None:
    """The rows kept in the game file the desk starts on (GAME, or the last game), if they are
    current (``app.startup.summary_file``); None for a server game or when there are none."""
    target = game or (None if game_id else settings.value("last_game"))
    if not target or game_id:
        return None
    return kept_rows(str(target))


def close_desk(window: MainWindow) -> None:
    """The desk is leaving: its game is closed, the summary of its last change kept first."""
    window.model.set_session(None)


def started() -> None:
    """The desk has painted: the garbage collector runs again, from the GUI thread only
    (``app.ui.shell.collector``), and what start-up built (modules, classes, the window) is frozen
    out of its passes."""
    from app.ui.shell import collector

    collector.install()
    gc.freeze()


def ask_for_passwords(game: str | None) -> None:
    """A server game's password the keyring does not hold is asked for in a dialog when the
    game opens (issue 30); a game file needs none."""
    from app.core.where import is_url

    if game and is_url(game):
        from app.ui.dialogs.open_from_server import ask_here

        ask_here()


def run(
    game: str | None = None,
    game_id: str | None = None,
    screenshot: str | None = None,
    settings: QSettings | None = None,
    startup_profile: bool = False,
    stored: Summary | None | object = UNREAD,
) -> int:
    """Start the desk; with ``screenshot`` write the window to that PNG and return 0; with
    ``startup_profile`` print the phases of start-up up to the first paint and return 0.
    ``stored``: the rows kept in GAME's file, if the command line has read them already
    (``stored_rows``), or a child process working them out
    (``app.startup.summary_child.Pending``)."""
    phases = [("imports", time.perf_counter())]
    strict = bool(screenshot or startup_profile)  # a GAME not opened fails the command
    cpu_at_paint = 0.0
    app = application()
    from app.ui.shell import uncaught

    uncaught.install()  # the airboss command's: an uncaught exception is said in a dialog
    ask_for_passwords(game)
    settings = settings if settings is not None else app_settings()
    rows: Summary | None = None
    pending = stored if isinstance(stored, Pending) else None
    if pending is not None and pending.where != (game or settings.value("last_game")):
        pending.cancel()  # worked out for a last game the settings do not name
        pending, stored = None, UNREAD
    if not screenshot and pending is None:
        rows = (
            stored_rows(game, game_id, settings)
            if stored is UNREAD
            else cast("Summary | None", stored)
        )
    model = EngagementModel()
    model.keeps_summary = not screenshot  # a picture of the game changes nothing in it
    session: GameSession | None = None
    problem = ""
    if rows is None and pending is None:
        session, problem = start_game(game, game_id, settings, strict=strict)
        phases.append(("game opened", time.perf_counter()))
    elif rows is not None:
        model.show_stored(rows)  # the game drawn from its kept rows until it is open
    # a screenshot shows every panel at once; the desk paints the roster and the turn first
    window = MainWindow(model, settings, panels_later=not screenshot)
    phases.append(("window built", time.perf_counter()))
    if pending is not None:  # the rows a child process worked out meanwhile
        rows = pending.rows()
        phases.append(("rows from the child", time.perf_counter()))
        if rows is not None:
            model.show_stored(rows)
        else:  # none: the game is opened before the paint, as without the child
            session, problem = start_game(game, game_id, settings, strict=strict)
            phases.append(("game opened", time.perf_counter()))
    if screenshot:
        if session is not None:
            window.show_session(session)
        if problem:
            window.show_refusal(problem)
        code = take_screenshot(window, Path(screenshot))
        started()
        return code
    if session is not None:
        window.show_session(session)
    if problem:
        window.show_refusal(problem)
    phases.append(("game shown", time.perf_counter()))
    window.show()
    app.processEvents()  # the first paint: the window, the roster and the turn
    if startup_profile:
        window.grab()
        phases.append(("first paint", time.perf_counter()))
        cpu_at_paint = time.process_time() + children_cpu()
    if rows is not None:  # now the game itself: the same panels draw it live
        session, problem = start_game(game, game_id, settings, strict=strict)
        if session is not None:
            window.show_session(session)
        else:
            model.set_session(None)  # the desk says what it has, not what the file kept
        if problem:
            window.show_refusal(problem)
        if startup_profile:
            phases.append(("game opened", time.perf_counter()))
    window.build_panels()  # the other panels in view, before the umpire can do anything
    if startup_profile:
        app.processEvents()
        window.grab()
        phases.append(("every panel in view", time.perf_counter()))
        print_profile(phases)
        # the processor time this process had used by its first paint, all threads, and its
        # child that worked out the rows (a benchmark on a busy machine compares these as
        # well as the wall clock)
        print(f"cpu time at first paint: {cpu_at_paint:.6f}")
        window.persist_layout = False
        window.close()
        close_desk(window)
        started()
        return 0
    QTimer.singleShot(0, started)
    # then, in the idle time after the first paint, the After-action plots' libraries: the
    # tab draws at once when first shown (issue 47)
    from app.ui.docks.after_action import preload

    QTimer.singleShot(PRELOAD_AFTER_MS, preload)
    code = app.exec()
    close_desk(window)
    return code


def print_profile(phases: list[tuple[str, float]]) -> None:
    """Each phase's time and the time since the process began (``--startup-profile``); the
    last line's wall-clock time lets a benchmark measure from before the process started."""
    begun = _process_start()
    print(f"{'python and imports':22s} {(phases[0][1] - begun) * 1000:7.1f} ms")
    for (_, before), (name, at) in zip(phases, phases[1:], strict=False):
        print(f"{name:22s} {(at - before) * 1000:7.1f} ms")
    paint = dict(phases)["first paint"]
    print(f"{'first paint at':22s} {(paint - begun) * 1000:7.1f} ms since the process began")
    print(f"wall clock at first paint: {time.time() - (time.perf_counter() - paint):.6f}")


def children_cpu() -> float:
    """The processor time of this process's children that have exited (the child that worked
    out the rows, ``app.startup.summary_child``); 0 where it cannot be known."""
    try:
        import resource
    except ImportError:
        return 0.0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _process_start() -> float:
    """When this process began, on ``time.perf_counter``'s clock (Linux: from /proc; elsewhere
    the first import of this module is the best we know)."""
    try:
        import os

        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
        return time.perf_counter() - age
    except (OSError, ValueError, IndexError):
        return _IMPORTED


_IMPORTED = time.perf_counter()


def take_screenshot(window: MainWindow, path: Path) -> int:
    """Every panel visible, the window rendered to ``path``; the saved layout is untouched."""
    window.persist_layout = False
    window.resize(*SCREENSHOT_SIZE)
    window.show_all_panels(untab=True)
    window.show()
    settle()
    path.parent.mkdir(parents=True, exist_ok=True)
    # opaque: written as RGB at a light compression, half the PNG's encoding time of a 32-bit
    # image at the default level, for a file of the same size (issue 36)
    image = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    # PySide6's stub types the format as bytes; at run time it takes only text (b"PNG" is
    # refused with "called with wrong argument values", PySide6 6.11)
    ok = image.save(str(path), "PNG", PNG_QUALITY)  # type: ignore[call-overload]
    window.close()
    window.model.set_session(None)
    if not ok:
        print(f"airboss: could not write {path}", file=sys.stderr)
        return 1
    return 0
