"""Benchmark: the odds of every procedure of every ruleset over each field's allowed range
(issue 20: odds p95 < 5 ms).

Run: ``.venv/bin/python tests/bench/bench_odds.py``

For each procedure the base inputs are what the desk's form would hold (the procedure's
``prefill`` for the first aircraft of a new game against the first of another side, plus the
fields' defaults); then one field at a time is swept over its allowed range (its lowest and
highest value and up to eight between; booleans both ways; each choice of a ``Literal``). Every
odds call is timed; refused inputs (``RuleViolation``, a missing table value) count as calls
too, since the desk makes them as well. The workload is fixed, so figures compare across runs.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import typing
from pathlib import Path
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "site"))

from app.core.errors import MissingTableValue, RuleViolation  # noqa: E402
from app.core.procedure import Calculator  # noqa: E402
from app.core.procedure import Procedure as OneRule  # noqa: E402
from app.session import GameSession  # noqa: E402

RULESETS = ("phantoms", "airpower", "advanced_air_force", "ufo_interception", "nth_fleet")
REFS = ("attacker", "target", "aircraft")
STEPS = 10


def sweep_values(info: Any) -> list[Any]:
    annotation = info.annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if annotation is bool:
        return [False, True]
    if annotation is int or (args and args[0] is int and len(args) == 1):
        lo, hi = 0, 20
        for m in info.metadata:
            if isinstance(m, annotated_types.Ge):
                lo = int(m.ge)
            elif isinstance(m, annotated_types.Le):
                hi = int(m.le)
        hi = max(lo, hi)
        step = max(1, (hi - lo) // (STEPS - 1))
        return sorted({*range(lo, hi + 1, step), hi})
    return []


def game(root: Path, rid: str) -> GameSession:
    s = GameSession.create(root / f"{rid}.airboss", ruleset=rid, title="Odds sweep")
    types = list(s.ruleset.aircraft)
    for side in ("Blue", "Red"):
        try:
            s.add_aircraft(side=side, type_id=types[0], name=f"{side} 1")
        except RuleViolation:
            break
    return s


def odds_call(proc: Any, inputs: BaseModel, s: GameSession) -> None:
    try:
        if isinstance(proc, Calculator):
            proc.result(inputs, s.engagement)
        elif isinstance(proc, OneRule):
            proc.odds(inputs, s.engagement)
        else:
            proc.odds(inputs)
    except (RuleViolation, MissingTableValue, ValidationError):
        pass


def main() -> None:
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rid in RULESETS:
            s = game(Path(tmp), rid)
            ids = list(s.engagement.aircraft)
            for pid, proc in s.ruleset.procedures.items():
                fields = proc.Inputs.model_fields
                base: dict[str, Any] = {}
                if ids:
                    first = ids[0]
                    other = ids[1] if len(ids) > 1 else None
                    try:
                        base.update(proc.prefill(s.engagement, first, other))
                    except (RuleViolation, KeyError, ValueError):
                        pass
                    if "attacker" in fields:
                        base["attacker"] = first
                    if "target" in fields and other:
                        base["target"] = other
                    if "aircraft" in fields:
                        base["aircraft"] = first
                took: list[float] = []
                for name, info in fields.items():
                    if name in REFS:
                        continue
                    for value in sweep_values(info):
                        try:
                            inputs = proc.parse({**base, name: value})
                        except (ValidationError, RuleViolation):
                            continue
                        t = time.perf_counter()
                        odds_call(proc, inputs, s)
                        took.append((time.perf_counter() - t) * 1000)
                if took:
                    times[f"{rid}.{pid}"] = took
            s.close()
    every = sorted(t for ts in times.values() for t in ts)
    p95 = every[int(len(every) * 0.95)]
    print(f"{len(times)} procedures, {len(every)} odds calls")
    p50 = statistics.median(every)
    print(f"all calls: p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {every[-1]:.1f} ms")
    worst = sorted(times.items(), key=lambda kv: -sorted(kv[1])[int(len(kv[1]) * 0.95)])[:5]
    for key, ts in worst:
        ts = sorted(ts)
        print(
            f"  {key}: p95 {ts[int(len(ts) * 0.95)]:.2f} ms, max {ts[-1]:.1f} ms ({len(ts)} calls)"
        )


if __name__ == "__main__":
    main()
