package io.quill.http

import scala.concurrent.duration.FiniteDuration

import cats.effect.IO
import io.circe.generic.auto._
import io.quill.render.Markdown
import io.quill.store.{Note, NoteStore, PageRequest}
import org.http4s._
import org.http4s.circe.CirceEntityCodec._
import org.http4s.dsl.io._
import org.http4s.headers.`Content-Type`

final case class CreateNote(title: Option[String], body: String, expiresInSeconds: Option[Long])
final case class CreatedNote(slug: String, url: String)

object LimitParam  extends OptionalQueryParamDecoderMatcher[Int]("limit")
object OffsetParam extends OptionalQueryParamDecoderMatcher[Int]("offset")

final class Routes(store: NoteStore, markdown: Markdown, maxNoteBytes: Int, defaultExpiry: FiniteDuration) {

  val routes: HttpRoutes[IO] = HttpRoutes.of[IO] {
    case GET -> Root / "health" => Ok("ok")

    case GET -> Root / "api" / "notes" :? LimitParam(limit) +& OffsetParam(offset) =>
      val default = PageRequest()
      store.list(PageRequest(limit.getOrElse(default.limit), offset.getOrElse(default.offset))).flatMap(Ok(_))

    case req @ POST -> Root / "api" / "notes" =>
      req.as[CreateNote].flatMap { in =>
        if (in.body.getBytes("UTF-8").length > maxNoteBytes)
          PayloadTooLarge(s"Notes are limited to $maxNoteBytes bytes")
        else
          for {
            slug <- NoteStore.slug()
            now  <- IO.realTimeInstant
            ttl   = in.expiresInSeconds.getOrElse(defaultExpiry.toSeconds)
            _    <- store.create(Note(slug, in.title, in.body, now, Some(now.plusSeconds(ttl))))
            res  <- Created(CreatedNote(slug, s"/n/$slug"))
          } yield res
      }

    case GET -> Root / "n" / slug =>
      store.find(slug).flatMap {
        case None       => NotFound("No such note, or it has expired")
        case Some(note) =>
          store.recordView(slug) *>
            Ok(page(note), `Content-Type`(MediaType.text.html, Charset.`UTF-8`))
      }
  }

  private def page(note: Note): String = {
    val title = note.title.getOrElse(note.slug)
    s"""<!doctype html><html><head><meta charset="utf-8"><title>$title · quill</title></head>
       |<body><article>${markdown.toHtml(note.body)}</article></body></html>""".stripMargin
  }
}
