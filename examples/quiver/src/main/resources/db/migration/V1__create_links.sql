CREATE TABLE links (
    id           BIGSERIAL PRIMARY KEY,
    slug         VARCHAR(16)  NOT NULL UNIQUE,
    target_url   TEXT         NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    expires_at   TIMESTAMPTZ,
    click_count  BIGINT       NOT NULL DEFAULT 0
);

CREATE TABLE clicks (
    id          BIGSERIAL PRIMARY KEY,
    link_id     BIGINT       NOT NULL REFERENCES links (id) ON DELETE CASCADE,
    clicked_at  TIMESTAMPTZ  NOT NULL,
    referrer    VARCHAR(512),
    user_agent  VARCHAR(512)
);

CREATE INDEX clicks_link_id_clicked_at_idx ON clicks (link_id, clicked_at);
CREATE INDEX links_expires_at_idx ON links (expires_at) WHERE expires_at IS NOT NULL;
