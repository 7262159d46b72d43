"""Issue 16: hostile plugins. Every error of a plugin (SystemExit on import included) is
isolated in ``airboss rulesets`` and in loading; a third-party distribution registering an id
that exists is refused with both distributions named."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import plugins
from app.cli import main
from app.plugins import available_rulesets, broken_rulesets, load_ruleset


def fake_distribution(
    root: Path, dist: str, entries: dict[str, str], modules: dict[str, str]
) -> None:
    info = root / f"{dist}-6.6.6.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 6.6.6\n")
    lines = "\n".join(f"{k} = {v}" for k, v in entries.items())
    (info / "entry_points.txt").write_text(f"[airboss.rulesets]\n{lines}\n")
    for name, code in modules.items():
        (root / f"{name}.py").write_text(code)


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    fake_distribution(
        tmp_path,
        "evil_rules",
        {
            "exiting": "evil_exit:RULESET",
            "phantoms": "evil_phantoms:RULESET",
            "interrupting": "evil_base:RULESET",
        },
        {
            "evil_exit": "raise SystemExit('plugin says goodbye')\n",
            "evil_phantoms": "from airboss_test_rulesets.skirmish import RULESET\n",
            "evil_base": "class Boom(BaseException):\n    pass\nraise Boom('odd')\n",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for mod in ("evil_exit", "evil_phantoms", "evil_base"):
        monkeypatch.delitem(sys.modules, mod, raising=False)
    plugins._load.cache_clear()
    yield tmp_path
    plugins._load.cache_clear()


def test_system_exit_on_import_is_isolated(hostile: Path) -> None:
    broken = broken_rulesets()
    assert "SystemExit" in broken["exiting"] and "goodbye" in broken["exiting"]
    assert "Boom" in broken["interrupting"]
    assert "exiting" not in available_rulesets()
    with pytest.raises(RuntimeError, match="exiting"):
        load_ruleset("exiting")
    assert load_ruleset("skirmish").title


def test_duplicate_id_refused_with_both_distributions_named(hostile: Path) -> None:
    rs = load_ruleset("phantoms")
    assert rs.id == "phantoms" and "Skirmish" not in rs.title  # the built-in one, kept
    refused = {k: v for k, v in broken_rulesets().items() if k.startswith("phantoms")}
    assert len(refused) == 1
    (msg,) = refused.values()
    assert "airboss" in msg and "evil_rules 6.6.6" in msg


def test_cli_rulesets_survives_hostile_plugins(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert "exiting: BROKEN" in out and "evil_rules 6.6.6" in out
    assert "skirmish: Skirmish" in out


def test_two_third_parties_on_one_id_both_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_distribution(tmp_path / "a", "one_rules", {"dogfight": "m_a:RULESET"}, {})
    fake_distribution(tmp_path / "b", "two_rules", {"dogfight": "m_b:RULESET"}, {})
    monkeypatch.syspath_prepend(str(tmp_path / "a"))
    monkeypatch.syspath_prepend(str(tmp_path / "b"))
    with pytest.raises(KeyError) as e:
        load_ruleset("dogfight")
    assert "one_rules 6.6.6" in str(e.value) and "two_rules 6.6.6" in str(e.value)
    assert "dogfight" in broken_rulesets()
