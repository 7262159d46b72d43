"""A control card as HTML (issue 48): the same ``CardFace`` the printer draws with QPainter
(``app.ui.cards.render``), for a phone's browser. Pure Python: the server needs no GUI thread
for it. Every text is escaped; the page's style sheet (``static/page.css``) lays it out."""

from __future__ import annotations

from html import escape

from app.core.card_face import CardFace
from app.core.ruleset import CardBlock, KeyValues, Lines, Table, Track


def card_html(face: CardFace) -> str:
    """One card: the title block (name, side, type, pilot, status, variants), then the
    ruleset's blocks in order, then its revision. The page's heading says the turn (a card
    is sent again only when the aircraft changes, not every turn)."""
    who = [face.heading]
    if face.count != 1:
        who.append(f"\u00d7{face.count}")
    if face.pilot:
        who.append(f"{face.pilot} pilot")
    badges = "".join(f'<span class="badge">{escape(s.upper())}</span>' for s in face.status)
    meta = f"{face.ruleset} \u00b7 {face.game}"
    variants = (
        f'<div class="meta">Variants: {escape("; ".join(face.variants))}</div>'
        if face.variants
        else ""
    )
    blocks = "".join(block_html(b) for b in face.blocks)
    return (
        f'<article class="card" data-aircraft="{escape(face.aircraft_id)}">'
        f'<header><span class="side">{escape(face.side.upper())}</span>'
        f"<h2>{escape(face.name)}</h2>"
        f'<div class="type">{escape(" · ".join(who))} {badges}</div>'
        f'<div class="meta">{escape(meta)}</div>{variants}</header>'
        f'{blocks}<footer class="meta">rev {face.revision}</footer></article>'
    )


def block_html(b: CardBlock) -> str:
    if isinstance(b, KeyValues):
        rows = "".join(f"<div><dt>{escape(k)}</dt><dd>{escape(v)}</dd></div>" for k, v in b.items)
        return _section(b.title, "", f'<dl class="kv">{rows}</dl>')
    if isinstance(b, Table):
        head = (
            "<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in b.header) + "</tr></thead>"
            if b.header
            else ""
        )
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in b.rows
        )
        return _section(
            b.title, "", f'<div class="scroll"><table>{head}<tbody>{body}</tbody></table></div>'
        )
    if isinstance(b, Track):
        if b.total <= 0:
            return _section(b.title, b.note, '<p class="none">none</p>')
        boxes = []
        for i in range(b.total):
            cls = ["box"]
            if i < b.used:
                cls.append("used")
            if b.grey_from is not None and i >= b.grey_from:
                cls.append("grey")
            boxes.append(f'<i class="{" ".join(cls)}"></i>')
        label = f"{b.used} of {b.total} used"
        track = f'<div class="track" role="img" aria-label="{escape(label)}">{"".join(boxes)}</div>'
        return _section(b.title, b.note, track)
    assert isinstance(b, Lines)
    items = "".join(f"<li>{escape(line)}</li>" for line in b.lines)
    return _section(b.title, "", f"<ul>{items}</ul>")


def _section(title: str, note: str, body: str) -> str:
    n = f'<span class="note">{escape(note)}</span>' if note else ""
    return f"<section><h3>{escape(title.upper())}{n}</h3>{body}</section>"
