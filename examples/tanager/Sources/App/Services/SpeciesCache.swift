import Fluent
import Vapor

/// Keeps the (small, rarely changing) species checklist in memory.
///
/// The list is reloaded from the database once it is older than `ttl` seconds. A TTL of
/// zero disables caching, which is what the test environment uses.
actor SpeciesCache {
    let ttl: TimeInterval
    private let now: @Sendable () -> Date
    private var entries: [Species.Public]?
    private var loadedAt: Date?

    init(ttl: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.ttl = ttl
        self.now = now
    }

    func all(on database: Database) async throws -> [Species.Public] {
        if let entries, let loadedAt, now().timeIntervalSince(loadedAt) < ttl {
            return entries
        }
        let fresh = try await Species.query(on: database)
            .sort(\.$commonName)
            .all()
            .map { $0.asPublic() }
        entries = fresh
        loadedAt = now()
        return fresh
    }

    func invalidate() {
        entries = nil
        loadedAt = nil
    }
}

extension Application {
    private struct SpeciesCacheKey: StorageKey {
        typealias Value = SpeciesCache
    }

    var speciesCache: SpeciesCache {
        get {
            guard let cache = storage[SpeciesCacheKey.self] else {
                fatalError("app.speciesCache read before configure(_:) set it")
            }
            return cache
        }
        set { storage[SpeciesCacheKey.self] = newValue }
    }
}
