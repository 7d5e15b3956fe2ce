@testable import App
import XCTest

final class AppSettingsTests: XCTestCase {
    private func load(_ values: [String: String]) throws -> AppSettings {
        try AppSettings.load(from: { values[$0] })
    }

    func testBuiltInDefaultsApplyWhenNothingIsSet() throws {
        let settings = try load([:])

        XCTAssertEqual(settings.hostname, "127.0.0.1")
        XCTAssertEqual(settings.port, AppSettings.defaultPort)
        XCTAssertEqual(settings.pageSize, AppSettings.defaultPageSize)
        XCTAssertEqual(settings.maxPageSize, AppSettings.defaultMaxPageSize)
        XCTAssertEqual(settings.rateLimitPerMinute, AppSettings.defaultRateLimitPerMinute)
        XCTAssertEqual(settings.speciesCacheTTLSeconds, AppSettings.defaultSpeciesCacheTTLSeconds)
        XCTAssertEqual(settings.databasePoolSize, AppSettings.defaultDatabasePoolSize)
        XCTAssertEqual(settings.databaseTimeoutSeconds, AppSettings.defaultDatabaseTimeoutSeconds)
        XCTAssertFalse(settings.autoMigrate)
        XCTAssertFalse(settings.databaseTLS)
    }

    func testUploadLimitIsConvertedToBytes() throws {
        let settings = try load(["TANAGER_MAX_UPLOAD_MB": "3"])
        XCTAssertEqual(settings.maxUploadBytes, 3_145_728)
    }

    func testEnvironmentOverridesDefaults() throws {
        let settings = try load([
            "TANAGER_PORT": "6011",
            "TANAGER_PAGE_SIZE": "20",
            "TANAGER_RATE_LIMIT_PER_MINUTE": "30",
            "DATABASE_TLS": "yes",
            "TANAGER_AUTO_MIGRATE": "on",
        ])
        XCTAssertEqual(settings.port, 6011)
        XCTAssertEqual(settings.pageSize, 20)
        XCTAssertEqual(settings.rateLimitPerMinute, 30)
        XCTAssertTrue(settings.databaseTLS)
        XCTAssertTrue(settings.autoMigrate)
    }

    func testPageSizeIsClampedToTheMaximum() throws {
        let settings = try load(["TANAGER_PAGE_SIZE": "500", "TANAGER_MAX_PAGE_SIZE": "50"])
        XCTAssertEqual(settings.pageSize, 50)
        XCTAssertEqual(settings.maxPageSize, 50)
    }

    func testBlankValuesFallBackToDefaults() throws {
        let settings = try load(["TANAGER_PORT": "  ", "DATABASE_HOST": ""])
        XCTAssertEqual(settings.port, AppSettings.defaultPort)
        XCTAssertEqual(settings.databaseHost, "localhost")
    }

    func testRejectsGarbage() {
        XCTAssertThrowsError(try load(["TANAGER_PORT": "http"])) { error in
            XCTAssertEqual(error as? AppSettings.LoadError, .notAnInteger(key: "TANAGER_PORT", value: "http"))
        }
        XCTAssertThrowsError(try load(["TANAGER_PORT": "70000"]))
        XCTAssertThrowsError(try load(["DATABASE_TIMEOUT_SECONDS": "0"]))
        XCTAssertThrowsError(try load(["DATABASE_TLS": "maybe"]))
    }
}
