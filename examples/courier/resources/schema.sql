CREATE TABLE IF NOT EXISTS parcels (
    id                   BIGSERIAL PRIMARY KEY,
    tracking_code        VARCHAR(12) NOT NULL UNIQUE,
    status               VARCHAR(32) NOT NULL,
    sender_name          TEXT NOT NULL,
    recipient_name       TEXT NOT NULL,
    destination_postcode VARCHAR(16) NOT NULL,
    weight_grams         INTEGER NOT NULL CHECK (weight_grams > 0),
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS tracking_events (
    id          BIGSERIAL PRIMARY KEY,
    parcel_id   BIGINT NOT NULL REFERENCES parcels (id) ON DELETE CASCADE,
    status      VARCHAR(32) NOT NULL,
    location    TEXT NOT NULL,
    note        TEXT,
    occurred_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
