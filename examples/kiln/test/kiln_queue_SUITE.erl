-module(kiln_queue_SUITE).

-include_lib("common_test/include/ct.hrl").
-include_lib("stdlib/include/assert.hrl").
-include("kiln.hrl").

-export([all/0, init_per_testcase/2, end_per_testcase/2]).
-export([enqueue_and_checkout/1,
         rejects_when_full/1,
         checkout_respects_max/1,
         reschedule_delays_job/1,
         ack_marks_delivered/1,
         bury_marks_dead/1,
         expired_jobs_are_dead/1]).

all() ->
    [enqueue_and_checkout,
     rejects_when_full,
     checkout_respects_max,
     reschedule_delays_job,
     ack_marks_delivered,
     bury_marks_dead,
     expired_jobs_are_dead].

init_per_testcase(_Case, Config) ->
    application:set_env(kiln, max_queue_len, 10),
    application:set_env(kiln, job_ttl_s, 60),
    {ok, Pid} = kiln_queue:start_link(),
    unlink(Pid),
    [{queue, Pid} | Config].

end_per_testcase(_Case, _Config) ->
    ok = gen_server:stop(kiln_queue),
    [application:unset_env(kiln, K) || K <- [max_queue_len, job_ttl_s]],
    ok.

%%% cases

enqueue_and_checkout(_Config) ->
    {ok, Id} = kiln_queue:enqueue(job(<<"a.example.test">>)),
    ?assertEqual(1, kiln_queue:len()),
    ?assertMatch({ok, #job_status{state = queued}}, kiln_queue:status(Id)),
    [#kiln_job{id = Id}] = kiln_queue:checkout(5),
    ?assertEqual(0, kiln_queue:len()),
    ?assertMatch({ok, #job_status{state = in_flight}}, kiln_queue:status(Id)).

rejects_when_full(_Config) ->
    [{ok, _} = kiln_queue:enqueue(job(<<"b.example.test">>)) || _ <- lists:seq(1, 10)],
    ?assertEqual({error, queue_full}, kiln_queue:enqueue(job(<<"b.example.test">>))),
    ?assertMatch(#{rejected := 1, queued := 10}, kiln_queue:stats()).

checkout_respects_max(_Config) ->
    [{ok, _} = kiln_queue:enqueue(job(<<"c.example.test">>)) || _ <- lists:seq(1, 7)],
    ?assertEqual(3, length(kiln_queue:checkout(3))),
    ?assertEqual(4, length(kiln_queue:checkout(50))),
    ?assertEqual([], kiln_queue:checkout(50)).

reschedule_delays_job(_Config) ->
    {ok, _} = kiln_queue:enqueue(job(<<"d.example.test">>)),
    [Job] = kiln_queue:checkout(1),
    ok = kiln_queue:reschedule(Job, 300),
    sync(),
    ?assertEqual([], kiln_queue:checkout(1)),
    timer:sleep(350),
    ?assertMatch([#kiln_job{}], kiln_queue:checkout(1)).

ack_marks_delivered(_Config) ->
    {ok, Id} = kiln_queue:enqueue(job(<<"e.example.test">>)),
    [Job] = kiln_queue:checkout(1),
    ok = kiln_queue:ack(Job#kiln_job{attempts = 1}),
    sync(),
    ?assertMatch({ok, #job_status{state = delivered, attempts = 1}}, kiln_queue:status(Id)),
    ?assertMatch(#{delivered := 1}, kiln_queue:stats()).

bury_marks_dead(_Config) ->
    {ok, Id} = kiln_queue:enqueue(job(<<"f.example.test">>)),
    [Job] = kiln_queue:checkout(1),
    ok = kiln_queue:bury(Job#kiln_job{attempts = 3}, {http_status, 404}),
    sync(),
    ?assertMatch({ok, #job_status{state = dead, last_error = {http_status, 404}}},
                 kiln_queue:status(Id)).

expired_jobs_are_dead(_Config) ->
    Old = erlang:system_time(millisecond) - 61000,
    {ok, Id} = kiln_queue:enqueue((job(<<"g.example.test">>))#kiln_job{enqueued_at = Old}),
    ?assertEqual([], kiln_queue:checkout(1)),
    ?assertMatch({ok, #job_status{state = dead, last_error = expired}}, kiln_queue:status(Id)),
    ?assertMatch(#{expired := 1}, kiln_queue:stats()).

%%% helpers

job(Host) ->
    #kiln_job{url = <<"https://", Host/binary, "/hook">>,
              host = Host,
              body = <<"{\"event\":\"test\"}">>}.

%% casts are processed in order, so a call round trip flushes them
sync() ->
    _ = sys:get_state(kiln_queue),
    ok.
