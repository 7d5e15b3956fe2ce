%% @doc Pulls due jobs from {@link kiln_queue} and runs deliveries.
%%
%% At most `pool_size' deliveries run at once, each in its own monitored
%% process (see {@link kiln_worker}). Every `poll_interval_ms' the
%% dispatcher tops the pool up. A job is only started once
%% {@link kiln_ratelimit} hands out a token for its host; otherwise it goes
%% back to the queue for as long as the limiter says, without counting as
%% an attempt.
%%
%% The outcome of a delivery arrives as the worker's exit reason, so a
%% worker that crashes is handled on the same path as one that got a 500.
-module(kiln_dispatcher).

-behaviour(gen_server).

-include("kiln.hrl").

-export([start_link/0, drain/1, in_flight/0]).

-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

-define(SERVER, ?MODULE).

-define(DEFAULT_POOL_SIZE, 24).
-define(DEFAULT_POLL_INTERVAL_MS, 200).

-record(state, {
    pool_size :: pos_integer(),
    poll_ms :: pos_integer(),
    inflight = #{} :: #{reference() => #kiln_job{}},
    draining = false :: boolean(),
    drain_from :: gen_server:from() | undefined,
    drain_timer :: reference() | undefined
}).

%%% API

-spec start_link() -> {ok, pid()} | ignore | {error, term()}.
start_link() ->
    gen_server:start_link({local, ?SERVER}, ?MODULE, [], []).

%% @doc Stop starting new deliveries and wait up to `GraceMs' for the
%% running ones to finish. Called from {@link kiln_app:prep_stop/1}.
-spec drain(non_neg_integer()) -> ok | {error, {timeout, non_neg_integer()}}.
drain(GraceMs) ->
    try
        gen_server:call(?SERVER, {drain, GraceMs}, GraceMs + 5000)
    catch
        exit:{noproc, _} -> ok
    end.

%% @doc Number of deliveries currently running.
-spec in_flight() -> non_neg_integer().
in_flight() ->
    gen_server:call(?SERVER, in_flight).

%%% gen_server callbacks

init([]) ->
    State = #state{
        pool_size = application:get_env(kiln, pool_size, ?DEFAULT_POOL_SIZE),
        poll_ms = application:get_env(kiln, poll_interval_ms, ?DEFAULT_POLL_INTERVAL_MS)
    },
    logger:info("dispatcher started with pool size ~b", [State#state.pool_size]),
    schedule_tick(State),
    {ok, State}.

handle_call({drain, _GraceMs}, _From, #state{inflight = Inflight} = State)
  when map_size(Inflight) =:= 0 ->
    {reply, ok, State#state{draining = true}};
handle_call({drain, GraceMs}, From, #state{inflight = Inflight} = State) ->
    logger:notice("draining ~b in-flight deliveries", [map_size(Inflight)]),
    TRef = erlang:send_after(GraceMs, self(), drain_timeout),
    {noreply, State#state{draining = true, drain_from = From, drain_timer = TRef}};
handle_call(in_flight, _From, #state{inflight = Inflight} = State) ->
    {reply, map_size(Inflight), State};
handle_call(Request, _From, State) ->
    logger:warning("unexpected call: ~p", [Request]),
    {reply, {error, unknown_call}, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

handle_info(tick, #state{draining = true} = State) ->
    {noreply, State};
handle_info(tick, State) ->
    State1 = fill(State),
    schedule_tick(State1),
    {noreply, State1};
handle_info({'DOWN', Ref, process, _Pid, Reason}, #state{inflight = Inflight} = State) ->
    case maps:take(Ref, Inflight) of
        {Job, Inflight1} ->
            handle_result(result_of(Reason), Job),
            {noreply, maybe_drained(State#state{inflight = Inflight1})};
        error ->
            {noreply, State}
    end;
handle_info(drain_timeout, #state{drain_from = From, inflight = Inflight} = State)
  when From =/= undefined ->
    Ids = [Job#kiln_job.id || Job <- maps:values(Inflight)],
    logger:warning("drain timed out, abandoning deliveries: ~p", [Ids]),
    gen_server:reply(From, {error, {timeout, length(Ids)}}),
    {noreply, State#state{drain_from = undefined, drain_timer = undefined}};
handle_info(_Info, State) ->
    {noreply, State}.

terminate(_Reason, _State) ->
    ok.

%%% internal

fill(#state{pool_size = Pool, inflight = Inflight} = State) ->
    case Pool - map_size(Inflight) of
        Free when Free > 0 ->
            lists:foldl(fun start_or_defer/2, State, kiln_queue:checkout(Free));
        _ ->
            State
    end.

start_or_defer(#kiln_job{host = Host, attempts = N} = Job0, #state{inflight = Inflight} = State) ->
    case kiln_ratelimit:take(Host) of
        ok ->
            Job = Job0#kiln_job{attempts = N + 1},
            {_Pid, Ref} = kiln_worker:start(Job),
            State#state{inflight = Inflight#{Ref => Job}};
        {wait, Ms} ->
            ok = kiln_queue:reschedule(Job0, Ms),
            State
    end.

result_of({delivery, Result}) ->
    Result;
result_of(Other) ->
    {retry, {worker_crashed, Other}, 0}.

handle_result(ok, Job) ->
    ok = kiln_queue:ack(Job);
handle_result({drop, Reason}, Job) ->
    ok = kiln_queue:bury(Job, Reason);
handle_result({retry, Reason, RetryAfterMs}, Job) ->
    case kiln_backoff:next(Job) of
        give_up ->
            ok = kiln_queue:bury(Job, {max_attempts, Reason});
        {retry, DelayMs} ->
            Job1 = Job#kiln_job{last_error = Reason},
            ok = kiln_queue:reschedule(Job1, max(DelayMs, RetryAfterMs))
    end.

maybe_drained(#state{drain_from = From, inflight = Inflight, drain_timer = TRef} = State)
  when From =/= undefined, map_size(Inflight) =:= 0 ->
    _ = erlang:cancel_timer(TRef),
    gen_server:reply(From, ok),
    State#state{drain_from = undefined, drain_timer = undefined};
maybe_drained(State) ->
    State.

schedule_tick(#state{poll_ms = Ms}) ->
    _ = erlang:send_after(Ms, self(), tick),
    ok.
