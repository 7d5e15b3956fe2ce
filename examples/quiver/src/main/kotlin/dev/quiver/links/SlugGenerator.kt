package dev.quiver.links

import java.security.SecureRandom

/**
 * Produces random short codes. The alphabet leaves out characters that are easy
 * to misread when a link is typed by hand (0/O, 1/l/I).
 */
class SlugGenerator(
    private val length: Int,
    private val random: SecureRandom = SecureRandom(),
) {
    init {
        require(length > 0) { "slug length must be positive" }
    }

    fun next(): String = buildString(length) {
        repeat(length) { append(ALPHABET[random.nextInt(ALPHABET.length)]) }
    }

    companion object {
        const val ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"

        private val CUSTOM_SLUG = Regex("^[A-Za-z0-9_-]{3,16}$")

        /** Slugs that would shadow a route or look official. */
        val RESERVED = setOf("api", "healthz", "metrics", "admin", "login", "static")

        fun isValidCustom(slug: String): Boolean =
            CUSTOM_SLUG.matches(slug) && slug.lowercase() !in RESERVED
    }
}
