"""Air Power recovery periods (rule "Recovery Periods"): may the aircraft fire after an FP, and
which gunsight modifier applies.

An aircraft's flight is a list of FPs, each marked with what it did: ``"none"`` (neither turning
nor maneuvering), a turn rate ``"TT"``, ``"HT"``, ``"BT"`` or ``"ET"``, ``"unloaded"``, or
``"roll"`` (preparing for or executing a rolling maneuver). A recovery period is completed after
consecutive FPs equal to half the speed (round down) that do not repeat the cause and are not
rolling FPs; it starts with the first FP after the cause; an interruption starts it again; it
carries into the next game turn, where the higher of the two turns' speeds sets its length.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "FP_KINDS",
    "FPKind",
    "FireStatus",
    "GunsightRate",
    "RECOVERY_RULE",
    "fire_status",
    "recovery_length",
    "status_before_move",
]

RECOVERY_RULE = "Air Power, Recovery Periods"

FPKind = Literal["none", "TT", "HT", "BT", "ET", "unloaded", "roll"]
FP_KINDS: tuple[FPKind, ...] = ("none", "TT", "HT", "BT", "ET", "unloaded", "roll")
GunsightRate = Literal["TT", "HT", "BT"]
_RATES: tuple[GunsightRate, ...] = ("TT", "HT", "BT")


def recovery_length(speed: float) -> int:
    """FPs in a recovery period: half the speed, rounded down."""
    if speed < 0:
        raise ValueError(f"speed {speed} cannot be negative")
    return math.floor(speed / 2)


@dataclass(frozen=True)
class FireStatus:
    """After one FP: may it fire guns, may it fire rockets, the gunsight turn rates that apply
    (the highest is used), and whether the FP counts for SSGT."""

    fp: int
    may_fire_guns: bool
    may_fire_rockets: bool
    why_not: str
    gunsight: tuple[GunsightRate, ...]
    counts_for_ssgt: bool
    recovering_from: tuple[Literal["ET", "unloaded"], ...] = ()

    @property
    def gunsight_rate(self) -> GunsightRate | None:
        """The highest applicable turn rate ("If different turn rates are applicable, use the
        highest one")."""
        return max(self.gunsight, key=_RATES.index) if self.gunsight else None


@dataclass
class _Period:
    cause: str  # "ET", "unloaded", "TT", "HT" or "BT"
    length: int
    done: int = 0


def _interrupts(period: _Period, kind: FPKind) -> bool:
    """A rolling FP interrupts every recovery period; otherwise only a repeat of its cause."""
    return kind == "roll" or kind == period.cause


def _cause_of(kind: FPKind) -> str | None:
    if kind == "roll":
        # "For gunsight modifiers, preparing for or executing a rolling maneuver is equivalent
        # to turning at the BT turn rate."
        return "BT"
    return None if kind == "none" else kind


def _check(kinds: Sequence[str], speeds: Sequence[float]) -> None:
    for k in kinds:
        if k not in FP_KINDS:
            raise ValueError(f"{k!r} is not an FP kind ({', '.join(FP_KINDS)})")
    for v in speeds:
        recovery_length(v)


def _status(fp: int, kind: FPKind, active: dict[str, _Period]) -> FireStatus:
    reasons = []
    if kind == "ET":
        reasons.append("it turned at the ET rate on this FP")
    elif kind == "unloaded":
        reasons.append("this FP was unloaded")
    elif kind == "roll":
        reasons.append("it prepared for or executed a rolling maneuver on this FP")
    elif "ET" in active:
        reasons.append("this FP is in the recovery period after an ET turn")
    elif "unloaded" in active:
        reasons.append("this FP is in the recovery period after an unloaded FP")
    rocket_reasons = list(reasons)
    if not reasons and kind in ("HT", "BT"):
        # rockets: "may not fire immediately after an FP in which it turned at the HT, BT, or
        # ET rate"
        rocket_reasons.append(f"it turned at the {kind} rate on this FP (no rockets)")
    gunsight = tuple(r for r in _RATES if r in active)
    ssgt = kind not in ("ET", "unloaded", "roll") and not ({"ET", "unloaded"} & set(active))
    recovering = tuple(c for c in ("ET", "unloaded") if c in active and kind != c)
    return FireStatus(
        fp,
        not reasons,
        not rocket_reasons,
        "; ".join(rocket_reasons),
        gunsight,
        ssgt,
        recovering,
    )


def _fly(
    kinds: Sequence[FPKind], length: int, periods: dict[str, _Period], first_fp: int
) -> list[FireStatus]:
    out = []
    for n, kind in enumerate(kinds, start=first_fp):
        for p in periods.values():
            p.done = 0 if _interrupts(p, kind) else p.done + 1
        cause = _cause_of(kind)
        if cause is not None:
            periods[cause] = _Period(cause, length)
        # the cause FP and every FP of the period itself are affected
        out.append(_status(n, kind, dict(periods)))
        for c in [c for c, p in periods.items() if p.done >= p.length]:
            del periods[c]
    return out


def _carry(
    speed: float, last_turn: Sequence[FPKind], last_speed: float | None
) -> dict[str, _Period]:
    prev = speed if last_speed is None else last_speed
    periods: dict[str, _Period] = {}
    _fly(last_turn, recovery_length(prev), periods, 1)
    # "If an aircraft's speed changes between the game turns, the higher speed is used"
    for p in periods.values():
        p.length = recovery_length(max(prev, speed))
    return periods


def fire_status(
    this_turn: Sequence[FPKind],
    speed: float,
    last_turn: Sequence[FPKind] = (),
    last_speed: float | None = None,
) -> list[FireStatus]:
    """The status after each FP of this turn's flight so far (rule "Recovery Periods").

    ``last_turn`` is the previous game turn's flight and ``last_speed`` its speed; a recovery
    period begun then carries on with the higher of the two speeds.
    """
    _check((*this_turn, *last_turn), (speed, *([last_speed] if last_speed is not None else [])))
    periods = _carry(speed, last_turn, last_speed)
    return _fly(this_turn, recovery_length(speed), periods, 1)


def status_before_move(
    speed: float, last_turn: Sequence[FPKind], last_speed: float | None = None
) -> FireStatus:
    """The status of an aircraft that has not flown yet this turn (head-on return fire): it
    "may not respond ... if it is carrying or recovering from an ET turn or prepared for or
    executed a rolling maneuver on the last FP of the previous game turn"."""
    _check(last_turn, (speed, *([last_speed] if last_speed is not None else [])))
    periods = _carry(speed, last_turn, last_speed)
    last: FPKind = last_turn[-1] if last_turn else "none"
    status = _status(0, last if last in ("ET", "unloaded", "roll") else "none", periods)
    why = status.why_not.replace("on this FP", "on its last FP of the previous game turn")
    why = why.replace("this FP is in", "it is in").replace("this FP was", "its last FP was")
    return FireStatus(
        0,
        status.may_fire_guns,
        status.may_fire_guns,
        why,
        status.gunsight,
        False,
        tuple(c for c in ("ET", "unloaded") if c in periods),
    )
