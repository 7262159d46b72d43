"""The bridge between the desk and the players' web server (issue 48).

On the GUI thread it makes each side's view after every change of the game (coalesced: one
publish per burst of changes, a few milliseconds after the desk has redrawn) and hands the
server an immutable snapshot; what a page sends arrives from the server's thread through a
queued Qt signal (``received``) and becomes a pending entry on its line. The server thread
never touches a Qt object or the game.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.core.acting import ActingLine
from app.core.card_face import card_face
from app.core.draft import pools
from app.core.errors import RuleViolation
from app.core.prepared import line_roles
from app.core.procedure import Calculator
from app.players.card_html import card_html
from app.players.pending import LineKey, key_text
from app.players.server import PlayersServer, Published, Sent
from app.players.side_view import (
    Scrub,
    encode,
    is_mine,
    line_of,
    plot_fields,
    side_view,
    slot_json,
)
from app.players.tokens import SideTokens
from app.ui.model import EngagementModel

#: seconds of card making one publish may spend (a game of many aircraft first shown, or a
#: new title: the rest go in the next publishes, so the desk never stalls on them)
CARD_BUDGET = 0.006
#: milliseconds from a change to its publication: the desk redraws first, and a burst of
#: appends (a resolve and what it owes) is published once
PUBLISH_MS = 15


class PlayersBridge(QObject):
    """The players' screens of one desk: tokens, the server, the views, what pages send."""

    #: a page sent something (emitted on the server's thread; queued to the GUI thread)
    received = Signal(object)
    #: a snapshot was handed to the server: its version
    published = Signal(int)
    #: the server started or stopped, or a token changed
    changed = Signal()

    def __init__(self, model: EngagementModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.tokens = SideTokens()
        self.server: PlayersServer | None = None
        self.version = 0
        self._game: object = None
        #: each aircraft's card: (its state, the game's stamp, its key, its HTML as JSON)
        self._cards: dict[str, tuple[Any, tuple[Any, ...], str, bytes]] = {}
        self._card_count = 0
        self._card_until = 0.0
        self._cards_owed = False
        self._asks: dict[tuple[int, LineKey], dict[str, Any] | None] = {}
        self._asks_of: int = 0
        #: the slot labels each side's open lines asked for, unscrubbed (the desk's own)
        self._labels: Mapping[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        self._draft_seen: tuple[Any, ...] = ()
        #: a publish under way (a ruleset call in it turns the event loop: no second one inside)
        self._publishing = False
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(PUBLISH_MS)
        self._soon.timeout.connect(self.publish)
        self.received.connect(self._received, Qt.ConnectionType.QueuedConnection)
        model.reset.connect(self._game_shown)
        model.appended.connect(self.soon)
        model.pending_changed.connect(self.soon)
        self._game_shown()

    # -- the umpire's controls ------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    def start(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        certfile: str | Path | None = None,
        keyfile: str | Path | None = None,
    ) -> None:
        """Serve the pages on ``host`` (``PlayersServerError`` says why not)."""
        self.stop()
        server = PlayersServer(
            self.tokens,
            self.received.emit,
            host=host,
            port=port,
            certfile=certfile,
            keyfile=keyfile,
        )
        server.start()
        self.server = server
        self.publish()
        self.model.draft.changed.connect(self._draft_changed)
        self.changed.emit()

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
            self.model.draft.changed.disconnect(self._draft_changed)
            self.changed.emit()

    def revoke(self, side: str) -> str:
        """The side's link stops working now (its open pages say so); its new link."""
        self.tokens.revoke(side)
        if self.server is not None:
            self.server.revoked()
        self.changed.emit()
        return self.link(side)

    def link(self, side: str) -> str:
        if self.server is None:
            return ""
        return self.server.link(side)

    def links(self) -> dict[str, str]:
        return {side: self.link(side) for side in self.tokens.by_side}

    # -- making the views ------------------------------------------------------------------------

    def _game_shown(self) -> None:
        """Another game (or none): new tokens for its sides, the old links refused."""
        session = self.model.session_or_none
        game = (session.store.where, session.game_id) if session is not None else None
        if game != self._game:
            self._game = game
            self._cards, self._asks = {}, {}
            if session is None:
                self.tokens.clear()
            else:
                self.tokens.new_game(session.engagement.sides)
            if self.server is not None:
                self.server.revoked()
            self.changed.emit()
        self.soon()

    def soon(self, *_: object) -> None:
        if self.server is not None and not self._soon.isActive():
            self._soon.start()

    def _draft_changed(self, *_: object) -> None:
        """The Combat form changed: republish only if the dice its line asks for did."""
        d = self.model.draft
        seen = (d.line, tuple((s.label, s.name) for s in d.slots) if d.line else ())
        if seen != self._draft_seen:
            self._draft_seen = seen
            self._asks.clear()
            self.soon()

    def publish(self) -> None:
        """Each side's view now, handed to the server (and entries whose lines are gone
        closed, their pages told)."""
        if self.server is None:
            return
        if self._publishing:
            self.soon()
            return
        self._publishing = True
        try:
            self._publish(self.server)
        finally:
            self._publishing = False

    def _publish(self, server: PlayersServer) -> None:
        self.version += 1
        session = self.model.session_or_none
        if session is None:
            server.publish(Published(self.version))
            self.published.emit(self.version)
            return
        e = session.engagement
        rs = session.ruleset
        rows = self.model.turn_rows_now()
        if rows is None:
            return
        new = [s for s in e.sides if s not in self.tokens.by_side]
        if new:
            self.tokens.add_sides(new)
            self.changed.emit()
        open_lines = [line_of(r) for r in rows["acting"] if r["procedure"] and not r["done"]]
        # what was sent for a line resolved or left behind: closed, its page told (below)
        self.model.pending.close_gone(open_lines, "the line was resolved or left behind")
        if self._asks_of != id(e):
            self._asks, self._asks_of = {}, id(e)
        views: dict[str, bytes] = {}
        cards: dict[str, Mapping[str, bytes]] = {}
        asks: dict[str, Mapping[str, Mapping[str, Any]]] = {}
        labels: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        self._card_until = time.perf_counter() + CARD_BUDGET
        self._cards_owed = False
        for side in e.sides:
            known = rs.known_enemies(e, side)
            scrub = Scrub(e, side, known)
            side_asks: dict[LineKey, dict[str, Any]] = {}
            for r in rows["acting"]:
                if not r["procedure"] or r["done"] or not is_mine(e, r["who"], side):
                    continue
                key = line_of(r)
                raw = self._ask(key, r)
                if raw is None:
                    continue
                page = dict(raw)
                if raw["kind"] == "dice":
                    page["slots"] = [slot_json(s, scrub) for s in raw["slots"]]
                    labels[(side, key_text(key))] = tuple((s.label, s.name) for s in raw["slots"])
                side_asks[key] = page
            made = (self._card(a) for a in e.on_side(side))
            side_cards = dict(c for c in made if c is not None)
            view = side_view(
                side,
                engagement=e,
                game=e.title,
                ruleset_title=rs.title,
                rows=rows,
                known=known,
                asks=side_asks,
                cards=list(side_cards),
                book=self.model.pending,
            )
            views[side] = encode(view, self.version)
            cards[side] = MappingProxyType(side_cards)
            asks[side] = MappingProxyType({key_text(k): v for k, v in side_asks.items()})
        self._labels = MappingProxyType(labels)
        server.publish(
            Published(
                self.version,
                MappingProxyType(views),
                MappingProxyType(cards),
                MappingProxyType(asks),
            )
        )
        self.published.emit(self.version)
        if self._cards_owed:
            self.soon()  # the cards not made in this one's time

    def _ask(self, key: LineKey, row: Any) -> dict[str, Any] | None:
        """What this open line asks of its side's page (cached per state of the game)."""
        cache = (self._asks_of, key)
        if cache in self._asks:
            return self._asks[cache]
        ask = self._make_ask(key, row)
        self._asks[cache] = ask
        return ask

    def _make_ask(self, key: LineKey, row: Any) -> dict[str, Any] | None:
        rs, e = self.model.ruleset, self.model.engagement
        pid, who, other = key
        proc = rs.procedures.get(pid)
        if proc is None or pid == rs.initiative:
            return None
        secret = getattr(rs, "secret_inputs", {}).get(pid)
        if secret:
            sealed = rs.written_plot(e, ActingLine(who, row["what"], procedure=pid, other=other))
            return {"kind": "plot", "fields": plot_fields(proc, secret), "sealed": sealed}
        if isinstance(proc, Calculator):
            return None  # no dice to roll
        d = self.model.draft
        if d.line == ActingLine(who, "", procedure=pid, other=other) and d.prepared is not None:
            slots = d.slots
        else:
            try:
                p = self.model.actions.prepare(
                    pid, line_roles(proc, e, who, other or None), check=False
                )
            except (RuleViolation, ValueError) as err:
                return {"kind": "wait", "note": f"Not now: {err}"}
            slots = pools(p.dice)
        if not slots:
            return {
                "kind": "wait",
                "note": "The dice are shown here once the umpire has set up this roll.",
            }
        return {"kind": "dice", "slots": slots}

    def _card(self, a: Any) -> tuple[str, bytes] | None:
        """An aircraft's card: its key and its HTML (as a JSON string), made again only when
        the aircraft or the game's title or variants changed (then with a new key). Past this
        publish's time for cards, the card as last made (or none yet) and another publish
        owed."""
        session = self.model.session
        e = session.engagement
        stamp = (e.title, e.variants)
        made = self._cards.get(a.id)
        if made is not None and made[0] is a and made[1] == stamp:
            return made[2], made[3]
        if time.perf_counter() > self._card_until:
            self._cards_owed = True
            return (made[2], made[3]) if made is not None else None
        html = json.dumps(card_html(card_face(session.ruleset, e, a))).encode()
        if made is not None and html == made[3]:
            made = (a, stamp, made[2], html)  # the same card: the pages have it
        else:
            self._card_count += 1
            made = (a, stamp, f"{a.id}:{self._card_count}", html)
        self._cards[a.id] = made
        return made[2], made[3]

    # -- what a page sent ------------------------------------------------------------------------

    def _received(self, sent: Sent) -> None:
        """On the GUI thread: a page's dice or plot, checked against the game as it is now,
        pending on its line; refused ones are said on the page."""
        session = self.model.session_or_none
        if session is None or self.tokens.by_side.get(sent.side) is None:
            return
        e = session.engagement
        rows = self.model.turn_rows_now()
        row = next(
            (
                r
                for r in (rows["acting"] if rows else [])
                if key_text(line_of(r)) == sent.line and r["procedure"] and not r["done"]
            ),
            None,
        )
        if row is None or not is_mine(e, row["who"], sent.side):
            return  # gone since the page saw it: its page sees the line gone
        key = line_of(row)
        ask = self._ask(key, row)
        if ask is None:
            return
        clock = (e.turn, e.step)
        if sent.dice:
            labels = self._labels.get((sent.side, sent.line), ())
            if len(labels) != len(sent.dice):
                return
            dice = [(label, die, t) for (label, die), t in zip(labels, sent.dice, strict=True)]
            self.model.pending.add(sent.side, key, row["name"], row["what"], dice=dice, clock=clock)
        else:
            titles = {f["name"]: f["title"] for f in ask.get("fields", ())}
            plot = [(n, titles.get(n, n), v) for n, v in sent.plot.items()]
            self.model.pending.add(
                sent.side,
                key,
                row["name"],
                row["what"],
                plot=plot,
                written=bool(ask.get("sealed")),
                clock=clock,
            )
        self.model.pending_changed.emit()
