"""``airboss cards`` end to end: the installed command in a subprocess, with no window."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from app.core.dice import TableDice
from app.session import GameSession

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "tests" / "fixtures" / "site"
AIRBOSS = Path(sys.executable).parent / "airboss"


def airboss(*args: str | Path, data: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(SITE), str(ROOT)]),
        "AIRBOSS_DATA_DIR": str(data),
    }
    return subprocess.run(
        [str(AIRBOSS), "cards", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=ROOT,
    )


def text(pdf: Path) -> list[str]:
    return [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(str(pdf)).pages]


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "bar.airboss"
    with GameSession.create(path, "skirmish", "Bar test") as s:
        lead = s.add_aircraft("Blue", "jet", "Blue Leader", "ace")
        s.add_aircraft("Blue", "prop", "Blue Wingman")
        red = s.add_aircraft("Red", "prop", "Red One", "green")
        s.perform("gun_attack", {"attacker": lead, "target": red}, TableDice([1]))
    return path


def test_cards_to_pdf_then_only_the_changed_ones(game_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "cards.pdf"
    r = airboss(game_file, "--out", out, "--page-size", "A4", data=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"{out}: 3 cards on 2 pages (A4, 2 per page)" in r.stdout
    pages = text(out)
    assert len(pages) == 2
    assert "Blue Leader" in pages[0] and "Blue Wingman" in pages[0]
    assert "Red One" in pages[1] and "DAMAGE 1 of 3" in pages[1]
    assert "GUN AMMUNITION 2 of 3 left" in pages[0]
    box = PdfReader(str(out)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (595, 842)

    # everything was just printed: --changed has nothing to do, and says so
    again = tmp_path / "again.pdf"
    r = airboss(game_file, "--out", again, "--changed", data=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "No cards to print (none changed since last printed)" in r.stdout
    assert not again.exists()

    # one more action: only that aircraft's card is printed
    with GameSession.open(game_file) as s:
        s.perform("afterburner", {"aircraft": "blue-leader"})
    r = airboss(game_file, "--out", again, "--changed", "--per-page", "4", data=tmp_path)
    assert r.returncode == 0, r.stderr
    pages = text(again)
    assert len(pages) == 1
    assert "Blue Leader" in pages[0] and "AFTERBURNER USES 1 of 2 left" in pages[0]
    assert "Red One" not in pages[0] and "Blue Wingman" not in pages[0]


def test_one_side_on_letter_one_per_page(game_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "red.pdf"
    r = airboss(
        game_file,
        "--out",
        out,
        "--side",
        "Blue",
        "--per-page",
        "1",
        "--page-size",
        "Letter",
        data=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "2 cards on 2 pages (Letter, 1 per page)" in r.stdout
    pages = text(out)
    assert len(pages) == 2
    assert "Blue Leader" in pages[0] and "Blue Wingman" in pages[1]
    assert not any("Red One" in p for p in pages)
    box = PdfReader(str(out)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (612, 792)


def test_bad_game_file_and_bad_side(game_file: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.airboss"
    junk.write_bytes(b"this is not a game\n" * 20)
    out = tmp_path / "x.pdf"
    r = airboss(junk, "--out", out, data=tmp_path)
    assert r.returncode != 0
    assert r.stderr.startswith("airboss cards: ") and "junk.airboss" in r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists()

    r = airboss(tmp_path / "missing.airboss", "--out", out, data=tmp_path)
    assert r.returncode != 0 and "missing.airboss" in r.stderr and "Traceback" not in r.stderr

    r = airboss(game_file, "--out", out, "--side", "Green", data=tmp_path)
    assert r.returncode == 2
    assert "no side 'Green' in this game; sides: Blue, Red" in r.stderr

    r = airboss(game_file, "--out", tmp_path / "no" / "such" / "dir.pdf", data=tmp_path)
    assert r.returncode == 2 and "no such folder" in r.stderr
