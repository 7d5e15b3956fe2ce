-- brook schema, version 1.
-- Applied by brook/store.migrate on startup; every statement is idempotent.

PRAGMA journal_mode = WAL;
PRAGMA foreign_keys = ON;

CREATE TABLE IF NOT EXISTS feeds (
  id            INTEGER PRIMARY KEY,
  url           TEXT    NOT NULL UNIQUE,
  title         TEXT    NOT NULL DEFAULT '',
  etag          TEXT,
  last_modified TEXT,
  last_polled   INTEGER,             -- unix seconds
  failures      INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS subscribers (
  id          INTEGER PRIMARY KEY,
  feed_id     INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
  webhook_url TEXT    NOT NULL,
  active      INTEGER NOT NULL DEFAULT 1,
  created_at  INTEGER NOT NULL,
  UNIQUE (feed_id, webhook_url)
);

-- One row per item fingerprint per feed; pruned after dedupe.seen_ttl_hours.
CREATE TABLE IF NOT EXISTS seen_items (
  feed_id     INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
  fingerprint TEXT    NOT NULL,
  seen_at     INTEGER NOT NULL,
  PRIMARY KEY (feed_id, fingerprint)
);

CREATE INDEX IF NOT EXISTS seen_items_seen_at ON seen_items (seen_at);

-- Deliveries that exhausted their retries, kept for inspection and replay.
CREATE TABLE IF NOT EXISTS dead_deliveries (
  id            INTEGER PRIMARY KEY,
  subscriber_id INTEGER NOT NULL REFERENCES subscribers(id) ON DELETE CASCADE,
  item_id       TEXT    NOT NULL,
  payload       TEXT    NOT NULL,
  last_error    TEXT    NOT NULL,
  retries       INTEGER NOT NULL,
  failed_at     INTEGER NOT NULL
);
