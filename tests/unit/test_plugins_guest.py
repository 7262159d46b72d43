"""Issue 31: plugin discovery a plugin cannot take down. A ruleset that calls ``sys.exit`` or
``os._exit``, raises ``KeyboardInterrupt`` or hangs at import is tried in a child process with
a time limit and listed as broken with what it did; ``airboss rulesets``, loading and the other
rulesets carry on (the hostile plugins: tests/fixtures/hostile_site)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from app import plugins
from app.cli import main
from app.plugins import PluginError, available_rulesets, broken_rulesets, load_ruleset

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "tests" / "fixtures" / "site"
HOSTILE_SITE = ROOT / "tests" / "fixtures" / "hostile_site"
HOSTILE_TIME_LIMIT = 8.0  # as the hostile_site fixture sets it (tests/conftest.py)

EXPECTED = {
    "hostile_sys_exit": "SystemExit: a plugin says goodbye at import",
    "hostile_os_exit": "ended the process (exit code 7)",
    "hostile_interrupt": "KeyboardInterrupt",
    "hostile_hang": f"did not finish importing in {HOSTILE_TIME_LIMIT:g} s",
    "hostile_not_a_ruleset": "is a dict, not an airboss Ruleset",
    "hostile_bad_title": "its id and title must be text",
}


def test_every_hostile_import_is_listed_broken_with_what_it_did(hostile_site: ModuleType) -> None:
    start = time.monotonic()
    broken = broken_rulesets()
    assert time.monotonic() - start < HOSTILE_TIME_LIMIT + 20  # the hang ended in its limit
    for rid, said in EXPECTED.items():
        assert said in broken[rid], (rid, broken[rid])
    available = available_rulesets()
    assert not set(EXPECTED) & set(available)
    assert available["guest"] == "Guest (hostile test ruleset)"
    assert {"phantoms", "skirmish"} <= set(available)
    for rid in EXPECTED:
        with pytest.raises(PluginError, match=rid):
            load_ruleset(rid)
    assert load_ruleset("guest").id == "guest"


def test_tried_once_per_process(hostile_site: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    broken_rulesets()  # tried (or remembered from an earlier test)
    started: list[object] = []
    monkeypatch.setattr(plugins.subprocess, "Popen", lambda *a, **k: started.append(a))
    assert "hostile_hang" in broken_rulesets() and "guest" in available_rulesets()
    assert started == []


def test_cli_rulesets_survives_every_hostile_import(
    hostile_site: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    for rid, said in EXPECTED.items():
        line = next(x for x in out.splitlines() if x.startswith(f"{rid}: BROKEN"))
        assert said in line
    assert "guest: Guest (hostile test ruleset)" in out
    assert "phantoms: Phantoms" in out


@pytest.mark.slow
def test_airboss_rulesets_command_survives_in_its_own_process() -> None:
    """The command as the umpire runs it: a plugin's os._exit or KeyboardInterrupt at import
    would end this process, not a child, if the first import were not in a child."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HOSTILE_SITE), str(SITE), str(ROOT)])
    env["AIRBOSS_RULESET_IMPORT_LIMIT"] = "6"
    start = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from app.cli import main; sys.exit(main(['rulesets']))",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start < 60
    assert "hostile_hang: BROKEN - did not finish importing in 6 s" in done.stdout
    assert "hostile_os_exit: BROKEN" in done.stdout
    assert "guest: Guest (hostile test ruleset)" in done.stdout


def test_a_bad_time_limit_setting_keeps_the_default() -> None:
    env = dict(os.environ, AIRBOSS_RULESET_IMPORT_LIMIT="soon")
    out = subprocess.run(
        [sys.executable, "-c", "from app import plugins; print(plugins.IMPORT_TIME_LIMIT)"],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.stdout.strip() == "15.0"


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "new interpreter"])
def test_a_forked_child_tries_a_first_import_as_a_new_interpreter_does(
    hostile_site: ModuleType, monkeypatch: pytest.MonkeyPatch, forked: bool
) -> None:
    """Issue 44: where it is safe (Linux, one thread) the first import is tried in a child
    forked from this process, which has Python and Airboss loaded already, instead of a new
    interpreter that imports them again (most of the time of opening a game of a third-party
    ruleset in a fresh process); each hostile import is said alike either way."""
    monkeypatch.setattr(plugins, "_forkable", lambda: forked)
    ways: list[str] = []
    start, popen = plugins._Forked.start, plugins.subprocess.Popen

    def forking(*args: object) -> object:
        ways.append("fork")
        return start(*args)  # type: ignore[arg-type]

    def spawning(*args: object, **kwargs: object) -> object:
        ways.append("new")
        return popen(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(plugins._Forked, "start", forking)
    monkeypatch.setattr(plugins.subprocess, "Popen", spawning)
    plugins.forget()
    try:
        broken = broken_rulesets()
        assert ways and set(ways) == {"fork" if forked else "new"}
        for rid, said in EXPECTED.items():
            assert said in broken[rid], (rid, broken[rid])
        assert "guest" not in broken and load_ruleset("guest").id == "guest"
        assert load_ruleset("skirmish").id == "skirmish"
    finally:
        plugins.forget()  # later tests vet again with their own limit
