package dev.quiver

import dev.quiver.analytics.ClickBuffer
import dev.quiver.config.QuiverConfig
import dev.quiver.db.QuiverDatabase
import dev.quiver.db.connectDatabase
import dev.quiver.http.RateLimiter
import dev.quiver.links.ErrorResponse
import dev.quiver.links.InvalidUrlException
import dev.quiver.links.LinkService
import dev.quiver.links.SlugTakenException
import dev.quiver.links.linkRoutes
import io.ktor.http.HttpStatusCode
import io.ktor.serialization.kotlinx.json.json
import io.ktor.server.application.Application
import io.ktor.server.application.ApplicationStopping
import io.ktor.server.application.install
import io.ktor.server.engine.embeddedServer
import io.ktor.server.metrics.micrometer.MicrometerMetrics
import io.ktor.server.netty.Netty
import io.ktor.server.plugins.calllogging.CallLogging
import io.ktor.server.plugins.contentnegotiation.ContentNegotiation
import io.ktor.server.plugins.statuspages.StatusPages
import io.ktor.server.request.path
import io.ktor.server.response.respond
import io.ktor.server.response.respondText
import io.ktor.server.routing.get
import io.ktor.server.routing.routing
import io.micrometer.prometheusmetrics.PrometheusConfig
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry
import kotlinx.coroutines.delay
import kotlinx.coroutines.isActive
import kotlinx.coroutines.launch
import kotlinx.serialization.json.Json
import org.slf4j.event.Level
import kotlin.time.Duration.Companion.minutes

fun main() {
    val config = QuiverConfig.load()
    embeddedServer(Netty, port = config.http.port, host = config.http.host) {
        quiverModule(config)
    }.start(wait = true)
}

fun Application.quiverModule(
    config: QuiverConfig,
    database: QuiverDatabase = connectDatabase(config.database),
) {
    val registry = PrometheusMeterRegistry(PrometheusConfig.DEFAULT)

    install(MicrometerMetrics) { this.registry = registry }
    install(CallLogging) {
        level = Level.INFO
        filter { call -> call.request.path().startsWith("/api") }
    }
    install(ContentNegotiation) {
        json(Json { ignoreUnknownKeys = true; explicitNulls = false })
    }
    install(StatusPages) {
        exception<InvalidUrlException> { call, e ->
            call.respond(HttpStatusCode.BadRequest, ErrorResponse(e.message ?: "invalid URL"))
        }
        exception<SlugTakenException> { call, e ->
            call.respond(HttpStatusCode.Conflict, ErrorResponse(e.message ?: "slug taken"))
        }
    }

    val service = LinkService(database, config.links, config.cache)
    val limiter = RateLimiter(config.rateLimit.createsPerMinute)
    val clicks = ClickBuffer(database, config.clicks, registry, this)

    launch {
        while (isActive) {
            delay(5.minutes)
            limiter.evictIdle()
        }
    }

    monitor.subscribe(ApplicationStopping) {
        clicks.close()
        database.close()
    }

    routing {
        get("/healthz") { call.respondText("ok") }
        get("/metrics") { call.respondText(registry.scrape()) }
        linkRoutes(service, limiter, clicks, config.http.baseUrl)
    }
}
