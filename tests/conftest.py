"""Test-wide setup: the test-only rulesets are registered, user data goes to a temp dir."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

#: the suite's hypothesis profile: "ci" (what ``.ci/run`` runs) or "long"
#: (``HYPOTHESIS_PROFILE=long ./scripts/test``, run before a change lands: the desk's property
#: tests take 250 examples a ruleset instead of 40, ``tests/ui/shown_is_used.py``). Tests that
#: set their own ``max_examples`` keep it.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.register_profile("ci", deadline=None)
settings.register_profile("long", deadline=None)
settings.load_profile(PROFILE)
#: examples of the desk's property tests, by profile
DESK_EXAMPLES = {"ci": 40, "long": 250}[PROFILE]
SLOW_IS_FINE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

SITE = Path(__file__).parent / "fixtures" / "site"
if str(SITE) not in sys.path:
    # The dist-info there registers "skirmish" and "broken" under airboss.rulesets, exactly as
    # an installed third-party ruleset would be.
    sys.path.insert(0, str(SITE))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own user data directory (overrides, the umpire's aircraft)."""
    d = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(d))
    return d


@pytest.fixture(autouse=True)
def _cycles_collected_in_the_gui_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test with Qt runs as the desk does: reference cycles collected in the GUI thread only
    (``app.ui.shell.collector``), never by a worker thread that happens to allocate (a dead widget's
    timers destroyed there: "Timers cannot be stopped from another thread"); what the test
    left is collected here, in the GUI thread, and the tests without Qt that follow collect
    as Python does, once whatever Qt tests left is collected here, all generations: left to
    an automatic collection, a widget's cycle that had grown old was freed in whichever thread
    allocated next, a ruleset's worker thread in a test without Qt, and the desk it belonged
    to crashed the test process at its next event (a segmentation fault in a whole-suite run)."""
    if not {"qtbot", "qapp"} & set(request.fixturenames):
        if not gc.isenabled():  # a test with Qt ran before: its garbage freed in this thread
            gc.collect()
            # what is left lives on (modules, the application): the next such collection
            # passes over only what came since, as the desk freezes what start-up built
            gc.freeze()
            gc.enable()
        yield
        return
    from app.ui.shell import collector

    collector.install()
    yield
    gc.collect(1)  # what the test made and dropped is young: collection is off meanwhile


@pytest.fixture(autouse=True)
def _the_desk_waits_as_a_test_looks(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A test with Qt drives the desk and looks right after each click: a ruleset call the
    desk makes in its GUI thread is waited for up to its time limit before the action goes
    back to the event loop (the desk's own ``ANSWER_LATER_AFTER`` is a tenth of a second, and
    a call on a busy test machine can take longer). The tests of answering later set it
    themselves (test_hostile_desk, test_guest_worker, test_answered_later: every call of a
    whole turn answered later). After the test, calls in this thread wait as in any other."""
    if not {"qtbot", "qapp"} & set(request.fixturenames):
        yield
        return
    from app.core import guest
    from app.ui.shell import guest_worker

    monkeypatch.setattr(guest_worker, "ANSWER_LATER_AFTER", 3600.0)
    yield
    guest_worker.forget()  # nothing of this test's desk is done again in the next one
    guest_worker.redraw_all, guest_worker.game_seq = None, int
    guest.answer_later(None)


HOSTILE_SITE = Path(__file__).parent / "fixtures" / "hostile_site"
#: the import time limit for hostile plugins in tests (the hang at import costs this once)
HOSTILE_TIME_LIMIT = 8.0


@pytest.fixture
def hostile_site(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The hostile ruleset plugins of issue 31 (tests/fixtures/hostile_site: a dist-info that
    registers them, exactly as an installed distribution would) on ``sys.path`` for one test;
    yields ``airboss_hostile.guest``, the one that imports cleanly, with no misbehaviour set.
    Hanging calls are released at the end, and waited for."""
    from app import plugins

    monkeypatch.syspath_prepend(str(HOSTILE_SITE))
    monkeypatch.setattr(plugins, "IMPORT_TIME_LIMIT", HOSTILE_TIME_LIMIT)
    guest = importlib.import_module("airboss_hostile.guest")
    guest.MISBEHAVE.clear()
    guest.RELEASE.clear()
    yield guest
    guest.MISBEHAVE.clear()
    guest.RELEASE.set()
    from app.core import guest as guarded

    guarded.settle()  # the released calls return: no later test meets them as "still busy"
