%% @doc HTTP API.
%%
%% <pre>
%% POST /v1/jobs        enqueue a delivery, 202 with {"id": ...}
%% GET  /v1/jobs/:id    delivery status
%% GET  /v1/stats       queue counters
%% GET  /healthz        liveness
%% </pre>
%%
%% The request body for POST /v1/jobs is JSON:
%% `{"url": "https://...", "payload": {...}, "headers": {"x-foo": "bar"}}'.
%% `payload' may be any JSON value and is sent re-encoded; use `body'
%% (a string) together with `content_type' to send something that is not
%% JSON.
-module(kiln_http_handler).

-behaviour(cowboy_handler).

-include("kiln.hrl").

-export([init/2]).

%% Seconds we ask clients to wait when the queue is full.
-define(QUEUE_FULL_RETRY_AFTER, <<"5">>).

init(Req0, #{action := Action} = Opts) ->
    Method = cowboy_req:method(Req0),
    Req = handle(Action, Method, Req0),
    {ok, Req, Opts}.

%%% actions

handle(health, <<"GET">>, Req) ->
    cowboy_req:reply(200, #{<<"content-type">> => <<"text/plain">>}, <<"ok">>, Req);
handle(stats, <<"GET">>, Req) ->
    Stats = (kiln_queue:stats())#{in_flight => kiln_dispatcher:in_flight()},
    json(200, Stats, Req);
handle(enqueue, <<"POST">>, Req) ->
    enqueue(Req);
handle(status, <<"GET">>, Req) ->
    Id = cowboy_req:binding(id, Req),
    case kiln_queue:status(Id) of
        {ok, #job_status{} = S} ->
            json(200, status_json(S), Req);
        {error, not_found} ->
            json(404, #{error => <<"not_found">>}, Req)
    end;
handle(_Action, _Method, Req) ->
    json(405, #{error => <<"method_not_allowed">>}, Req).

enqueue(Req0) ->
    {ok, MaxBody} = application:get_env(kiln, max_body_bytes),
    case cowboy_req:read_body(Req0, #{length => MaxBody + 1, period => 5000}) of
        {ok, Body, Req} when byte_size(Body) =< MaxBody ->
            case parse_job(Body) of
                {ok, Job} -> submit(Job, Req);
                {error, Why} -> json(400, #{error => Why}, Req)
            end;
        {_, _Partial, Req} ->
            json(413, #{error => <<"body_too_large">>, max_body_bytes => MaxBody}, Req)
    end.

submit(Job, Req) ->
    case kiln_queue:enqueue(Job) of
        {ok, Id} ->
            json(202, #{id => Id, state => queued}, Req);
        {error, queue_full} ->
            Req1 = cowboy_req:set_resp_header(<<"retry-after">>, ?QUEUE_FULL_RETRY_AFTER, Req),
            json(503, #{error => <<"queue_full">>}, Req1)
    end.

%%% request parsing

parse_job(Body) ->
    try jsx:decode(Body, [return_maps]) of
        #{<<"url">> := Url} = Map when is_binary(Url) ->
            with_url(Url, Map);
        #{} ->
            {error, <<"url_required">>};
        _ ->
            {error, <<"expected_object">>}
    catch
        error:_ -> {error, <<"invalid_json">>}
    end.

with_url(Url, Map) ->
    case uri_string:parse(Url) of
        #{scheme := Scheme, host := Host} when (Scheme =:= <<"http">> orelse
                                                Scheme =:= <<"https">>),
                                               Host =/= <<>> ->
            case {payload(Map), extra_headers(maps:get(<<"headers">>, Map, #{}))} of
                {{ok, Payload, CT}, {ok, Headers}} ->
                    {ok, #kiln_job{url = Url,
                                   host = string:lowercase(Host),
                                   body = Payload,
                                   content_type = CT,
                                   headers = Headers}};
                {{error, _} = E, _} -> E;
                {_, {error, _} = E} -> E
            end;
        _ ->
            {error, <<"invalid_url">>}
    end.

payload(#{<<"body">> := Body} = Map) when is_binary(Body) ->
    {ok, Body, maps:get(<<"content_type">>, Map, <<"text/plain">>)};
payload(#{<<"payload">> := Payload}) ->
    {ok, jsx:encode(Payload), <<"application/json">>};
payload(_) ->
    {error, <<"payload_required">>}.

extra_headers(Headers) when is_map(Headers) ->
    Pairs = [{string:lowercase(K), V} || {K, V} <- maps:to_list(Headers)],
    case lists:all(fun valid_header/1, Pairs) of
        true -> {ok, Pairs};
        false -> {error, <<"invalid_headers">>}
    end;
extra_headers(_) ->
    {error, <<"invalid_headers">>}.

valid_header({K, V}) when is_binary(K), is_binary(V) ->
    Reserved = byte_size(?RESERVED_HEADER_PREFIX),
    case K of
        <<Prefix:Reserved/binary, _/binary>> when Prefix =:= ?RESERVED_HEADER_PREFIX -> false;
        <<"content-type">> -> false;
        <<"user-agent">> -> false;
        _ -> true
    end;
valid_header(_) ->
    false.

%%% responses

status_json(#job_status{id = Id, state = State, attempts = A, updated_at = T, last_error = E}) ->
    #{id => Id,
      state => State,
      attempts => A,
      updated_at => T,
      last_error => format_error(E)}.

format_error(undefined) -> null;
format_error({http_status, Status}) -> iolist_to_binary(["http ", integer_to_list(Status)]);
format_error(Other) -> iolist_to_binary(io_lib:format("~0p", [Other])).

json(Status, Map, Req) ->
    cowboy_req:reply(Status, #{<<"content-type">> => <<"application/json">>},
                     jsx:encode(Map), Req).
