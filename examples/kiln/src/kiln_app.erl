%% @doc kiln application callback.
%%
%% Starts the supervision tree, the outbound hackney pool and the cowboy
%% listener. On shutdown the listener is closed first so no new jobs come
%% in, then the dispatcher is given `shutdown_grace_ms' to let in-flight
%% deliveries finish.
-module(kiln_app).

-behaviour(application).

-export([start/2, prep_stop/1, stop/1]).

-define(LISTENER, kiln_http).
-define(HTTP_POOL, kiln_pool).

start(_StartType, _StartArgs) ->
    ok = start_http_pool(),
    case kiln_sup:start_link() of
        {ok, Pid} ->
            ok = start_listener(),
            {ok, Pid};
        Error ->
            Error
    end.

prep_stop(State) ->
    Grace = application:get_env(kiln, shutdown_grace_ms, 12000),
    _ = cowboy:stop_listener(?LISTENER),
    case kiln_dispatcher:drain(Grace) of
        ok ->
            ok;
        {error, {timeout, Abandoned}} ->
            logger:warning("shutdown grace of ~b ms expired, ~b deliveries abandoned",
                           [Grace, Abandoned])
    end,
    State.

stop(_State) ->
    _ = hackney_pool:stop_pool(?HTTP_POOL),
    ok.

%% internal

start_http_pool() ->
    MaxConns = application:get_env(kiln, http_client_max_connections, 200),
    hackney_pool:start_pool(?HTTP_POOL, [{timeout, 30000}, {max_connections, MaxConns}]).

start_listener() ->
    {ok, Port} = application:get_env(kiln, http_port),
    {ok, Acceptors} = application:get_env(kiln, http_acceptors),
    {ok, MaxConns} = application:get_env(kiln, max_connections),
    Dispatch = cowboy_router:compile([
        {'_', [
            {"/healthz", kiln_http_handler, #{action => health}},
            {"/v1/stats", kiln_http_handler, #{action => stats}},
            {"/v1/jobs", kiln_http_handler, #{action => enqueue}},
            {"/v1/jobs/:id", kiln_http_handler, #{action => status}}
        ]}
    ]),
    TransOpts = #{socket_opts => [{port, Port}],
                  num_acceptors => Acceptors,
                  max_connections => MaxConns},
    ProtoOpts = #{env => #{dispatch => Dispatch},
                  idle_timeout => 60000,
                  request_timeout => 10000},
    case cowboy:start_clear(?LISTENER, TransOpts, ProtoOpts) of
        {ok, _} ->
            logger:notice("kiln listening on port ~b", [Port]),
            ok;
        {error, Reason} ->
            logger:error("could not start listener on port ~b: ~p", [Port, Reason]),
            erlang:error({listener_failed, Reason})
    end.
