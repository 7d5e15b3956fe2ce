## fjord - ingests boat sensor telemetry from MQTT into TimescaleDB.
##
## Subscribes to the configured topic filters, decodes each message into a
## reading, collects readings into batches and writes them with retries.
## A health endpoint reports on broker, database and buffer state.

import std/[asyncdispatch, os, parseopt, times]
import chronicles

import fjord/config
import fjord/reading
import fjord/batcher
import fjord/writer
import fjord/mqtt_client
import fjord/health

const
  NimblePkgVersion {.strdefine.} = "0.0.0-dev"
    ## Set by nimble from the package version at build time.
  DefaultConfigPath = "/etc/fjord/fjord.toml"
  TickMs = 100
    ## How often the main loop checks whether a batch is due.

var stopRequested = false

proc onSignal() {.noconv.} =
  stopRequested = true

proc usage() =
  echo "fjord " & NimblePkgVersion & """

Usage: fjord [--config:PATH] [--check] [--version]

  --config:PATH  settings file (default: $FJORD_CONFIG or """ & DefaultConfigPath & """)
  --check        load and validate the settings, print them, then exit
  --version      print the version and exit"""

type CliOptions = object
  configPath: string
  checkOnly: bool

proc parseCli(): CliOptions =
  result.configPath = getEnv("FJORD_CONFIG", DefaultConfigPath)
  var p = initOptParser()
  for kind, key, val in p.getopt():
    case kind
    of cmdLongOption, cmdShortOption:
      case key
      of "config", "c":
        result.configPath = val
      of "check":
        result.checkOnly = true
      of "version", "v":
        echo NimblePkgVersion
        quit(QuitSuccess)
      of "help", "h":
        usage()
        quit(QuitSuccess)
      else:
        stderr.writeLine "fjord: unknown option --" & key
        quit(QuitFailure)
    of cmdArgument:
      stderr.writeLine "fjord: unexpected argument " & key
      quit(QuitFailure)
    of cmdEnd:
      discard

proc run(s: Settings) {.async.} =
  let state = newHealthState()
  var buf = initBatcher(s.writer.batchSize, s.writer.flushIntervalMs,
                        s.writer.maxBuffered, epochTime())
  let w = newWriter(s.db, s.writer)
  try:
    w.connect()
    discard await w.replaySpool()
  except CatchableError as e:
    warn "database not reachable at startup; buffering", err = e.msg

  asyncCheck serveHealth(state, s.healthPort)
  info "health endpoint listening", port = s.healthPort

  proc onMessage(topic, vessel, payload: string) {.gcsafe.} =
    try:
      buf.add decodeReading(vessel, payload)
    except DecodeError as e:
      debug "dropping undecodable message", topic, err = e.msg

  let client = newIngestClient(s.mqtt, onMessage)
  await client.start()
  asyncCheck client.watch()

  while not stopRequested:
    await sleepAsync(TickMs)
    let now = epochTime()
    if buf.flushDue(now):
      let batch = buf.take(now)
      discard await w.writeBatch(batch)
      state.lastFlushAt = now
    state.mqttConnected = client.isConnected
    state.dbConnected = w.isConnected
    state.lastMessageAt = client.lastMessageAt
    state.buffered = buf.len
    state.written = w.written
    state.dropped = buf.dropped
    state.spooledBatches = w.spooledBatches

  info "shutting down", buffered = buf.len
  await client.stop()
  while buf.len > 0:
    discard await w.writeBatch(buf.take(epochTime()))
  w.disconnect()

proc main() =
  let cli = parseCli()
  let settings =
    try:
      loadSettings(cli.configPath)
    except ConfigError as e:
      stderr.writeLine "fjord: " & e.msg
      quit(QuitFailure)
  if cli.checkOnly:
    echo "ok: ", cli.configPath
    echo "  batch_size        = ", settings.writer.batchSize
    echo "  flush_interval_ms = ", settings.writer.flushIntervalMs
    echo "  write_retries     = ", settings.writer.writeRetries
    echo "  keepalive_secs    = ", settings.mqtt.keepaliveSecs
    echo "  health port       = ", settings.healthPort
    quit(QuitSuccess)

  setControlCHook(onSignal)
  info "starting fjord", version = NimblePkgVersion, vessel = settings.vessel,
    config = cli.configPath
  waitFor run(settings)

when isMainModule:
  main()
