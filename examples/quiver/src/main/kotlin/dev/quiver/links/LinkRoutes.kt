package dev.quiver.links

import dev.quiver.analytics.ClickBuffer
import dev.quiver.analytics.ClickEvent
import dev.quiver.http.RateLimiter
import io.ktor.http.HttpHeaders
import io.ktor.http.HttpStatusCode
import io.ktor.server.plugins.origin
import io.ktor.server.request.receive
import io.ktor.server.response.header
import io.ktor.server.response.respond
import io.ktor.server.response.respondRedirect
import io.ktor.server.routing.Route
import io.ktor.server.routing.get
import io.ktor.server.routing.post
import io.ktor.server.routing.route
import kotlinx.datetime.Clock
import kotlinx.serialization.Serializable

@Serializable
data class CreateLinkRequest(
    val url: String,
    val slug: String? = null,
    val ttlDays: Int? = null,
)

@Serializable
data class CreateLinkResponse(
    val slug: String,
    val shortUrl: String,
    val targetUrl: String,
    val expiresAt: String?,
)

@Serializable
data class LinkStatsResponse(
    val slug: String,
    val targetUrl: String,
    val clicks: Long,
    val createdAt: String,
    val expiresAt: String?,
)

@Serializable
data class ErrorResponse(val error: String)

fun Route.linkRoutes(
    service: LinkService,
    limiter: RateLimiter,
    clicks: ClickBuffer,
    baseUrl: String,
) {
    route("/api/links") {
        post {
            val client = call.request.origin.remoteAddress
            if (!limiter.tryAcquire(client)) {
                call.response.header(HttpHeaders.RetryAfter, limiter.retryAfterSeconds(client).toString())
                call.respond(HttpStatusCode.TooManyRequests, ErrorResponse("too many links created, slow down"))
                return@post
            }
            val req = call.receive<CreateLinkRequest>()
            val link = service.create(req.url, req.slug, req.ttlDays)
            call.respond(
                HttpStatusCode.Created,
                CreateLinkResponse(
                    slug = link.slug,
                    shortUrl = "$baseUrl/${link.slug}",
                    targetUrl = link.targetUrl,
                    expiresAt = link.expiresAt?.toString(),
                ),
            )
        }

        get("/{slug}/stats") {
            val slug = call.parameters["slug"]!!
            val link = service.stats(slug)
                ?: return@get call.respond(HttpStatusCode.NotFound, ErrorResponse("no such link"))
            call.respond(
                LinkStatsResponse(
                    slug = link.slug,
                    targetUrl = link.targetUrl,
                    clicks = link.clickCount,
                    createdAt = link.createdAt.toString(),
                    expiresAt = link.expiresAt?.toString(),
                ),
            )
        }
    }

    get("/{slug}") {
        val slug = call.parameters["slug"]!!
        val link = service.resolve(slug)
            ?: return@get call.respond(HttpStatusCode.NotFound, ErrorResponse("no such link"))
        clicks.record(
            ClickEvent(
                linkId = link.id,
                at = Clock.System.now(),
                referrer = call.request.headers[HttpHeaders.Referrer],
                userAgent = call.request.headers[HttpHeaders.UserAgent],
            ),
        )
        call.response.header(HttpHeaders.CacheControl, "private, max-age=90")
        call.respondRedirect(link.targetUrl, permanent = false)
    }
}
