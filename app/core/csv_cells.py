"""CSV that a spreadsheet never runs (issue 46; OWASP, "CSV Injection").

A cell a spreadsheet reads as a formula, one starting with ``=``, ``+``, ``-``, ``@``, a tab or
a carriage return, runs when the file is opened: an aircraft named ``=HYPERLINK(...)`` or
``+cmd|' /C calc'!A0`` in an export would run on the machine of whoever opens it. Every export
writes its rows through ``writer``, which puts a single quote before such a cell, as OWASP
advises: the spreadsheet shows the text as typed and runs nothing. A plain number (``-3``,
``-1.5``, ``-2e-3``) is a number to every spreadsheet, not a formula, and is left as it is.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import IO, Any

#: what makes a spreadsheet read a cell as a formula (OWASP's list)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def cell(value: Any) -> str:
    """A value as a CSV cell that no spreadsheet runs."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


class SafeWriter:
    """``csv.writer`` whose every cell goes through ``cell``."""

    def __init__(self, stream: IO[str]) -> None:
        self._out = csv.writer(stream)

    def writerow(self, row: Iterable[Any]) -> None:
        self._out.writerow([cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream: IO[str]) -> SafeWriter:
    """A CSV writer for an export (open the file with ``newline=""``)."""
    return SafeWriter(stream)
