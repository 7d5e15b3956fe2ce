-- Schema for fjord. Run once against the telemetry database; the
-- docker-compose setup mounts this directory as docker-entrypoint-initdb.d.

CREATE EXTENSION IF NOT EXISTS timescaledb;

CREATE TABLE IF NOT EXISTS readings (
    time    TIMESTAMPTZ      NOT NULL,
    vessel  TEXT             NOT NULL,
    sensor  TEXT             NOT NULL,
    value   DOUBLE PRECISION NOT NULL,
    unit    TEXT             NOT NULL DEFAULT ''
);

SELECT create_hypertable('readings', by_range('time', INTERVAL '1 day'),
                         if_not_exists => TRUE);

-- Also the conflict target for the writer's ON CONFLICT DO NOTHING.
CREATE UNIQUE INDEX IF NOT EXISTS readings_vessel_sensor_time_key
    ON readings (vessel, sensor, time DESC);

ALTER TABLE readings SET (
    timescaledb.compress,
    timescaledb.compress_segmentby = 'vessel, sensor'
);
SELECT add_compression_policy('readings', INTERVAL '7 days', if_not_exists => TRUE);
SELECT add_retention_policy('readings', INTERVAL '400 days', if_not_exists => TRUE);
