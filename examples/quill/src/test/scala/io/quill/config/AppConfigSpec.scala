package io.quill.config

import scala.concurrent.duration._

import com.typesafe.config.ConfigFactory
import pureconfig.ConfigSource

class AppConfigSpec extends munit.FunSuite {

  private def load(resource: String): AppConfig =
    ConfigSource
      .fromConfig(ConfigFactory.parseResources(resource).resolve())
      .at("quill")
      .loadOrThrow[AppConfig]

  test("test.conf picks an ephemeral port and a tiny pool") {
    val cfg = load("test.conf")
    assertEquals(cfg.http.port, 0)
    assertEquals(cfg.db.poolSize, 2)
    assertEquals(cfg.notes.maxNoteBytes, 1024)
    assert(!cfg.rateLimit.enabled)
  }

  test("production.conf raises limits") {
    val cfg = load("production.conf")
    assertEquals(cfg.http.idleTimeout, 120.seconds)
    assertEquals(cfg.notes.defaultExpiry, 90.days)
    assertEquals(cfg.rateLimit.requestsPerMinute, 600)
  }

  test("production keeps the default note size limit") {
    assertEquals(load("production.conf").notes.maxNoteBytes, load("application.conf").notes.maxNoteBytes)
  }
}
