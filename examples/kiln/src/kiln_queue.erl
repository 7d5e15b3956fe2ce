%% @doc In-memory delivery queue.
%%
%% Jobs waiting for delivery sit in an ordered_set keyed by
%% `{NotBefore, Seq}', so the job that is due first is always at the front
%% and a retry scheduled five minutes out does not block the ones behind
%% it. The queue process is the only writer of both tables; the status
%% table is public for reads so the HTTP handler can answer status lookups
%% without a round trip through this process.
%%
%% Nothing here is persisted. A node restart loses queued jobs; see the
%% "Durability" section of the README.
-module(kiln_queue).

-behaviour(gen_server).

-include("kiln.hrl").

-export([start_link/0,
         enqueue/1,
         checkout/1,
         ack/1,
         reschedule/2,
         bury/2,
         status/1,
         len/0,
         stats/0]).

-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

-define(SERVER, ?MODULE).

-define(DEFAULT_MAX_QUEUE_LEN, 50000).
-define(DEFAULT_SWEEP_INTERVAL_MS, 30000).

-record(state, {
    max_len :: pos_integer(),
    ttl_ms :: pos_integer(),
    sweep_ms :: pos_integer(),
    counts = #{delivered => 0, dead => 0, expired => 0, rejected => 0} :: map()
}).

%%% API

-spec start_link() -> {ok, pid()} | ignore | {error, term()}.
start_link() ->
    gen_server:start_link({local, ?SERVER}, ?MODULE, [], []).

%% @doc Add a job to the queue. Fails with `queue_full' once `max_queue_len'
%% jobs are waiting (jobs currently in flight do not count).
-spec enqueue(#kiln_job{}) -> {ok, job_id()} | {error, queue_full}.
enqueue(#kiln_job{} = Job) ->
    gen_server:call(?SERVER, {enqueue, Job}).

%% @doc Remove and return up to `Max' jobs that are due now, marking them
%% in flight. Jobs older than `job_ttl_s' are marked dead instead.
-spec checkout(non_neg_integer()) -> [#kiln_job{}].
checkout(0) ->
    [];
checkout(Max) when is_integer(Max), Max > 0 ->
    gen_server:call(?SERVER, {checkout, Max}).

%% @doc Record a successful delivery.
-spec ack(#kiln_job{}) -> ok.
ack(#kiln_job{} = Job) ->
    gen_server:cast(?SERVER, {ack, Job}).

%% @doc Put a job back to be tried again in `DelayMs' milliseconds.
-spec reschedule(#kiln_job{}, non_neg_integer()) -> ok.
reschedule(#kiln_job{} = Job, DelayMs) when is_integer(DelayMs), DelayMs >= 0 ->
    gen_server:cast(?SERVER, {reschedule, Job, DelayMs}).

%% @doc Give up on a job.
-spec bury(#kiln_job{}, term()) -> ok.
bury(#kiln_job{} = Job, Reason) ->
    gen_server:cast(?SERVER, {bury, Job, Reason}).

-spec status(job_id()) -> {ok, #job_status{}} | {error, not_found}.
status(Id) when is_binary(Id) ->
    case ets:lookup(?STATUS_TAB, Id) of
        [S] -> {ok, S};
        [] -> {error, not_found}
    end.

%% @doc Number of jobs waiting (due now or later).
-spec len() -> non_neg_integer().
len() ->
    ets:info(?JOBS_TAB, size).

-spec stats() -> map().
stats() ->
    gen_server:call(?SERVER, stats).

%%% gen_server callbacks

init([]) ->
    _ = ets:new(?JOBS_TAB, [ordered_set, protected, named_table]),
    _ = ets:new(?STATUS_TAB, [set, public, named_table,
                              {keypos, #job_status.id},
                              {read_concurrency, true}]),
    State = #state{
        max_len = application:get_env(kiln, max_queue_len, ?DEFAULT_MAX_QUEUE_LEN),
        ttl_ms = application:get_env(kiln, job_ttl_s, 86400) * 1000,
        sweep_ms = application:get_env(kiln, sweep_interval_ms, ?DEFAULT_SWEEP_INTERVAL_MS)
    },
    schedule_sweep(State),
    {ok, State}.

handle_call({enqueue, Job0}, _From, #state{max_len = Max, counts = C} = State) ->
    case ets:info(?JOBS_TAB, size) >= Max of
        true ->
            {reply, {error, queue_full}, State#state{counts = bump(rejected, C)}};
        false ->
            Now = now_ms(),
            Job = Job0#kiln_job{
                    id = ensure_id(Job0#kiln_job.id),
                    enqueued_at = default(Job0#kiln_job.enqueued_at, Now),
                    not_before = max(Job0#kiln_job.not_before, Now)},
            insert(Job),
            set_status(Job, queued),
            {reply, {ok, Job#kiln_job.id}, State}
    end;
handle_call({checkout, Max}, _From, State) ->
    {Jobs, State1} = take_due(now_ms(), Max, [], State),
    {reply, Jobs, State1};
handle_call(stats, _From, #state{counts = C, max_len = Max} = State) ->
    {reply, C#{queued => len(), max_queue_len => Max}, State};
handle_call(Request, _From, State) ->
    logger:warning("unexpected call: ~p", [Request]),
    {reply, {error, unknown_call}, State}.

handle_cast({ack, Job}, #state{counts = C} = State) ->
    set_status(Job, delivered),
    {noreply, State#state{counts = bump(delivered, C)}};
handle_cast({reschedule, Job, DelayMs}, State) ->
    Job1 = Job#kiln_job{not_before = now_ms() + DelayMs},
    insert(Job1),
    set_status(Job1, queued),
    {noreply, State};
handle_cast({bury, Job, Reason}, #state{counts = C} = State) ->
    logger:info("job ~s to ~s is dead after ~b attempts: ~p",
                [Job#kiln_job.id, Job#kiln_job.host, Job#kiln_job.attempts, Reason]),
    set_status(Job#kiln_job{last_error = Reason}, dead),
    {noreply, State#state{counts = bump(dead, C)}};
handle_cast(_Msg, State) ->
    {noreply, State}.

handle_info(sweep, #state{ttl_ms = Ttl} = State) ->
    Cutoff = now_ms() - Ttl,
    Spec = [{#job_status{state = S, updated_at = '$1', _ = '_'}, [{'<', '$1', Cutoff}], [true]}
            || S <- [delivered, dead]],
    _ = ets:select_delete(?STATUS_TAB, Spec),
    schedule_sweep(State),
    {noreply, State};
handle_info(_Info, State) ->
    {noreply, State}.

terminate(_Reason, _State) ->
    ok.

%%% internal

take_due(_Now, 0, Acc, State) ->
    {lists:reverse(Acc), State};
take_due(Now, N, Acc, #state{ttl_ms = Ttl, counts = C} = State) ->
    case ets:first(?JOBS_TAB) of
        {NotBefore, _Seq} = Key when NotBefore =< Now ->
            [{Key, Job}] = ets:lookup(?JOBS_TAB, Key),
            true = ets:delete(?JOBS_TAB, Key),
            case Now - Job#kiln_job.enqueued_at > Ttl of
                true ->
                    set_status(Job#kiln_job{last_error = expired}, dead),
                    take_due(Now, N, Acc, State#state{counts = bump(expired, C)});
                false ->
                    set_status(Job, in_flight),
                    take_due(Now, N - 1, [Job | Acc], State)
            end;
        _ ->
            {lists:reverse(Acc), State}
    end.

insert(#kiln_job{not_before = NotBefore} = Job) ->
    Key = {NotBefore, erlang:unique_integer([monotonic, positive])},
    true = ets:insert(?JOBS_TAB, {Key, Job}).

set_status(#kiln_job{id = Id, attempts = A, last_error = E}, StateName) ->
    true = ets:insert(?STATUS_TAB, #job_status{id = Id,
                                               state = StateName,
                                               attempts = A,
                                               updated_at = now_ms(),
                                               last_error = E}).

schedule_sweep(#state{sweep_ms = Ms}) ->
    _ = erlang:send_after(Ms, self(), sweep),
    ok.

ensure_id(undefined) ->
    binary:encode_hex(crypto:strong_rand_bytes(12));
ensure_id(Id) when is_binary(Id) ->
    Id.

default(undefined, Default) -> Default;
default(Value, _Default) -> Value.

bump(Key, Counts) ->
    maps:update_with(Key, fun(V) -> V + 1 end, 1, Counts).

now_ms() ->
    erlang:system_time(millisecond).
