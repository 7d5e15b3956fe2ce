package dev.quiver.config

import com.typesafe.config.ConfigFactory
import io.ktor.server.config.ApplicationConfig
import io.ktor.server.config.HoconApplicationConfig
import java.io.File
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds

// Built-in defaults. They apply to every key that the loaded HOCON file leaves
// out, and to everything when quiver runs with no configuration at all.
const val DEFAULT_HOST = "0.0.0.0"
const val DEFAULT_PORT = 7318
const val DEFAULT_BASE_URL = "http://localhost:7318"

const val DEFAULT_SLUG_LENGTH = 7
const val DEFAULT_LINK_TTL_DAYS = 180
const val DEFAULT_MAX_URL_LENGTH = 3072

const val DEFAULT_JDBC_URL = "jdbc:postgresql://localhost:5432/quiver"
const val DEFAULT_DB_USER = "quiver"
const val DEFAULT_POOL_SIZE = 12
const val DEFAULT_CONNECTION_TIMEOUT_MS = 3100L

const val DEFAULT_CACHE_MAX_ENTRIES = 20_000L
const val DEFAULT_CACHE_TTL_SECONDS = 420L

const val DEFAULT_FLUSH_INTERVAL_MS = 2500L
const val DEFAULT_BATCH_SIZE = 250
const val DEFAULT_BUFFER_CAPACITY = 15_000

const val DEFAULT_CREATES_PER_MINUTE = 40

data class HttpConfig(
    val host: String = DEFAULT_HOST,
    val port: Int = DEFAULT_PORT,
    val baseUrl: String = DEFAULT_BASE_URL,
)

data class LinksConfig(
    val slugLength: Int = DEFAULT_SLUG_LENGTH,
    val defaultTtlDays: Int = DEFAULT_LINK_TTL_DAYS,
    val maxUrlLength: Int = DEFAULT_MAX_URL_LENGTH,
)

data class DatabaseConfig(
    val jdbcUrl: String = DEFAULT_JDBC_URL,
    val user: String = DEFAULT_DB_USER,
    val password: String = "",
    val poolSize: Int = DEFAULT_POOL_SIZE,
    val connectionTimeoutMs: Long = DEFAULT_CONNECTION_TIMEOUT_MS,
)

data class CacheConfig(
    val maxEntries: Long = DEFAULT_CACHE_MAX_ENTRIES,
    val ttlSeconds: Long = DEFAULT_CACHE_TTL_SECONDS,
) {
    val ttl: Duration get() = ttlSeconds.seconds
}

data class ClicksConfig(
    val flushIntervalMs: Long = DEFAULT_FLUSH_INTERVAL_MS,
    val batchSize: Int = DEFAULT_BATCH_SIZE,
    val bufferCapacity: Int = DEFAULT_BUFFER_CAPACITY,
) {
    val flushInterval: Duration get() = flushIntervalMs.milliseconds
}

data class RateLimitConfig(
    val createsPerMinute: Int = DEFAULT_CREATES_PER_MINUTE,
)

data class QuiverConfig(
    val http: HttpConfig = HttpConfig(),
    val links: LinksConfig = LinksConfig(),
    val database: DatabaseConfig = DatabaseConfig(),
    val cache: CacheConfig = CacheConfig(),
    val clicks: ClicksConfig = ClicksConfig(),
    val rateLimit: RateLimitConfig = RateLimitConfig(),
) {
    init {
        require(links.slugLength in 4..16) { "quiver.links.slug-length must be between 4 and 16" }
        require(database.poolSize > 0) { "quiver.database.pool-size must be positive" }
        require(clicks.batchSize <= clicks.bufferCapacity) {
            "quiver.clicks.batch-size must not exceed quiver.clicks.buffer-capacity"
        }
    }

    companion object {
        /**
         * Loads the file named by QUIVER_CONFIG if it is set, otherwise
         * `application.conf` from the classpath. Missing keys keep their defaults.
         */
        fun load(path: String? = System.getenv("QUIVER_CONFIG")): QuiverConfig {
            val raw = if (path != null) {
                ConfigFactory.parseFile(File(path)).resolve()
            } else {
                ConfigFactory.load()
            }
            return from(HoconApplicationConfig(raw))
        }

        fun from(config: ApplicationConfig): QuiverConfig {
            fun str(key: String) = config.propertyOrNull("quiver.$key")?.getString()
            fun int(key: String) = str(key)?.toInt()
            fun long(key: String) = str(key)?.toLong()

            val http = HttpConfig()
            val links = LinksConfig()
            val db = DatabaseConfig()
            val cache = CacheConfig()
            val clicks = ClicksConfig()
            val rate = RateLimitConfig()

            return QuiverConfig(
                http = HttpConfig(
                    host = str("http.host") ?: http.host,
                    port = int("http.port") ?: http.port,
                    baseUrl = (str("http.base-url") ?: http.baseUrl).trimEnd('/'),
                ),
                links = LinksConfig(
                    slugLength = int("links.slug-length") ?: links.slugLength,
                    defaultTtlDays = int("links.default-ttl-days") ?: links.defaultTtlDays,
                    maxUrlLength = int("links.max-url-length") ?: links.maxUrlLength,
                ),
                database = DatabaseConfig(
                    jdbcUrl = str("database.jdbc-url") ?: db.jdbcUrl,
                    user = str("database.user") ?: db.user,
                    password = str("database.password") ?: db.password,
                    poolSize = int("database.pool-size") ?: db.poolSize,
                    connectionTimeoutMs = long("database.connection-timeout-ms") ?: db.connectionTimeoutMs,
                ),
                cache = CacheConfig(
                    maxEntries = long("cache.max-entries") ?: cache.maxEntries,
                    ttlSeconds = long("cache.ttl-seconds") ?: cache.ttlSeconds,
                ),
                clicks = ClicksConfig(
                    flushIntervalMs = long("clicks.flush-interval-ms") ?: clicks.flushIntervalMs,
                    batchSize = int("clicks.batch-size") ?: clicks.batchSize,
                    bufferCapacity = int("clicks.buffer-capacity") ?: clicks.bufferCapacity,
                ),
                rateLimit = RateLimitConfig(
                    createsPerMinute = int("rate-limit.creates-per-minute") ?: rate.createsPerMinute,
                ),
            )
        }
    }
}
