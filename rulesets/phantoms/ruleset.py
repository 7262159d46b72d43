"""The Phantoms ruleset object: procedures, ledgers, variants, cards, sequence of play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import Event
from app.core.procedure import Procedure
from app.core.ruleset import (
    ActingLine,
    CardBlock,
    CardSpec,
    LedgerSpec,
    MovementHelp,
    Ruleset,
    Step,
    Variant,
)
from rulesets.phantoms import displays, sequence
from rulesets.phantoms.breakoff import BreakOff, Disengage
from rulesets.phantoms.card import Card, Details, catalogue, resolve_countermeasures
from rulesets.phantoms.chain import PhantomsChain
from rulesets.phantoms.control import LossOfControl, Recovery
from rulesets.phantoms.damage import CriticalHitRoll, Ejection, FireCheck
from rulesets.phantoms.geometry import PhantomsGeometry
from rulesets.phantoms.guns import GunAttack
from rulesets.phantoms.initiative import Initiative, PassInitiative
from rulesets.phantoms.missiles import MissileAttack, MissileLaunch, MissileLost
from rulesets.phantoms.movement import (
    Afterburner,
    Jettison,
    MarkManeuver,
    SetSpeed,
    Tailing,
    marker_ends,
)
from rulesets.phantoms.printed_card import card_spec
from rulesets.phantoms.radar import BreakLock, RadarLock
from rulesets.phantoms.spotting import LoseSpot, RadarSpot, VisualSpot, is_spotted
from rulesets.phantoms.state import GameState, Ledger, State, missile_ledger, state_of
from rulesets.phantoms.tables import POSITIONS_FILE, TABLES_FILE, tables

VARIANTS = (
    Variant(
        "fire_out_on_9",
        "Fire check: a 9 puts the fire out",
        "9.0 says >9 puts a fire out and <=8 keeps it burning, leaving 9 unsaid; the Critical "
        "Hit Table repeats 'must roll >9'. Default: a 9 keeps burning (no critical). With this "
        "variant a 9 puts the fire out.",
        "9.0",
        off="a 9 keeps the fire burning.",
        on="a 9 puts the fire out.",
    ),
    Variant(
        "breakoff_chart_modifiers",
        "Break-off: the chart's game-turn modifiers",
        "10.0's text gives +2 for game turns 1, 2 and 6; the Game Turn chart prints +1 for "
        "turns 1-2 and +2 for turn 6. Default: the text. With this variant: the chart.",
        "10.0",
        off="the text's +2 for game turns 1, 2 and 6.",
        on="the chart's +1 for turns 1-2 and +2 for turn 6.",
    ),
    Variant(
        "spotting",
        "Spotting (optional rule)",
        "13.0: aircraft must be spotted by radar or visually; unspotted attackers get +4 (guns, "
        "missiles) and +5 to break off. Off: everyone is spotted.",
        "13.0",
        off="everyone is spotted; no unspotted bonus.",
        on="13.0 applies: aircraft are spotted by radar or visually; an unspotted attacker gets"
        " +4 (guns, missiles) and +5 to break off.",
    ),
    Variant(
        "static_map",
        "Static map",
        "10.0: flying off the map edge disengages. Off: the aircraft are shifted to stay on "
        "the map and only a break-off check leaves the game.",
        "10.0",
        off="flying off the map edge disengages (10.0).",
        on="the aircraft are shifted to stay on the map; only a break-off check leaves the game.",
    ),
    Variant(
        "missile_range_inclusive",
        "Radar missiles: the minimum range itself is in range",
        "7.1.1b says the launcher must be 'outside the minimum range ... and inside the "
        "maximum' and later 'between the minimum and maximum'. Default: more than the minimum, "
        "up to and including the maximum. With this variant: the minimum itself is allowed too.",
        "7.1.1b",
        off="more than the minimum range, up to and including the maximum.",
        on="the minimum range itself is in range too.",
    ),
    Variant(
        "out_of_range_launch_misses",
        "Radar missiles fired out of range automatically miss",
        "7.1.1b: 'If a radar-guided missile is fired outside of these ranges, it will "
        "automatically miss.' Default: the desk refuses the launch (the missile stays on the "
        "rail). With this variant: the launch is recorded, the missile is spent, and at impact "
        "it is removed as an automatic miss.",
        "7.1.1b",
        off="an out-of-range launch is refused; the missile stays on the rail.",
        on="the launch is recorded, the missile spent, and it is removed as an automatic miss "
        "at impact.",
    ),
    Variant(
        "altitude_0_replaces_lower",
        "Radar lock on a target at altitude 0: -4 only",
        "7.1.1b lists -1 for a target at a lower altitude and -4 for a target at altitude 0. "
        "Default: a target at altitude 0 below the attacker takes both (-5). With this "
        "variant: the -4 replaces the -1.",
        "7.1.1b",
        off="a target at altitude 0 below the attacker takes both: -5.",
        on="the -4 replaces the -1: -4.",
    ),
    Variant(
        "maneuver_ends_at_marker",
        "Gun fire: a maneuver ends when its marker is reached",
        "7.2 gives the firing aircraft -3 in a Hard Turn or Loop (-1 in a Turn or Sideslip); "
        "7.1.3 gives a missile's target +3 if it is in or just did one. Default: both count a "
        "maneuver completed in this impulse's movement. With this variant: the firing "
        "aircraft's modifier stops once its marker is reached (missiles keep 'just did').",
        "7.2",
        off="the firing aircraft's maneuver modifier counts a maneuver completed in this "
        "impulse's movement.",
        on="it stops once the marker is reached (missiles keep 'just did').",
    ),
    Variant(
        "loaded_straight_one_hex",
        "Loaded aircraft: a Straight marker stays one hex ahead",
        "6.2.1 places a Straight marker 'always one hex in front of the aircraft'; 11.0 adds "
        "one hex to every maneuver of a loaded aircraft. Default: 11.0 applies to a Straight "
        "too (two hexes, so up to two levels of climb or dive). With this variant: a loaded "
        "aircraft's Straight stays one hex.",
        "6.2.1, 11.0",
        off="a loaded aircraft's Straight marker is two hexes ahead (11.0).",
        on="a loaded aircraft's Straight stays one hex ahead (6.2.1).",
    ),
    Variant(
        "active_homers_miss_on_break_contact",
        "Active radar homers also miss when the launcher breaks contact",
        "7.1.4: 'If an aircraft fired a radar guided missile, but breaks contact before the "
        "missile impacts, the missile automatically misses'; 7.1.1b frees Active Radar Homing "
        "missiles from keeping the lock after launch. Default: an active homer keeps tracking "
        "when its launcher breaks contact (it needs nothing more from it). With this variant: "
        "7.1.4 applies to every radar-guided missile, active homers included.",
        "7.1.4, 7.1.1b",
        off="an active radar homer keeps tracking when its launcher breaks contact.",
        on="7.1.4 applies to every radar-guided missile: it automatically misses.",
    ),
    Variant(
        "wounded_minus_one_guns_only",
        "Wounded pilot: -1 when firing guns only",
        "Critical Hit Table #4, Pilot Wounded: '-1 when firing'. 7.2's Gun Firing Modifiers "
        "chart lists 'wounded -1'; 7.1.3 and the missile charts do not list it.",
        "8.1 (Critical Hit #4), 7.1.3, 7.2",
        off="a wounded pilot is -1 when firing guns and missiles alike: a missile's Hit # is "
        "1 lower (an AIM-9M's 6 becomes 5).",
        on="guns only: the Gun Firing Modifiers' -1; a missile keeps its Hit # (6 stays 6).",
    ),
    Variant(
        "criticals_by_heading",
        "Critical hits: one roll, as the table's heading says",
        "8.1: 'For every multiple of 3 damage points (rounded down) inflicted during a single "
        "combat, roll once on the Critical Hit Table' and once more 'for each damage point above "
        "the maximum level'. The Critical Hit Table's heading: 'Roll anytime hit by a missile or "
        "3 or more points damage are scored or aircraft damage level is exceeded'.",
        "8.1, Critical Hit Table",
        off="8.1 counts the rolls: one for a missile hit, one per 3 points, one per point above "
        "the maximum.",
        on="one roll whenever a missile hits, 3 or more points are scored or the maximum is "
        "exceeded.",
    ),
    Variant(
        "criticals_after_loss",
        "Critical hits: every one owed is rolled, even after a loss",
        "8.1: 'For each Critical Hit, the attacking player rolls on the Critical Hit Table.' "
        "The table: 'aircraft is lost, remove from game', 'remove aircraft'. Read as removal, "
        "the rolls stop at a loss; read as 'each', the rest are still rolled (a later Pilot "
        "Wounded gives -2 for eject, a second one kills the pilot, a Fire gives -3), and the "
        "ejection comes after them.",
        "8.1, 8.2",
        off="a result that loses the aircraft ends its critical hit rolls; the ejection follows.",
        on="every critical hit owed is rolled first, then the ejection, with what they did.",
    ),
    Variant(
        "treat_as_10_no_eject_minus",
        "'Treat as #10': no -2 for eject",
        "Critical Hit Table: a second Structural Damage or Engine Hit is '2nd hit = Treat as "
        "#10'; #10 reads 'Major Damage, aircraft is lost, remove from game. -2 for eject.' and "
        "8.2 gives '-2 if the aircraft was destroyed by a Major Damage Critical Hit'.",
        "8.2, Critical Hit Table",
        off="treated as #10, the loss is a Major Damage one: -2 for eject.",
        on="the -2 is for a Major Damage critical rolled; a hit treated as #10 has none.",
    ),
    Variant(
        "second_fire_only_while_burning",
        "A second Fire critical destroys only while the first burns",
        "Critical Hit Table #8: 'Fire, check to see if put out Fire-Check Segment ... If second "
        "Fire critical hit, aircraft destroyed. -3 for eject.' It does not say whether a fire "
        "that was put out still counts as the first.",
        "9.0, Critical Hit Table",
        off="any second Fire critical hit destroys the aircraft, the first fire out or not "
        "(and its ejection is -3: it is on fire).",
        on="only one that comes while the first fire still burns; after a fire is put out a "
        "Fire critical is a new fire.",
    ),
    Variant(
        "loss_of_control_literal",
        "Loss of control: the literal -1 per speed point below zero",
        "6.4.1 modifies the die by -1 per speed point below zero, which (safe results being "
        "low) would help the pilot. Default: each point counts against the pilot (safe if roll "
        "+ points is within the range). With this variant: roll - points must lie in 1-N.",
        "6.4.1",
        off="safe if roll + points below zero is within the range.",
        on="roll - points must lie in 1-N (the literal -1 per point).",
    ),
)


class Phantoms(Ruleset):
    """Phantoms: Air Combat in the Missile Age (Dave Schueler)."""

    id = "phantoms"
    title = "Phantoms"
    source = "Phantoms, Air Combat in the Missile Age, by Dave Schueler"
    procedure_types: ClassVar[tuple[type[Procedure], ...]] = (
        GunAttack,
        MissileAttack,
        RadarLock,
        BreakLock,
        MissileLaunch,
        MissileLost,
        CriticalHitRoll,
        Ejection,
        FireCheck,
        Initiative,
        PassInitiative,
        SetSpeed,
        Afterburner,
        MarkManeuver,
        Tailing,
        Jettison,
        LossOfControl,
        Recovery,
        BreakOff,
        Disengage,
        RadarSpot,
        VisualSpot,
        LoseSpot,
    )
    ledgers = (
        LedgerSpec(Ledger.GUN, "Gun ammunition", "gun_ammunition", rule="7.2"),
        LedgerSpec(Ledger.AFTERBURNER, "Afterburner uses", "afterburner_uses", rule="6.5"),
    )
    variant_list = VARIANTS
    Card = Card
    Details = Details
    State = State
    GameState = GameState
    initiative = "initiative"
    pass_initiative = "pass_initiative"
    geometry = PhantomsGeometry()
    initiative_by = "side"

    @property
    def aircraft(self) -> Mapping[str, BaseModel]:
        return catalogue()

    # -- per-aircraft setup ----------------------------------------------------------------

    def ledgers_for(self, card: Mapping[str, Any]) -> tuple[LedgerSpec, ...]:
        """Gun ammunition, afterburner uses, and one ledger per missile type on the card, by
        its printed name (2.0, 6.5, 7.1.2)."""
        missiles = tuple(
            LedgerSpec(
                missile_ledger(m.id),
                f"Missiles: {m.name}",
                missile_ledger(m.id),
                rule="7.1.2",
                fixed_start=Fraction(m.count),
            )
            for m in Card.model_validate(dict(card)).missiles
        )
        return (*self.ledgers, *missiles)

    def max_damage(self, card: Mapping[str, Any], details: BaseModel) -> int:
        return Card.model_validate(dict(card)).max_damage

    def initial_attributes(self, card: Mapping[str, Any], details: BaseModel) -> dict[str, Any]:
        c = Card.model_validate(card)
        d = details if isinstance(details, Details) else Details.model_validate(details)
        try:
            radar_cm, ir_cm = resolve_countermeasures(c, d)
        except ValueError as e:
            raise RuleViolation(f"{c.name}: {e}") from None
        top = c.speeds.normal.max_loaded if d.stores else c.speeds.normal.max_level
        speed = d.speed if d.speed is not None else top
        if speed > top:
            raise RuleViolation(
                f"{c.name}: starting speed {speed} is above its maximum {top} (5.0)"
            )
        return {
            "speed": speed,
            "altitude": d.altitude,
            "stores": d.stores,
            "radar_cm": radar_cm,
            "ir_cm": ir_cm,
            "controller": d.controller,
            "wingman": d.wingman,
            "maneuver": None,
            "locks": [],
            "criticals_due": 0,
        }

    def card_spec(self, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
        return card_spec(self, aircraft, engagement)

    # -- sequence of play ------------------------------------------------------------------

    def steps(self, engagement: Engagement) -> Sequence[Step]:
        return sequence.STEPS

    def displays(self, engagement: Engagement) -> list[CardBlock]:
        return displays.displays(engagement)

    def acting(self, engagement: Engagement) -> list[ActingLine]:
        return sequence.acting(engagement, self.chosen)

    def known_enemies(self, engagement: Engagement, side: str) -> frozenset[str] | None:
        """13.0: with the optional spotting rule, the enemies some aircraft of ``side`` in play
        has spotted (13.1 radar spots shared by the side, 13.2 visual spots, a wingman's within
        5 hexes); without it everyone is spotted (``None``: the side sees them all)."""
        if "spotting" not in self.chosen:
            return None
        mine = [a.id for a in engagement.on_side(side) if a.in_play]
        return frozenset(
            t.id
            for t in engagement.aircraft.values()
            if t.side != side and any(is_spotted(engagement, t.id, m, self.chosen) for m in mine)
        )

    def on_clock(self, engagement: Engagement, turn: int, step: int) -> list[Event]:
        return sequence.on_clock(engagement, turn, step)

    def chain_model(self) -> PhantomsChain:
        """Critical hits, ejection, fire checks and recovery as a Markov chain (issue 45),
        kept with what it has worked out until the tables change."""
        model: PhantomsChain | None = getattr(self, "_chain", None)
        if model is None or model.table is not tables():
            model = self._chain = PhantomsChain(self.chosen)
        return model

    def movement_help(self, engagement: Engagement, aircraft_id: str) -> MovementHelp | None:
        """6.1-6.2: the aircraft's speed and marker, and where each maneuver it may fly now
        ends (the marker hex and the facing after it), from its hex on the board."""
        a = engagement.get(aircraft_id)
        st = state_of(a)
        lines = [("Speed (6.0)", str(st.speed))]
        if st.maneuver is not None:
            m = st.maneuver
            lines.append(("Maneuver marker (6.1)", f"{m.label}: {m.moved} of {m.hexes} hexes"))
            return MovementHelp(lines=tuple(lines))
        pos = a.position
        if pos is None or Status.OUT_OF_CONTROL in a.status:
            return MovementHelp(lines=tuple(lines))
        ends = marker_ends(a, pos.x, pos.y, int(pos.facing), self.chosen)
        lines.append(("Maneuvers it may mark (6.2)", ", ".join(e[0] for e in ends) or "none"))
        return MovementHelp(lines=tuple(lines), ends=tuple(ends))

    def table_files(self) -> Mapping[str, Path]:
        return {"tables": TABLES_FILE, "positions": POSITIONS_FILE}
