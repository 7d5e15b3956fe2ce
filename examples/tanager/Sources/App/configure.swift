import Fluent
import FluentPostgresDriver
import NIOSSL
import Vapor

/// Wires settings, database, migrations, middleware and routes into `app`.
///
/// - Parameter database: replaces the Postgres configuration; the test suite passes
///   `.sqlite(.memory)` so it can run without a database server.
public func configure(_ app: Application, database: DatabaseConfigurationFactory? = nil) async throws {
    let settings = try AppSettings.load()
    app.settings = settings

    app.http.server.configuration.hostname = settings.hostname
    app.http.server.configuration.port = settings.port
    // JSON bodies are tiny; photo uploads raise this per route (see SightingController).
    app.routes.defaultMaxBodySize = "64kb"

    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    ContentConfiguration.global.use(encoder: encoder, for: .json)
    ContentConfiguration.global.use(decoder: decoder, for: .json)

    if let database {
        app.databases.use(database, as: .init(string: "primary"), isDefault: true)
    } else {
        let tls: PostgresConnection.Configuration.TLS = settings.databaseTLS
            ? .require(try NIOSSLContext(configuration: .clientDefault))
            : .disable
        let postgres = SQLPostgresConfiguration(
            hostname: settings.databaseHost,
            port: settings.databasePort,
            username: settings.databaseUsername,
            password: settings.databasePassword,
            database: settings.databaseName,
            tls: tls
        )
        app.databases.use(
            .postgres(
                configuration: postgres,
                maxConnectionsPerEventLoop: settings.databasePoolSize,
                connectionPoolTimeout: .seconds(Int64(settings.databaseTimeoutSeconds))
            ),
            as: .psql
        )
    }

    app.migrations.add(CreateSpecies())
    app.migrations.add(CreateSighting())

    app.speciesCache = SpeciesCache(ttl: TimeInterval(settings.speciesCacheTTLSeconds))
    app.requestLimiter = RequestLimiter(limitPerMinute: settings.rateLimitPerMinute)

    if settings.autoMigrate {
        try await app.autoMigrate()
    }

    try FileManager.default.createDirectory(
        atPath: settings.photoDirectory,
        withIntermediateDirectories: true
    )

    app.logger.info("tanager configured", metadata: [
        "environment": .string(app.environment.name),
        "port": .stringConvertible(settings.port),
        "pageSize": .stringConvertible(settings.pageSize),
        "rateLimitPerMinute": .stringConvertible(settings.rateLimitPerMinute),
    ])

    try routes(app)
}
