-- One row per redirect, used for the per-day breakdown in
-- GET /api/links/:slug. No IP addresses or user agents are stored.
CREATE TABLE IF NOT EXISTS clicks (
    id          BIGSERIAL    PRIMARY KEY,
    link_id     BIGINT       NOT NULL REFERENCES links (id) ON DELETE CASCADE,
    clicked_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    referrer    VARCHAR(512)
);

CREATE INDEX IF NOT EXISTS clicks_link_id_clicked_at_idx
    ON clicks (link_id, clicked_at);
