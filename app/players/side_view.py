"""What one side's page shows (issue 48), as plain data made on the desk's thread and handed
to the server as an immutable snapshot (JSON bytes).

A side sees: the turn, the step and who acts now; its own aircraft's live control cards (the
same ``CardFace`` the printer draws); the enemy only as the side may know it (the ruleset's
``known_enemies``: Phantoms 13.0 spotting; a ruleset without spotting shows what the Player
display shows: name, type, damage, status); and on each of its own lines that needs dice or a
written plot, what to roll or write, with what became of what it sent. Never the other side's
lines' dice or plots, its entries, or any odds: none of them is in a side's view.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.core import field_text
from app.core.draft import DieSlot
from app.core.engagement import AircraftState, Engagement
from app.players.pending import Entry, LineKey, PendingBook, key_text
from app.startup.summary import ActingRow, TurnRows, ordered_status

#: an aircraft's or side's name stands for it on the page; an enemy the side may not know of
#: is named thus wherever a text would name it
UNSEEN = "an unseen aircraft"


def line_of(row: ActingRow) -> LineKey:
    return (row["procedure"], row["who"], row["target"] or "")


def is_mine(engagement: Engagement, who: str, side: str) -> bool:
    """The line's aircraft is on ``side`` (or the line is the side's own)."""
    a = engagement.aircraft.get(who)
    return a.side == side if a is not None else who == side


class Scrub:
    """Replaces the names of the enemies a side may not know of in a text shown to it."""

    def __init__(self, engagement: Engagement, side: str, known: frozenset[str] | None) -> None:
        hidden = [
            a.name
            for a in engagement.aircraft.values()
            if a.side != side and known is not None and a.id not in known
        ]
        hidden.sort(key=len, reverse=True)  # "Red 10" before "Red 1"
        self.pattern = (
            re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in hidden) + r")(?!\w)")
            if hidden
            else None
        )

    def __call__(self, text: str) -> str:
        return self.pattern.sub(UNSEEN, text) if self.pattern is not None else text


def slot_json(slot: DieSlot, scrub: Callable[[str], str]) -> dict[str, Any]:
    typeable = slot.typeable
    return {
        "label": scrub(slot.label),
        "die": slot.name,
        "hint": slot.hint,
        "count": slot.count,
        "low": min(typeable),
        "high": max(typeable),
    }


def plot_fields(proc: Any, names: frozenset[str] | set[str]) -> list[dict[str, Any]]:
    """The fields of a written plot, in the procedure's order, as the page asks for them."""
    out: list[dict[str, Any]] = []
    for name, info in proc.Inputs.model_fields.items():
        if name not in names:
            continue
        kind, optional = field_text.kind_of(info)
        title = info.title or name.replace("_", " ").capitalize()
        field: dict[str, Any] = {"name": name, "title": title, "kind": kind}
        if kind == "int":
            low, high = field_text.bounds(info)
            field |= {"low": low, "high": high}
        elif kind == "choice":
            annotation, _ = field_text.unwrap_optional(info.annotation)
            field["options"] = [str(v) for v in field_text.choices_of(annotation) or ()]
        elif kind != "bool":
            continue  # a plot is numbers, ticks and choices
        default = info.get_default() if not info.is_required() else None
        field["default"] = default if isinstance(default, int | bool | str) else None
        out.append(field)
    return out


#: each aircraft's line, made once per state of it (the projection shares unchanged states)
_LINES: dict[str, tuple[AircraftState, dict[str, Any]]] = {}


def aircraft_line(a: AircraftState) -> dict[str, Any]:
    """An aircraft as the Player display shows it (the printed name of its type, damage,
    status): what a side may see of an enemy it knows of."""
    made = _LINES.get(a.id)
    if made is not None and made[0] is a:
        return made[1]
    if len(_LINES) > 4096:
        _LINES.clear()
    line = _aircraft_line(a)
    _LINES[a.id] = (a, line)
    return line


def _aircraft_line(a: AircraftState) -> dict[str, Any]:
    return {
        "name": a.name,
        "kind": str(a.card.get("name") or a.type_id),
        "count": a.count,
        "damage": f"{a.damage}/{a.max_damage}" if a.max_damage else "",
        "status": ", ".join(s.replace("_", " ") for s in ordered_status(a.status)),
        "in_play": a.in_play,
    }


def entry_json(e: Entry) -> dict[str, Any]:
    return {"id": e.id, "state": e.state, "text": e.page_text(), "line": key_text(e.line)}


def side_view(
    side: str,
    *,
    engagement: Engagement,
    game: str,
    ruleset_title: str,
    rows: TurnRows,
    known: frozenset[str] | None,
    asks: Mapping[LineKey, dict[str, Any]],
    cards: Sequence[str],
    book: PendingBook,
) -> dict[str, Any]:
    """Everything ``side``'s page shows now (``asks``: what each of the side's open lines
    asks of the page; ``cards``: the keys of its aircraft's cards, in roster order: each
    card's HTML goes to the page once per change of it, apart from the view)."""
    e = engagement
    scrub = Scrub(e, side, known)

    def seen(aircraft_id: str) -> bool:
        a = e.aircraft.get(aircraft_id)
        return a is None or a.side == side or known is None or aircraft_id in known

    now = rows["now"]
    clock = (e.turn, e.step)
    entries = {
        en.line: en for en in reversed(book.of_side(side)) if en.clock == clock
    }  # the newest per line in this step
    acting: list[dict[str, Any]] = []
    for row in rows["acting"]:
        who = row["who"]
        if is_mine(e, who, side):
            key = line_of(row)
            en = entries.get(key) if row["procedure"] else None
            acting.append(
                {
                    "key": key_text(key),
                    "mine": True,
                    "name": row["name"],
                    "what": scrub(row["what"]),
                    "done": row["done"],
                    "cannot": scrub(row["cannot"]),
                    "ask": asks.get(key) if row["procedure"] and not row["done"] else None,
                    "entry": entry_json(en) if en is not None else None,
                }
            )
        elif seen(who):
            acting.append(
                {
                    "key": "",
                    "mine": False,
                    "name": row["name"],
                    "what": scrub(row["what"]),
                    "done": row["done"],
                    "cannot": "",
                    "ask": None,
                    "entry": None,
                }
            )
    order = [
        (e.aircraft[w].name if w in e.aircraft else w)
        + ("  \u2605 initiative marker" if e.initiative_marker == w else "")
        for w in e.initiative_order
        if seen(w)
    ]
    enemy = [aircraft_line(a) for a in e.aircraft.values() if a.side != side and seen(a.id)]
    own = [aircraft_line(a) for a in e.on_side(side)]
    return {
        "side": side,
        "game": game,
        "ruleset": ruleset_title,
        "turn": e.turn,
        "step": now["heading"] if now else "",
        "step_text": (
            f"{now['where']}: {now['text']}" + (f" ({now['rule']})" if now["rule"] else "")
            if now
            else ""
        ),
        "acting": acting,
        "initiative": order,
        "own": own,
        "enemy": enemy,
        "spotting": known is not None,
        "cards": list(cards),
        "entries": [entry_json(en) for en in book.of_side(side)[:8]],
    }


def encode(view: Mapping[str, Any], version: int) -> bytes:
    """The snapshot the server sends: the view with its version, as compact JSON."""
    return json.dumps({**view, "version": version}, separators=(",", ":")).encode()
