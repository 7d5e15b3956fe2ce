package io.quill.store

import java.time.Instant

import cats.effect.IO
import cats.syntax.all._
import doobie._
import doobie.implicits._
import doobie.postgres.implicits._

final case class Note(
  slug: String,
  title: Option[String],
  body: String,
  createdAt: Instant,
  expiresAt: Option[Instant],
  views: Long = 0L
)

/** Paging for note listings. `limit` is clamped to [[PageRequest.MaxLimit]]. */
final case class PageRequest(limit: Int = 25, offset: Int = 0) {
  def clamped: PageRequest =
    copy(limit = limit.max(1).min(PageRequest.MaxLimit), offset = offset.max(0))
}

object PageRequest {
  val MaxLimit = 200
}

/** Settings for generating note slugs. */
final case class SlugSettings(length: Int = 10, alphabet: String = "23456789abcdefghjkmnpqrstuvwxyz")

trait NoteStore {
  def create(note: Note): IO[Unit]
  def find(slug: String): IO[Option[Note]]
  def list(page: PageRequest = PageRequest()): IO[List[Note]]
  def recordView(slug: String): IO[Unit]
  def deleteExpired(now: Instant): IO[Int]
}

final class PostgresNoteStore(xa: Transactor[IO]) extends NoteStore {

  def create(note: Note): IO[Unit] =
    sql"""INSERT INTO notes (slug, title, body, created_at, expires_at, views)
          VALUES (${note.slug}, ${note.title}, ${note.body}, ${note.createdAt}, ${note.expiresAt}, ${note.views})"""
      .update.run.transact(xa).void

  def find(slug: String): IO[Option[Note]] =
    sql"""SELECT slug, title, body, created_at, expires_at, views FROM notes
          WHERE slug = $slug AND (expires_at IS NULL OR expires_at > now())"""
      .query[Note].option.transact(xa)

  def list(page: PageRequest = PageRequest()): IO[List[Note]] = {
    val p = page.clamped
    sql"""SELECT slug, title, body, created_at, expires_at, views FROM notes
          WHERE expires_at IS NULL OR expires_at > now()
          ORDER BY created_at DESC LIMIT ${p.limit} OFFSET ${p.offset}"""
      .query[Note].to[List].transact(xa)
  }

  def recordView(slug: String): IO[Unit] =
    sql"UPDATE notes SET views = views + 1 WHERE slug = $slug".update.run.transact(xa).void

  def deleteExpired(now: Instant): IO[Int] =
    sql"DELETE FROM notes WHERE expires_at <= $now".update.run.transact(xa)
}

object NoteStore {
  def slug(settings: SlugSettings = SlugSettings()): IO[String] =
    IO(scala.util.Random.nextInt(settings.alphabet.length)).replicateA(settings.length).map { idx =>
      idx.map(settings.alphabet.charAt).mkString
    }
}
