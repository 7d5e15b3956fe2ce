## Runtime settings.
##
## Every setting has a compiled-in default below. A TOML file
## (`config/fjord.toml` for development, `config/fjord.prod.toml` in the
## Docker image) overrides any of them, and a few can be overridden once more
## from the environment so that secrets stay out of the file:
##
## ======================  ==========================
## variable                setting
## ======================  ==========================
## FJORD_DB_URL            `[db] url`
## FJORD_MQTT_HOST         `[mqtt] host`
## FJORD_MQTT_USERNAME     `[mqtt] username`
## FJORD_MQTT_PASSWORD     `[mqtt] password`
## ======================  ==========================

import std/[os, strutils]
import parsetoml

import ./mqtt_client
import ./health

const
  # --- batching -----------------------------------------------------------
  DefaultBatchSize* = 750
    ## Readings collected before a batch is written. Raised from 250 in 0.5.0:
    ## one multi-row INSERT per 750 rows keeps a Raspberry Pi 4 gateway well
    ## under 5 % CPU at the ~300 readings/s a mid-size sailboat produces.
  DefaultFlushIntervalMs* = 2500
    ## A partial batch is written after this long even if it is not full.
  DefaultMaxBuffered* = 60_000
    ## Readings kept in memory while the database is away; beyond this the
    ## oldest are dropped (and counted in /healthz as `dropped`).

  # --- writing ------------------------------------------------------------
  DefaultWriteRetries* = 5
    ## Extra attempts after a failed INSERT before the batch is spooled to disk.
  DefaultBackoffInitialMs* = 200
  DefaultBackoffMaxMs* = 16_000
  DefaultBackoffMultiplier* = 2.0
  DefaultSpoolDir* = "/var/lib/fjord/spool"

  # --- database -----------------------------------------------------------
  DefaultDbUrl* = "postgresql://fjord:fjord@localhost:5432/telemetry"
  DefaultTable* = "readings"
  DefaultStatementTimeoutMs* = 15_000

  DefaultVessel* = "unnamed"
  DefaultLogLevel* = "info"

type
  DbSettings* = object
    url*: string
    table*: string
    statementTimeoutMs*: int

  WriterSettings* = object
    batchSize*: int
    flushIntervalMs*: int
    maxBuffered*: int
    writeRetries*: int
    backoffInitialMs*: int
    backoffMaxMs*: int
    backoffMultiplier*: float
    spoolDir*: string

  Settings* = object
    vessel*: string       ## label used in log lines only; ids come from topics
    logLevel*: string
    mqtt*: MqttOptions
    db*: DbSettings
    writer*: WriterSettings
    healthPort*: int

  ConfigError* = object of CatchableError

proc defaultSettings*(): Settings =
  Settings(
    vessel: DefaultVessel,
    logLevel: DefaultLogLevel,
    mqtt: defaultMqttOptions(),
    db: DbSettings(
      url: DefaultDbUrl,
      table: DefaultTable,
      statementTimeoutMs: DefaultStatementTimeoutMs),
    writer: WriterSettings(
      batchSize: DefaultBatchSize,
      flushIntervalMs: DefaultFlushIntervalMs,
      maxBuffered: DefaultMaxBuffered,
      writeRetries: DefaultWriteRetries,
      backoffInitialMs: DefaultBackoffInitialMs,
      backoffMaxMs: DefaultBackoffMaxMs,
      backoffMultiplier: DefaultBackoffMultiplier,
      spoolDir: DefaultSpoolDir),
    healthPort: DefaultHealthPort)

# --- TOML helpers ------------------------------------------------------------

proc section(root: TomlValueRef, name: string): TomlValueRef =
  if root.hasKey(name): root[name] else: nil

proc read(sec: TomlValueRef, key: string, target: var int) =
  if sec != nil and sec.hasKey(key):
    target = sec[key].getInt()

proc read(sec: TomlValueRef, key: string, target: var float) =
  if sec != nil and sec.hasKey(key):
    let v = sec[key]
    target = if v.kind == TomlValueKind.Int: v.getInt().float else: v.getFloat()

proc read(sec: TomlValueRef, key: string, target: var string) =
  if sec != nil and sec.hasKey(key):
    target = sec[key].getStr()

proc read(sec: TomlValueRef, key: string, target: var bool) =
  if sec != nil and sec.hasKey(key):
    target = sec[key].getBool()

proc read(sec: TomlValueRef, key: string, target: var seq[string]) =
  if sec != nil and sec.hasKey(key):
    target.setLen(0)
    for item in sec[key].getElems():
      target.add item.getStr()

# --- validation --------------------------------------------------------------

proc validate*(s: Settings) =
  ## Raises `ConfigError` for settings the daemon cannot run with.
  template need(cond: bool, msg: string) =
    if not cond:
      raise newException(ConfigError, msg)

  need s.writer.batchSize > 0, "writer.batch_size must be positive"
  need s.writer.maxBuffered >= s.writer.batchSize,
    "writer.max_buffered must be at least writer.batch_size"
  need s.writer.flushIntervalMs >= 10, "writer.flush_interval_ms must be at least 10"
  need s.writer.writeRetries >= 0, "writer.write_retries must not be negative"
  need s.writer.backoffInitialMs > 0, "writer.backoff_initial_ms must be positive"
  need s.writer.backoffMaxMs >= s.writer.backoffInitialMs,
    "writer.backoff_max_ms must be at least writer.backoff_initial_ms"
  need s.writer.backoffMultiplier >= 1.0, "writer.backoff_multiplier must be >= 1.0"
  need s.mqtt.keepaliveSecs in 5 .. 65_535, "mqtt.keepalive_secs must be within 5..65535"
  need s.mqtt.qos in 0 .. 2, "mqtt.qos must be 0, 1 or 2"
  need s.mqtt.topics.len > 0, "mqtt.topics must name at least one topic filter"
  need s.db.table.validIdentifier, "db.table must be a plain SQL identifier"
  need s.healthPort in 1 .. 65_535, "health.port must be within 1..65535"

# --- loading -----------------------------------------------------------------

proc applyToml(s: var Settings, root: TomlValueRef) =
  root.read("vessel", s.vessel)
  root.read("log_level", s.logLevel)

  let mqtt = root.section("mqtt")
  mqtt.read("host", s.mqtt.host)
  mqtt.read("port", s.mqtt.port)
  mqtt.read("tls", s.mqtt.tls)
  mqtt.read("client_id", s.mqtt.clientId)
  mqtt.read("username", s.mqtt.username)
  mqtt.read("password", s.mqtt.password)
  mqtt.read("keepalive_secs", s.mqtt.keepaliveSecs)
  mqtt.read("reconnect_min_ms", s.mqtt.reconnectMinMs)
  mqtt.read("reconnect_max_ms", s.mqtt.reconnectMaxMs)
  mqtt.read("qos", s.mqtt.qos)
  mqtt.read("topics", s.mqtt.topics)

  let db = root.section("db")
  db.read("url", s.db.url)
  db.read("table", s.db.table)
  db.read("statement_timeout_ms", s.db.statementTimeoutMs)

  let writer = root.section("writer")
  writer.read("batch_size", s.writer.batchSize)
  writer.read("flush_interval_ms", s.writer.flushIntervalMs)
  writer.read("max_buffered", s.writer.maxBuffered)
  writer.read("write_retries", s.writer.writeRetries)
  writer.read("backoff_initial_ms", s.writer.backoffInitialMs)
  writer.read("backoff_max_ms", s.writer.backoffMaxMs)
  writer.read("backoff_multiplier", s.writer.backoffMultiplier)
  writer.read("spool_dir", s.writer.spoolDir)

  root.section("health").read("port", s.healthPort)

proc applyEnv(s: var Settings) =
  s.db.url = getEnv("FJORD_DB_URL", s.db.url)
  s.mqtt.host = getEnv("FJORD_MQTT_HOST", s.mqtt.host)
  s.mqtt.username = getEnv("FJORD_MQTT_USERNAME", s.mqtt.username)
  s.mqtt.password = getEnv("FJORD_MQTT_PASSWORD", s.mqtt.password)

proc parseSettings*(toml: string, useEnv = true): Settings =
  ## Defaults, overridden by `toml`, overridden by the environment.
  result = defaultSettings()
  let root =
    try:
      parsetoml.parseString(toml)
    except TomlError as e:
      raise newException(ConfigError, "invalid TOML: " & e.msg)
  result.applyToml(root)
  if useEnv:
    result.applyEnv()
  result.validate()

proc loadSettings*(path: string, useEnv = true): Settings =
  if not fileExists(path):
    raise newException(ConfigError, "settings file not found: " & path)
  try:
    result = parseSettings(readFile(path), useEnv)
  except ConfigError as e:
    raise newException(ConfigError, path & ": " & e.msg)
