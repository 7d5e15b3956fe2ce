%% Shared records, tables and header names for kiln.
%%
%% Anything that crosses a module boundary lives here. Keep tunables
%% (timeouts, sizes) in the module that owns them, not in this file.

-ifndef(KILN_HRL).
-define(KILN_HRL, true).

%% ETS tables
-define(JOBS_TAB, kiln_jobs).
-define(STATUS_TAB, kiln_job_status).
-define(BUCKETS_TAB, kiln_buckets).

%% Headers kiln adds to every delivery. Clients may not set these.
-define(SIGNATURE_HEADER, <<"x-kiln-signature">>).
-define(DELIVERY_ID_HEADER, <<"x-kiln-delivery">>).
-define(ATTEMPT_HEADER, <<"x-kiln-attempt">>).
-define(RESERVED_HEADER_PREFIX, <<"x-kiln-">>).

-type job_id() :: binary().
-type job_state() :: queued | in_flight | delivered | dead.

%% A webhook delivery. `attempts' counts the attempts that were started,
%% so a job handed to a worker for the first time has attempts = 1.
-record(kiln_job, {
    id :: job_id() | undefined,
    url :: binary(),
    host :: binary(),
    body = <<>> :: binary(),
    content_type = <<"application/json">> :: binary(),
    headers = [] :: [{binary(), binary()}],
    attempts = 0 :: non_neg_integer(),
    enqueued_at :: integer() | undefined,
    not_before = 0 :: integer(),
    last_error :: term()
}).

%% What GET /v1/jobs/:id reports. Kept after delivery until job_ttl_s.
-record(job_status, {
    id :: job_id(),
    state = queued :: job_state(),
    attempts = 0 :: non_neg_integer(),
    updated_at = 0 :: integer(),
    last_error :: term()
}).

%% Token bucket for one destination host.
-record(bucket, {
    host :: binary(),
    tokens = 0.0 :: float(),
    updated_at = 0 :: integer()
}).

-endif.
