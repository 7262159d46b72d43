"""Printing control cards: which cards, the command-line job, and the public names.

One card is drawn by ``app.ui.cards.render`` (one QPainter drawing for preview, PDF and
printer); pages, the File > Print cards dialog and the preview widget are ``app.ui.cards.printing``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication

from app.core.errors import RuleViolation, StoreError
from app.session import GameSession
from app.ui.cards.printing import (
    PER_PAGE,
    CardPreview,
    CardsCancelled,
    PrintCardsDialog,
    choose_cards,
    page_size_for,
    page_size_named,
    paint_pages,
    write_pdf,
)
from app.ui.cards.render import CardFace, card_faces

__all__ = [
    "CardFace",
    "CardPreview",
    "CardsCancelled",
    "PrintCardsDialog",
    "card_faces",
    "cards_command",
    "choose_cards",
    "page_size_for",
    "paint_pages",
    "write_pdf",
]

_app: QCoreApplication | None = None


def _ensure_gui() -> None:
    """Text needs a QGuiApplication; with no window to show, Qt needs no display either."""
    global _app
    if QCoreApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _app = QGuiApplication(["airboss"])


def cards_command(
    game: str,
    out: str,
    side: str | None = None,
    changed: bool = False,
    per_page: int = 2,
    page_size: str | None = None,
    game_id: str | None = None,
) -> int:
    """``airboss cards``: the chosen cards to a PDF, marked as printed. Returns the exit code."""

    def fail(message: str) -> int:
        print(f"airboss cards: {message}", file=sys.stderr)
        return 2

    if per_page not in PER_PAGE:
        return fail(f"--per-page must be one of {', '.join(map(str, PER_PAGE))}")
    try:
        size = page_size_named(page_size)
    except ValueError as e:
        return fail(str(e))
    target = Path(out)
    if not target.parent.is_dir():
        return fail(f"{target.parent}: no such folder for the PDF")
    try:
        session = GameSession.open(game, game=game_id)
    except (StoreError, KeyError) as e:
        return fail(str(e))
    with session:
        try:
            ids = choose_cards(session.roster, "side" if side else "all", side)
        except RuleViolation as e:
            return fail(str(e))
        if changed:
            wanted = set(session.roster.changed_since_printed())
            ids = [i for i in ids if i in wanted]
        if not ids:
            print("No cards to print" + (" (none changed since last printed)" if changed else ""))
            return 0
        _ensure_gui()
        faces = card_faces(session.ruleset, session.engagement, ids)
        try:
            pages = write_pdf(target, faces, per_page, size, title=f"{session.title} - cards")
        except OSError as e:
            return fail(f"{target}: {e}")
        session.roster.mark_printed(ids, f"to {target} (airboss cards)")
    print(
        f"{target}: {len(faces)} card{'s' if len(faces) != 1 else ''} on {pages} "
        f"page{'s' if pages != 1 else ''} ({size.key()}, {per_page} per page)"
    )
    return 0
