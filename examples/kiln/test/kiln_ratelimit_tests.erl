-module(kiln_ratelimit_tests).

-include_lib("eunit/include/eunit.hrl").
-include("kiln.hrl").

-define(RATE, 3).
-define(BURST, 5).

full_bucket(Now) ->
    #bucket{host = <<"example.test">>, tokens = float(?BURST), updated_at = Now}.

drain(B, _Now, 0) -> B;
drain(B, Now, N) ->
    {ok, B1} = kiln_ratelimit:take(B, Now, ?RATE, ?BURST),
    drain(B1, Now, N - 1).

burst_then_wait_test() ->
    B = drain(full_bucket(0), 0, ?BURST),
    ?assertMatch({{wait, _}, _}, kiln_ratelimit:take(B, 0, ?RATE, ?BURST)).

wait_time_matches_rate_test() ->
    B = drain(full_bucket(0), 0, ?BURST),
    %% one token every 1000/3 ms, rounded up
    ?assertMatch({{wait, 334}, _}, kiln_ratelimit:take(B, 0, ?RATE, ?BURST)).

refill_after_one_second_test() ->
    B = drain(full_bucket(0), 0, ?BURST),
    B1 = drain(B, 1000, ?RATE),
    ?assertMatch({{wait, _}, _}, kiln_ratelimit:take(B1, 1000, ?RATE, ?BURST)).

refill_is_capped_at_burst_test() ->
    B = drain(full_bucket(0), 0, ?BURST),
    %% an hour idle still only gives BURST tokens
    B1 = drain(B, 3600000, ?BURST),
    ?assertMatch({{wait, _}, _}, kiln_ratelimit:take(B1, 3600000, ?RATE, ?BURST)).

clock_going_backwards_test() ->
    B = drain(full_bucket(1000), 1000, ?BURST),
    ?assertMatch({{wait, _}, #bucket{tokens = 0.0}},
                 kiln_ratelimit:take(B, 500, ?RATE, ?BURST)).

limits_for_test_() ->
    {setup,
     fun() ->
             application:set_env(kiln, rate_per_sec, ?RATE),
             application:set_env(kiln, burst, ?BURST),
             application:set_env(kiln, host_limits, [{<<"slow.example.test">>, {2, 2}}])
     end,
     fun(_) ->
             [application:unset_env(kiln, K) || K <- [rate_per_sec, burst, host_limits]]
     end,
     [?_assertEqual({2, 2}, kiln_ratelimit:limits_for(<<"slow.example.test">>)),
      ?_assertEqual({?RATE, ?BURST}, kiln_ratelimit:limits_for(<<"other.example.test">>))]}.
