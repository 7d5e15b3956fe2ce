package io.quill

import scala.concurrent.duration._

import cats.effect.{IO, IOApp, Resource}
import com.comcast.ip4s.{Host, Port}
import doobie.hikari.HikariTransactor
import doobie.util.ExecutionContexts
import io.quill.config.AppConfig
import io.quill.http.Routes
import io.quill.render.Markdown
import io.quill.store.PostgresNoteStore
import org.http4s.ember.server.EmberServerBuilder
import org.http4s.server.middleware.{EntityLimiter, Logger}

object Main extends IOApp.Simple {

  def run: IO[Unit] =
    AppConfig.load.flatMap { cfg =>
      val server = for {
        ce <- ExecutionContexts.fixedThreadPool[IO](cfg.db.poolSize)
        xa <- HikariTransactor.newHikariTransactor[IO](
                "org.postgresql.Driver",
                cfg.db.url,
                cfg.db.user,
                cfg.db.password,
                ce
              )
        _  <- Resource.eval(xa.configure(ds => IO {
                ds.setMaximumPoolSize(cfg.db.poolSize)
                ds.setConnectionTimeout(cfg.db.connectionTimeout.toMillis)
              }))
        store  = new PostgresNoteStore(xa)
        routes = new Routes(store, new Markdown(), cfg.notes.maxNoteBytes, cfg.notes.defaultExpiry).routes
        app    = Logger.httpApp(logHeaders = false, logBody = false)(
                   EntityLimiter.httpApp(routes.orNotFound, cfg.http.maxRequestBytes)
                 )
        _ <- fs2.Stream
               .fixedRate[IO](cfg.notes.sweepInterval)
               .evalMap(_ => IO.realTimeInstant.flatMap(store.deleteExpired))
               .compile
               .drain
               .background
        s <- EmberServerBuilder
               .default[IO]
               .withHost(Host.fromString(cfg.http.host).get)
               .withPort(Port.fromInt(cfg.http.port).get)
               .withIdleTimeout(cfg.http.idleTimeout)
               .withShutdownTimeout(5.seconds)
               .withHttpApp(app)
               .build
      } yield s

      server.use(s => IO.println(s"quill ${BuildInfo.version} listening on ${s.address}") *> IO.never)
    }
}
