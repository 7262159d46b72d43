"""The server's own code: the only way a station writes to a club's server (issue 46).

Stations hold no INSERT, UPDATE or DELETE on any table. They call these functions, which run
as the server's owner (``SECURITY DEFINER``, their ``search_path`` pinned) and check what they
are given before they write it:

- ``airboss_append(game, events)``: one action's events, each of the shape ``Store`` writes
  (its fields and nothing else, each of its type and within the documented limits
  ``app.core.limits``, the payload a JSON object of the event's own kind), numbered from the
  log's next seq (an action numbered otherwise is refused as a lost race, SQLSTATE 23505, as
  the log's unique key refused it before); each event's hash is made here, on the server, the
  way ``app.store.chain.event_hash`` makes it, so a station cannot choose it. Every station
  LISTENing on the game hears the append at its commit. Returns the newest event's hash.
- ``airboss_add_game(id, ruleset, title, variants, created)``: a new game's row, checked.
- ``airboss_save_snapshot(game, seq, data)``: a snapshot of the game at an event of its log,
  the event's hash (its ``head``) taken from the log here. A snapshot says what a station
  says: a reader trusts it only once it agreed with a replay of the log
  (``app.store.trusted_snapshots``).
- ``airboss_watching(listen)``: how many connections follow a game (their last statement its
  ``LISTEN``), without a station reading what other connections run.

Installed by the owner (``app.store.migrate``, run by ``airboss club-server start``); executed
by nobody else until ``app.club_server`` grants it. The SQL is written out here as literals:
no value ever becomes SQL text (issue 30), every value a parameter.
"""

from __future__ import annotations

from app.core import limits

#: ``airboss_info``'s key for the version of these functions on a server, and this version's
VERSION_KEY = "functions"
VERSION = "46.1"
#: the right to run them, granted to the station group and to the viewer group (``{}`` is the
#: group, quoted by psycopg as an identifier)
STATION_GRANTS = (
    "GRANT EXECUTE ON FUNCTION public.airboss_append(text, jsonb) TO {}",
    "GRANT EXECUTE ON FUNCTION public.airboss_add_game(text, text, text, text, text) TO {}",
    "GRANT EXECUTE ON FUNCTION public.airboss_save_snapshot(text, integer, bytea) TO {}",
    "GRANT EXECUTE ON FUNCTION public.airboss_watching(text) TO {}",
)
VIEWER_GRANTS = ("GRANT EXECUTE ON FUNCTION public.airboss_watching(text) TO {}",)

#: the limits the functions enforce, as ``app.core.limits`` documents them (a test checks the
#: numbers written in the SQL below against these)
LIMITS = {
    "MAX_TEXT": limits.MAX_TEXT,
    "MAX_PAYLOAD": limits.MAX_PAYLOAD,
    "MAX_EVENTS": limits.MAX_EVENTS,
    "MAX_SNAPSHOT": limits.MAX_SNAPSHOT,
}

APPEND = r"""
CREATE OR REPLACE FUNCTION public.airboss_append(p_game text, p_events jsonb)
RETURNS text
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    e jsonb;
    body jsonb;
    n integer := 0;
    expected integer;
    prev text;
    v_seq integer;
    v_action integer;
    v_time text;
    v_actor text;
    v_rule text;
    v_narrative text;
    v_kind text;
    v_payload text;
    v_uid text;
    v_hash text;
BEGIN
    IF p_game IS NULL OR jsonb_typeof(p_events) IS DISTINCT FROM 'array'
            OR jsonb_array_length(p_events) NOT BETWEEN 1 AND 10000 THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
            MESSAGE = 'an action is a list of 1 to 10,000 events';
    END IF;
    PERFORM 1 FROM public.game WHERE id = p_game;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'the server holds no such game';
    END IF;
    SELECT coalesce(max(seq), 0) + 1 INTO expected FROM public.event WHERE game_id = p_game;
    prev := coalesce(
        (SELECT hash FROM public.event WHERE game_id = p_game AND seq = expected - 1), '');
    FOR e IN SELECT value FROM jsonb_array_elements(p_events) LOOP
        n := n + 1;
        IF jsonb_typeof(e) IS DISTINCT FROM 'object'
                OR (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(e) AS k)
                    IS DISTINCT FROM ARRAY['action', 'actor', 'kind', 'narrative', 'payload',
                                           'rule', 'seq', 'time', 'uid']
                OR jsonb_typeof(e->'seq') IS DISTINCT FROM 'number'
                OR jsonb_typeof(e->'action') IS DISTINCT FROM 'number'
                OR (e->>'seq') !~ '^[0-9]{1,9}$' OR (e->>'action') !~ '^[0-9]{1,9}$'
                OR jsonb_typeof(e->'time') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e->'actor') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e->'rule') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e->'narrative') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e->'kind') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e->'payload') IS DISTINCT FROM 'string'
                OR jsonb_typeof(e->'uid') NOT IN ('string', 'null') THEN
            RAISE EXCEPTION USING ERRCODE = '22023',
                MESSAGE = format('event %s of the action is not of the shape Airboss writes', n);
        END IF;
        v_seq := (e->>'seq')::integer;
        v_action := (e->>'action')::integer;
        v_time := e->>'time';
        v_actor := e->>'actor';
        v_rule := e->>'rule';
        v_narrative := e->>'narrative';
        v_kind := e->>'kind';
        v_payload := e->>'payload';
        v_uid := e->>'uid';
        IF v_seq <> expected THEN
            -- the log's next seq was taken first: a lost race, as the unique key says it
            RAISE EXCEPTION USING ERRCODE = '23505',
                MESSAGE = format('seq %s is not the next of the log (%s)', v_seq, expected);
        END IF;
        IF v_seq > 10000000 THEN
            RAISE EXCEPTION USING ERRCODE = '22023',
                MESSAGE = 'the game holds 10,000,000 events, the most one game may';
        END IF;
        IF v_action < 1 OR v_action > v_seq
                OR v_time !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}$'
                OR to_char(v_time::timestamp, 'YYYY-MM-DD HH24:MI:SS.US') <> v_time
                OR length(v_actor) NOT BETWEEN 1 AND 64
                OR length(v_rule) > 200
                OR length(v_narrative) > 10000
                OR v_kind !~ '^[a-z][a-z0-9_]{0,63}$'
                OR length(v_payload) > 1000000
                OR (v_uid IS NOT NULL AND v_uid !~ '^[A-Za-z0-9_-]{1,72}/[0-9]{1,6}$') THEN
            RAISE EXCEPTION USING ERRCODE = '22023',
                MESSAGE = format('event seq %s: a field is not what Airboss writes', v_seq);
        END IF;
        BEGIN
            body := v_payload::jsonb;
        EXCEPTION WHEN others THEN
            RAISE EXCEPTION USING ERRCODE = '22023',
                MESSAGE = format('event seq %s: its payload is not JSON', v_seq);
        END;
        IF jsonb_typeof(body) IS DISTINCT FROM 'object' OR body->>'kind' IS DISTINCT FROM v_kind
        THEN
            RAISE EXCEPTION USING ERRCODE = '22023',
                MESSAGE = format('event seq %s: its payload is not a %s event', v_seq, v_kind);
        END IF;
        v_hash := encode(sha256(convert_to(
            length(prev)::text || ':' || prev || '|'
            || length(p_game)::text || ':' || p_game || '|'
            || length(v_seq::text)::text || ':' || v_seq::text || '|'
            || length(v_action::text)::text || ':' || v_action::text || '|'
            || '26:' || v_time || '|'
            || length(v_actor)::text || ':' || v_actor || '|'
            || length(v_rule)::text || ':' || v_rule || '|'
            || length(v_narrative)::text || ':' || v_narrative || '|'
            || length(v_kind)::text || ':' || v_kind || '|'
            || length(v_payload)::text || ':' || v_payload || '|'
            || CASE WHEN v_uid IS NULL THEN '-|'
                    ELSE length(v_uid)::text || ':' || v_uid || '|' END,
            'UTF8')), 'hex');
        INSERT INTO public.event
            (game_id, seq, action, time, actor, rule, narrative, kind, payload, uid, hash)
        VALUES (p_game, v_seq, v_action, v_time::timestamp, v_actor, v_rule, v_narrative,
                v_kind, v_payload, v_uid, v_hash);
        prev := v_hash;
        expected := expected + 1;
    END LOOP;
    PERFORM pg_notify(left('airboss_' || p_game, 63), (expected - 1)::text);
    RETURN prev;
END
$fn$
"""

ADD_GAME = r"""
CREATE OR REPLACE FUNCTION public.airboss_add_game(
    p_id text, p_ruleset text, p_title text, p_variants text, p_created text)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v jsonb;
BEGIN
    IF coalesce(p_id, '') !~ '^[A-Za-z0-9_-]{1,64}$'
            OR coalesce(p_ruleset, '') !~ '^[A-Za-z0-9_.-]{1,64}$'
            OR p_title IS NULL OR length(p_title) > 200
            OR p_variants IS NULL OR length(p_variants) > 10000
            OR (p_created IS NOT NULL AND p_created
                !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}$') THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
            MESSAGE = 'the game''s id, ruleset, title or variants are not what Airboss writes';
    END IF;
    BEGIN
        v := p_variants::jsonb;
    EXCEPTION WHEN others THEN
        v := NULL;
    END;
    IF jsonb_typeof(v) IS DISTINCT FROM 'array' OR EXISTS (
            SELECT 1 FROM jsonb_array_elements(v) AS x WHERE jsonb_typeof(x) <> 'string') THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
            MESSAGE = 'the game''s variants are not a list of names';
    END IF;
    INSERT INTO public.game (id, ruleset, title, variants, created)
    VALUES (p_id, p_ruleset, p_title, p_variants,
            coalesce(p_created::timestamp, now() AT TIME ZONE 'UTC'));
END
$fn$
"""

SAVE_SNAPSHOT = r"""
CREATE OR REPLACE FUNCTION public.airboss_save_snapshot(
    p_game text, p_seq integer, p_data bytea)
RETURNS boolean
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_head text;
BEGIN
    IF p_data IS NULL OR length(p_data) > 256000000 THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'a snapshot over its size limit';
    END IF;
    SELECT hash INTO v_head FROM public.event WHERE game_id = p_game AND seq = p_seq;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
            MESSAGE = 'a snapshot of an event the log does not hold';
    END IF;
    INSERT INTO public.snapshot (game_id, seq, data, head)
    VALUES (p_game, p_seq, p_data, v_head)
    ON CONFLICT DO NOTHING;
    RETURN FOUND;
END
$fn$
"""

WATCHING = r"""
CREATE OR REPLACE FUNCTION public.airboss_watching(p_listen text)
RETURNS bigint
LANGUAGE sql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND query = p_listen
      AND p_listen ~ '^LISTEN "airboss_[A-Za-z0-9_-]{0,55}"$'
$fn$
"""

#: every function, then the revocation of the right to run them from everyone (PostgreSQL
#: gives it to PUBLIC): ``app.club_server`` grants it to the station and viewer roles
INSTALL = (
    APPEND,
    ADD_GAME,
    SAVE_SNAPSHOT,
    WATCHING,
    "REVOKE ALL ON FUNCTION public.airboss_append(text, jsonb) FROM PUBLIC",
    "REVOKE ALL ON FUNCTION public.airboss_add_game(text, text, text, text, text) FROM PUBLIC",
    "REVOKE ALL ON FUNCTION public.airboss_save_snapshot(text, integer, bytea) FROM PUBLIC",
    "REVOKE ALL ON FUNCTION public.airboss_watching(text) FROM PUBLIC",
)
