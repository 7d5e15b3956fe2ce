%% @doc Top-level supervisor.
%%
%% Children are started in dependency order and supervised
%% `rest_for_one': if the queue dies, the rate limiter and dispatcher are
%% restarted too, because the dispatcher holds monitors for jobs the old
%% queue handed out. A crashing rate limiter only takes the dispatcher
%% with it.
-module(kiln_sup).

-behaviour(supervisor).

-export([start_link/0]).
-export([init/1]).

-define(SERVER, ?MODULE).

start_link() ->
    supervisor:start_link({local, ?SERVER}, ?MODULE, []).

init([]) ->
    SupFlags = #{strategy => rest_for_one,
                 intensity => 5,
                 period => 30},
    Children = [
        worker(kiln_queue, 5000),
        worker(kiln_ratelimit, 5000),
        %% The dispatcher is drained in kiln_app:prep_stop/1 before the
        %% tree is taken down, so it does not need a long shutdown here.
        worker(kiln_dispatcher, 2000)
    ],
    {ok, {SupFlags, Children}}.

%% internal

worker(Mod, Shutdown) ->
    #{id => Mod,
      start => {Mod, start_link, []},
      restart => permanent,
      shutdown => Shutdown,
      type => worker,
      modules => [Mod]}.
