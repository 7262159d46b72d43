"""Hit codes and what the hits do (rules 22-27).

A fire result such as ``3F2W2L`` is read per the note under the table: "In each column, a
number refers only to the type of hit that is the first to follow", so it is 3 F, 2 W and 2 L
hits. The rules give effects for E (rule 24), C (rules 22, 23, 25), G (rule 26) and W (rule 27)
hits; F and L hits have no effect named in the text and are only marked as boxes on the card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal


class Hit(StrEnum):
    """The hit types of the fire results and the data card's hit boxes (rules 22-27): a map
    of hits or boxes is read by these keys only."""

    F = "F"
    W = "W"
    L = "L"
    G = "G"
    E = "E"
    C = "C"


HIT_TYPES: tuple[str, ...] = tuple(Hit)
EngineRule = Literal["single_engine", "twin_engine", "il_2", "p_47_group"]
Hemisphere = Literal["front", "rear"]
HEMISPHERES: tuple[Hemisphere, ...] = ("front", "rear")

_TOKEN = re.compile(r"([1-9][0-9]*)?([FWLGEC])")


def parse_hit_code(code: str) -> dict[str, int]:
    """``"3F2W2L"`` -> ``{"F": 3, "W": 2, "L": 2}`` (a number applies to the next letter only).

    ``ValueError`` for anything that is not a sequence of hit letters each used once, each
    optionally preceded by a count.
    """
    if not isinstance(code, str) or not code:
        raise ValueError(f"{code!r} is not a hit code")
    out: dict[str, int] = {}
    pos = 0
    for m in _TOKEN.finditer(code):
        if m.start() != pos:
            break
        letter = m.group(2)
        if letter in out:
            raise ValueError(f"hit code {code!r} names {letter} twice")
        out[letter] = int(m.group(1) or 1)
        pos = m.end()
    if pos != len(code):
        raise ValueError(
            f"hit code {code!r} is not a sequence of counts and hit letters "
            f"({', '.join(HIT_TYPES)}), e.g. 3F2W2L"
        )
    return out


def c_multiplier(*, flexible_guns: bool, gun_factors: int, bomber_from_12_straight: bool) -> int:
    """How many C boxes each C hit marks (rules 22 and 23; both apply together).

    Rule 22: flexible gunfire of seven gun factors or less doubles each C hit, of eight or more
    triples it. Rule 23: a multi-engine bomber fired on from its 12 o'clock in a straight path of
    hexes takes each C hit twice.
    """
    m = 1
    if flexible_guns:
        m *= 2 if gun_factors <= 7 else 3
    if bomber_from_12_straight:
        m *= 2
    return m


@dataclass(frozen=True)
class DamageEffects:
    """What the hits marked so far do to the aircraft (rules 24-27), as losses from its card."""

    max_level_speed_loss: int = 0
    #: the part of ``max_level_speed_loss`` due to E hits (rule 24: those points stay usable)
    e_level_speed_loss: int = 0
    power_factor_loss: int = 0
    climb_loss_ft: int = 0
    max_dive_speed_loss: int = 0
    dive_rate_loss_ft: int = 0
    w_limit_reached: bool = False
    half_loops_allowed: bool = True
    half_rolls_allowed: bool = True
    slips_allowed: bool = True
    flexible_gun_loss: dict[str, int] = field(default_factory=lambda: {"front": 0, "rear": 0})
    notes: tuple[str, ...] = ()

    def as_attributes(self) -> dict[str, object]:
        return {
            "max_level_speed_loss": self.max_level_speed_loss,
            "e_level_speed_loss": self.e_level_speed_loss,
            "power_factor_loss": self.power_factor_loss,
            "climb_loss_ft": self.climb_loss_ft,
            "max_dive_speed_loss": self.max_dive_speed_loss,
            "dive_rate_loss_ft": self.dive_rate_loss_ft,
            "w_limit_reached": self.w_limit_reached,
            "half_loops_allowed": self.half_loops_allowed,
            "half_rolls_allowed": self.half_rolls_allowed,
            "slips_allowed": self.slips_allowed,
            "flexible_gun_loss": dict(self.flexible_gun_loss),
            "damage_notes": list(self.notes),
        }


E_NAMED_ONCE = "e_hits_named_once"
W_INTACT_REMAINING = "w_intact_remaining"


def engine_losses(
    rule: EngineRule | None, e_hits: int, named_once: bool = False
) -> tuple[int, int, int]:
    """Rule 24: (Max. Level Sp. loss, Power Factor loss, max climb loss in ft) for ``e_hits``.

    - single engine: -1 Max. Level Sp. for the first E hit, -1 Power Factor per additional one;
    - twin engine: -1 Power Factor for the first, -1 Max. Level Sp. per additional one;
    - single and twin engine (the named types included): max available climb -.1 (100 ft) per E;
    - Il-2: -1 Power Factor and -1 Max. Level Sp. from the 3rd E hit only (read: for each E hit
      from the 3rd on);
    - P-47, FW-190F, G and A-8/R2, F4U, F6F: -1 Max. Level Sp. from the 2nd E hit, -1 Power
      Factor from the 3rd (read: for each E hit from that one on).
    With ``named_once`` (variant ``e_hits_named_once``) each named-type loss is taken once, at
    the hit named.
    Aircraft with three or more engines have no E-hit effect in the text (``rule`` None).
    """
    if e_hits < 0:
        raise ValueError("E hits cannot be negative")
    if rule is None:
        return 0, 0, 0
    climb = 100 * e_hits
    if rule == "single_engine":
        return min(e_hits, 1), max(e_hits - 1, 0), climb
    if rule == "twin_engine":
        return max(e_hits - 1, 0), min(e_hits, 1), climb

    def from_hit(n: int) -> int:
        if named_once:
            return 1 if e_hits >= n else 0
        return max(e_hits - n + 1, 0)

    if rule == "il_2":
        return from_hit(3), from_hit(3), climb
    return from_hit(2), from_hit(3), climb


def wing_losses(
    w_hits: int, w_boxes: int, heavy_bomber: bool, intact_remaining: bool = False
) -> tuple[int, int, bool]:
    """Rule 27: (Max. Dive Sp. loss, Max. Dive Rate / Dive Sp. Climb loss in ft, limit reached).

    One Max. Dive Sp. point per two W hits; .1 (100 ft) of Max. Dive Rate and Dive Sp. Climb per
    W hit up to -.4, or -.5 if the aircraft has 7 or more W boxes intact (read: its card's W
    boxes, before any hit; with ``intact_remaining``, variant ``w_intact_remaining``: its W boxes
    still unhit); reaching that maximum also costs -1 Max. Level Sp. and all Slip,
    H-Loop and H-Roll maneuvers. None of this applies to heavy bombers.
    """
    if w_hits < 0:
        raise ValueError("W hits cannot be negative")
    if heavy_bomber:
        return 0, 0, False
    intact = w_boxes - w_hits if intact_remaining else w_boxes
    cap = 5 if intact >= 7 else 4
    return w_hits // 2, 100 * min(w_hits, cap), w_hits >= cap


def damage_effects(
    *,
    boxes: dict[str, int],
    engine_rule: EngineRule | None,
    w_boxes: int,
    heavy_bomber: bool,
    g_hits_by_hemisphere: dict[Hemisphere, int],
    variants: frozenset[str] = frozenset(),
) -> DamageEffects:
    """The effects of every hit marked so far (rules 24, 25, 26, 27)."""
    lvl_e, pf, climb = engine_losses(engine_rule, boxes.get(Hit.E, 0), E_NAMED_ONCE in variants)
    dive_speed, dive_rate, limit = wing_losses(
        boxes.get(Hit.W, 0), w_boxes, heavy_bomber, W_INTACT_REMAINING in variants
    )
    c = boxes.get(Hit.C, 0)
    notes: list[str] = []
    if lvl_e:
        notes.append(
            f"rule 24: {lvl_e} Max. Level Sp. point(s) lost to E hits stay usable but are Dive "
            "Speed for the Power and Brake Factor restrictions (rules 17-18)"
        )
    if limit:
        notes.append(
            "rule 27: W-hit limit reached: -1 Max. Level Sp. (that point becomes true Dive Sp.), "
            "no Slip, H-Loop or H-Roll"
        )
    if c >= 1:
        notes.append("rule 25: no Half-Loops" + (", no Half-Rolls" if c >= 2 else ""))
    return DamageEffects(
        max_level_speed_loss=lvl_e + (1 if limit else 0),
        e_level_speed_loss=lvl_e,
        power_factor_loss=pf,
        climb_loss_ft=climb,
        max_dive_speed_loss=dive_speed,
        dive_rate_loss_ft=dive_rate,
        w_limit_reached=limit,
        half_loops_allowed=c < 1 and not limit,
        half_rolls_allowed=c < 2 and not limit,
        slips_allowed=not limit,
        flexible_gun_loss={h: 4 * g_hits_by_hemisphere.get(h, 0) for h in HEMISPHERES},
        notes=tuple(notes),
    )
