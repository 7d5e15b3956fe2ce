package dev.quiver.http

import java.util.concurrent.ConcurrentHashMap
import kotlin.math.min

/**
 * Per-client token bucket for POST /api/links. Each client may burst up to
 * `creates-per-minute` requests and then gets tokens back at the same rate.
 * Redirects are never rate limited.
 */
class RateLimiter(
    private val perMinute: Int,
    private val nanoTime: () -> Long = System::nanoTime,
) {
    private class Bucket(var tokens: Double, var updatedAt: Long)

    private val buckets = ConcurrentHashMap<String, Bucket>()
    private val refillPerNano = perMinute / NANOS_PER_MINUTE

    fun tryAcquire(clientKey: String): Boolean {
        val now = nanoTime()
        val bucket = buckets.computeIfAbsent(clientKey) { Bucket(perMinute.toDouble(), now) }
        synchronized(bucket) {
            val elapsed = now - bucket.updatedAt
            bucket.tokens = min(perMinute.toDouble(), bucket.tokens + elapsed * refillPerNano)
            bucket.updatedAt = now
            if (bucket.tokens < 1.0) return false
            bucket.tokens -= 1.0
            return true
        }
    }

    /** Seconds until the next token for [clientKey]; used for Retry-After. */
    fun retryAfterSeconds(clientKey: String): Long {
        val bucket = buckets[clientKey] ?: return 0
        val missing = (1.0 - bucket.tokens).coerceAtLeast(0.0)
        return kotlin.math.ceil(missing / refillPerNano / NANOS_PER_SECOND).toLong()
    }

    /** Drops buckets that are full again; called from a timer in Application.kt. */
    fun evictIdle() {
        val now = nanoTime()
        buckets.entries.removeIf { (_, b) -> now - b.updatedAt > NANOS_PER_MINUTE }
    }

    private companion object {
        const val NANOS_PER_SECOND = 1_000_000_000.0
        const val NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND
    }
}
