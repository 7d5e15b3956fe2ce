## Subscribes to the telemetry topics on the boat's MQTT broker and hands
## every matching message to a callback.
##
## nmqtt already reconnects on its own after a dropped TCP connection, but on
## satellite and LTE uplinks we have seen it sit in a half-open state for
## minutes. `watch` notices that and forces a fresh session, backing off
## between attempts.

import std/[asyncdispatch, times]
import nmqtt
import chronicles

import ./topics
import ./backoff

const
  DefaultMqttHost* = "localhost"
  DefaultMqttPort* = 1883
  DefaultClientId* = "fjord"
  DefaultKeepAliveSecs* = 35
    ## PINGREQ interval. Mosquitto's own clients default to 60 s, but several
    ## marine LTE routers drop idle NAT mappings after roughly 40 s, so we stay
    ## below that.
  DefaultReconnectMinMs* = 1200
  DefaultReconnectMaxMs* = 32_000
  DefaultQos* = 1
  DefaultTopics* = @["vessels/+/n2k/#", "vessels/+/bilge/+"]
  WatchIntervalMs = 1000

type
  MqttOptions* = object
    host*: string
    port*: int
    tls*: bool
    clientId*: string
    username*: string
    password*: string
    keepaliveSecs*: int
    reconnectMinMs*: int
    reconnectMaxMs*: int
    qos*: int
    topics*: seq[string]

  MessageHandler* = proc (topic, vessel, payload: string) {.gcsafe, closure.}
    ## Called for every message whose topic matches one of the filters.
    ## `vessel` is the level matched by the filter's first `+`.

  IngestClient* = ref object
    opts: MqttOptions
    ctx: MqttCtx
    patterns: seq[TopicPattern]
    handler: MessageHandler
    received*: int64
    ignored*: int64
    lastMessageAt*: float

proc defaultMqttOptions*(): MqttOptions =
  MqttOptions(
    host: DefaultMqttHost,
    port: DefaultMqttPort,
    clientId: DefaultClientId,
    keepaliveSecs: DefaultKeepAliveSecs,
    reconnectMinMs: DefaultReconnectMinMs,
    reconnectMaxMs: DefaultReconnectMaxMs,
    qos: DefaultQos,
    topics: DefaultTopics)

proc newContext(opts: MqttOptions): MqttCtx =
  result = newMqttCtx(opts.clientId)
  result.set_host(opts.host, opts.port, opts.tls)
  if opts.username.len > 0:
    result.set_auth(opts.username, opts.password)
  result.set_ping_interval(opts.keepaliveSecs)

proc newIngestClient*(opts: MqttOptions, handler: MessageHandler): IngestClient =
  ## Raises `TopicError` if one of `opts.topics` is not a valid filter.
  result = IngestClient(opts: opts, handler: handler, ctx: newContext(opts))
  for filter in opts.topics:
    result.patterns.add parsePattern(filter)

proc isConnected*(c: IngestClient): bool =
  c.ctx.isConnected()

proc dispatch(c: IngestClient, topic, payload: string) =
  for p in c.patterns:
    if p.matches(topic):
      inc c.received
      c.lastMessageAt = epochTime()
      c.handler(topic, p.vesselOf(topic), payload)
      return
  # Overlapping subscriptions on the broker side can still deliver topics
  # none of our filters accept (e.g. retained messages after a filter change).
  inc c.ignored
  debug "ignoring message on unmatched topic", topic

proc start*(c: IngestClient) {.async.} =
  info "connecting to broker", host = c.opts.host, port = c.opts.port,
    tls = c.opts.tls, keepalive = c.opts.keepaliveSecs
  await c.ctx.start()
  for filter in c.opts.topics:
    await c.ctx.subscribe(filter, c.opts.qos,
      proc (topic, message: string) {.gcsafe.} = c.dispatch(topic, message))
  info "subscribed", filters = c.opts.topics.len, qos = c.opts.qos

proc stop*(c: IngestClient) {.async.} =
  try:
    await c.ctx.disconnect()
  except CatchableError as e:
    debug "disconnect failed", err = e.msg

proc watch*(c: IngestClient) {.async.} =
  ## Runs forever; restarts the session when nmqtt stays disconnected.
  var bo = initBackoff(c.opts.reconnectMinMs, c.opts.reconnectMaxMs)
  var wasConnected = true
  while true:
    await sleepAsync(WatchIntervalMs)
    if c.isConnected:
      if not wasConnected:
        info "broker connection restored"
        bo.reset()
      wasConnected = true
      continue

    if wasConnected:
      warn "lost broker connection", host = c.opts.host
    wasConnected = false
    let delay = bo.nextDelayMs()
    debug "reconnecting", delayMs = delay, attempt = bo.attempt
    await sleepAsync(delay)
    await c.stop()
    c.ctx = newContext(c.opts)
    try:
      await c.start()
    except CatchableError as e:
      warn "reconnect failed", err = e.msg
