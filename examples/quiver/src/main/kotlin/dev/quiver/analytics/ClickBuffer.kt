package dev.quiver.analytics

import dev.quiver.config.ClicksConfig
import dev.quiver.db.Clicks
import dev.quiver.db.Links
import dev.quiver.db.QuiverDatabase
import io.micrometer.core.instrument.MeterRegistry
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.onTimeout
import kotlinx.coroutines.selects.select
import kotlinx.datetime.Instant
import kotlinx.datetime.toJavaInstant
import org.jetbrains.exposed.sql.SqlExpressionBuilder.plus
import org.jetbrains.exposed.sql.batchInsert
import org.jetbrains.exposed.sql.transactions.transaction
import org.jetbrains.exposed.sql.update
import org.slf4j.LoggerFactory
import java.io.Closeable
import java.time.OffsetDateTime
import java.time.ZoneOffset
import kotlin.time.Duration
import kotlin.time.TimeSource

data class ClickEvent(
    val linkId: Long,
    val at: Instant,
    val referrer: String?,
    val userAgent: String?,
)

/**
 * Keeps redirect clicks in memory and writes them to Postgres in batches, so a
 * redirect never waits on an INSERT. A batch is written when it reaches
 * `batch-size` events or when `flush-interval-ms` has passed, whichever comes
 * first. When the buffer is full new clicks are dropped and counted.
 */
class ClickBuffer(
    private val db: QuiverDatabase,
    private val cfg: ClicksConfig,
    registry: MeterRegistry,
    scope: CoroutineScope,
) : Closeable {
    private val log = LoggerFactory.getLogger(ClickBuffer::class.java)
    private val channel = Channel<ClickEvent>(cfg.bufferCapacity)
    private val dropped = registry.counter("quiver.clicks.dropped")
    private val written = registry.counter("quiver.clicks.written")

    private val worker: Job = scope.launch(Dispatchers.IO) { drain() }

    /** Never suspends: returns false if the click had to be dropped. */
    fun record(event: ClickEvent): Boolean {
        val ok = channel.trySend(event).isSuccess
        if (!ok) dropped.increment()
        return ok
    }

    private suspend fun drain() {
        val batch = ArrayList<ClickEvent>(cfg.batchSize)
        var deadline = TimeSource.Monotonic.markNow() + cfg.flushInterval
        while (true) {
            val remaining = (-deadline.elapsedNow()).coerceAtLeast(Duration.ZERO)
            val closed = select {
                channel.onReceiveCatching { result ->
                    result.getOrNull()?.let(batch::add)
                    result.isClosed
                }
                onTimeout(remaining) { false }
            }
            if (closed || batch.size >= cfg.batchSize || deadline.hasPassedNow()) {
                flush(batch)
                deadline = TimeSource.Monotonic.markNow() + cfg.flushInterval
            }
            if (closed) return
        }
    }

    private fun flush(batch: MutableList<ClickEvent>) {
        if (batch.isEmpty()) return
        try {
            transaction(db.exposed) {
                Clicks.batchInsert(batch, shouldReturnGeneratedValues = false) { e ->
                    this[Clicks.link] = e.linkId
                    this[Clicks.clickedAt] = OffsetDateTime.ofInstant(e.at.toJavaInstant(), ZoneOffset.UTC)
                    this[Clicks.referrer] = e.referrer?.take(MAX_HEADER_CHARS)
                    this[Clicks.userAgent] = e.userAgent?.take(MAX_HEADER_CHARS)
                }
                batch.groupingBy { it.linkId }.eachCount().forEach { (linkId, n) ->
                    Links.update({ Links.id eq linkId }) {
                        it[clickCount] = clickCount + n.toLong()
                    }
                }
            }
            written.increment(batch.size.toDouble())
        } catch (e: Exception) {
            log.warn("dropping {} click(s) after a failed flush", batch.size, e)
            dropped.increment(batch.size.toDouble())
        } finally {
            batch.clear()
        }
    }

    /** Stops accepting clicks and writes whatever is still buffered. */
    override fun close() {
        channel.close()
        runBlocking { worker.join() }
    }

    private companion object {
        const val MAX_HEADER_CHARS = 512
    }
}
