"""The desk's shell: the Qt application and its start, the main window with its menus and the
layout of its panels, and what runs under every panel (panels out of view doing no work, the
ruleset's calls off the GUI thread, the watch on a ruleset's failures, uncaught exceptions,
Python's collector)."""
