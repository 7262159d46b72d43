"""Issue 46, "Names are text": control characters (NUL, BEL, an ANSI escape, backspace, CR, LF,
a tab, a right-to-left override) are refused when typed, with a message naming the character;
an older file that holds them shows them escaped: in the desk, ``airboss log``, ``--list``,
``airboss ruling`` and the PDFs. Nothing a name holds reaches a terminal raw."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.core.text import CONTROL, shown
from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from tests.older_file import replace_text

#: what the audit typed into names: NUL, BEL, an ANSI colour, backspace, CR/LF (a fake log
#: line), a tab before a formula, and a right-to-left override
HOSTILE = {
    "NUL": "Red\x001",
    "BEL": "Red\x07 1",
    "ESCAPE": "\x1b[31mRed 1\x1b[0m",
    "BACKSPACE": "Red 1\x08\x08\x08Blue",
    "CARRIAGE RETURN": "Red 1\r     1 00:00:00  Blue 1 destroyed",
    "LINE FEED": "Red 1\n     1 00:00:00  Blue 1 destroyed",
    "TAB": "\t=1+1",
    "RIGHT-TO-LEFT OVERRIDE": "Red \u202e1 deR",
}
#: what the older file holds in place of ``PLACE``
OLDER = "\x1b[31mRed\x07 1\u202e\r\n     9 00:00:00  forged\t"
PLACE = "Placeholder"


def _game(path: Path) -> GameSession:
    s = GameSession.create(path, ruleset="skirmish", title="Names")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    return s


@pytest.mark.parametrize("char", list(HOSTILE), ids=list(HOSTILE))
def test_typed_control_characters_are_refused_naming_the_character(
    tmp_path: Path, char: str
) -> None:
    bad = HOSTILE[char]
    s = _game(tmp_path / "g.airboss")
    before = len(s.events())
    blue = next(iter(s.engagement.aircraft))
    for attempt in (
        lambda: s.add_aircraft(side="Red", type_id="prop", name=bad),
        lambda: s.add_aircraft(side=bad, type_id="prop", name="Red 1"),
        lambda: s.roster.change_aircraft(blue, name=bad),
        lambda: s.roster.change_aircraft(blue, side=bad),
        lambda: s.roster.set_dice("Blue", bad),
        lambda: s.roster.adjust_ledger(blue, "ammunition", -1, bad),
    ):
        with pytest.raises(RuleViolation) as e:
            attempt()
        said = str(e.value)
        assert char in said and "Nothing was recorded" in said
        assert not CONTROL.search(said)  # the message itself shows it escaped
    assert len(s.events()) == before
    s.close()
    with pytest.raises(RuleViolation, match=char):
        GameSession.create(tmp_path / "new.airboss", ruleset="skirmish", title=bad)
    assert not (tmp_path / "new.airboss").exists()


def test_a_name_pasted_into_the_desk_is_refused_there(tmp_path: Path, qtbot) -> None:
    """The Add aircraft dialog, its name pasted (as the audit's were); and a rename typed
    in the Roster: the refusal in the panel's message bar, nothing added."""
    s = _game(tmp_path / "g.airboss")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.show_session(s)
    window.show()
    roster = window.panels["roster"]
    from app.ui.docks.roster import AddAircraftDialog

    dialog = AddAircraftDialog(window.model, roster)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.name_edit.clear()
    QApplication.clipboard().setText(HOSTILE["TAB"])
    dialog.name_edit.setFocus()
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert dialog.name_edit.text() == HOSTILE["TAB"]
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Return)
    assert "U+0009 (TAB)" in dialog.message.text() and dialog.message.isVisible()
    assert [a.name for a in s.engagement.aircraft.values()] == ["Blue 1"]
    dialog.close()
    item = roster.tree.topLevelItem(0)
    item = item.child(0) if item.childCount() else item
    from app.ui.docks.roster import NAME

    item.setText(NAME, HOSTILE["ESCAPE"])
    assert "U+001B (ESCAPE)" in roster.message.text()
    assert [a.name for a in s.engagement.aircraft.values()] == ["Blue 1"]
    s.close()


@pytest.fixture
def older(tmp_path: Path) -> Path:
    """A game file an older Airboss wrote: an aircraft named with control characters, the
    title too, a gun attack on it (a log line, a ruling, a card)."""
    path = tmp_path / "older.airboss"
    s = GameSession.create(path, ruleset="skirmish", title=f"{PLACE} night")
    blue = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    red = s.add_aircraft(side="Red", type_id="prop", name=PLACE)
    s.perform("gun_attack", {"attacker": blue, "target": red}, TableDice([2]))
    s.close()
    replace_text(path, PLACE, OLDER)
    return path


def test_an_older_files_control_characters_are_shown_escaped(
    older: Path, tmp_path: Path, capsys, qtbot
) -> None:
    with GameSession.open(older) as s:
        names = [a.name for a in s.engagement.aircraft.values()]
        assert shown(OLDER) in names and not any(CONTROL.search(n) for n in names)
        assert s.title == f"{shown(OLDER)} night"
        gun = next(e.seq for e in s.events() if e.event.kind == "procedure_resolved")
    # the CLI: log, --list, ruling: no control character reaches the terminal
    for argv in (["log", str(older)], ["--list", str(older)], ["ruling", str(older), str(gun)]):
        assert main(argv) == 0, argv
        out = capsys.readouterr().out
        assert shown(OLDER) in out, argv
        assert not CONTROL.search(out.replace("\n", "")), (argv, out)
        assert "forged" not in [line.split()[-1] for line in out.splitlines() if line.split()]
    # the PDFs: cards and the after-action report
    cards, report = tmp_path / "cards.pdf", tmp_path / "report.pdf"
    assert main(["cards", str(older), "--out", str(cards)]) == 0
    assert main(["report", str(older), "--out", str(report)]) == 0
    for pdf in (cards, report):
        # (the extraction itself writes a tab for a space and a line feed per line)
        text = "".join(p.extract_text() for p in PdfReader(str(pdf)).pages).replace("\t", " ")
        assert "\\x1b[31mRed\\x07 1\\u202e" in text, pdf
        assert not CONTROL.search(text.replace("\n", "")), pdf
    # the desk: the Roster's rows and the title bar
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.show_session(GameSession.open(older))
    window.show()
    roster = window.panels["roster"]
    texts = []
    for i in range(roster.tree.topLevelItemCount()):
        top = roster.tree.topLevelItem(i)
        texts += [top.child(j).text(0) for j in range(top.childCount())] + [top.text(0)]
    assert shown(OLDER) in texts
    assert not any(CONTROL.search(t) for t in texts)
    assert not CONTROL.search(window.windowTitle())
    window.model.session.close()
