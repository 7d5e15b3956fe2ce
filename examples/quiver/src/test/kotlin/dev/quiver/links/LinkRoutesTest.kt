package dev.quiver.links

import dev.quiver.quiverModule
import dev.quiver.config.QuiverConfig
import io.ktor.client.call.body
import io.ktor.client.plugins.contentnegotiation.ContentNegotiation
import io.ktor.client.request.get
import io.ktor.client.request.post
import io.ktor.client.request.setBody
import io.ktor.http.ContentType
import io.ktor.http.HttpHeaders
import io.ktor.http.HttpStatusCode
import io.ktor.http.contentType
import io.ktor.serialization.kotlinx.json.json
import io.ktor.server.config.MapApplicationConfig
import io.ktor.server.testing.testApplication
import kotlinx.coroutines.delay
import org.testcontainers.containers.PostgreSQLContainer
import org.testcontainers.junit.jupiter.Container
import org.testcontainers.junit.jupiter.Testcontainers
import kotlin.test.Test
import kotlin.test.assertEquals

@Testcontainers
class LinkRoutesTest {
    companion object {
        @Container
        @JvmStatic
        val postgres = PostgreSQLContainer("postgres:15.8-alpine")
    }

    // Tiny pool, 4-character slugs and a 50 ms flush so click counts are
    // visible almost immediately.
    private fun testConfig() = QuiverConfig.from(
        MapApplicationConfig(
            "quiver.http.base-url" to "http://sho.rt",
            "quiver.links.slug-length" to "4",
            "quiver.database.jdbc-url" to postgres.jdbcUrl,
            "quiver.database.user" to postgres.username,
            "quiver.database.password" to postgres.password,
            "quiver.database.pool-size" to "2",
            "quiver.clicks.flush-interval-ms" to "50",
            "quiver.clicks.batch-size" to "5",
            "quiver.rate-limit.creates-per-minute" to "3",
        ),
    )

    @Test
    fun `create, follow and count a short link`() = testApplication {
        application { quiverModule(testConfig()) }
        val client = createClient {
            install(ContentNegotiation) { json() }
            followRedirects = false
        }

        val created = client.post("/api/links") {
            contentType(ContentType.Application.Json)
            setBody(CreateLinkRequest(url = "https://example.org/docs?page=2"))
        }
        assertEquals(HttpStatusCode.Created, created.status)
        val link = created.body<CreateLinkResponse>()
        assertEquals(4, link.slug.length)
        assertEquals("http://sho.rt/${link.slug}", link.shortUrl)

        val redirect = client.get("/${link.slug}")
        assertEquals(HttpStatusCode.Found, redirect.status)
        assertEquals("https://example.org/docs?page=2", redirect.headers[HttpHeaders.Location])

        delay(300)
        val stats = client.get("/api/links/${link.slug}/stats").body<LinkStatsResponse>()
        assertEquals(1, stats.clicks)
    }

    @Test
    fun `non-http targets are rejected`() = testApplication {
        application { quiverModule(testConfig()) }
        val client = createClient { install(ContentNegotiation) { json() } }

        val res = client.post("/api/links") {
            contentType(ContentType.Application.Json)
            setBody(CreateLinkRequest(url = "javascript:alert(1)"))
        }
        assertEquals(HttpStatusCode.BadRequest, res.status)
    }

    @Test
    fun `the fourth create within a minute is throttled`() = testApplication {
        application { quiverModule(testConfig()) }
        val client = createClient { install(ContentNegotiation) { json() } }

        val statuses = (1..4).map {
            client.post("/api/links") {
                contentType(ContentType.Application.Json)
                setBody(CreateLinkRequest(url = "https://example.org/$it"))
            }.status
        }
        assertEquals(List(3) { HttpStatusCode.Created } + HttpStatusCode.TooManyRequests, statuses)
    }
}
