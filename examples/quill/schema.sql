-- Schema for quill. Apply once: psql -U quill -f schema.sql
CREATE TABLE IF NOT EXISTS notes (
    slug        TEXT PRIMARY KEY,
    title       TEXT,
    body        TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at  TIMESTAMPTZ,
    views       BIGINT      NOT NULL DEFAULT 0
);

CREATE INDEX IF NOT EXISTS notes_created_at_idx ON notes (created_at DESC);
CREATE INDEX IF NOT EXISTS notes_expires_at_idx ON notes (expires_at) WHERE expires_at IS NOT NULL;
