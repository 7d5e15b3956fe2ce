package packtrack

import io.ktor.client.HttpClient
import io.ktor.client.engine.cio.CIO
import io.ktor.client.request.get
import io.ktor.client.request.header
import io.ktor.client.statement.bodyAsText
import io.ktor.http.HttpStatusCode
import kotlinx.coroutines.delay
import kotlinx.serialization.json.Json

const val DEFAULT_TIMEOUT_SECONDS = 10L
const val USER_AGENT = "packtrack/0.4"

/**
 * Asks a carrier's API for a shipment. A failed request is retried [maxRetries] times, waiting
 * twice as long after each failure.
 */
class Tracker(
    private val client: HttpClient = HttpClient(CIO) {
        engine { requestTimeout = DEFAULT_TIMEOUT_SECONDS * 1000 }
    },
    private val maxRetries: Int = 3,
    private val backoffMillis: Long = 500,
) {
    private val json = Json { ignoreUnknownKeys = true }

    suspend fun track(trackingId: String, carrier: Carrier? = null): Shipment {
        val chosen = carrier ?: Carrier.guess(trackingId) ?: throw UnknownCarrierException(trackingId)
        var wait = backoffMillis
        repeat(maxRetries + 1) { attempt ->
            val response = client.get("${chosen.baseUrl}/$trackingId") {
                header("User-Agent", USER_AGENT)
            }
            when (response.status) {
                HttpStatusCode.OK -> return json.decodeFromString(response.bodyAsText())
                HttpStatusCode.NotFound -> throw TrackingNotFoundException(trackingId)
                HttpStatusCode.TooManyRequests -> {
                    val after = response.headers["Retry-After"]?.toIntOrNull() ?: 60
                    if (attempt == maxRetries) throw RateLimitedException(after)
                    delay(after * 1000L)
                }
                else -> {
                    delay(wait)
                    wait *= 2
                }
            }
        }
        error("carrier ${chosen.displayName} kept failing for $trackingId")
    }
}
