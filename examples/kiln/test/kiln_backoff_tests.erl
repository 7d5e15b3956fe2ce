-module(kiln_backoff_tests).

-include_lib("eunit/include/eunit.hrl").
-include("kiln.hrl").

-define(OPTS, #{base_ms => 100, max_ms => 5000, max_attempts => 4, jitter => false}).

delay_doubles_test() ->
    ?assertEqual([100, 200, 400, 800, 1600],
                 [kiln_backoff:delay(N, ?OPTS) || N <- lists:seq(1, 5)]).

delay_is_capped_test() ->
    ?assertEqual(5000, kiln_backoff:delay(7, ?OPTS)),
    %% must not blow up into a bignum for absurd attempt counts
    ?assertEqual(5000, kiln_backoff:delay(500, ?OPTS)).

jitter_stays_in_upper_half_test() ->
    Opts = ?OPTS#{jitter => true},
    Delays = [kiln_backoff:delay(3, Opts) || _ <- lists:seq(1, 500)],
    ?assert(lists:all(fun(D) -> D >= 200 andalso D =< 400 end, Delays)),
    %% and it actually varies
    ?assert(length(lists:usort(Delays)) > 10).

jitter_on_tiny_delay_test() ->
    Opts = #{base_ms => 1, max_ms => 1, max_attempts => 3, jitter => true},
    ?assertEqual(1, kiln_backoff:delay(1, Opts)).

next_retries_until_max_attempts_test() ->
    ?assertEqual({retry, 100}, kiln_backoff:next(#kiln_job{attempts = 1}, ?OPTS)),
    ?assertEqual({retry, 400}, kiln_backoff:next(#kiln_job{attempts = 3}, ?OPTS)),
    ?assertEqual(give_up, kiln_backoff:next(#kiln_job{attempts = 4}, ?OPTS)),
    ?assertEqual(give_up, kiln_backoff:next(#kiln_job{attempts = 9}, ?OPTS)).

next_with_zero_attempts_test() ->
    %% A job that crashed before the counter was bumped still gets a delay.
    ?assertEqual({retry, 100}, kiln_backoff:next(#kiln_job{attempts = 0}, ?OPTS)).

env_overrides_test_() ->
    {setup,
     fun() ->
             application:set_env(kiln, max_attempts, 3),
             application:set_env(kiln, retry_base_ms, 250)
     end,
     fun(_) ->
             application:unset_env(kiln, max_attempts),
             application:unset_env(kiln, retry_base_ms)
     end,
     [?_assertEqual(3, kiln_backoff:max_attempts()),
      ?_assertMatch(#{base_ms := 250, max_attempts := 3}, kiln_backoff:opts())]}.
