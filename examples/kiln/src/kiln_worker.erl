%% @doc A single delivery attempt.
%%
%% {@link start/1} spawns a monitored process that POSTs the job body to
%% its URL and exits with `{delivery, Result}'. The dispatcher reads the
%% result from the `DOWN' message.
%%
%% Response handling:
%% <ul>
%%   <li>2xx: delivered.</li>
%%   <li>410 Gone: the receiver is telling us to stop; the job is dropped.</li>
%%   <li>408, 425, 429 and 5xx: retried, honouring `Retry-After' (seconds
%%       only) up to one hour.</li>
%%   <li>any other status: dropped, retrying will not change the answer.</li>
%%   <li>transport errors (timeouts, refused, TLS): retried.</li>
%% </ul>
-module(kiln_worker).

-include("kiln.hrl").

-export([start/1, deliver/1, signature/3, retry_after/1]).

-export_type([result/0]).

-define(DEFAULT_CONNECT_TIMEOUT_MS, 4000).
-define(DEFAULT_RECV_TIMEOUT_MS, 15000).
-define(MAX_RETRY_AFTER_MS, 3600000).
-define(HTTP_POOL, kiln_pool).

-type result() :: ok
                | {drop, term()}
                | {retry, term(), non_neg_integer()}.

%% @doc Start a delivery in a new monitored process.
-spec start(#kiln_job{}) -> {pid(), reference()}.
start(#kiln_job{} = Job) ->
    spawn_monitor(fun() -> exit({delivery, deliver(Job)}) end).

%% @doc Run one delivery attempt in the calling process.
-spec deliver(#kiln_job{}) -> result().
deliver(#kiln_job{host = Host, attempts = Attempt} = Job) ->
    Start = erlang:monotonic_time(),
    Result = request(Job),
    telemetry:execute([kiln, delivery, stop],
                      #{duration => erlang:monotonic_time() - Start},
                      #{host => Host, attempt => Attempt, result => tag(Result)}),
    Result.

%% @doc Value of the signature header for `Body' sent at unix time `Ts'.
%% Receivers recompute HMAC-SHA256 over `"<ts>.<body>"' with the shared
%% secret and compare it to `v1'.
-spec signature(binary(), binary(), integer()) -> binary().
signature(Secret, Body, Ts) ->
    TsBin = integer_to_binary(Ts),
    Mac = crypto:mac(hmac, sha256, Secret, [TsBin, $., Body]),
    %% binary:encode_hex/2 (with the case argument) needs OTP 26.
    Hex = string:lowercase(binary:encode_hex(Mac)),
    <<"t=", TsBin/binary, ",v1=", Hex/binary>>.

%% @doc Milliseconds requested by a `Retry-After' header, 0 if absent or
%% not a number of seconds. HTTP-dates are not supported.
-spec retry_after([{binary(), binary()}]) -> non_neg_integer().
retry_after(Headers) ->
    case [V || {K, V} <- Headers, string:lowercase(K) =:= <<"retry-after">>] of
        [Value | _] ->
            try binary_to_integer(string:trim(Value)) of
                Secs when Secs >= 0 -> min(Secs * 1000, ?MAX_RETRY_AFTER_MS);
                _ -> 0
            catch
                error:badarg -> 0
            end;
        [] ->
            0
    end.

%%% internal

request(#kiln_job{url = Url, body = Body} = Job) ->
    Opts = [{pool, ?HTTP_POOL},
            {connect_timeout, application:get_env(kiln, connect_timeout_ms,
                                                  ?DEFAULT_CONNECT_TIMEOUT_MS)},
            {recv_timeout, application:get_env(kiln, recv_timeout_ms,
                                               ?DEFAULT_RECV_TIMEOUT_MS)},
            with_body],
    case hackney:request(post, Url, headers(Job), Body, Opts) of
        {ok, Status, _RespHeaders, _RespBody} when Status >= 200, Status < 300 ->
            ok;
        {ok, 410, _RespHeaders, _RespBody} ->
            {drop, gone};
        {ok, Status, RespHeaders, _RespBody}
          when Status =:= 408; Status =:= 425; Status =:= 429; Status >= 500 ->
            {retry, {http_status, Status}, retry_after(RespHeaders)};
        {ok, Status, _RespHeaders, _RespBody} ->
            {drop, {http_status, Status}};
        {error, Reason} ->
            {retry, Reason, 0}
    end.

headers(#kiln_job{id = Id, attempts = Attempt, content_type = CT, body = Body, headers = Extra}) ->
    Base = [{<<"content-type">>, CT},
            {<<"user-agent">>, user_agent()},
            {?DELIVERY_ID_HEADER, Id},
            {?ATTEMPT_HEADER, integer_to_binary(Attempt)}],
    Signed = case signing_secret() of
                 undefined -> Base;
                 Secret -> [{?SIGNATURE_HEADER,
                             signature(Secret, Body, erlang:system_time(second))} | Base]
             end,
    Signed ++ Extra.

%% The secret is either a binary in sys.config or `{env, "VAR"}', which is
%% what production uses so the secret never ends up in the release.
signing_secret() ->
    case application:get_env(kiln, signing_secret) of
        {ok, {env, Var}} ->
            case os:getenv(Var) of
                false -> undefined;
                "" -> undefined;
                Value -> list_to_binary(Value)
            end;
        {ok, Secret} when is_binary(Secret), Secret =/= <<>> ->
            Secret;
        _ ->
            undefined
    end.

user_agent() ->
    Vsn = case application:get_key(kiln, vsn) of
              {ok, V} -> V;
              undefined -> "dev"
          end,
    iolist_to_binary(["kiln/", Vsn]).

tag(ok) -> ok;
tag({drop, _}) -> drop;
tag({retry, _, _}) -> retry.
