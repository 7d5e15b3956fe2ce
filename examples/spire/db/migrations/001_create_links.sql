-- Short links. click_count is a denormalised total kept in step with the
-- clicks table by Store#record_click.
CREATE TABLE IF NOT EXISTS links (
    id          BIGSERIAL    PRIMARY KEY,
    slug        VARCHAR(48)  NOT NULL,
    target_url  TEXT         NOT NULL CHECK (char_length(target_url) <= 2083),
    click_count BIGINT       NOT NULL DEFAULT 0,
    created_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    expires_at  TIMESTAMPTZ
);

-- Slugs are case-sensitive: /Promo and /promo are different links.
CREATE UNIQUE INDEX IF NOT EXISTS links_slug_key ON links (slug);

CREATE INDEX IF NOT EXISTS links_expires_at_idx ON links (expires_at)
    WHERE expires_at IS NOT NULL;
