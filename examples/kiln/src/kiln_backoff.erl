%% @doc Retry policy for failed deliveries.
%%
%% Delays grow exponentially from `retry_base_ms' and are capped at
%% `retry_max_ms'. With jitter enabled (the default) the delay is drawn
%% uniformly from the upper half of the window ("equal jitter"), which
%% keeps a burst of failures against one host from retrying in lockstep
%% while still guaranteeing some minimum spacing.
%%
%% After `max_attempts' started attempts a job is given up on and moved to
%% the dead state.
-module(kiln_backoff).

-include("kiln.hrl").

-export([opts/0, max_attempts/0, next/1, next/2, delay/2]).

-export_type([opts/0]).

-define(DEFAULT_BASE_DELAY_MS, 500).
-define(DEFAULT_MAX_DELAY_MS, 300000).
-define(DEFAULT_MAX_ATTEMPTS, 12).

%% 500 bsl 30 is already far beyond any sane cap; stop shifting there so a
%% misconfigured max_attempts cannot turn the delay into a bignum.
-define(MAX_SHIFT, 30).

-type opts() :: #{base_ms := pos_integer(),
                  max_ms := pos_integer(),
                  max_attempts := pos_integer(),
                  jitter => boolean()}.

%% @doc Retry settings as currently configured in the application env.
-spec opts() -> opts().
opts() ->
    #{base_ms => application:get_env(kiln, retry_base_ms, ?DEFAULT_BASE_DELAY_MS),
      max_ms => application:get_env(kiln, retry_max_ms, ?DEFAULT_MAX_DELAY_MS),
      max_attempts => max_attempts(),
      jitter => application:get_env(kiln, retry_jitter, true)}.

%% @doc How many attempts a job gets before it is declared dead.
-spec max_attempts() -> pos_integer().
max_attempts() ->
    application:get_env(kiln, max_attempts, ?DEFAULT_MAX_ATTEMPTS).

%% @doc Decide what to do after a failed attempt, using the configured
%% options. See {@link next/2}.
-spec next(#kiln_job{}) -> {retry, non_neg_integer()} | give_up.
next(Job) ->
    next(Job, opts()).

%% @doc Decide what to do after a failed attempt.
%%
%% `Job' is the job as the worker saw it, i.e. its `attempts' field already
%% counts the attempt that just failed.
-spec next(#kiln_job{}, opts()) -> {retry, non_neg_integer()} | give_up.
next(#kiln_job{attempts = N}, #{max_attempts := Max}) when N >= Max ->
    give_up;
next(#kiln_job{attempts = N}, Opts) ->
    {retry, delay(max(N, 1), Opts)}.

%% @doc Delay in milliseconds before attempt `N + 1', given that attempt
%% `N' (1-based) failed.
-spec delay(pos_integer(), opts()) -> non_neg_integer().
delay(N, #{base_ms := Base, max_ms := Max} = Opts) when is_integer(N), N >= 1 ->
    Shift = min(N - 1, ?MAX_SHIFT),
    D = min(Max, Base bsl Shift),
    case maps:get(jitter, Opts, true) of
        true -> jitter(D);
        false -> D
    end.

%% internal

jitter(D) when D < 2 ->
    D;
jitter(D) ->
    Half = D div 2,
    Half + rand:uniform(D - Half + 1) - 1.
