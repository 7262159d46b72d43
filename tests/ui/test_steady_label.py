"""Issue 48 ("Fast"): a word-wrapped label in a frame of its own (``SteadyLabel``) shows its
words as Qt lays out and paints a label in the panel's layout, pixel for pixel, and lays the
panel out again only when its words need another height or a wider minimum."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QLabel, QListWidget, QVBoxLayout, QWidget

from app.ui.widgets.steady_label import SteadyLabel


class Requests(QObject):
    """Counts the layout requests of the panels it watches."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: Counter = Counter()

    def eventFilter(self, watched, event):  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LayoutRequest:
            self.seen[watched] += 1
        return False


def panel(steady: bool, two_lines: bool):
    """A heading in large bold type and wrapped words over a list, as the Turn panel has
    them: in frames of their own (``steady``) or in the panel's layout, as Qt has them."""
    w = QWidget()
    layout = QVBoxLayout(w)
    heading, words = QLabel(), QLabel()
    font = QFont(heading.font())
    font.setPointSizeF(font.pointSizeF() * 1.5)
    font.setBold(True)
    heading.setFont(font)
    for label in (heading, words):
        label.setWordWrap(True)
    put = [SteadyLabel(heading), SteadyLabel(words)] if steady else [heading, words]
    if two_lines:
        put[1].setMinimumHeight(2 * words.fontMetrics().lineSpacing())
    layout.addWidget(put[0])
    layout.addWidget(put[1])
    layout.addWidget(QListWidget(), 1)
    w.resize(320, 300)
    return w, heading, words


WORDS = [
    ("Turn 1 — Initiative", "Initiative: each side rolls a d6."),
    ("Turn 1 — Movement", "Impulse 1, segment a: aircraft at the speeds marked X move."),
    (
        "Turn 1 — A heading long enough to take two lines here",
        "Impulse 1, segment c: afterburner use is declared, the marker placed, and the "
        "aircraft that declared it move one more hex along their heading at once.",
    ),
    ("Turn 1 — Fire", "Fire."),
    ("Turn 2 — Initiative", "Initiative: each side rolls a d6."),
    ("Turn 2 — Unbreakablewordsthatarewiderthanany", "Antidisestablishmentarianism x"),
    ("Turn 2 — Movement", ""),
]


@pytest.mark.parametrize("two_lines", [False, True])
def test_the_words_show_as_qt_lays_out_and_paints_them(qtbot, two_lines):
    steady, s_heading, s_words = panel(True, two_lines)
    plain, p_heading, p_words = panel(False, two_lines)
    for w in (steady, plain):
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
    for heading, words in WORDS:
        s_heading.setText(heading)
        p_heading.setText(heading)
        s_words.setText(words)
        p_words.setText(words)
        QApplication.processEvents()  # laid out in the same turn of the event loop as Qt's
        for mine, qts in ((s_heading, p_heading), (s_words, p_words)):
            assert mine.mapTo(steady, mine.rect().topLeft()) == qts.pos(), heading
            assert mine.size() == qts.size(), heading
        # the minimum width kept is the widest of the words so far: never narrower than Qt's
        least, qts_least = steady.minimumSizeHint(), plain.minimumSizeHint()
        assert least.width() >= qts_least.width() and least.height() == qts_least.height()
        assert steady.grab().toImage() == plain.grab().toImage(), heading


def test_only_words_of_another_height_or_a_wider_minimum_lay_the_panel_out(qtbot):
    w, heading, words = panel(True, two_lines=True)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    heading.setText("Turn 1 — Movement")
    QApplication.processEvents()
    requests = Requests()
    w.installEventFilter(requests)

    def laid_out(text: str, label: QLabel = words) -> int:
        requests.seen.clear()
        label.setText(text)
        for _ in range(2):  # (the label asks its frame, which asks the panel)
            QApplication.processEvents()
        return requests.seen[w]

    assert laid_out("Impulse 1, segment a: aircraft move.")  # a wider word than none
    assert not laid_out("Impulse 2, segment b: aircraft turn.")  # one line, no wider word
    assert not laid_out("Impulse 2: ...")  # shorter: the minimum kept, two lines kept
    long = "Impulse 1, segment c: afterburner use is declared " * 3
    assert laid_out(long)  # three lines: laid out
    assert words.height() >= words.heightForWidth(words.width())
    assert laid_out("Impulse 2, segment b: aircraft turn.")  # back to two lines
    assert words.height() == 2 * words.fontMetrics().lineSpacing()
    assert laid_out("Supercalifragilisticexpialidocious")  # a wider word: a wider minimum
    assert w.minimumSizeHint().width() >= words.minimumSizeHint().width()
    laid_out("Turn 2 — Movement", heading)
    assert not laid_out("Turn 2 — Fire", heading)  # each label on its own
