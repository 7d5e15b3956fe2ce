import std/[os, unittest]
import fjord/config
import fjord/mqtt_client
import fjord/health

const sample = """
vessel = "test-skiff"
log_level = "debug"

[mqtt]
host = "broker.test"
keepalive_secs = 7
topics = ["boats/+/env/#"]

[writer]
batch_size = 16
flush_interval_ms = 50
write_retries = 1
backoff_multiplier = 3
"""

suite "config":
  test "defaults are self-consistent":
    let s = defaultSettings()
    s.validate()
    check s.writer.batchSize == DefaultBatchSize
    check s.writer.flushIntervalMs == DefaultFlushIntervalMs
    check s.writer.writeRetries == DefaultWriteRetries
    check s.writer.batchSize <= s.writer.maxBuffered
    check s.mqtt.keepaliveSecs == DefaultKeepAliveSecs
    check s.healthPort == DefaultHealthPort

  test "TOML overrides defaults":
    let s = parseSettings(sample, useEnv = false)
    check s.vessel == "test-skiff"
    check s.mqtt.host == "broker.test"
    check s.mqtt.keepaliveSecs == 7
    check s.mqtt.topics == @["boats/+/env/#"]
    check s.writer.batchSize == 16
    check s.writer.flushIntervalMs == 50
    check s.writer.writeRetries == 1
    check s.writer.backoffMultiplier == 3.0

  test "keys missing from the file keep their defaults":
    let s = parseSettings(sample, useEnv = false)
    check s.db.table == DefaultTable
    check s.writer.maxBuffered == DefaultMaxBuffered
    check s.mqtt.port == DefaultMqttPort

  test "environment wins over the file":
    putEnv("FJORD_DB_URL", "postgresql://ci:ci@db.test:6543/ci")
    defer: delEnv("FJORD_DB_URL")
    let s = parseSettings(sample)
    check s.db.url == "postgresql://ci:ci@db.test:6543/ci"

  test "rejects a zero batch size":
    expect ConfigError:
      discard parseSettings("[writer]\nbatch_size = 0\n", useEnv = false)

  test "rejects a batch larger than the buffer":
    expect ConfigError:
      discard parseSettings("[writer]\nbatch_size = 64\nmax_buffered = 32\n",
                            useEnv = false)

  test "rejects a table name that is not an identifier":
    expect ConfigError:
      discard parseSettings("[db]\ntable = \"readings; drop table x\"\n",
                            useEnv = false)

  test "rejects broken TOML":
    expect ConfigError:
      discard parseSettings("[writer\nbatch_size = 3", useEnv = false)

  test "shipped config files load":
    let root = currentSourcePath().parentDir.parentDir / "config"
    for name in ["fjord.toml", "fjord.prod.toml"]:
      let s = loadSettings(root / name, useEnv = false)
      check s.writer.batchSize > 0
