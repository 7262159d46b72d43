"""A club server you can trust (issue 30), on the private PostgreSQL server of ``conftest.py``:
nothing a game holds (its id, title, aircraft names, ruleset id) ever becomes SQL."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import psycopg
import pytest

from app.session import GameSession, opening
from app.store import StoreError

#: what an attacker writes into a game: each would run SQL if it were pasted into a statement
PAYLOADS = (
    'y";CREATE TABLE pwned_id(x int);--',
    "t'); CREATE TABLE pwned_title(x int);--",
    "n'); DROP TABLE event;--",
    "r';CREATE TABLE pwned_rs(x int);--",
)


def _public_tables(url: str) -> list[str]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return sorted(r[0] for r in rows)


def test_injection_through_game_id_title_aircraft_and_ruleset_changes_nothing(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game file whose game id, title and aircraft name are SQL is copied to the server and
    followed by a read-only desk (which LISTENs on the game's channel); a game row naming a
    ruleset that is SQL is opened. No table is made or dropped, and every text is stored as
    typed."""
    import app.session.opening

    bad_id, title, name, ruleset = PAYLOADS
    monkeypatch.setattr(app.session.opening.uuid, "uuid4", lambda: SimpleNamespace(hex=bad_id))
    worst = GameSession.create(tmp_path / "worst.airboss", ruleset="skirmish", title=title)
    monkeypatch.undo()
    GameSession.create(pg_url, ruleset="skirmish", title="Good").close()  # the schema is there
    before = _public_tables(pg_url)
    # issue 46: the server's own function takes only a game id of the shape Airboss makes
    with pytest.raises(StoreError, match="the server refused it .the game's id") as e:
        worst.save_copy(pg_url)
    assert "nothing was copied" in str(e.value)
    worst.close()
    game_id = "0123456789abcdef0123456789abcdef"
    monkeypatch.setattr(app.session.opening.uuid, "uuid4", lambda: SimpleNamespace(hex=game_id))
    home = GameSession.create(tmp_path / "bad.airboss", ruleset="skirmish", title=title)
    monkeypatch.undo()
    home.add_aircraft(side="Blue", type_id="jet", name=name)
    home.save_copy(pg_url)
    with GameSession.open(pg_url, game=game_id, read_only=True) as desk:
        assert desk.log.follow() is not None  # LISTEN on the game's channel: quoted, not run
        assert desk.title == title
        assert [a.name for a in desk.engagement.aircraft.values()] == [name]
        watching = desk.store.watching(game_id)
    assert watching == 1
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO game (id, ruleset, title, variants, created) "
            "VALUES ('rs', %s, 'Ruleset', '[]', now())",
            (ruleset,),
        )
    with pytest.raises(StoreError, match="ruleset that is not installed"):
        GameSession.open(pg_url, game="rs", read_only=True)
    overview = {r["id"]: r for r in opening.overview(pg_url)}
    assert overview[game_id]["title"] == title
    assert _public_tables(pg_url) == before
    home.close()
