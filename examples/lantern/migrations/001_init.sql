-- lantern schema, version 1.
-- Applied automatically at startup by migrate() in src/store.ts.

create table monitors (
  id          text primary key,
  name        text not null,
  url         text not null,
  is_public   boolean not null default true,
  created_at  timestamptz not null default now(),
  retired_at  timestamptz
);

create table check_results (
  id          bigint generated always as identity primary key,
  monitor_id  text not null references monitors (id) on delete cascade,
  checked_at  timestamptz not null,
  outcome     text not null check (outcome in ('up', 'down', 'timeout', 'error')),
  status      smallint,
  latency_ms  integer not null,
  detail      text
);

-- Dashboard queries (per monitor, newest first) and the retention job
-- (everything before a cutoff) both need checked_at indexed.
create index check_results_monitor_time on check_results (monitor_id, checked_at desc);
create index check_results_time on check_results using brin (checked_at);

create table incidents (
  id           bigint generated always as identity primary key,
  monitor_id   text not null references monitors (id) on delete cascade,
  started_at   timestamptz not null,
  resolved_at  timestamptz,
  cause        text not null
);

create unique index incidents_one_open_per_monitor
  on incidents (monitor_id) where resolved_at is null;
