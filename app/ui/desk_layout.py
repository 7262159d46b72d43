"""Which panels a game uses, and how the desk lays them out (issue 14).

A ruleset may list its panels (``Ruleset.panels``); otherwise they follow from what it
declares: Initiative with an initiative procedure, Angle-off with a board geometry, Displays
when it draws boards of its own, Critical hits unless it has none. Roster, Turn, Combat,
Ledgers, the Game log and After-action (tabbed behind the log: its plots load when it is
first brought forward, issue 35) are always there. (``used_panels`` lives with the rows the
desk is drawn from, ``app.summary``: a game's rows name the panels it uses.)

Two layouts:
- the desk: the roster and "who acts now" share the left column (the roster on top, with the
  room for every aircraft of an eight-aircraft game at 1366x768); Combat on the right with the
  logs tabbed below it;
- table mode, for reading at arm's length: fewer, larger panels -- Roster and Turn on the left,
  Combat on the right, everything else tabbed behind them -- in larger type.
"""

from __future__ import annotations

# re-exported (``as``: mypy's explicit export): the desk lays out what a game uses
from app.summary import ALWAYS as ALWAYS
from app.summary import used_panels as used_panels

#: the desk: (column, panels from top to bottom, each a tab group: its first panel in front)
DESK = (
    ("left", (("roster",), ("turn", "initiative", "displays"))),
    ("right", (("combat", "angle_off"), ("game_log", "ledgers", "critical_log", "after_action"))),
)
#: table mode: two columns, one tab group each below the roster
TABLE = (
    ("left", (("roster",), ("turn", "initiative"))),
    (
        "right",
        (
            (
                "combat",
                "angle_off",
                "game_log",
                "ledgers",
                "critical_log",
                "displays",
                "after_action",
            ),
        ),
    ),
)
#: the share of a column's height each group starts with
HEIGHTS = {"roster": 0.42, "turn": 0.58, "combat": 0.66, "game_log": 0.34}
#: in table mode (larger type, the Turn panel without its list of steps: issue 47), the roster
#: takes a larger share of the left column: every aircraft of an eight-aircraft game at 1366x768
TABLE_HEIGHTS = {**HEIGHTS, "roster": 0.46, "turn": 0.54}
#: the share of the window's width of the left column
LEFT_WIDTH = 0.46
#: ... in table mode: the roster's columns in larger type (Air Power's "F-100D Super Sabre
#: (sample)" beside three status badges) leave its aircraft's names room (issue 47)
TABLE_LEFT_WIDTH = 0.52
