"""Benchmark: 60 control cards to a PDF (a convention game), two per page.

Run: ``.venv/bin/python tests/bench/bench_cards.py`` (prints the figure for the README), or
``.venv/bin/pytest tests/bench/bench_cards.py --benchmark-enable``. Target (issue 9): under 3 s.
The cards are battle-worn (damage, spent ammunition, criticals) so every block is drawn.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "site"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QGuiApplication, QPageSize  # noqa: E402

from app.core.dice import TableDice  # noqa: E402
from app.session import GameSession  # noqa: E402
from app.ui.cards import card_faces, write_pdf  # noqa: E402

CARDS = 60
_app: Any = None


def build(path: Path) -> GameSession:
    s = GameSession.create(path, ruleset="skirmish", title="Convention game", variants=())
    ids = [
        s.add_aircraft(
            side=("Blue", "Red", "Green")[i % 3],
            type_id=("jet", "prop")[i % 2],
            name=f"Pilot {i:02d}",
            pilot="average",
        )
        for i in range(CARDS)
    ]
    for i in range(0, CARDS - 1, 2):
        s.perform("gun_attack", {"attacker": ids[i], "target": ids[i + 1]}, TableDice([1]))
        s.perform("critical_hit", {"aircraft": ids[i + 1]}, TableDice([4]))
    return s


def render(session: GameSession, out: Path) -> int:
    """Everything a print job does: the card specs from the state, then the PDF."""
    faces = card_faces(session.ruleset, session.engagement)
    return write_pdf(out, faces, 2, QPageSize(QPageSize.PageSizeId.A4))


def test_bench_cards(benchmark: Any, tmp_path: Path, qapp: Any) -> None:
    with build(tmp_path / "bench.airboss") as s:
        pages = benchmark(render, s, tmp_path / "cards.pdf")
    assert pages == CARDS // 2


def main() -> None:
    global _app
    _app = QGuiApplication.instance() or QGuiApplication([])
    with tempfile.TemporaryDirectory() as d:
        os.environ.setdefault("AIRBOSS_DATA_DIR", d)
        with build(Path(d) / "bench.airboss") as s:
            times = []
            for run in range(5):
                out = Path(d) / f"cards{run}.pdf"
                t0 = time.perf_counter()
                pages = render(s, out)
                times.append(time.perf_counter() - t0)
            size = out.stat().st_size
    print(
        f"{CARDS} cards to PDF ({pages} A4 pages, {size // 1024} KiB): "
        f"median {statistics.median(times):.3f} s, best {min(times):.3f} s "
        f"(first run {times[0]:.3f} s; target under 3 s)"
    )


if __name__ == "__main__":
    main()
