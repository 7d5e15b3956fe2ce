-module(brook_ffi).
-export([parse_feed/1, feed_ttl_minutes/1, monotonic_ms/0, system_seconds/0]).

-include_lib("xmerl/include/xmerl.hrl").

%% Parses an RSS 2.0 or Atom 1.0 document into
%% {ok, {FeedTitle, [{Id, Link, Title, Published}]}} or {error, Reason}.
%% Reason is a binary so the Gleam side can match on it.
parse_feed(Body) when is_binary(Body) ->
    case scan(Body) of
        {ok, #xmlElement{name = rss} = Root} ->
            Channel = first_child(Root, channel),
            Items = [rss_item(E) || E <- children(Channel, item)],
            {ok, {child_text(Channel, title), Items}};
        {ok, #xmlElement{name = feed} = Root} ->
            Entries = [atom_entry(E) || E <- children(Root, entry)],
            {ok, {child_text(Root, title), Entries}};
        {ok, _Other} ->
            {error, <<"unknown_format">>};
        {error, Reason} ->
            {error, unicode:characters_to_binary(io_lib:format("~p", [Reason]))}
    end.

%% <ttl> is only defined for RSS; Atom feeds always return none.
feed_ttl_minutes(Body) ->
    case scan(Body) of
        {ok, #xmlElement{name = rss} = Root} ->
            case child_text(first_child(Root, channel), ttl) of
                <<>> -> none;
                Text ->
                    try {some, binary_to_integer(string:trim(Text))}
                    catch error:badarg -> none
                    end
            end;
        _ ->
            none
    end.

monotonic_ms() ->
    erlang:monotonic_time(millisecond).

system_seconds() ->
    erlang:system_time(second).

%% --- internals -------------------------------------------------------------

scan(Body) ->
    try
        {Doc, _Rest} = xmerl_scan:string(unicode:characters_to_list(Body),
                                         [{quiet, true}, {fetch_fun, fun no_fetch/2}]),
        {ok, strip_ns(Doc)}
    catch
        exit:Reason -> {error, Reason};
        error:Reason -> {error, Reason}
    end.

%% Never follow external DTDs or entities referenced by a feed.
no_fetch(_Uri, State) ->
    {ok, not_fetched, State}.

rss_item(E) ->
    Link = child_text(E, link),
    {child_text(E, guid), Link, child_text(E, title), child_text(E, pubDate)}.

atom_entry(E) ->
    Link = case [L || L <- children(E, link), attr(L, rel, <<"alternate">>) =:= <<"alternate">>] of
        [First | _] -> attr(First, href, <<>>);
        [] -> <<>>
    end,
    {child_text(E, id), Link, child_text(E, title), child_text(E, updated)}.

children(#xmlElement{content = Content}, Name) ->
    [C || #xmlElement{name = N} = C <- Content, N =:= Name];
children(_, _) ->
    [].

first_child(E, Name) ->
    case children(E, Name) of
        [C | _] -> C;
        [] -> undefined
    end.

child_text(E, Name) ->
    case first_child(E, Name) of
        undefined -> <<>>;
        #xmlElement{content = Content} ->
            unicode:characters_to_binary(
              [V || #xmlText{value = V} <- Content])
    end.

attr(#xmlElement{attributes = Attrs}, Name, Default) ->
    case lists:keyfind(Name, #xmlAttribute.name, Attrs) of
        #xmlAttribute{value = V} -> unicode:characters_to_binary(V);
        false -> Default
    end.

%% Drop namespace prefixes (atom:link, dc:date, ...) so lookups stay simple.
strip_ns(#xmlElement{name = Name, content = Content} = E) ->
    E#xmlElement{name = local(Name), content = [strip_ns(C) || C <- Content]};
strip_ns(Other) ->
    Other.

local(Name) ->
    case string:split(atom_to_list(Name), ":", trailing) of
        [_Prefix, Local] -> list_to_atom(Local);
        [Local] -> list_to_atom(Local)
    end.
