package packtrack

/** The carrier has no shipment with this tracking id. */
class TrackingNotFoundException(trackingId: String) :
    RuntimeException("no shipment with tracking id $trackingId")

/** The tracking id matches no known carrier and none was given. */
class UnknownCarrierException(trackingId: String) :
    IllegalArgumentException("cannot tell the carrier of $trackingId; pass --carrier")

/** The carrier asked us to slow down. */
class RateLimitedException(val retryAfterSeconds: Int) :
    RuntimeException("rate limited; retry after $retryAfterSeconds s")
