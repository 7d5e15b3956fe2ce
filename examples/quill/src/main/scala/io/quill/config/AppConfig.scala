package io.quill.config

import scala.concurrent.duration.FiniteDuration

import cats.effect.IO
import pureconfig._
import pureconfig.generic.semiauto._

/** Typed view of the `quill` block in application.conf. Defaults live in the .conf files, not here. */
final case class AppConfig(
  http: HttpConfig,
  db: DbConfig,
  notes: NotesConfig,
  rateLimit: RateLimitConfig
)

final case class HttpConfig(
  host: String,
  port: Int,
  idleTimeout: FiniteDuration,
  maxRequestBytes: Long,
  corsAllowedOrigins: List[String]
)

final case class DbConfig(
  url: String,
  user: String,
  password: String,
  poolSize: Int,
  connectionTimeout: FiniteDuration
)

final case class NotesConfig(
  maxNoteBytes: Int,
  defaultExpiry: FiniteDuration,
  sweepInterval: FiniteDuration
)

final case class RateLimitConfig(enabled: Boolean, requestsPerMinute: Int)

object AppConfig {
  implicit val httpReader: ConfigReader[HttpConfig]           = deriveReader
  implicit val dbReader: ConfigReader[DbConfig]               = deriveReader
  implicit val notesReader: ConfigReader[NotesConfig]         = deriveReader
  implicit val rateLimitReader: ConfigReader[RateLimitConfig] = deriveReader
  implicit val reader: ConfigReader[AppConfig]                = deriveReader

  /** Loads `quill` from whichever resource `config.resource` points at (application.conf by default). */
  def load: IO[AppConfig] =
    IO.blocking(ConfigSource.default.at("quill").loadOrThrow[AppConfig])
}
