"""What one control card shows (``CardFace``): the title block and the ruleset's ``CardSpec``
blocks for an aircraft as it is now. Pure Python: the QPainter renderer (``app.ui.cards.render``)
and the players' pages (``app.players.card_html``, issue 48) draw the same face."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.guest import TIME_LIMIT, GuestError, call_guest, ruleset_name
from app.core.guest import card_spec as checked_card
from app.core.ruleset import CardBlock, CardSpec, Lines, Ruleset


@dataclass(frozen=True)
class CardFace:
    """Everything one printed card shows: the title block and the ruleset's blocks."""

    aircraft_id: str
    name: str
    side: str
    heading: str
    pilot: str | None
    count: int
    status: tuple[str, ...]
    ruleset: str
    game: str
    turn: int
    variants: tuple[str, ...]
    revision: int
    blocks: tuple[CardBlock, ...]


def card_face(ruleset: Ruleset, engagement: Engagement, aircraft: AircraftState) -> CardFace:
    """What this aircraft's card shows now. A ruleset that fails to build the card (an
    exception, no answer in its time limit, a card of the wrong shape: issue 31) gets a card
    saying why, instead of stopping the whole print job."""
    try:
        spec = call_guest(
            ruleset,
            "card_spec (control card)",
            ruleset.card_spec,
            aircraft,
            engagement,
            time_limit=TIME_LIMIT,
            returns=checked_card,
        )
    except (RuleViolation, ValidationError) as e:
        said = str(e) if isinstance(e, GuestError) else f"{ruleset_name(ruleset)}: {e}"
        spec = CardSpec(aircraft.type_id, (Lines("This card could not be drawn", (said,)),))
    titles = {v.id: v.title for v in ruleset.variants}
    return CardFace(
        aircraft_id=aircraft.id,
        name=aircraft.name,
        side=aircraft.side,
        heading=spec.title,
        pilot=aircraft.pilot,
        count=aircraft.count,
        status=tuple(sorted(s.replace("_", " ") for s in aircraft.status)),
        ruleset=ruleset.title,
        game=engagement.title,
        turn=engagement.turn,
        variants=tuple(titles.get(v, v) for v in engagement.variants),
        revision=aircraft.revision,
        blocks=spec.blocks,
    )


def card_faces(
    ruleset: Ruleset, engagement: Engagement, aircraft_ids: Sequence[str] | None = None
) -> list[CardFace]:
    """The cards of these aircraft (default: all), grouped by side in roster order."""
    wanted = set(engagement.aircraft if aircraft_ids is None else aircraft_ids)
    sides = {s: i for i, s in enumerate(engagement.sides)}
    chosen = [a for a in engagement.aircraft.values() if a.id in wanted]
    chosen.sort(key=lambda a: sides[a.side])
    return [card_face(ruleset, engagement, a) for a in chosen]
