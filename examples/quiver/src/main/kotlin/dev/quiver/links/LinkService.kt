package dev.quiver.links

import com.github.benmanes.caffeine.cache.Cache
import com.github.benmanes.caffeine.cache.Caffeine
import dev.quiver.config.CacheConfig
import dev.quiver.config.LinksConfig
import dev.quiver.db.Links
import dev.quiver.db.QuiverDatabase
import kotlinx.datetime.Clock
import kotlinx.datetime.Instant
import kotlinx.datetime.toJavaInstant
import kotlinx.datetime.toKotlinInstant
import kotlinx.serialization.Serializable
import org.jetbrains.exposed.exceptions.ExposedSQLException
import org.jetbrains.exposed.sql.insertAndGetId
import org.jetbrains.exposed.sql.selectAll
import org.jetbrains.exposed.sql.transactions.transaction
import java.net.URI
import java.time.OffsetDateTime
import java.time.ZoneOffset
import kotlin.time.Duration.Companion.days
import kotlin.time.toJavaDuration

class InvalidUrlException(message: String) : IllegalArgumentException(message)
class SlugTakenException(slug: String) : IllegalStateException("slug '$slug' is already in use")

@Serializable
data class ShortLink(
    val id: Long,
    val slug: String,
    val targetUrl: String,
    val createdAt: Instant,
    val expiresAt: Instant?,
    val clickCount: Long,
)

/** Creates links and resolves slugs, with a Caffeine cache in front of Postgres. */
class LinkService(
    private val db: QuiverDatabase,
    private val links: LinksConfig,
    cacheConfig: CacheConfig,
    private val clock: Clock = Clock.System,
) {
    private val slugs = SlugGenerator(links.slugLength)

    private val cache: Cache<String, ShortLink> = Caffeine.newBuilder()
        .maximumSize(cacheConfig.maxEntries)
        .expireAfterWrite(cacheConfig.ttl.toJavaDuration())
        .recordStats()
        .build()

    fun create(targetUrl: String, customSlug: String? = null, ttlDays: Int? = null): ShortLink {
        validateTarget(targetUrl)
        if (customSlug != null && !SlugGenerator.isValidCustom(customSlug)) {
            throw InvalidUrlException("custom slug '$customSlug' is not allowed")
        }
        val now = clock.now()
        val expiresAt = now + (ttlDays ?: links.defaultTtlDays).days

        if (customSlug != null) {
            return insert(customSlug, targetUrl, now, expiresAt) ?: throw SlugTakenException(customSlug)
        }
        repeat(MAX_SLUG_ATTEMPTS) {
            insert(slugs.next(), targetUrl, now, expiresAt)?.let { return it }
        }
        error("could not find a free slug after $MAX_SLUG_ATTEMPTS attempts; raise quiver.links.slug-length")
    }

    /** The live link for [slug], or null if it does not exist or has expired. */
    fun resolve(slug: String): ShortLink? {
        val link = cache.getIfPresent(slug) ?: find(slug)?.also { cache.put(slug, it) } ?: return null
        val expires = link.expiresAt
        if (expires != null && expires <= clock.now()) {
            cache.invalidate(slug)
            return null
        }
        return link
    }

    fun stats(slug: String): ShortLink? = find(slug)

    private fun find(slug: String): ShortLink? = transaction(db.exposed) {
        Links.selectAll().where { Links.slug eq slug }.limit(1).firstOrNull()?.let { row ->
            ShortLink(
                id = row[Links.id].value,
                slug = row[Links.slug],
                targetUrl = row[Links.targetUrl],
                createdAt = row[Links.createdAt].toInstant().toKotlinInstant(),
                expiresAt = row[Links.expiresAt]?.toInstant()?.toKotlinInstant(),
                clickCount = row[Links.clickCount],
            )
        }
    }

    private fun insert(slug: String, target: String, now: Instant, expiresAt: Instant): ShortLink? = try {
        transaction(db.exposed) {
            val id = Links.insertAndGetId {
                it[Links.slug] = slug
                it[Links.targetUrl] = target
                it[Links.createdAt] = now.toOffset()
                it[Links.expiresAt] = expiresAt.toOffset()
            }
            ShortLink(id.value, slug, target, now, expiresAt, 0)
        }
    } catch (e: ExposedSQLException) {
        if (e.sqlState == UNIQUE_VIOLATION) null else throw e
    }

    private fun validateTarget(url: String) {
        if (url.length > links.maxUrlLength) {
            throw InvalidUrlException("target URL is longer than ${links.maxUrlLength} characters")
        }
        val uri = runCatching { URI(url) }.getOrNull()
            ?: throw InvalidUrlException("target URL is not a valid URI")
        if (uri.scheme?.lowercase() !in setOf("http", "https") || uri.host.isNullOrBlank()) {
            throw InvalidUrlException("only absolute http(s) URLs can be shortened")
        }
    }

    private fun Instant.toOffset(): OffsetDateTime =
        OffsetDateTime.ofInstant(toJavaInstant(), ZoneOffset.UTC)

    companion object {
        const val MAX_SLUG_ATTEMPTS = 5
        private const val UNIQUE_VIOLATION = "23505"
    }
}
