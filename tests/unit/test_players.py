"""The players' own screens, without Qt or a browser (issue 48): tokens, pending entries,
what a side's view holds (Phantoms 13.0 spotting hides the enemy it has not spotted; nothing of
the other side's lines, dice or plots), the card as HTML, and the server's checks of every
request (Starlette's test client)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.core.card_face import card_face
from app.core.dice import TableDice
from app.core.ruleset import KeyValues, Lines, Table, Track
from app.players.card_html import block_html, card_html
from app.players.pending import PendingBook
from app.players.server import MAX_BODY, SENDS_PER_WINDOW, PlayersServer, Published, Sent
from app.players.side_view import UNSEEN, Scrub, encode, side_view
from app.players.tokens import SideTokens
from app.session import GameSession
from app.startup.summary import safe_steps, turn_rows

VISUAL = {"spotter_pilot": "average", "target_altitude": 3, "range_hexes": 2}


@pytest.fixture
def spotting(tmp_path: Path) -> Iterator[GameSession]:
    """Phantoms with 13.0 spotting: Olds 1 (USAF) has seen MiG 1; nobody has seen MiG 2."""
    s = GameSession.create(tmp_path / "spot.airboss", "phantoms", "Spotting", variants=["spotting"])
    s.add_aircraft("USAF", "f4e", "Olds 1")
    s.add_aircraft("VPAF", "mig21", "MiG 1")
    s.add_aircraft("VPAF", "mig21", "MiG 2")
    s.perform(
        "visual_spot", {**VISUAL, "attacker": "olds-1", "target": "mig-1"}, TableDice([10, 1])
    )
    yield s
    s.close()


def view_of(s: GameSession, side: str, book: PendingBook | None = None) -> dict[str, Any]:
    steps, error = safe_steps(s)
    rows = turn_rows(s, steps, error, set())
    e = s.engagement
    return side_view(
        side,
        engagement=e,
        game=e.title,
        ruleset_title=s.ruleset.title,
        rows=rows,
        known=s.ruleset.known_enemies(e, side),
        asks={},
        cards=[a.id for a in e.on_side(side)],
        book=book or PendingBook(),
    )


# -- 13.0: a side sees the enemy it has spotted -----------------------------------------------


def test_13_0_a_side_knows_the_enemies_it_has_spotted(spotting: GameSession) -> None:
    rs, e = spotting.ruleset, spotting.engagement
    assert rs.known_enemies(e, "USAF") == frozenset({"mig-1"})
    assert rs.known_enemies(e, "VPAF") == frozenset()  # no MiG has spotted Olds 1


def test_13_0_without_the_optional_rule_everyone_is_seen(tmp_path: Path) -> None:
    with GameSession.create(tmp_path / "g.airboss", "phantoms", "No spotting") as s:
        s.add_aircraft("USAF", "f4e", "Olds 1")
        s.add_aircraft("VPAF", "mig21", "MiG 1")
        assert s.ruleset.known_enemies(s.engagement, "USAF") is None
        names = [a["name"] for a in view_of(s, "USAF")["enemy"]]
        assert names == ["MiG 1"]  # as the Player display shows it


def test_the_view_hides_an_unspotted_enemy_everywhere(spotting: GameSession) -> None:
    view = view_of(spotting, "USAF")
    assert [a["name"] for a in view["enemy"]] == ["MiG 1"]
    assert view["spotting"] is True
    text = json.dumps(view)
    assert "MiG 2" not in text and "mig-2" not in text
    vpaf = json.dumps(view_of(spotting, "VPAF"))
    assert "Olds 1" not in vpaf  # the MiGs have seen nobody
    assert [a["name"] for a in view_of(spotting, "VPAF")["own"]] == ["MiG 1", "MiG 2"]


def test_a_text_never_names_an_unspotted_enemy(spotting: GameSession) -> None:
    e = spotting.engagement
    scrub = Scrub(e, "USAF", spotting.ruleset.known_enemies(e, "USAF"))
    assert scrub("gun attack: MiG 2 defends; MiG 1 watches") == (
        f"gun attack: {UNSEEN} defends; MiG 1 watches"
    )
    assert Scrub(e, "USAF", None)("MiG 2") == "MiG 2"  # no spotting rule: all seen


def test_the_view_shows_own_cards_only(spotting: GameSession) -> None:
    assert view_of(spotting, "USAF")["cards"] == ["olds-1"]
    assert view_of(spotting, "VPAF")["cards"] == ["mig-1", "mig-2"]
    e = spotting.engagement
    html = card_html(card_face(spotting.ruleset, e, e.get("olds-1")))
    assert "<h2>Olds 1</h2>" in html and "MiG" not in html


def test_a_side_never_sees_the_other_sides_entries(spotting: GameSession) -> None:
    book = PendingBook()
    e = spotting.engagement
    clock = (e.turn, e.step)
    book.add(
        "VPAF", ("gun_attack", "mig-1", ""), "MiG 1", "fires", dice=[("d", "d10", "9")], clock=clock
    )
    book.add(
        "USAF",
        ("gun_attack", "olds-1", ""),
        "Olds 1",
        "fires",
        dice=[("d", "d10", "3")],
        clock=clock,
    )
    usaf = view_of(spotting, "USAF", book)
    assert [en["text"] for en in usaf["entries"]] == ["Sent 3: waiting for the umpire"]
    assert "9" not in json.dumps(usaf["entries"])


# -- tokens and pending entries ---------------------------------------------------------------


def test_tokens_one_per_side_new_each_game_and_revoked() -> None:
    t = SideTokens()
    t.new_game(["Blue", "Red"])
    blue, red = t.by_side["Blue"], t.by_side["Red"]
    assert len(blue) >= 40 and blue != red
    assert t.side_of(blue) == "Blue" and t.side_of(red) == "Red"
    new = t.revoke("Blue")
    assert t.side_of(blue) is None and t.side_of(new) == "Blue"
    t.new_game(["Blue", "Red"])
    assert t.side_of(new) is None and t.side_of(red) is None
    assert t.side_of("") is None and t.side_of("x" * 500) is None


def test_a_newer_entry_on_a_line_replaces_the_pending_one() -> None:
    book = PendingBook()
    line = ("break_off", "olds-1", "")
    first = book.add("USAF", line, "Olds 1", "breaks off", dice=[("a", "d10", "7")])
    second = book.add("USAF", line, "Olds 1", "breaks off", dice=[("a", "d10", "8")])
    assert book.on_line(line) == second
    assert book.get(first.id) is not None and book.get(first.id).state == "closed"  # type: ignore[union-attr]
    assert second.desk_text(True) == "Olds 1's player typed 8"
    book.reject(second, "rolled off the table")
    assert book.on_line(line) is None
    assert book.of_side("USAF")[0].page_text() == "The umpire rejected 8: rolled off the table"


def test_rule_2_a_written_plot_is_sealed_until_every_plot_is_in() -> None:
    """Advanced Air Force rule 2: the movements are written secretly; none is seen before all
    are written."""
    book = PendingBook()
    a, b = ("speed_change", "a", ""), ("speed_change", "b", "")
    plot = [("power_used", "Power used", 2)]
    entry = book.add("Blue", a, "A", "writes", plot=plot, written=True, clock=(1, 0))
    assert not book.revealed([a, b], [], (1, 0))
    assert entry.desk_text(False) == "A's player wrote the plot (sealed until every plot is in)"
    book.add("Red", b, "B", "writes", plot=plot, written=True, clock=(1, 0))
    assert book.revealed([a, b], [], (1, 0))
    assert entry.desk_text(True) == "A's player wrote: Power used 2"
    assert not book.revealed([a, b], [], (2, 0))  # next Game-Turn: new plots
    assert book.revealed([a], [a], (2, 0))  # a line resolved at the desk needs none


# -- the card as HTML ----------------------------------------------------------------------------


def test_card_blocks_as_html_escape_and_show_the_track() -> None:
    html = block_html(Track("Damage", 5, 2, grey_from=4, note="2 of 5"))
    assert html.count('class="box used') == 2 and html.count("box") == 5
    assert 'aria-label="2 of 5 used"' in html and "grey" in html
    assert "&lt;b&gt;" in block_html(KeyValues("Data", (("<b>", "1"),)))
    table = block_html(Table("Guns", ("Range", "Hits"), (("1", "3"),)))
    assert "<th>Range</th>" in table and "<td>3</td>" in table
    assert "<li>none</li>" in block_html(Lines("Critical hits", ("none",)))


# -- the server's checks (Starlette's test client) -----------------------------------------------

ASKS = {
    "Blue": {
        "break_off|blue-1|": {
            "kind": "dice",
            "slots": [
                {"label": "break-off", "die": "d10", "hint": "", "count": 1, "low": 0, "high": 10}
            ],
        }
    },
    "Red": {
        "speed_change|red-1|": {
            "kind": "plot",
            "sealed": True,
            "fields": [
                {"name": "power_used", "title": "Power used", "kind": "int", "low": 0, "high": 10},
                {"name": "inverted", "title": "Inverted", "kind": "bool"},
            ],
        }
    },
}


@pytest.fixture
def served() -> Iterator[tuple[PlayersServer, TestClient, list[Sent]]]:
    tokens = SideTokens()
    tokens.new_game(["Blue", "Red"])
    got: list[Sent] = []
    server = PlayersServer(tokens, got.append)
    views = {s: encode({"side": s, "secret": f"{s} only"}, 1) for s in ("Blue", "Red")}
    cards = {s: {f"{s}-1:1": json.dumps(f"<h2>{s} 1</h2>").encode()} for s in ("Blue", "Red")}
    server.publish(Published(1, views, cards, ASKS))
    with TestClient(server.app, base_url="http://127.0.0.1") as client:
        yield server, client, got


def path(server: PlayersServer, side: str, what: str = "") -> str:
    return f"/s/{server.tokens.by_side[side]}" + (f"/{what}" if what else "")


def test_a_token_sees_its_own_side_only(served: Any) -> None:
    server, client, _ = served
    blue = client.get(path(server, "Blue", "state")).json()
    assert blue["secret"] == "Blue only" and blue["card_html"] == {"Blue-1:1": "<h2>Blue 1</h2>"}
    assert client.get(path(server, "Red", "state")).json()["secret"] == "Red only"
    assert client.get("/s/" + "A" * 43 + "/state").status_code == 404
    page = client.get(path(server, "Blue"))
    assert page.status_code == 200 and "page.js" in page.text
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert "set-cookie" not in page.headers
    assert client.get("/static/../server.py").status_code == 404


def test_one_sides_token_cannot_send_for_the_other(served: Any) -> None:
    server, client, got = served
    r = client.post(path(server, "Red", "send"), json={"line": "break_off|blue-1|", "dice": ["7"]})
    assert r.status_code == 409 and got == []
    r = client.post(path(server, "Blue", "send"), json={"line": "break_off|blue-1|", "dice": ["7"]})
    assert r.status_code == 202
    assert got == [Sent("Blue", "break_off|blue-1|", dice=("7",))]


def test_a_revoked_token_is_refused(served: Any) -> None:
    server, client, _ = served
    old = path(server, "Blue", "state")
    server.tokens.revoke("Blue")
    assert client.get(old).status_code == 404
    assert client.get(path(server, "Blue", "state")).status_code == 200


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        (b"x" * (MAX_BODY + 1), {"content-type": "application/json"}, 413),
        (b'{"line": "break_off|blue-1|", "dice": ["7"]}', {"content-type": "text/plain"}, 415),
        (b"not json", {"content-type": "application/json"}, 400),
        (b'{"line": "break_off|blue-1|", "dice": [7]}', {"content-type": "application/json"}, 400),
        (
            b'{"line": "break_off|blue-1|", "dice": ["7"], "cookie": 1}',
            {"content-type": "application/json"},
            400,
        ),
        (
            b'{"line": "break_off|blue-1|", "dice": ["11"]}',
            {"content-type": "application/json"},
            409,
        ),
        (
            b'{"line": "break_off|blue-1|", "dice": ["1 2"]}',
            {"content-type": "application/json"},
            409,
        ),
        (b'{"line": "break_off|blue-1|", "dice": [""]}', {"content-type": "application/json"}, 409),
        (b'{"line": "other|x|", "dice": ["7"]}', {"content-type": "application/json"}, 409),
        (
            b'{"line": "break_off|blue-1|", "dice": ["7"]}',
            {"content-type": "application/json", "origin": "http://evil.example"},
            403,
        ),
    ],
)
def test_every_request_is_checked(
    served: Any, body: bytes, headers: dict[str, str], status: int
) -> None:
    server, client, got = served
    r = client.post(path(server, "Blue", "send"), content=body, headers=headers)
    assert r.status_code == status, r.text
    assert "error" in r.json() and got == []


def test_a_plot_is_checked_field_by_field(served: Any) -> None:
    server, client, got = served
    send = path(server, "Red", "send")
    line = "speed_change|red-1|"
    assert client.post(send, json={"line": line, "plot": {"power_used": 11}}).status_code == 409
    assert client.post(send, json={"line": line, "plot": {"inverted": 1}}).status_code == 409
    assert client.post(send, json={"line": line, "plot": {"slips": 1}}).status_code == 409
    assert client.post(send, json={"line": line, "dice": ["3"]}).status_code == 409
    r = client.post(send, json={"line": line, "plot": {"power_used": 2, "inverted": True}})
    assert r.status_code == 202
    assert got == [Sent("Red", line, plot={"power_used": 2, "inverted": True})]


def test_sending_is_rate_limited(served: Any) -> None:
    server, client, got = served
    send = path(server, "Blue", "send")
    codes = [
        client.post(send, json={"line": "break_off|blue-1|", "dice": ["7"]}).status_code
        for _ in range(SENDS_PER_WINDOW + 3)
    ]
    assert codes[:SENDS_PER_WINDOW] == [202] * SENDS_PER_WINDOW
    assert codes[SENDS_PER_WINDOW:] == [429] * 3
    assert len(got) == SENDS_PER_WINDOW
    # the other side is not held back by it
    assert client.get(path(server, "Red", "state")).status_code == 200


def test_the_live_stream_sends_each_card_once_per_change_and_says_revoked() -> None:
    """A page's live connection (what a browser's EventSource reads): the cards, then the
    view; on a new view only the cards that changed; a revoked token ends it, said."""
    import httpx2

    tokens = SideTokens()
    tokens.new_game(["Blue", "Red"])
    server = PlayersServer(tokens, lambda sent: None)
    card = {"Blue": {"b1:1": b'"<h2>B1</h2>"', "b2:1": b'"<h2>B2</h2>"'}}
    server.publish(Published(1, {"Blue": encode({"n": 1}, 1)}, card, {}))
    server.start()
    events: list[tuple[str, str]] = []
    try:
        with httpx2.stream("GET", server.link("Blue") + "/events", timeout=10) as r:
            lines = r.iter_lines()
            event = ""

            def read_until_view() -> None:
                nonlocal event
                for line in lines:
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: "):
                        events.append((event, line[6:]))
                        if event in ("view", "revoked"):
                            return

            read_until_view()
            assert [e for e, _ in events] == ["card", "card", "view"]
            assert json.loads(events[0][1]) == {"key": "b1:1", "html": "<h2>B1</h2>"}
            events.clear()
            changed = {"Blue": {"b1:1": card["Blue"]["b1:1"], "b2:2": b'"<h2>B2 hit</h2>"'}}
            server.publish(Published(2, {"Blue": encode({"n": 2}, 2)}, changed, {}))
            read_until_view()
            assert events == [
                ("card", '{"key":"b2:2","html":"<h2>B2 hit</h2>"}'),
                ("view", '{"n":2,"version":2}'),
            ]
            events.clear()
            tokens.revoke("Blue")
            server.revoked()
            read_until_view()
            assert events == [("revoked", "{}")]
    finally:
        server.stop()
    assert not server.running
