package dev.quiver.db

import org.jetbrains.exposed.dao.id.LongIdTable
import org.jetbrains.exposed.sql.ReferenceOption
import org.jetbrains.exposed.sql.kotlin.datetime.timestampWithTimeZone

/** Mirrors db/migration/V1__create_links.sql; Flyway owns the schema. */
object Links : LongIdTable("links") {
    val slug = varchar("slug", 16).uniqueIndex()
    val targetUrl = text("target_url")
    val createdAt = timestampWithTimeZone("created_at")
    val expiresAt = timestampWithTimeZone("expires_at").nullable()
    val clickCount = long("click_count").default(0)
}

object Clicks : LongIdTable("clicks") {
    val link = reference("link_id", Links, onDelete = ReferenceOption.CASCADE)
    val clickedAt = timestampWithTimeZone("clicked_at")
    val referrer = varchar("referrer", 512).nullable()
    val userAgent = varchar("user_agent", 512).nullable()
}
