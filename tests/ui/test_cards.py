"""Control cards (issue 9): every ruleset's card drawn into a PDF and read back with pypdf,
page counts for each layout, the "changed since last printed" set, the print dialog."""

from __future__ import annotations

import re
import sys
import typing
import unicodedata
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from pypdf import PdfReader
from PySide6.QtCore import QLocale, QPointF, QRectF, QTimer
from PySide6.QtGui import QColor, QImage, QPageSize, QPainter
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewWidget
from PySide6.QtWidgets import QFileDialog, QProgressDialog

from app.core.dice import TableDice
from app.core.engagement import Engagement, Ledger
from app.core.ruleset import KeyValues, Lines, Table, Track
from app.plugins import available_rulesets, load_ruleset
from app.session import GameSession
from app.ui.cards import (
    CardFace,
    CardPreview,
    CardsCancelled,
    PrintCardsDialog,
    card_faces,
    cards_command,
    choose_cards,
    page_size_for,
    write_pdf,
)
from app.ui.cards.printing import MARGIN_MM, card_slots, paint_page
from app.ui.cards.render import DPI, MM
from app.ui.model import EngagementModel

A4 = (595, 842)
LETTER = (612, 792)


def norm(text: str) -> str:
    """PDF text as one line: ligatures undone, any run of whitespace one space."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def pdf_pages(path: Path) -> list[str]:
    return [norm(p.extract_text()) for p in PdfReader(str(path)).pages]


def text_positions(page: Any) -> list[tuple[str, float, float]]:
    """Each piece of text on a PDF page with where it starts (points, origin bottom left)."""
    found: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: Any) -> None:
        if text.strip():
            tx, ty = tm[4], tm[5]
            found.append((text, cm[0] * tx + cm[2] * ty + cm[4], cm[1] * tx + cm[3] * ty + cm[5]))

    page.extract_text(visitor_text=visit)
    return found


def card_texts(path: Path, faces: list[CardFace], per_page: int) -> dict[str, str]:
    """The text drawn inside each card's place on its page (where the card must be)."""
    out: dict[str, list[str]] = {f.aircraft_id: [] for f in faces}
    margin = MARGIN_MM * MM  # decipoints, as the renderer lays pages out
    for n, page in enumerate(PdfReader(str(path)).pages):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        area = QRectF(0, 0, width * 10 - 2 * margin, height * 10 - 2 * margin)
        on_page = faces[n * per_page : (n + 1) * per_page]
        places = list(zip(on_page, card_slots(area, per_page), strict=False))
        for text, x, y in text_positions(page):
            where = QPointF(x * 10 - margin, (height - y) * 10 - margin)
            owner = [face for face, slot in places if slot.contains(where)]
            assert owner, f"text {text!r} outside every card on page {n + 1}"
            out[owner[0].aircraft_id].append(text)
    return {k: norm(" ".join(v)) for k, v in out.items()}


def expected_strings(face: CardFace) -> list[str]:
    """Everything the ruleset put on the card, as the card prints it."""
    out = [face.name, face.heading]
    for b in face.blocks:
        out.append(b.title.upper())
        if isinstance(b, KeyValues):
            out += [s for kv in b.items for s in kv]
        elif isinstance(b, Table):
            out += list(b.header) + [c for row in b.rows for c in row]
        elif isinstance(b, Track):
            out += [b.note] if b.note else []
        elif isinstance(b, Lines):
            out += list(b.lines)
    return [norm(s) for s in out if s.strip()]


@pytest.fixture
def game(tmp_path: Path) -> Iterator[GameSession]:
    s = GameSession.create(tmp_path / "g.airboss", "skirmish", "Bar test", ("long_guns",))
    yield s
    s.close()


def skirmish_roster(s: GameSession) -> dict[str, str]:
    ids = {
        "lead": s.add_aircraft("Blue", "jet", "Blue Leader", "ace"),
        "red1": s.add_aircraft("Red", "prop", "Red One", "green"),
        "wing": s.add_aircraft("Blue", "prop", "Blue Wingman"),
        "red2": s.add_aircraft("Red", "jet", "Red Two", "experienced"),
        "lone": s.add_aircraft("Green", "jet", "Lone Ranger"),
    }
    # the leader snap-fires and hits Red One (1 of 3 damage, 2.5 of 3 ammunition left) ...
    s.perform(
        "gun_attack",
        {"attacker": ids["lead"], "target": ids["red1"], "snap_shot": True},
        TableDice([1]),
    )
    # ... which catches fire; Red Two fires a full burst and misses; the leader lights burners
    s.perform("critical_hit", {"aircraft": ids["red1"]}, TableDice([2]))
    s.perform("gun_attack", {"attacker": ids["red2"], "target": ids["lead"]}, TableDice([10]))
    s.perform("afterburner", {"aircraft": ids["lead"]})
    return ids


@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_skirmish_cards_show_current_state_on_the_right_page(
    qapp: Any, game: GameSession, tmp_path: Path, per_page: int
) -> None:
    ids = skirmish_roster(game)
    faces = card_faces(game.ruleset, game.engagement)
    # grouped by side in the order the sides joined
    assert [f.aircraft_id for f in faces] == [
        ids["lead"],
        ids["wing"],
        ids["red1"],
        ids["red2"],
        ids["lone"],
    ]
    out = tmp_path / "cards.pdf"
    pages = write_pdf(out, faces, per_page, QPageSize(QPageSize.PageSizeId.A4))
    assert pages == -(-5 // per_page)
    assert len(pdf_pages(out)) == pages
    cards = card_texts(out, faces, per_page)
    lead, red1, red2 = cards[ids["lead"]], cards[ids["red1"]], cards[ids["red2"]]
    assert "Test Jet · ace pilot" in lead
    assert "Skirmish (test ruleset) · Bar test · Turn 1" in lead
    assert "Variants: Long guns" in lead
    assert "DAMAGE 0 of 4" in lead
    assert "GUN AMMUNITION 5/2 of 3 left" in lead
    assert "AFTERBURNER USES 1 of 2 left" in lead
    assert "DAMAGE 1 of 3" in red1
    assert "ON FIRE" in red1 and "T1: fire" in red1
    assert "GUN AMMUNITION 2 of 3 left" in red2
    for face in faces:
        for s in expected_strings(face):
            assert s in cards[face.aircraft_id], (face.name, s)


def _details(rs: Any) -> dict[str, Any]:
    """Values for the required fields of a ruleset's Details model (e.g. Nth Fleet's count)."""
    out: dict[str, Any] = {}
    for name, field in rs.Details.model_fields.items():
        if not field.is_required():
            continue
        ann = field.annotation
        args = typing.get_args(ann)
        if typing.get_origin(ann) is typing.Literal:
            out[name] = args[0]
        elif ann is int:
            out[name] = 2
        elif ann is bool:
            out[name] = False
        elif isinstance(ann, type) and issubclass(ann, BaseModel):
            out[name] = {}
        else:
            out[name] = "Alpha"
    return out


def _battered(rs: Any, e: Engagement) -> Engagement:
    """Every aircraft with one point of damage and one unit of each ledger spent."""
    aircraft = {}
    for k, a in e.aircraft.items():
        ledgers = {}
        for lid, led in a.ledgers.items():
            spec = rs.ledger_spec(lid)
            unit = spec.unit if spec else 1
            ledgers[lid] = Ledger(led.value - unit, led.maximum) if led.value >= unit else led
        damage = 1 if a.max_damage is None or a.max_damage > 1 else 0
        aircraft[k] = replace(a, damage=damage, ledgers=ledgers)
    return replace(e, aircraft=aircraft)


@pytest.mark.parametrize("ruleset_id", sorted(available_rulesets()))
def test_every_ruleset_sample_aircraft_print(qapp: Any, tmp_path: Path, ruleset_id: str) -> None:
    rs = load_ruleset(ruleset_id)
    with GameSession.create(tmp_path / "g.airboss", ruleset_id, "Every card") as s:
        details = _details(s.ruleset)
        for i, type_id in enumerate(s.ruleset.aircraft):
            s.add_aircraft(("Blue", "Red")[i % 2], type_id, f"Card{i:02d} {type_id}", **details)
        e = _battered(s.ruleset, s.engagement)
        faces = card_faces(s.ruleset, e)
        assert len(faces) == len(rs.aircraft) > 0
        for per_page in (1, 2, 4):
            out = tmp_path / f"cards{per_page}.pdf"
            pages = write_pdf(out, faces, per_page, QPageSize(QPageSize.PageSizeId.Letter))
            assert pages == len(PdfReader(str(out)).pages) == -(-len(faces) // per_page)
            cards = card_texts(out, faces, per_page)
            for face in faces:
                card = cards[face.aircraft_id]
                assert face.name in card
                # the current damage and what is left of each ledger, as the card spec says
                a = e.aircraft[face.aircraft_id]
                tracks = [b for b in face.blocks if isinstance(b, Track)]
                if a.max_damage is not None:
                    assert any(t.used == a.damage and norm(t.note) in card for t in tracks), (
                        face.name,
                        "damage",
                    )
                if per_page == 2:
                    for text in expected_strings(face):
                        assert text in card, (face.name, text)


def test_changed_since_printed_through_actions_and_prints(
    qapp: Any, game: GameSession, tmp_path: Path
) -> None:
    a = game.add_aircraft("Blue", "jet", "Alpha")
    b = game.add_aircraft("Red", "prop", "Bravo")
    c = game.add_aircraft("Red", "jet", "Charlie")
    assert choose_cards(game.roster, "changed") == [a, b, c]  # nothing printed yet
    game.roster.mark_printed(choose_cards(game.roster, "all"))
    assert choose_cards(game.roster, "changed") == []
    game.perform("gun_attack", {"attacker": a, "target": b}, TableDice([3]))
    assert choose_cards(game.roster, "changed") == [a, b]
    model = EngagementModel(game)
    dialog = PrintCardsDialog(model, [c])
    assert dialog.which() == "changed"  # something was printed before: the between-turns job
    assert dialog.aircraft_ids() == [a, b]
    assert dialog.save_pdf(str(tmp_path / "changed.pdf"))
    names = " ".join(pdf_pages(tmp_path / "changed.pdf"))
    assert "Alpha" in names and "Bravo" in names and "Charlie" not in names
    assert choose_cards(game.roster, "changed") == []
    # none changed now: the dialog offers all the cards, and says when the last were printed
    # (issue 47: it offered "Changed since last printed (0)" with an empty preview)
    assert dialog.which() == "all" and not dialog._radios["changed"].isEnabled()
    assert "(none; last printed " in dialog._radios["changed"].text()
    # undoing the attack changes the cards again; redoing it brings back the printed cards
    game.undo()
    assert choose_cards(game.roster, "changed") == [a, b]
    game.redo()
    assert choose_cards(game.roster, "changed") == []
    game.undo()
    game.roster.change_aircraft(c, name="Charlie Two")
    assert choose_cards(game.roster, "changed") == [a, b, c]
    # printing some cards (not undoable, and not a change of any card) leaves the others
    game.roster.mark_printed([c])
    assert choose_cards(game.roster, "changed") == [a, b]
    game.roster.mark_printed([a, b])
    assert choose_cards(game.roster, "changed") == []
    game.perform("afterburner", {"aircraft": a})
    assert choose_cards(game.roster, "changed") == [a]
    # the printed revisions live in the log: a reopened game knows them
    path = Path(game.store.where)
    game.close()
    with GameSession.open(path) as again:
        assert choose_cards(again.roster, "changed") == [a]
    dialog.deleteLater()


def test_dialog_choices_counts_and_printer(qtbot: Any, game: GameSession, tmp_path: Path) -> None:
    ids = skirmish_roster(game)
    model = EngagementModel(game)
    dialog = PrintCardsDialog(model, [ids["red2"], ids["lone"]])
    qtbot.addWidget(dialog)
    assert dialog.which() == "all"
    assert dialog.aircraft_ids() == list(ids.values())
    dialog.set_which("side", "Red")
    assert dialog.aircraft_ids() == [ids["red1"], ids["red2"]]
    dialog.set_which("selected")
    assert dialog.aircraft_ids() == [ids["red2"], ids["lone"]]
    dialog.set_layout(4, QPageSize.PageSizeId.Letter)
    assert dialog.preview.page_count == 1
    # the printer path: the same drawing through QPrinter (here printing to a PDF file)
    printer = dialog.new_printer()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    out = tmp_path / "printer.pdf"
    printer.setOutputFileName(str(out))
    assert dialog.print_to(printer)
    reader = PdfReader(str(out))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(box.width), round(box.height)) == LETTER
    text = norm(reader.pages[0].extract_text())
    assert "Red Two" in text and "Lone Ranger" in text and "Red One" not in text
    assert sorted(game.roster.printed) == sorted([ids["red2"], ids["lone"]])
    assert dialog._radios["changed"].text().startswith("Changed since last printed (3")
    # a game action refreshes the counts of the dialog on screen; a hidden one catches up
    # when shown, and a finished one stops listening
    dialog.hide()
    game.perform("afterburner", {"aircraft": ids["lone"]})
    assert dialog._radios["changed"].text().startswith("Changed since last printed (3")
    dialog.show()
    assert dialog._radios["changed"].text().startswith("Changed since last printed (4")
    game.perform("afterburner", {"aircraft": ids["red2"]})
    assert dialog._radios["changed"].text().startswith("Changed since last printed (5")
    dialog.reject()
    game.roster.mark_printed(list(ids.values()))
    assert dialog._radios["changed"].text().startswith("Changed since last printed (5")


def test_print_preview_dialog_draws_the_pages(qtbot: Any, game: GameSession) -> None:
    skirmish_roster(game)
    dialog = PrintCardsDialog(EngagementModel(game))
    qtbot.addWidget(dialog)
    preview = dialog.print_preview_dialog()
    drawn: list[int] = []
    preview.paintRequested.connect(lambda printer: drawn.append(1))
    # what showing the dialog does, without a window (the offscreen platform warns on show)
    preview.findChild(QPrintPreviewWidget).updatePreview()
    qtbot.waitUntil(lambda: bool(drawn))
    assert game.roster.printed == {}  # a preview alone prints nothing


def test_cancelling_a_long_job_leaves_no_file(qapp: Any, game: GameSession, tmp_path: Path) -> None:
    for i in range(12):
        game.add_aircraft("Blue", "jet", f"Jet {i}")
    faces = card_faces(game.ruleset, game.engagement)
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        seen.append((done, total))
        return done < 5

    out = tmp_path / "cancelled.pdf"
    with pytest.raises(CardsCancelled):
        write_pdf(out, faces, 2, progress=progress)
    assert seen == [(i, 12) for i in range(6)]
    assert not out.exists()


def test_preview_widget_draws_like_the_page(qtbot: Any, game: GameSession) -> None:
    skirmish_roster(game)
    faces = card_faces(game.ruleset, game.engagement)
    widget = CardPreview()
    qtbot.addWidget(widget)
    widget.resize(300, 420)
    widget.set_cards(faces, 2, QPageSize(QPageSize.PageSizeId.A4))
    assert widget.page_count == 3
    image = widget.grab().toImage()
    dark = sum(
        1
        for y in range(image.height())
        for x in range(image.width())
        if QColor(image.pixel(x, y)).lightness() < 128
    )
    assert dark > 300  # card outlines, boxes and text, not a blank page
    # the same paint_page into an image at a print-like scale has the cards where the slots are
    img = QImage(595, 842, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.scale(72 / DPI, 72 / DPI)
    area = QRectF(0, 0, 595 * 10, 842 * 10).adjusted(227, 227, -227, -227)
    paint_page(p, faces[:2], area, 2)
    p.end()
    for slot in card_slots(area, 2):
        x, y = slot.x() / 10 + 1, slot.center().y() / 10
        assert QColor(img.pixel(int(x), int(y))).lightness() < 200  # the card's outline


@pytest.mark.parametrize(
    ("territory", "size"),
    [
        (QLocale.Country.UnitedStates, QPageSize.PageSizeId.Letter),
        (QLocale.Country.Canada, QPageSize.PageSizeId.Letter),
        (QLocale.Country.Germany, QPageSize.PageSizeId.A4),
        (QLocale.Country.UnitedKingdom, QPageSize.PageSizeId.A4),
    ],
)
def test_page_size_from_locale(territory: QLocale.Country, size: QPageSize.PageSizeId) -> None:
    locale = QLocale(QLocale.Language.English, territory)
    assert page_size_for(locale).id() == size


def test_page_size_without_a_territory_is_a4() -> None:
    assert QLocale.c().territory() == QLocale.Country.AnyTerritory
    assert page_size_for(QLocale.c()).id() == QPageSize.PageSizeId.A4


def test_cards_command_in_process(
    qapp: Any, game: GameSession, tmp_path: Path, capsys: Any
) -> None:
    skirmish_roster(game)
    path = game.store.where
    game.close()
    out = tmp_path / "all.pdf"
    assert cards_command(path, str(out), page_size="A4", per_page=4) == 0
    reader = PdfReader(str(out))
    assert len(reader.pages) == 2
    assert (round(reader.pages[0].mediabox.width), round(reader.pages[0].mediabox.height)) == A4
    assert "5 cards on 2 pages (A4, 4 per page)" in capsys.readouterr().out
    assert cards_command(path, str(tmp_path / "none.pdf"), changed=True) == 0
    assert "No cards to print" in capsys.readouterr().out
    assert not (tmp_path / "none.pdf").exists()
    assert cards_command(path, str(out), side="Purple") == 2
    assert "no side 'Purple'" in capsys.readouterr().err


def test_drawing_gives_none_its_references_back(
    qapp: Any, game: GameSession, tmp_path: Path
) -> None:
    """Drawing cards must not drain references to None (PySide6 6.12.0 dropped one per
    QPainter.save, setFont ... call: thousands per job, and the interpreter aborted)."""
    skirmish_roster(game)
    faces = card_faces(game.ruleset, game.engagement)
    write_pdf(tmp_path / "warm.pdf", faces, 2)  # fonts and caches made once
    before = sys.getrefcount(None)
    for n in (1, 2, 4):
        write_pdf(tmp_path / f"cards{n}.pdf", faces, n)
    assert sys.getrefcount(None) >= before - 50


def test_dialog_job_can_be_cancelled_from_its_progress_dialog(
    qtbot: Any, game: GameSession, tmp_path: Path
) -> None:
    for i in range(60):
        game.add_aircraft(("Blue", "Red")[i % 2], "jet", f"Jet {i}")
    dialog = PrintCardsDialog(EngagementModel(game))
    qtbot.addWidget(dialog)
    dialog.progress_after_ms = 0  # this machine is fast: show the progress at once

    def cancel() -> None:
        dialog.findChild(QProgressDialog).cancel()

    # a modal progress dialog takes events while the job runs: the umpire's Cancel gets in
    QTimer.singleShot(0, cancel)
    out = tmp_path / "cancelled.pdf"
    assert not dialog.save_pdf(str(out))
    assert not out.exists()
    assert game.roster.printed == {}
    assert "cancelled" in dialog._status.text()
    assert dialog.save_pdf(str(out))
    assert len(PdfReader(str(out)).pages) == 30
    assert len(game.roster.printed) == 60


def test_a_card_the_ruleset_cannot_build_says_why(
    qapp: Any, game: GameSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = game.add_aircraft("Blue", "jet", "Alpha")
    game.add_aircraft("Red", "prop", "Bravo")
    real = type(game.ruleset).card_spec

    def card_spec(self: Any, aircraft: Any, engagement: Any) -> Any:
        if aircraft.id == a:
            raise KeyError("hit_number")
        return real(self, aircraft, engagement)

    monkeypatch.setattr(type(game.ruleset), "card_spec", card_spec)
    faces = card_faces(game.ruleset, game.engagement)
    out = tmp_path / "cards.pdf"
    assert write_pdf(out, faces, 2) == 1
    cards = card_texts(out, faces, 2)
    assert "THIS CARD COULD NOT BE DRAWN" in cards[a]
    assert "KeyError: 'hit_number'" in cards[a]
    assert "DAMAGE 0 of 3" in next(v for k, v in cards.items() if k != a)


def test_the_pdf_name_offered_is_one_every_system_takes(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Save as PDF offers "<title> cards.pdf" without the characters a file name cannot hold
    (found at the desk: the demo's "Demo: Phantoms over the Gulf of Tonkin" offered a ":",
    refused on Windows); the PDF is written where the umpire chose."""
    s = GameSession.create(tmp_path / "t.airboss", "skirmish", 'Demo: "Red"/Blue? <1>')
    s.add_aircraft("Red", "jet", "Red 1")
    offered: list[str] = []

    def save_as(_parent: Any, _title: str, name: str, _filter: str) -> tuple[str, str]:
        offered.append(name)
        return str(tmp_path / name), "PDF"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    dialog = PrintCardsDialog(EngagementModel(s))
    qtbot.addWidget(dialog)
    dialog._pdf_button.click()  # noqa: SLF001 - the dialog's "Save as PDF" button
    assert offered == ["Demo RedBlue 1 cards.pdf"]
    qtbot.waitUntil(lambda: (tmp_path / "Demo RedBlue 1 cards.pdf").exists(), timeout=30_000)
    s.close()
