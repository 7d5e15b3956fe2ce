@testable import App
import Fluent
import FluentSQLiteDriver
import XCTVapor

/// Runs against an in-memory SQLite database. `.env.testing` shrinks the page size and the
/// rate limit so pagination and throttling can be exercised with a handful of requests.
final class SightingTests: XCTestCase {
    var app: Application!

    override func setUp() async throws {
        app = try await Application.make(.testing)
        try await configure(app, database: .sqlite(.memory))
        try await app.autoMigrate()
    }

    override func tearDown() async throws {
        try await app.autoRevert()
        try await app.asyncShutdown()
        app = nil
    }

    private func speciesID(_ code: String) async throws -> UUID {
        let species = try await Species.query(on: app.db).filter(\.$code == code).first()
        return try XCTUnwrap(species?.id)
    }

    private func seedSightings(_ count: Int, code: String = "scatan") async throws {
        let id = try await speciesID(code)
        for offset in 0..<count {
            try await Sighting(
                speciesID: id,
                observer: "fixture",
                count: 1,
                latitude: 41.3083,
                longitude: -72.9279,
                observedAt: Date(timeIntervalSince1970: 1_717_200_000 + Double(offset) * 3_600)
            ).create(on: app.db)
        }
    }

    func testCreateSighting() async throws {
        let body = Sighting.Create(
            speciesCode: "scatan",
            observer: "m.okafor",
            count: 2,
            latitude: 41.3083,
            longitude: -72.9279,
            observedAt: Date(timeIntervalSince1970: 1_718_000_000),
            notes: "Singing from the oak canopy"
        )
        try await app.test(.POST, "api/v1/sightings", beforeRequest: { req in
            try req.content.encode(body)
        }, afterResponse: { res async throws in
            XCTAssertEqual(res.status, .created)
            let created = try res.content.decode(Sighting.Public.self)
            XCTAssertEqual(created.speciesCode, "scatan")
            XCTAssertEqual(created.commonName, "Scarlet Tanager")
            XCTAssertFalse(created.hasPhoto)
            XCTAssertEqual(res.headers.first(name: .location), "/api/v1/sightings/\(created.id)")
        })
    }

    func testUnknownSpeciesIsRejected() async throws {
        let body = Sighting.Create(
            speciesCode: "zzzzzz",
            observer: "m.okafor",
            count: 1,
            latitude: 0,
            longitude: 0,
            observedAt: Date(timeIntervalSince1970: 1_718_000_000)
        )
        try await app.test(.POST, "api/v1/sightings", beforeRequest: { req in
            try req.content.encode(body)
        }, afterResponse: { res async in
            XCTAssertEqual(res.status, .unprocessableEntity)
        })
    }

    func testIndexUsesTheConfiguredPageSize() async throws {
        try await seedSightings(5)

        try await app.test(.GET, "api/v1/sightings", afterResponse: { res async throws in
            XCTAssertEqual(res.status, .ok)
            let page = try res.content.decode(Page<Sighting.Public>.self)
            XCTAssertEqual(page.items.count, 3) // TANAGER_PAGE_SIZE in .env.testing
            XCTAssertEqual(page.metadata.total, 5)
            XCTAssertGreaterThan(page.items[0].observedAt, page.items[1].observedAt)
        })
    }

    func testPerIsClampedToTheMaximum() async throws {
        try await seedSightings(8)

        try await app.test(.GET, "api/v1/sightings?per=100", afterResponse: { res async throws in
            let page = try res.content.decode(Page<Sighting.Public>.self)
            XCTAssertEqual(page.items.count, 5) // TANAGER_MAX_PAGE_SIZE in .env.testing
        })
    }

    func testFilterBySpecies() async throws {
        try await seedSightings(2, code: "scatan")
        try await seedSightings(1, code: "westan")

        try await app.test(.GET, "api/v1/sightings?species=westan", afterResponse: { res async throws in
            let page = try res.content.decode(Page<Sighting.Public>.self)
            XCTAssertEqual(page.items.map(\.speciesCode), ["westan"])
        })
    }

    func testClientsOverTheLimitGet429() async throws {
        // .env.testing allows 4 requests per minute.
        for _ in 0..<4 {
            try await app.test(.GET, "api/v1/species", afterResponse: { res async in
                XCTAssertEqual(res.status, .ok)
            })
        }
        try await app.test(.GET, "api/v1/species", afterResponse: { res async in
            XCTAssertEqual(res.status, .tooManyRequests)
            XCTAssertNotNil(res.headers.first(name: "Retry-After"))
        })
        // Probes are not throttled.
        try await app.test(.GET, "healthz", afterResponse: { res async in
            XCTAssertEqual(res.status, .ok)
        })
    }

    func testPhotoUploadRejectsOtherMediaTypes() async throws {
        try await seedSightings(1)
        let sighting = try await XCTUnwrap(Sighting.query(on: app.db).first())

        try await app.test(.PUT, "api/v1/sightings/\(sighting.requireID())/photo", beforeRequest: { req in
            req.headers.contentType = .plainText
            req.body = ByteBuffer(string: "not a photo")
        }, afterResponse: { res async in
            XCTAssertEqual(res.status, .unsupportedMediaType)
        })
    }
}
