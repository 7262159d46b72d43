"""The start-up path, Qt-free (issue 36): the rows the desk first paints a game from
(``summary``), kept in the game file beside its log (``summary_file``) or worked out by a child
process while the window is built (``summary_child``); the built-in demo game (``demo``) and
its rows, shipped for the very first start (``demo_rows``)."""
