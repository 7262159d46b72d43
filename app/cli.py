"""The ``airboss`` command: the desktop app and its sub-commands (API.md, "Command line").

airboss [GAME] [--screenshot PATH] [--startup-profile] [--db URL --game ID]
airboss cards GAME --out FILE.pdf [--side S] [--changed] [--per-page N] [--page-size A4]
airboss rulesets
airboss log GAME [--game ID]
airboss ruling GAME SEQ [--game ID] [--public]
airboss report GAME --out FILE.pdf [--game ID]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence

from app.core.errors import RuleViolation
from app.store import StoreError

SUBCOMMANDS = ("cards", "rulesets", "log", "ruling", "report", "club-server")


def _gui_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="airboss",
        description="The umpire's desk for face-to-face air-combat wargames. "
        f"Sub-commands: {', '.join(SUBCOMMANDS)} (airboss SUBCOMMAND --help).",
    )
    p.add_argument("game", nargs="?", help="a game file (.airboss); default: the last game")
    p.add_argument(
        "--screenshot",
        metavar="PATH",
        help="render the main window with every panel to a PNG and exit",
    )
    p.add_argument(
        "--startup-profile",
        action="store_true",
        help="start the desk, print how long each phase of start-up took up to the first "
        "paint, and exit",
    )
    p.add_argument("--db", metavar="URL", help="a PostgreSQL URL instead of a game file")
    p.add_argument("--game", dest="game_id", metavar="ID", help="the game id on a server")
    p.add_argument(
        "--list",
        action="store_true",
        help="with --db (or a file): list its games -- ruleset, title, turn, aircraft in play, "
        "last action, stations watching -- and exit",
    )
    return p


def _sub_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="airboss")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cards", help="print control cards to a PDF, with no window")
    c.add_argument("game", help="the game file or server URL")
    c.add_argument("--out", required=True, metavar="FILE.pdf")
    c.add_argument("--side", help="only this side's aircraft")
    c.add_argument(
        "--changed",
        action="store_true",
        help="only the cards that changed since they were last printed",
    )
    c.add_argument("--per-page", type=int, choices=(1, 2, 4), default=2)
    c.add_argument("--page-size", choices=("A4", "Letter"), help="default: from the locale")
    c.add_argument("--game", dest="game_id", metavar="ID")
    sub.add_parser("rulesets", help="list the installed rulesets and their procedures")
    g = sub.add_parser("log", help="print a game's event log, undone actions marked")
    g.add_argument("game")
    g.add_argument("--game", dest="game_id", metavar="ID")
    u = sub.add_parser(
        "ruling",
        help="print the ruling of a log entry: procedure and rule, every input and its source, "
        "the odds before the roll, the dice, the outcome and what it caused",
    )
    u.add_argument("game")
    u.add_argument("seq", type=int, help="the log entry's number (as airboss log prints it)")
    u.add_argument("--game", dest="game_id", metavar="ID")
    u.add_argument(
        "--public", action="store_true", help="only what the players may see (Player display)"
    )
    r = sub.add_parser(
        "report",
        help="the after-action report (the game in plots, kills and losses, luck, dice at the "
        "table) to a PDF, with no window",
    )
    r.add_argument("game", help="the game file or server URL")
    r.add_argument("--out", required=True, metavar="FILE.pdf")
    r.add_argument("--game", dest="game_id", metavar="ID")
    k = sub.add_parser(
        "club-server",
        help="a PostgreSQL server for a club laptop in your data folder: start, stop, status; "
        "on a station, trust HOST:PORT pins the club's server's certificate",
    )
    k.add_argument("action", choices=("start", "stop", "status", "trust"))
    k.add_argument(
        "server",
        nargs="?",
        metavar="HOST:PORT",
        help="trust: the club's server as its start printed it",
    )
    k.add_argument(
        "--fingerprint",
        help="trust: the fingerprint the club's server printed (SHA256:AB:CD:...)",
    )
    k.add_argument(
        "--certificate",
        metavar="FILE",
        help="trust: the server's certificate file copied from the club's laptop",
    )
    k.add_argument(
        "--stations", type=int, default=4, help="start: station machines (this laptop is one)"
    )
    k.add_argument(
        "--viewers",
        type=int,
        default=2,
        help="start: HQ and Player display machines (this laptop is one)",
    )
    k.add_argument("--port", type=int, default=5433)
    k.add_argument(
        "--listen",
        default="localhost",
        metavar="ADDRESS",
        help="the addresses to listen on: localhost (default, this laptop only) or this "
        "laptop's address on the club's network",
    )
    k.add_argument(
        "--tls", action="store_true", help="the club's network must use TLS (a certificate is made)"
    )
    k.add_argument(
        "--new-passwords",
        action="store_true",
        help="make new passwords for the station and viewer roles (shown once)",
    )
    return p


def cmd_rulesets() -> int:
    """The installed rulesets and their procedures, the broken ones with their error, and
    the umpire's own files each ruleset refused (issue 46: too deep, too big, malformed),
    each naming the file and the field."""
    from app.core.data import catalogue_problems, override_problems
    from app.core.text import shown
    from app.plugins import available_rulesets, broken_rulesets, load_ruleset

    for rid, title in available_rulesets().items():
        rs = load_ruleset(rid)
        print(f"{rid}: {title}")
        for proc in rs.procedures.values():
            print(f"    {proc.id:<24} {proc.title} ({proc.rule})")
        try:
            rs.aircraft  # noqa: B018 - reads the umpire's aircraft files, each checked
            tables = rs.table_files()
        except Exception as e:  # noqa: BLE001 - a ruleset's own failure: said, not raised
            print(f"    refused: {shown(str(e))}")
            continue
        for problem in [*catalogue_problems(rid), *override_problems(rid, tables)]:
            print(f"    refused: {shown(problem)}")
    for rid, err in broken_rulesets().items():
        print(f"{rid}: BROKEN - {err}")
    return 0


def cmd_club_server(
    action: str,
    port: int,
    listen: str = "localhost",
    tls: bool = False,
    new: bool = False,
    stations: int = 4,
    viewers: int = 2,
) -> int:
    from app import club_server

    try:
        if action == "start":
            started = club_server.start(
                port=port,
                listen=listen,
                tls=tls,
                new_passwords=new,
                stations=stations,
                viewers=viewers,
            )
            print("\n".join(club_server.describe(started)))
        elif action == "stop":
            club_server.stop()
            print("The club's server is stopped.")
        else:
            print("running" if club_server.running() else "not running")
    except club_server.ClubServerError as e:
        print(f"airboss: {e}", file=sys.stderr)
        return 2
    return 0


def cmd_trust(server: str | None, fingerprint: str | None, certificate: str | None) -> int:
    """Pin the club's server's certificate on this station (issue 46): the one it shows now
    if its fingerprint is the one given, or the file copied from the club's laptop."""
    from pathlib import Path

    from app.store import server_trust

    host, _, port = (server or "").rpartition(":")
    if not host or not port.isdigit() or bool(fingerprint) == bool(certificate):
        print(
            "airboss: club-server trust HOST:PORT needs --fingerprint (as the club's server "
            "printed it) or --certificate FILE (copied from the club's laptop)",
            file=sys.stderr,
        )
        return 2
    if certificate:
        seen = server_trust.pin_file(host, int(port), Path(certificate))
    else:
        seen = server_trust.trust(host, int(port), str(fingerprint))
    print(f"This computer trusts {host}:{port} (certificate {seen}).")
    return 0


def cmd_list(target: str | None) -> int:
    """The games of a server (or file): the same table as File > Open from server."""
    if not target:
        print("airboss: --list needs --db URL (or a game file)", file=sys.stderr)
        return 2
    from app.session.opening import OVERVIEW_HEAD, overview, overview_table

    rows = overview(target)
    head = OVERVIEW_HEAD
    table = overview_table(rows)
    widths = [max([len(h), *(len(row[i]) for row in table)]) for i, h in enumerate(head)]
    for row in (head, *table):
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    if not rows:
        print("(no games)")
    return 0


def cmd_log(game: str, game_id: str | None) -> int:
    from app.session import GameSession
    from app.store.outline import lines, undone

    with GameSession.open(game, game=game_id) as s:
        # read a page at a time and printed as read: a long log is never in memory (issue 20),
        # nor decoded again once opened (issue 31); the undone actions from the undo records
        struck = undone(s.store, s.game_id)
        out: list[str] = []
        for e in lines(s.store, s.game_id):
            if e.narrative:
                mark = "[undone] " if e.action in struck and not e.meta else ""
                out.append(f"{e.seq:>6}  {e.clock}  {mark}{e.narrative}\n")
                if len(out) >= 10_000:
                    sys.stdout.write("".join(out))
                    out.clear()
        sys.stdout.write("".join(out))
    return 0


def cmd_ruling(game: str, seq: int, game_id: str | None, public: bool) -> int:
    from app.session import GameSession

    with GameSession.open(game, game=game_id) as s:
        try:
            ruling = s.odds.ruling(seq)
        except KeyError:
            last = s.engagement.seq
            print(f"airboss: {game} has no log entry {seq} (entries 1 to {last})", file=sys.stderr)
            return 2
    print((ruling.public() if public else ruling).text())
    return 0


def _ask_passwords_here() -> None:
    """A server's password the keyring does not hold is asked for at the terminal (never
    echoed, never printed), and so is whether to trust a club's server seen for the first
    time (its fingerprint shown, issue 46); with no terminal the server's refusal is the
    message."""
    if sys.stdin is None or not sys.stdin.isatty():
        return
    from app.store import passwords, server_trust

    def ask(url: str) -> str | None:
        import getpass

        try:
            return getpass.getpass(f"Password for {url}: ") or None
        except (EOFError, KeyboardInterrupt):
            return None

    def confirm(host: str, port: int, fingerprint: str) -> bool:
        print(
            f"{host}:{port} is not known to this computer. Its certificate's fingerprint is\n"
            f"    {fingerprint}\nCompare it with what the club's server printed when it "
            "started.",
            file=sys.stderr,
        )
        try:
            return input("Is it the same? Trust this server [yes/no]: ").strip().lower() in (
                "y",
                "yes",
            )
        except (EOFError, KeyboardInterrupt):
            return False

    passwords.ask = ask
    server_trust.confirm = confirm


def _rows_before_qt(game: str | None) -> object:
    """What the desk paints GAME (or, with none, the last game, or at the very first start
    the demo game) from, found before Qt is imported (issue 36): the rows kept in its file
    (plain sqlite3 and json), the demo's rows shipped with Airboss (``app.startup.demo_rows``), or
    else a child process working them out beside Qt's start (``app.startup.summary_child``);
    ``UNREAD`` when none (the desk then opens or makes the game before it paints)."""
    from app.core.paths import user_data_dir
    from app.startup.summary import UNREAD, kept_rows
    from app.startup.summary_child import last_game, start

    if game:
        rows = kept_rows(game)
        if rows is not None:
            return rows
        pending = start(game)
        if pending is None:
            # the game opens before the window paints: its Python-only layers are imported
            # before PySide6, whose import hook would look at each (issue 20)
            import app.session  # noqa: F401

            return None
        return pending
    settings = user_data_dir() / "settings.ini"
    if not settings.exists():  # the very first start: the demo game is made after the paint
        from app.startup.demo_rows import shipped_rows

        return shipped_rows(user_data_dir()) or UNREAD
    last = last_game(str(settings))  # checked by the desk
    if last and kept_rows(last) is None:
        return start(last) or UNREAD
    return UNREAD  # the desk reads the last game's rows from its settings


def qt_platform_problem(offscreen_will_do: bool) -> str | None:
    """Before Qt is imported: can Qt open a window here? (Linux only; Qt itself aborts the
    process, dumping core, when its platform plugin cannot load.) With no display at all a
    command that only renders (``offscreen_will_do``: ``--screenshot``, ``--startup-profile``)
    is given Qt's offscreen platform; for the desk the answer is one line saying what to do.
    With an X display, Qt's xcb plugin is loaded here first, so a missing library (issue 47:
    a fresh Debian without libxcb-cursor0 ...) is named rather than fatal to Qt."""
    if not sys.platform.startswith("linux"):
        return None
    env = os.environ
    chosen = env.get("QT_QPA_PLATFORM", "")
    if chosen and not chosen.startswith("xcb"):
        return None  # offscreen, wayland, vnc ...: the umpire's or the test's own choice
    if not chosen and env.get("WAYLAND_DISPLAY"):
        return None  # a Wayland session: Qt picks its Wayland plugin
    if not env.get("DISPLAY"):
        if offscreen_will_do:
            env["QT_QPA_PLATFORM"] = "offscreen"
            return None
        return (
            "no display to open the desk on (DISPLAY is not set): start it in a desktop "
            "session (or ssh -X); `airboss --screenshot out.png` works without one"
        )
    missing = _xcb_cannot_load()
    if missing is None:
        return None
    if offscreen_will_do:
        env["QT_QPA_PLATFORM"] = "offscreen"
        return None
    return (
        f"Qt's X11 platform cannot load ({missing}): run ./scripts/setup, which installs "
        "the Debian packages it needs, or install your system's package for that library"
    )


def _xcb_cannot_load() -> str | None:
    """Why Qt's xcb platform plugin would not load (the dynamic linker's words), or None."""
    import importlib.util

    spec = importlib.util.find_spec("PySide6")  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        return None
    from pathlib import Path

    plugin = Path(next(iter(spec.submodule_search_locations))) / "Qt/plugins/platforms/libqxcb.so"
    if not plugin.exists():
        return None  # a frozen bundle or a system Qt: its own layout, its own checks
    import ctypes

    try:
        ctypes.CDLL(str(plugin))
    except OSError as e:
        return str(e).split(": ", 1)[-1] if str(plugin) in str(e) else str(e)
    return None


def entry() -> int:
    """The ``airboss`` command as installed: the log file and crash log first (``app.log_file``),
    then ``main``. (Tests call ``main`` in their own process, whose hooks are pytest's.)"""
    from app import log_file

    log_file.start(" ".join(["airboss", *sys.argv[1:2]]))
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in SUBCOMMANDS:
            _ask_passwords_here()
            ns = _sub_parser().parse_args(args)
            if ns.command == "club-server":
                if ns.action == "trust":
                    return cmd_trust(ns.server, ns.fingerprint, ns.certificate)
                return cmd_club_server(
                    ns.action,
                    ns.port,
                    ns.listen,
                    ns.tls,
                    ns.new_passwords,
                    ns.stations,
                    ns.viewers,
                )
            if ns.command == "rulesets":
                return cmd_rulesets()
            if ns.command == "log":
                return cmd_log(ns.game, ns.game_id)
            if ns.command == "ruling":
                return cmd_ruling(ns.game, ns.seq, ns.game_id, ns.public)
            if ns.command == "report":
                from app.ui.after_action.report import report_command

                return report_command(ns.game, ns.out, ns.game_id)
            from app.ui.cards import cards_command

            return cards_command(
                ns.game,
                ns.out,
                side=ns.side,
                changed=ns.changed,
                per_page=ns.per_page,
                page_size=ns.page_size,
                game_id=ns.game_id,
            )
        ns = _gui_parser().parse_args(args)
        if ns.list:
            _ask_passwords_here()
            return cmd_list(ns.db or ns.game)
        # start-up allocates much and frees little: the collector runs again once the desk
        # has painted (``app.ui.shell.application.run``; issue 20)
        gc.disable()
        try:
            from app.startup.summary import UNREAD

            game = ns.db or ns.game
            stored: object = UNREAD
            if not ns.screenshot and not ns.game_id:
                stored = _rows_before_qt(game)
            problem = qt_platform_problem(bool(ns.screenshot or ns.startup_profile))
            if problem:
                print(f"airboss: {problem}", file=sys.stderr)
                return 2
            from app.ui.shell.qt_import import install

            install()  # PySide6's import hook made cheap before PySide6 is imported
            from app.ui.shell.application import run

            return run(
                game=game,
                game_id=ns.game_id,
                screenshot=ns.screenshot,
                startup_profile=ns.startup_profile,
                stored=stored,
            )
        finally:
            gc.enable()  # also when start-up failed before the first paint
    except (StoreError, RuleViolation, KeyError) as e:
        print(f"airboss: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # never a traceback for the umpire: it goes to the log file
        if os.environ.get("AIRBOSS_DEBUG"):
            raise
        import logging

        from app import log_file

        logging.getLogger("airboss").error("the command failed", exc_info=e)
        lines = str(e).strip().splitlines()
        print(
            f"airboss: {type(e).__name__}: {lines[0] if lines else ''} "
            f"(the details are in {log_file.log_path()}; AIRBOSS_DEBUG=1 shows them here)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    raise SystemExit(entry())
