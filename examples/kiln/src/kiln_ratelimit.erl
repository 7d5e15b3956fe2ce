%% @doc Per-host token buckets.
%%
%% Every destination host gets a bucket that refills at `rate_per_sec'
%% tokens per second up to `burst' tokens. The dispatcher takes one token
%% before it starts a delivery; when the bucket is empty it gets back the
%% number of milliseconds until the next token and parks the job for that
%% long instead of hammering the receiver.
%%
%% Individual hosts can get their own limits through `host_limits', a list
%% of `{HostBinary, {RatePerSec, Burst}}'.
%%
%% Buckets that have not been touched for ten minutes are dropped; a new
%% bucket starts full.
-module(kiln_ratelimit).

-behaviour(gen_server).

-include("kiln.hrl").

-export([start_link/0, take/1, limits_for/1, reset/0]).
%% Pure bucket arithmetic, exported for tests.
-export([take/4]).

-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

-define(SERVER, ?MODULE).

-define(DEFAULT_RATE_PER_SEC, 15).
-define(DEFAULT_BURST, 40).
-define(IDLE_BUCKET_MS, 600000).
-define(GC_INTERVAL_MS, 60000).

%%% API

-spec start_link() -> {ok, pid()} | ignore | {error, term()}.
start_link() ->
    gen_server:start_link({local, ?SERVER}, ?MODULE, [], []).

%% @doc Take one token for `Host'. Returns `ok' if the delivery may go
%% ahead now, or `{wait, Ms}' with the time until a token is available.
-spec take(binary()) -> ok | {wait, pos_integer()}.
take(Host) when is_binary(Host) ->
    gen_server:call(?SERVER, {take, Host}).

%% @doc The `{RatePerSec, Burst}' pair that applies to `Host'.
-spec limits_for(binary()) -> {pos_integer(), pos_integer()}.
limits_for(Host) ->
    Overrides = application:get_env(kiln, host_limits, []),
    case lists:keyfind(Host, 1, Overrides) of
        {_, {Rate, Burst}} ->
            {Rate, Burst};
        false ->
            {application:get_env(kiln, rate_per_sec, ?DEFAULT_RATE_PER_SEC),
             application:get_env(kiln, burst, ?DEFAULT_BURST)}
    end.

%% @doc Forget all buckets. Used by tests and by the remote console when a
%% receiver asks us to start over after an incident.
-spec reset() -> ok.
reset() ->
    gen_server:call(?SERVER, reset).

%% @doc Refill `Bucket' for the time elapsed until `Now' (milliseconds) and
%% try to take one token.
-spec take(#bucket{}, integer(), pos_integer(), pos_integer()) ->
          {ok, #bucket{}} | {{wait, pos_integer()}, #bucket{}}.
take(#bucket{tokens = T0, updated_at = Then} = B, Now, Rate, Burst) ->
    Elapsed = max(0, Now - Then),
    T1 = min(float(Burst), T0 + Elapsed * Rate / 1000),
    case T1 >= 1.0 of
        true ->
            {ok, B#bucket{tokens = T1 - 1.0, updated_at = Now}};
        false ->
            Wait = max(1, ceil((1.0 - T1) * 1000 / Rate)),
            {{wait, Wait}, B#bucket{tokens = T1, updated_at = Now}}
    end.

%%% gen_server callbacks

init([]) ->
    Tab = ets:new(?BUCKETS_TAB, [set, protected, named_table, {keypos, #bucket.host}]),
    _ = erlang:send_after(?GC_INTERVAL_MS, self(), gc),
    {ok, #{tab => Tab}}.

handle_call({take, Host}, _From, State) ->
    Now = now_ms(),
    {Rate, Burst} = limits_for(Host),
    Bucket0 = case ets:lookup(?BUCKETS_TAB, Host) of
                  [B] -> B;
                  [] -> #bucket{host = Host, tokens = float(Burst), updated_at = Now}
              end,
    {Reply, Bucket1} = take(Bucket0, Now, Rate, Burst),
    true = ets:insert(?BUCKETS_TAB, Bucket1),
    {reply, Reply, State};
handle_call(reset, _From, State) ->
    true = ets:delete_all_objects(?BUCKETS_TAB),
    {reply, ok, State};
handle_call(Request, _From, State) ->
    logger:warning("unexpected call: ~p", [Request]),
    {reply, {error, unknown_call}, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

handle_info(gc, State) ->
    Cutoff = now_ms() - ?IDLE_BUCKET_MS,
    N = ets:select_delete(?BUCKETS_TAB,
                          [{#bucket{updated_at = '$1', _ = '_'}, [{'<', '$1', Cutoff}], [true]}]),
    N > 0 andalso logger:debug("dropped ~b idle rate-limit buckets", [N]),
    _ = erlang:send_after(?GC_INTERVAL_MS, self(), gc),
    {noreply, State};
handle_info(_Info, State) ->
    {noreply, State}.

terminate(_Reason, _State) ->
    ok.

%%% internal

now_ms() ->
    erlang:monotonic_time(millisecond).
