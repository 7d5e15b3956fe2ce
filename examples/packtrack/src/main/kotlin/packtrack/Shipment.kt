package packtrack

import kotlinx.serialization.Serializable
import java.time.Instant

@Serializable
enum class Status {
    LABEL_CREATED,
    IN_TRANSIT,
    OUT_FOR_DELIVERY,
    DELIVERED,
    EXCEPTION,
}

@Serializable
data class Event(
    val at: String,
    val location: String,
    val description: String,
)

@Serializable
data class Shipment(
    val trackingId: String,
    val carrier: Carrier,
    val status: Status,
    val events: List<Event> = emptyList(),
    val promisedBy: String? = null,
) {
    /** True when the shipment is not delivered and its promised date has passed. */
    fun isLate(now: Instant = Instant.now()): Boolean {
        val promised = promisedBy?.let(Instant::parse) ?: return false
        return status != Status.DELIVERED && now.isAfter(promised)
    }

    /** The newest event, or null before the carrier scanned the parcel. */
    fun lastEvent(): Event? = events.maxByOrNull { it.at }
}
