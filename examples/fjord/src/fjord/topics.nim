## MQTT topic filters such as `vessels/+/n2k/#` and matching of concrete
## topic names against them, following MQTT 3.1.1 section 4.7.
##
## Only what the broker cannot do for us lives here: the broker already
## filters by subscription, but we need to know *which* filter matched and
## what the `+` levels captured (the vessel id).

import std/strutils

const
  MaxTopicLevels* = 16
  MaxTopicLen* = 512

type
  LevelKind* = enum
    lkLiteral ## exact text
    lkPlus    ## `+`, exactly one level
    lkHash    ## `#`, this level and everything below it

  Level* = object
    kind*: LevelKind
    text*: string

  TopicPattern* = object
    raw*: string
    levels*: seq[Level]

  TopicError* = object of ValueError

proc parsePattern*(filter: string): TopicPattern =
  ## Parses a subscription filter. Raises `TopicError` for filters the
  ## broker would reject too.
  if filter.len == 0:
    raise newException(TopicError, "empty topic filter")
  if filter.len > MaxTopicLen:
    raise newException(TopicError, "topic filter longer than " & $MaxTopicLen & " bytes")
  let parts = filter.split('/')
  if parts.len > MaxTopicLevels:
    raise newException(TopicError, "too many levels in " & filter)
  result.raw = filter
  for i, part in parts:
    case part
    of "+":
      result.levels.add Level(kind: lkPlus)
    of "#":
      if i != parts.high:
        raise newException(TopicError, "'#' must be the last level in " & filter)
      result.levels.add Level(kind: lkHash)
    else:
      if '+' in part or '#' in part:
        raise newException(TopicError, "a wildcard must be a whole level in " & filter)
      result.levels.add Level(kind: lkLiteral, text: part)

proc matchInto(p: TopicPattern, topic: string, captures: var seq[string]): bool =
  if topic.len == 0 or topic.len > MaxTopicLen or '+' in topic or '#' in topic:
    return false
  let parts = topic.split('/')
  # [MQTT-4.7.2-1] a filter starting with a wildcard must not match topics
  # beginning with '$' ($SYS/broker/... and friends).
  if parts[0].startsWith('$') and p.levels[0].kind != lkLiteral:
    return false
  var i = 0
  for level in p.levels:
    case level.kind
    of lkHash:
      # "a/#" also matches "a" itself.
      return true
    of lkPlus:
      if i >= parts.len:
        return false
      captures.add parts[i]
    of lkLiteral:
      if i >= parts.len or parts[i] != level.text:
        return false
    inc i
  result = i == parts.len

proc matches*(p: TopicPattern, topic: string): bool =
  var ignored: seq[string]
  p.matchInto(topic, ignored)

proc captures*(p: TopicPattern, topic: string): seq[string] =
  ## The levels matched by each `+`, in order; empty if `topic` does not match.
  if not p.matchInto(topic, result):
    result.setLen(0)

proc vesselOf*(p: TopicPattern, topic: string): string =
  ## The vessel id, i.e. the level under the filter's first `+`
  ## (`vessels/+/...`); empty if the filter has no `+`.
  let caps = p.captures(topic)
  if caps.len > 0: caps[0] else: ""

proc `$`*(p: TopicPattern): string = p.raw
