"""One layout (issue 32): every ruleset keeps the same module for the same idea.

docs/ruleset-guide.md ("One package layout") names the modules; this test holds the five
built-in rulesets and examples/duel to it: the modules every ruleset has, the ones a ruleset has
when it declares what they hold (a typed state, a printed card, its own sequence of play, a
Displays panel, tables), no module named for nothing in particular (``common``, ``utils`` ...)
or by an old name, the card model / printed card / state / sequence / displays found where the
layout says, and procedures in modules named by their family, never in the layout's own modules.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from app.core.engagement import Engagement
from app.core.events import ClockSet, GameCreated
from app.core.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[3]
BUILT_IN = ("phantoms", "airpower", "advanced_air_force", "ufo_interception", "nth_fleet")
DUEL = ROOT / "examples" / "duel"

#: the modules every ruleset package has
REQUIRED = frozenset({"__init__", "ruleset", "card"})
#: the modules of the layout itself, each one idea (a procedure never lives in one of them)
LAYOUT = frozenset(
    {
        "ruleset",  # the Ruleset object: procedures, ledgers, variants, catalogue, tables
        "card",  # Card: the card model (a pydantic model), the catalogue, card_of
        "printed_card",  # card_spec(rs, aircraft, engagement): the printed control card
        "state",  # State (per aircraft), GameState (game-wide), the ledger ids, readings
        "tables",  # the table models and their loaders (tables/*.toml)
        "sequence",  # STEPS, acting (who acts now), on_clock (what happens by itself)
        "clock",  # a finer clock inside the steps (Phantoms' impulses and segments)
        "displays",  # displays(engagement): what the Displays panel shows
        "geometry",  # the board: positions to ranges, arcs, readings
    }
)
#: names that say nothing of what a module holds, or the old names of layout modules
FORBIDDEN = frozenset(
    {
        "common",
        "utils",
        "util",
        "helpers",
        "helper",
        "misc",
        "shared",
        "base",
        "cards",  # card.py
        "card_spec",  # printed_card.py
        "boards",  # displays.py
        "display",  # displays.py
        "gunfire",  # guns.py
    }
)
#: Nth Fleet's details a roster entry needs (as its kit test passes them)
DETAILS: dict[str, dict[str, Any]] = {"nth_fleet": {"base": "Nimitz", "unit_sides": 2}}


@pytest.fixture(scope="module")
def duel() -> Iterator[ModuleType]:
    """examples/duel's package, imported from its folder (its own test installs it)."""
    sys.path.insert(0, str(DUEL))
    try:
        yield importlib.import_module("airboss_duel")
    finally:
        sys.path.remove(str(DUEL))
        for name in [m for m in sys.modules if m.startswith("airboss_duel")]:
            del sys.modules[name]


def _packages(duel: ModuleType) -> list[ModuleType]:
    return [importlib.import_module(f"rulesets.{r}") for r in BUILT_IN] + [duel]


def _modules(package: ModuleType) -> set[str]:
    names = {m.name for m in pkgutil.iter_modules(package.__path__)}
    return names | {"__init__"}


def _sub(package: ModuleType, name: str) -> ModuleType:
    return importlib.import_module(f"{package.__name__}.{name}")


def _overrides(rs: Ruleset, method: str) -> bool:
    return getattr(type(rs), method) is not getattr(Ruleset, method)


def _roster(rs: Ruleset) -> Engagement:
    """Every sample aircraft of the catalogue on a roster, sides alternating."""
    e = Engagement().apply(GameCreated(ruleset=rs.id, title="layout"), 1)
    pilot = "average" if rs.uses_pilot_quality else None
    details = DETAILS.get(rs.id, {})
    for n, type_id in enumerate(rs.aircraft, start=1):
        side = "Blue" if n % 2 else "Red"
        e = e.apply(rs.new_aircraft(f"a{n}", f"A{n}", side, type_id, pilot, details), e.seq + 1)
    return e


def test_every_ruleset_has_the_required_modules_and_no_forbidden_name(duel) -> None:
    for package in _packages(duel):
        names = _modules(package)
        assert REQUIRED <= names, (package.__name__, sorted(REQUIRED - names))
        assert not names & FORBIDDEN, (package.__name__, sorted(names & FORBIDDEN))


def test_the_ruleset_object_is_in_ruleset_py_and_the_card_model_in_card_py(duel) -> None:
    for package in _packages(duel):
        rs = package.RULESET
        assert type(rs).__module__ == f"{package.__name__}.ruleset"
        card = _sub(package, "card")
        assert isinstance(card.Card, type) and issubclass(card.Card, BaseModel)
        assert rs.Card is card.Card, package.__name__
        assert rs.aircraft, package.__name__
        assert all(isinstance(c, card.Card) for c in rs.aircraft.values()), package.__name__


def test_a_typed_state_lives_in_state_py(duel) -> None:
    for package in _packages(duel):
        rs = package.RULESET
        declared = [
            n for n in ("State", "GameState") if getattr(type(rs), n) is not getattr(Ruleset, n)
        ]
        if not declared:
            assert "state" not in _modules(package) or package.__name__ == "airboss_duel"
            continue
        state = _sub(package, "state")
        for name in declared:
            assert getattr(rs, name) is getattr(state, name), (package.__name__, name)
    # the five built-in rulesets all keep a typed State and GameState
    for r in BUILT_IN:
        state = importlib.import_module(f"rulesets.{r}.state")
        assert issubclass(state.State, BaseModel) and issubclass(state.GameState, BaseModel)


def _owning(duel: ModuleType, module: str, *methods: str) -> Iterator[tuple[ModuleType, Any]]:
    """Each ruleset package that overrides one of ``methods`` with the module that holds them
    (and, for one that does not, the check that it has no such module)."""
    for package in _packages(duel):
        if any(_overrides(package.RULESET, m) for m in methods):
            yield package, _sub(package, module)
        else:
            assert module not in _modules(package), package.__name__


def test_the_printed_card_comes_from_printed_card_py(duel) -> None:
    for package, printed in _owning(duel, "printed_card", "card_spec"):
        rs = package.RULESET
        e = _roster(rs)
        for a in e.aircraft.values():
            assert printed.card_spec(rs, a, e) == rs.card_spec(a, e), (package.__name__, a.id)


def test_steps_and_who_acts_come_from_sequence_py(duel) -> None:
    for package, sequence in _owning(duel, "sequence", "steps", "acting", "on_clock"):
        rs = package.RULESET
        own = [m for m in ("steps", "acting", "on_clock") if _overrides(rs, m)]
        e = _roster(rs)
        assert tuple(rs.steps(e)) == tuple(sequence.STEPS), package.__name__
        for method in own:
            if method != "steps":
                assert callable(getattr(sequence, method)), (package.__name__, method)
        if "acting" not in own:
            continue
        for step in range(len(sequence.STEPS)):
            at = e.apply(ClockSet(turn=1, step=step), e.seq + 1)
            assert list(rs.acting(at)) == list(_acting(sequence, rs, at)), (package, step)


def _acting(sequence: ModuleType, rs: Ruleset, e: Engagement) -> Any:
    """``sequence.acting``; Phantoms' reads the variants chosen too."""
    if "variants" in inspect.signature(sequence.acting).parameters:
        return sequence.acting(e, rs.chosen)
    return sequence.acting(e)


def test_the_displays_panel_comes_from_displays_py(duel) -> None:
    for package, displays in _owning(duel, "displays", "displays"):
        e = _roster(package.RULESET)
        assert displays.displays(e) == package.RULESET.displays(e), package.__name__


def test_tables_are_loaded_in_tables_py_from_the_tables_folder(duel) -> None:
    for package in _packages(duel):
        rs = package.RULESET
        files = rs.table_files()
        if not files:
            continue
        assert "tables" in _modules(package), package.__name__
        folder = Path(package.__file__).parent / "tables"
        for path in files.values():
            assert Path(path).parent == folder, (package.__name__, path)


def test_procedures_live_in_modules_named_by_their_family(duel) -> None:
    for package in _packages(duel):
        for proc in package.RULESET.procedure_types:
            module = proc.__module__
            assert module.startswith(package.__name__ + "."), (package.__name__, proc)
            name = module.rsplit(".", 1)[1]
            assert name not in LAYOUT | FORBIDDEN, (package.__name__, proc.__name__, name)
