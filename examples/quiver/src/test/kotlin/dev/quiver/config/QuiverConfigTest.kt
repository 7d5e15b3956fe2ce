package dev.quiver.config

import com.typesafe.config.ConfigFactory
import io.ktor.server.config.HoconApplicationConfig
import io.ktor.server.config.MapApplicationConfig
import java.io.File
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

class QuiverConfigTest {
    @Test
    fun `an empty config falls back to every built-in default`() {
        val cfg = QuiverConfig.from(MapApplicationConfig())

        assertEquals(QuiverConfig(), cfg)
        assertEquals(DEFAULT_PORT, cfg.http.port)
        assertEquals(DEFAULT_SLUG_LENGTH, cfg.links.slugLength)
        assertEquals(DEFAULT_POOL_SIZE, cfg.database.poolSize)
        assertEquals(DEFAULT_FLUSH_INTERVAL_MS, cfg.clicks.flushIntervalMs)
    }

    @Test
    fun `keys that are set win, the rest keep their defaults`() {
        val cfg = QuiverConfig.from(
            MapApplicationConfig(
                "quiver.http.port" to "9999",
                "quiver.clicks.batch-size" to "10",
            ),
        )

        assertEquals(9999, cfg.http.port)
        assertEquals(10, cfg.clicks.batchSize)
        assertEquals(DEFAULT_BUFFER_CAPACITY, cfg.clicks.bufferCapacity)
        assertEquals(DEFAULT_CACHE_TTL_SECONDS, cfg.cache.ttlSeconds)
    }

    @Test
    fun `trailing slash on the base URL is dropped`() {
        val cfg = QuiverConfig.from(MapApplicationConfig("quiver.http.base-url" to "https://example.test/"))
        assertEquals("https://example.test", cfg.http.baseUrl)
    }

    @Test
    fun `the production file parses and keeps secrets out`() {
        val file = File("deploy/application-prod.conf")
        val cfg = QuiverConfig.from(HoconApplicationConfig(ConfigFactory.parseFile(file).resolve()))

        assertEquals("", cfg.database.password, "the prod file must not contain a password")
        assertEquals(cfg.clicks.batchSize <= cfg.clicks.bufferCapacity, true)
    }

    @Test
    fun `a batch larger than the buffer is rejected`() {
        assertFailsWith<IllegalArgumentException> {
            QuiverConfig(clicks = ClicksConfig(batchSize = 500, bufferCapacity = 100))
        }
    }
}
