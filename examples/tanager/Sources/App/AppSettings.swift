import Vapor

/// Runtime settings for tanager.
///
/// Vapor loads `.env` and `.env.<environment>` into the process environment when the
/// `Application` is created (variables that are already set win), so by the time
/// `AppSettings.load()` runs every source has been merged. Any key that is still missing
/// falls back to the built-in default declared below.
struct AppSettings: Sendable, Equatable {
    // MARK: - Built-in defaults

    /// Interface the HTTP server binds to. `serve --hostname` still takes precedence.
    static let defaultHostname = "127.0.0.1"

    /// Port the HTTP server binds to. `serve --port` still takes precedence.
    static let defaultPort = 7341

    /// Sightings returned per page when the client does not send `per`.
    static let defaultPageSize = 37

    /// Upper bound for `per`; larger requests are clamped, not rejected.
    static let defaultMaxPageSize = 140

    /// Requests a single client may make per 60-second window before getting 429s.
    static let defaultRateLimitPerMinute = 96

    /// Largest accepted photo upload, in megabytes.
    static let defaultMaxUploadMB = 24

    /// How long the species list is served from memory before it is reloaded, in seconds.
    static let defaultSpeciesCacheTTLSeconds = 315

    /// Where uploaded photos are written, relative to the working directory unless absolute.
    static let defaultPhotoDirectory = "Storage/photos"

    static let defaultDatabaseHost = "localhost"
    static let defaultDatabasePort = 5432
    static let defaultDatabaseName = "tanager"
    static let defaultDatabaseUsername = "tanager"

    /// Postgres connections kept open per event loop.
    static let defaultDatabasePoolSize = 6

    /// How long a request waits for a free pooled connection before failing, in seconds.
    static let defaultDatabaseTimeoutSeconds = 23

    // MARK: - Values

    var hostname: String
    var port: Int
    var pageSize: Int
    var maxPageSize: Int
    var rateLimitPerMinute: Int
    var maxUploadMB: Int
    var speciesCacheTTLSeconds: Int
    var photoDirectory: String
    var autoMigrate: Bool

    var databaseHost: String
    var databasePort: Int
    var databaseName: String
    var databaseUsername: String
    var databasePassword: String
    var databasePoolSize: Int
    var databaseTimeoutSeconds: Int
    var databaseTLS: Bool

    var maxUploadBytes: Int { maxUploadMB * 1024 * 1024 }

    // MARK: - Loading

    enum LoadError: Error, CustomStringConvertible, Equatable {
        case notAnInteger(key: String, value: String)
        case notABoolean(key: String, value: String)
        case outOfRange(key: String, value: Int, allowed: ClosedRange<Int>)

        var description: String {
            switch self {
            case let .notAnInteger(key, value):
                return "\(key) must be an integer, got \"\(value)\""
            case let .notABoolean(key, value):
                return "\(key) must be true or false, got \"\(value)\""
            case let .outOfRange(key, value, allowed):
                return "\(key)=\(value) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
            }
        }
    }

    /// Reads every setting through `lookup`, which defaults to the process environment.
    /// Tests pass a dictionary-backed closure instead.
    static func load(from lookup: (String) -> String? = { Environment.get($0) }) throws -> AppSettings {
        func string(_ key: String, _ fallback: String) -> String {
            guard let raw = lookup(key)?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else {
                return fallback
            }
            return raw
        }

        func int(_ key: String, _ fallback: Int, in allowed: ClosedRange<Int> = 0...Int.max) throws -> Int {
            guard let raw = lookup(key)?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else {
                return fallback
            }
            guard let value = Int(raw) else {
                throw LoadError.notAnInteger(key: key, value: raw)
            }
            guard allowed.contains(value) else {
                throw LoadError.outOfRange(key: key, value: value, allowed: allowed)
            }
            return value
        }

        func bool(_ key: String, _ fallback: Bool) throws -> Bool {
            guard let raw = lookup(key)?.trimmingCharacters(in: .whitespaces).lowercased(), !raw.isEmpty else {
                return fallback
            }
            switch raw {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw LoadError.notABoolean(key: key, value: raw)
            }
        }

        let maxPageSize = try int("TANAGER_MAX_PAGE_SIZE", defaultMaxPageSize, in: 1...1_000)
        // A page size above the cap would be clamped on every request anyway; clamp it once here.
        let pageSize = min(try int("TANAGER_PAGE_SIZE", defaultPageSize, in: 1...1_000), maxPageSize)

        return AppSettings(
            hostname: string("TANAGER_HOSTNAME", defaultHostname),
            port: try int("TANAGER_PORT", defaultPort, in: 1...65_535),
            pageSize: pageSize,
            maxPageSize: maxPageSize,
            rateLimitPerMinute: try int("TANAGER_RATE_LIMIT_PER_MINUTE", defaultRateLimitPerMinute, in: 1...100_000),
            maxUploadMB: try int("TANAGER_MAX_UPLOAD_MB", defaultMaxUploadMB, in: 1...512),
            speciesCacheTTLSeconds: try int("TANAGER_SPECIES_CACHE_TTL_SECONDS", defaultSpeciesCacheTTLSeconds),
            photoDirectory: string("TANAGER_PHOTO_DIR", defaultPhotoDirectory),
            autoMigrate: try bool("TANAGER_AUTO_MIGRATE", false),
            databaseHost: string("DATABASE_HOST", defaultDatabaseHost),
            databasePort: try int("DATABASE_PORT", defaultDatabasePort, in: 1...65_535),
            databaseName: string("DATABASE_NAME", defaultDatabaseName),
            databaseUsername: string("DATABASE_USERNAME", defaultDatabaseUsername),
            databasePassword: string("DATABASE_PASSWORD", ""),
            databasePoolSize: try int("DATABASE_POOL_SIZE", defaultDatabasePoolSize, in: 1...64),
            databaseTimeoutSeconds: try int("DATABASE_TIMEOUT_SECONDS", defaultDatabaseTimeoutSeconds, in: 1...600),
            databaseTLS: try bool("DATABASE_TLS", false)
        )
    }
}

extension Application {
    private struct AppSettingsKey: StorageKey {
        typealias Value = AppSettings
    }

    /// The settings `configure(_:)` loaded. Reading them before `configure` ran is a programming error.
    var settings: AppSettings {
        get {
            guard let settings = storage[AppSettingsKey.self] else {
                fatalError("app.settings read before configure(_:) stored them")
            }
            return settings
        }
        set { storage[AppSettingsKey.self] = newValue }
    }
}
