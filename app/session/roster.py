"""The roster and the table: aircraft added, edited and removed, ledgers corrected, aircraft
placed on the board, cards printed, and the dice at the table named (issue 35)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from app.core import shapes
from app.core.engagement import PILOT_QUALITIES, Engagement
from app.core.errors import RuleViolation
from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    AircraftRemoved,
    CardsPrinted,
    DiceSet,
    LedgerAdded,
    LedgerChanged,
    PositionSet,
)
from app.core.guest import call_guest
from app.core.text import refuse_control
from app.session import guard
from app.session.log import GameLog

#: characters in the name of a die or player at the table (``Roster.set_dice``)
MAX_DICE_NAME = 80


class Roster:
    """The game's aircraft and what the umpire sets about them by hand."""

    def __init__(self, log: GameLog) -> None:
        self._log = log

    @property
    def engagement(self) -> Engagement:
        """The game as it stands: the aircraft on the roster and their state (read-only)."""
        return self._log.timeline.state

    @property
    def printed(self) -> Mapping[str, int]:
        """The card revision last printed for each aircraft."""
        return self._log.timeline.printed

    def changed_since_printed(self) -> list[str]:
        """Aircraft whose current card differs from the one last printed."""
        printed = self._log.timeline.printed
        return [
            a.id
            for a in self._log.timeline.state.aircraft.values()
            if printed.get(a.id) != a.revision
        ]

    def add_aircraft(
        self, side: str, type_id: str, name: str, pilot: str | None = "average", **details: Any
    ) -> str:
        """Put an aircraft (or counted group) on the roster; returns its id."""
        shapes.aircraft_args(side, type_id, name, pilot, details)  # issue 31: wrong shapes
        refuse_control("the aircraft's name", name)  # issue 46: names are text
        refuse_control("the side", side)
        aircraft_id = self._new_id(name)
        ev = call_guest(
            self._log.ruleset,
            "new_aircraft (add an aircraft)",
            self._log.ruleset.new_aircraft,
            aircraft_id,
            name,
            side,
            type_id,
            pilot,
            details,
            time_limit=guard.TIME_LIMIT,
            returns=AircraftAdded,
        )
        # the card's printed name, as the Roster shows it, never the catalogue id (issue 47)
        printed = ev.card.get("name") if isinstance(ev.card.get("name"), str) else None
        who = (
            f"{ev.name} ({printed or ev.type_id}"
            + (f", {ev.pilot} pilot" if ev.pilot else "")
            + ")"
        )
        self._log.append([ev], f"{who} joins {ev.side}")
        return aircraft_id

    def _new_id(self, name: str) -> str:
        base = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "aircraft"
        n, candidate = 1, base
        while candidate in self._log.timeline.state.aircraft:
            n += 1
            candidate = f"{base}-{n}"
        return candidate

    def change_aircraft(
        self,
        aircraft_id: str,
        *,
        name: str | None = None,
        pilot: str | None = None,
        side: str | None = None,
        card: Mapping[str, Any] | None = None,
    ) -> None:
        """Rename, change pilot or side, or replace the card data of an aircraft. A counter the
        new card starts that the aircraft does not have yet (a UFO's anti-grav rating its
        card did not print, issue 43) starts with it, at the card's value."""
        a = self._log.timeline.state.get(aircraft_id)
        refuse_control("the aircraft's name", name)  # issue 46: names are text
        refuse_control("the side", side)
        name = name.strip() if name is not None else None
        if name is not None and not name.strip():
            raise RuleViolation(f"{a.name}: an aircraft needs a name")
        if side is not None and not side.strip():
            raise RuleViolation(f"{a.name}: an aircraft needs a side")
        if pilot is not None and self._log.ruleset.uses_pilot_quality:
            if pilot not in PILOT_QUALITIES:
                raise RuleViolation(
                    f"pilot quality {pilot!r} is not one of " + ", ".join(PILOT_QUALITIES)
                )
        started: dict[str, Fraction] = {}
        if card is not None:
            self._log.ruleset.Card.model_validate(dict(card))
            details = self._log.ruleset.Details.model_validate(dict(a.details))
            starts = call_guest(
                self._log.ruleset,
                "starting_ledgers (a card edited)",
                self._log.ruleset.starting_ledgers,
                dict(card),
                details,
                time_limit=guard.TIME_LIMIT,
            )
            started = {k: Fraction(v) for k, v in starts.items() if k not in a.ledgers}
        ev = AircraftChanged(
            aircraft=aircraft_id,
            name=name,
            pilot=pilot,
            side=side,
            card=dict(card) if card is not None else None,
        )
        what = [
            f"renamed {name}" if name else "",
            f"pilot {pilot}" if pilot else "",
            f"to {side}" if side else "",
            "card edited" if card is not None else "",
            *(f"{k.replace('_', ' ')} {v} starts" for k, v in started.items()),
        ]
        starts_now = [
            LedgerAdded(aircraft=aircraft_id, ledger=k, value=v, reason="its edited card prints it")
            for k, v in started.items()
        ]
        self._log.append([ev, *starts_now], f"{a.name}: " + ", ".join(w for w in what if w))

    def adjust_ledger(
        self, aircraft_id: str, ledger: str, delta: Fraction | int | str, reason: str
    ) -> None:
        """The umpire's own correction of a ledger (spend or refill), with the reason logged.

        The projection refuses a ledger below zero or above its maximum; a delta finer than
        the ledger's unit (half points of ammunition) is refused too.
        """
        a = self._log.timeline.state.get(aircraft_id)
        try:
            amount = Fraction(delta)
        except (ValueError, ZeroDivisionError):
            raise RuleViolation(f"{delta!r} is not an amount (whole number or fraction)") from None
        if amount == 0:
            raise RuleViolation("a ledger correction needs a non-zero amount")
        refuse_control("the reason", reason)  # issue 46
        if not reason.strip():
            raise RuleViolation("say why the ledger changes; the reason goes into the log")
        spec = self._log.ruleset.ledger_spec(ledger, a.card)
        if spec is not None and amount % spec.unit:
            raise RuleViolation(f"{spec.title} changes in steps of {spec.unit}")
        title = spec.title if spec is not None else ledger.replace("_", " ")
        verb = "spends" if amount < 0 else "regains"
        self._log.append(
            [
                LedgerChanged(
                    aircraft=aircraft_id, ledger=ledger, delta=amount, reason=reason.strip()
                )
            ],
            f"{a.name} {verb} {abs(amount)} {title} (umpire: {reason.strip()})",
        )

    def remove_aircraft(self, aircraft_id: str) -> None:
        a = self._log.timeline.state.get(aircraft_id)
        self._log.append(
            [AircraftRemoved(aircraft=aircraft_id)], f"{a.name} removed from the roster"
        )

    def place(
        self,
        aircraft_id: str,
        x: float | None,
        y: float | None,
        facing: int = 0,
        altitude: int = 0,
    ) -> None:
        """Put an aircraft on the board (or take it off with ``x=y=None``); undoable.

        The ruleset's geometry checks the point and facing (a hex centre or side on a hex map).
        """
        a = self._log.timeline.state.get(aircraft_id)
        geometry = self._log.ruleset.geometry
        if x is not None and y is not None and geometry is not None:
            check = getattr(geometry, "check_position", None)
            if check is not None:

                def checked() -> None:
                    try:
                        check(x, y, facing)
                    except ValueError as e:  # the geometry's way of refusing a point
                        raise RuleViolation(f"{a.name}: {e}") from None

                call_guest(self._log.ruleset, "geometry (check a position)", checked)
        ev = PositionSet(aircraft=aircraft_id, x=x, y=y, facing=facing, altitude=altitude)
        where = (
            f"{a.name} off the board"
            if x is None or y is None
            else f"{a.name} at ({x:g}, {y:g}) facing {facing}, altitude {altitude}"
        )
        self._log.append([ev], where)

    def mark_printed(self, aircraft_ids: Sequence[str], where: str = "") -> None:
        """Record that these aircraft's current cards went on paper (not undoable); ``where``:
        the file or printer and from what, said in the log and by the desk's Print cards."""
        revs = {a: self._log.timeline.state.get(a).revision for a in aircraft_ids}
        to = f", {where}" if where else ""
        self._log.append(
            [CardsPrinted(revisions=revs, where=where)], f"Cards printed: {len(revs)} aircraft{to}"
        )

    def set_dice(self, side: str, dice: str, aircraft: str | None = None) -> None:
        """Dice at the table (issue 35): from now on the dice typed for ``side``'s rolls (with
        ``aircraft``, that aircraft's: a player's) are rolled with ``dice`` -- a physical die
        or a player, "the red d10s" or "Anna"; empty: no longer named. ``side`` "" names the
        dice of the rolls no aircraft makes (initiative, the umpire's what-ifs). Undoable; it
        changes nothing in the game, but the After-action panel checks typed dice per ``dice``."""
        shapes.text("side", side)
        shapes.text("dice", dice)
        shapes.text("aircraft", aircraft, optional=True)
        refuse_control("the side", side)  # issue 46: a tab is refused, not dropped
        refuse_control("the dice's name", dice)
        dice = " ".join(dice.split())
        if len(dice) > MAX_DICE_NAME:
            raise RuleViolation(
                f"dice: {len(dice)} characters; a die or player is named in at most "
                f"{MAX_DICE_NAME}. Nothing was recorded."
            )
        e = self._log.timeline.state
        if aircraft is not None:
            side, who = e.get(aircraft).side, e.get(aircraft).name
        elif side and side not in e.sides:
            known = ", ".join(e.sides) or "none yet"
            raise RuleViolation(f"no side {side!r} in this game (sides: {known})")
        else:
            who = side
        if not who:  # the rolls no aircraft makes
            said = f"rolls of no aircraft with {dice}" if dice else "rolls of no aircraft unnamed"
        else:
            said = f"{who} rolls {dice}" if dice else f"{who}'s dice no longer named"
        self._log.append(
            [DiceSet(side=side, aircraft=aircraft, dice=dice)], f"Dice at the table: {said}"
        )
