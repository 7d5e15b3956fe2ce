## Small HTTP endpoint for the container health check and the shore-side
## monitoring dashboard.
##
## * `GET /healthz` - 200 while the broker and the database are reachable and
##   messages keep arriving, 503 otherwise. The body is a JSON report.
## * `GET /readyz`  - 200 once the first batch has been written.

import std/[asyncdispatch, asynchttpserver, times]
import jsony

const
  DefaultHealthPort* = 8477
    ## Was 8080 before 0.6.0. Moved because the Signal K server and most
    ## chart-plotter bridges on a boat's gateway already claim 8080 or 3000.
  StaleAfterSecs* = 180
    ## No MQTT message for this long marks the daemon unhealthy.
  AcceptIdleMs = 50

type
  HealthState* = ref object
    startedAt*: float
    mqttConnected*: bool
    dbConnected*: bool
    lastMessageAt*: float
    lastFlushAt*: float
    buffered*: int
    written*: int64
    dropped*: int64
    spooledBatches*: int64

  HealthReport* = object
    status*: string
    mqtt*: bool
    db*: bool
    secondsSinceMessage*: int
    buffered*: int
    written*: int64
    dropped*: int64
    spooledBatches*: int64
    uptimeSecs*: int

proc newHealthState*(): HealthState =
  HealthState(startedAt: epochTime())

proc report*(s: HealthState, now: float): HealthReport =
  let last = if s.lastMessageAt > 0: s.lastMessageAt else: s.startedAt
  let quiet = int(now - last)
  let ok = s.mqttConnected and s.dbConnected and quiet < StaleAfterSecs
  HealthReport(
    status: if ok: "ok" else: "degraded",
    mqtt: s.mqttConnected,
    db: s.dbConnected,
    secondsSinceMessage: quiet,
    buffered: s.buffered,
    written: s.written,
    dropped: s.dropped,
    spooledBatches: s.spooledBatches,
    uptimeSecs: int(now - s.startedAt))

proc serveHealth*(state: HealthState, port = DefaultHealthPort,
                  address = "0.0.0.0") {.async.} =
  let server = newAsyncHttpServer()

  proc handle(req: Request) {.async, gcsafe.} =
    let headers = newHttpHeaders([("Content-Type", "application/json")])
    if req.reqMethod != HttpGet:
      await req.respond(Http405, """{"error":"method not allowed"}""", headers)
      return
    case req.url.path
    of "/healthz":
      let r = state.report(epochTime())
      await req.respond(if r.status == "ok": Http200 else: Http503, r.toJson(), headers)
    of "/readyz":
      if state.written > 0:
        await req.respond(Http200, """{"ready":true}""", headers)
      else:
        await req.respond(Http503, """{"ready":false}""", headers)
    else:
      await req.respond(Http404, """{"error":"not found"}""", headers)

  server.listen(Port(port), address)
  while true:
    if server.shouldAcceptRequest():
      await server.acceptRequest(handle)
    else:
      await sleepAsync(AcceptIdleMs)
