"""Issue 31: GameSession refuses input of the wrong shape (a non-mapping for the inputs, a list
where an aircraft id belongs, a number for a path ...) with ``pydantic.ValidationError`` or
``RuleViolation`` naming the field; never another exception, never a write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.core.board import reading
from app.core.errors import RuleViolation
from app.core.ruleset import Relation
from app.session import GameSession
from app.store import StoreError

REFUSED = (ValidationError, RuleViolation)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["blue-1", "red-1", "jet", "prop", "ace", "Blue"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["attacker", "target", "aircraft", "hit_number", "modifier", "sides"])
            | st.text(max_size=8),
            inner,
            max_size=4,
        )
    ),
    max_leaves=8,
)

FAST = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture
def game(tmp_path: Path) -> GameSession:
    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Shapes")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1", pilot="ace")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    return s


def _refused_or_done(call: Any, s: GameSession) -> None:
    """The call either works, or is refused as a validation error with nothing appended."""
    n = len(s.events())
    try:
        call()
    except REFUSED:
        assert len(s.events()) == n
        assert s.engagement.seq == n


@FAST
@given(
    procedure=st.sampled_from(["gun_attack", "critical_hit", "afterburner", "initiative"])
    | json_values,
    inputs=json_values,
    dice=st.none() | json_values,
    overrides=st.none() | json_values,
)
def test_perform_refuses_every_wrong_shape(
    game: GameSession, procedure: Any, inputs: Any, dice: Any, overrides: Any
) -> None:
    _refused_or_done(lambda: game.perform(procedure, inputs, dice, overrides=overrides), game)


@FAST
@given(
    field=st.sampled_from(["attacker", "target", "aircraft"]),
    value=json_values,
    procedure=st.sampled_from(["gun_attack", "critical_hit", "afterburner"]),
)
def test_perform_refuses_aircraft_references_of_any_shape(
    game: GameSession, field: str, value: Any, procedure: str
) -> None:
    other = {"attacker": "blue-1", "target": "red-1"} if procedure == "gun_attack" else {}
    _refused_or_done(lambda: game.perform(procedure, {**other, field: value}), game)


@FAST
@given(
    side=json_values,
    type_id=st.sampled_from(["jet", "prop"]) | json_values,
    name=json_values,
    pilot=st.sampled_from(["ace", "average"]) | json_values,
    details=st.dictionaries(st.sampled_from(["callsign", "count", "x"]), json_values, max_size=2),
)
def test_add_aircraft_refuses_every_wrong_shape(
    game: GameSession, side: Any, type_id: Any, name: Any, pilot: Any, details: Any
) -> None:
    _refused_or_done(lambda: game.add_aircraft(side, type_id, name, pilot, **details), game)


@FAST
@given(
    target=json_values,
    game_id=st.none() | json_values,
    actor=st.just("umpire") | json_values,
    read_only=st.booleans() | json_values,
)
def test_open_refuses_every_wrong_shape(
    game: GameSession, target: Any, game_id: Any, actor: Any, read_only: Any
) -> None:
    path = game.store.path
    assert path is not None
    before = path.read_bytes()
    if isinstance(target, str):
        target = path.parent / "named" / target.replace("\x00", "")  # never outside tmp
    for t in (target, path):
        try:
            GameSession.open(t, game=game_id, actor=actor, read_only=read_only).close()
        except (*REFUSED, StoreError):
            pass
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda s: s.perform("gun_attack", True), "inputs"),
        (lambda s: s.perform("gun_attack", ["attacker"]), "inputs"),
        (lambda s: s.perform("gun_attack", {"attacker": ["blue-1"]}), "inputs.attacker"),
        (lambda s: s.perform("gun_attack", {"target": {"id": 1}}), "inputs.target"),
        (lambda s: s.perform("critical_hit", {"aircraft": 3}), "inputs.aircraft"),
        (lambda s: s.perform("gun_attack", {1: 2}), "inputs key"),
        (lambda s: s.perform(["gun_attack"], {}), "procedure"),
        (lambda s: s.perform("gun_attack", {}, True), "dice"),
        (lambda s: s.perform("gun_attack", {}, overrides="x"), "overrides"),
        (lambda s: s.perform("gun_attack", {}, overrides={"Hit": 6}), "overrides['Hit']"),
        (lambda s: s.add_aircraft(side=["Blue"], type_id="jet", name="B"), "side"),
        (lambda s: s.add_aircraft(side="Blue", type_id=["jet"], name="B"), "type_id"),
        (lambda s: s.add_aircraft(side="Blue", type_id="jet", name=7), "name"),
        (lambda s: s.add_aircraft(side="Blue", type_id="jet", name="B", pilot=1), "pilot"),
        (lambda s: GameSession.open(42), "target"),
        (lambda s: GameSession.open(s.store.path, game=1), "game"),
        (lambda s: GameSession.open(s.store.path, actor=None), "actor"),
        (lambda s: GameSession.open(s.store.path, read_only="yes"), "read_only"),
        (lambda s: GameSession.open("a\x00b"), "target"),
        (lambda s: GameSession.create(s.store.path.parent / "n", ruleset=1, title="t"), "ruleset"),
        (
            lambda s: GameSession.create(s.store.path.parent / "n", "skirmish", "t", "ab"),
            "variants",
        ),
    ],
)
def test_wrong_shapes_are_named(game: GameSession, call: Any, field: str) -> None:
    n = len(game.events())
    with pytest.raises(RuleViolation) as e:
        call(game)
    assert str(e.value).startswith(field + ":")
    assert len(game.events()) == n
    assert not (game.store.path.parent / "n").exists()


def test_no_overrides_may_be_any_empty_collection(game: GameSession) -> None:
    """The desk's procedure runner passes ``frozenset()`` for "no overrides"."""
    for none in (None, {}, frozenset(), (), []):
        game.perform("gun_attack", {}, overrides=none)
    with pytest.raises(RuleViolation, match="^overrides: expected a mapping"):
        game.perform("gun_attack", {}, overrides=frozenset({"Hit number"}))


def test_engagement_and_board_lookups_take_only_text(game: GameSession) -> None:
    e = game.engagement
    for bad in (["blue-1"], {"a": 1}, 3, None):
        with pytest.raises(RuleViolation, match="an aircraft id is text"):
            e.get(bad)  # type: ignore[arg-type]

    class Geometry:
        def relate(self, target: Any, attacker: Any) -> Relation:  # pragma: no cover
            raise AssertionError("never asked for ids that are not text")

    assert reading(Geometry(), e, ["blue-1"], "red-1") is None  # type: ignore[arg-type]
    assert reading(Geometry(), e, "blue-1", {"x": 1}) is None  # type: ignore[arg-type]


BAD = [None, True, 2**70, float("nan"), "", [], ["blue-1"], {}, {"a": [1]}, [1, [2]]]


@pytest.mark.parametrize(
    "ruleset", ["phantoms", "airpower", "advanced_air_force", "ufo_interception", "nth_fleet"]
)
def test_every_builtin_ruleset_refuses_bad_shapes(tmp_path: Path, ruleset: str) -> None:
    s = GameSession.create(tmp_path / "g.airboss", ruleset=ruleset, title="Shapes")
    t = next(iter(s.ruleset.aircraft))
    extra = {"base": "A"} if ruleset == "nth_fleet" else {}
    s.add_aircraft(side="Blue", type_id=t, name="Blue 1", **extra)
    s.add_aircraft(side="Red", type_id=t, name="Red 1", **extra)
    for aid, facing in (("blue-1", 30), ("red-1", 210)):  # on the board: the geometry reads
        try:
            s.roster.place(aid, 0, 2 if aid == "red-1" else 0, facing)
        except RuleViolation:
            s.roster.place(aid, 0, 2 if aid == "red-1" else 0, 0)
    for proc in s.ruleset.procedures:
        for bad in BAD:
            _refused_or_done(lambda: s.perform(proc, bad), s)  # noqa: B023
            for field in ("attacker", "target", "aircraft"):
                inputs = {"attacker": "blue-1", "target": "red-1", field: bad}
                _refused_or_done(lambda: s.perform(proc, inputs), s)  # noqa: B023
            _refused_or_done(lambda: s.perform(proc, {}, bad), s)  # noqa: B023
            _refused_or_done(lambda: s.perform(proc, {}, overrides=bad), s)  # noqa: B023
    for bad in BAD:
        for kw in ("side", "type_id", "name", "pilot"):
            args: dict[str, Any] = {"side": "Blue", "type_id": t, "name": "B", **extra}
            args[kw] = bad
            _refused_or_done(lambda: s.add_aircraft(**args), s)  # noqa: B023
