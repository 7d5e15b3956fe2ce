import Fluent
import Vapor

/// Read-only access to the species checklist, served from `SpeciesCache`.
struct SpeciesController: RouteCollection {
    let cache: SpeciesCache

    func boot(routes: RoutesBuilder) throws {
        let species = routes.grouped("species")
        species.get(use: index)
        species.get(":code", use: show)
    }

    /// `GET /api/v1/species?family=Cardinalidae`
    @Sendable
    func index(req: Request) async throws -> [Species.Public] {
        let all = try await cache.all(on: req.db)
        guard let family = req.query[String.self, at: "family"] else {
            return all
        }
        return all.filter { $0.family.caseInsensitiveCompare(family) == .orderedSame }
    }

    /// `GET /api/v1/species/scatan`
    @Sendable
    func show(req: Request) async throws -> Species.Public {
        let code = try req.parameters.require("code").lowercased()
        guard let match = try await cache.all(on: req.db).first(where: { $0.code == code }) else {
            throw Abort(.notFound, reason: "No species with code \(code).")
        }
        return match
    }
}
