package dev.quiver.db

import com.zaxxer.hikari.HikariConfig
import com.zaxxer.hikari.HikariDataSource
import dev.quiver.config.DatabaseConfig
import org.flywaydb.core.Flyway
import org.jetbrains.exposed.sql.Database
import org.slf4j.LoggerFactory
import java.io.Closeable

private val log = LoggerFactory.getLogger("dev.quiver.db")

/** The Exposed handle plus the Hikari pool behind it, closed together on shutdown. */
class QuiverDatabase(
    val exposed: Database,
    private val dataSource: HikariDataSource,
) : Closeable {
    override fun close() {
        log.info("closing connection pool {}", dataSource.poolName)
        dataSource.close()
    }
}

fun connectDatabase(cfg: DatabaseConfig): QuiverDatabase {
    val hikari = HikariConfig().apply {
        jdbcUrl = cfg.jdbcUrl
        username = cfg.user
        password = cfg.password
        maximumPoolSize = cfg.poolSize
        minimumIdle = (cfg.poolSize / 4).coerceAtLeast(1)
        connectionTimeout = cfg.connectionTimeoutMs
        poolName = "quiver-db"
        isAutoCommit = false
        transactionIsolation = "TRANSACTION_READ_COMMITTED"
        validate()
    }
    val dataSource = HikariDataSource(hikari)

    val migrations = Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .load()
        .migrate()
    log.info(
        "database ready: {} migration(s) applied, pool size {}",
        migrations.migrationsExecuted,
        cfg.poolSize,
    )

    return QuiverDatabase(Database.connect(dataSource), dataSource)
}
