package packtrack

/** The carriers packtrack can ask about a shipment, with the prefix their tracking ids use. */
enum class Carrier(val displayName: String, val baseUrl: String, val idPrefix: String?) {
    DHL("DHL", "https://api-eu.dhl.com/track/shipments", "JD"),
    UPS("UPS", "https://onlinetools.ups.com/api/track/v1/details", "1Z"),
    FEDEX("FedEx", "https://apis.fedex.com/track/v1/trackingnumbers", null),
    POSTNL("PostNL", "https://api.postnl.nl/shipment/v2/status", "3S"),
    ;

    companion object {
        /** Guesses the carrier from a tracking id's prefix; null when no prefix matches. */
        fun guess(trackingId: String): Carrier? =
            entries.firstOrNull { it.idPrefix != null && trackingId.startsWith(it.idPrefix) }
    }
}
