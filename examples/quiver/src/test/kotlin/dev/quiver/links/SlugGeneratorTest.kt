package dev.quiver.links

import java.security.SecureRandom
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

class SlugGeneratorTest {
    private val seeded = SecureRandom.getInstance("SHA1PRNG").apply { setSeed(42L) }

    @Test
    fun `slugs have the requested length`() {
        for (length in listOf(4, 7, 12)) {
            assertEquals(length, SlugGenerator(length, seeded).next().length)
        }
    }

    @Test
    fun `slugs never contain look-alike characters`() {
        val gen = SlugGenerator(16, seeded)
        repeat(2_000) {
            val slug = gen.next()
            assertTrue(slug.none { it in "0O1lI" }, "ambiguous character in $slug")
        }
    }

    @Test
    fun `custom slugs are checked`() {
        assertTrue(SlugGenerator.isValidCustom("spring-sale"))
        assertFalse(SlugGenerator.isValidCustom("ab"))
        assertFalse(SlugGenerator.isValidCustom("has space"))
        assertFalse(SlugGenerator.isValidCustom("API"))
        assertFalse(SlugGenerator.isValidCustom("x".repeat(17)))
    }
}
