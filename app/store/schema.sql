-- The schema of a new Airboss game file: the SQLModel tables (app/store/tables) compiled
-- for SQLite by `python -m app.store.schema_sql`. Do not edit: regenerate it.
CREATE TABLE airboss_info (
	"key" VARCHAR(64) NOT NULL,
	value VARCHAR(200) NOT NULL,
	PRIMARY KEY ("key")
);
CREATE TABLE game (
	ruleset VARCHAR(64) NOT NULL,
	title VARCHAR(200) NOT NULL,
	variants VARCHAR NOT NULL,
	created DATETIME NOT NULL,
	id VARCHAR(64) NOT NULL,
	PRIMARY KEY (id)
);
CREATE TABLE event (
	seq INTEGER NOT NULL,
	action INTEGER NOT NULL,
	time DATETIME NOT NULL,
	actor VARCHAR(64) NOT NULL,
	rule VARCHAR(200) NOT NULL,
	narrative TEXT NOT NULL,
	kind VARCHAR(64) NOT NULL,
	payload TEXT NOT NULL,
	id INTEGER NOT NULL,
	game_id VARCHAR(64) NOT NULL,
	uid VARCHAR(80),
	hash VARCHAR(64),
	PRIMARY KEY (id),
	FOREIGN KEY(game_id) REFERENCES game (id)
);
CREATE INDEX ix_event_game_action ON event (game_id, action);
CREATE UNIQUE INDEX ix_event_game_seq ON event (game_id, seq);
CREATE UNIQUE INDEX ix_event_uid ON event (uid);
CREATE TABLE snapshot (
	game_id VARCHAR(64) NOT NULL,
	seq INTEGER NOT NULL,
	data BLOB NOT NULL,
	head VARCHAR(64),
	PRIMARY KEY (game_id, seq),
	FOREIGN KEY(game_id) REFERENCES game (id)
);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL,
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
