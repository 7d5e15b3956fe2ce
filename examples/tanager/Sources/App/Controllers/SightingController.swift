import Fluent
import Vapor

/// Create, list, show and delete sightings, and attach a photo to one.
struct SightingController: RouteCollection {
    let settings: AppSettings

    static let acceptedPhotoTypes: [HTTPMediaType: String] = [
        .jpeg: "jpg",
        .png: "png",
    ]

    func boot(routes: RoutesBuilder) throws {
        let sightings = routes.grouped("sightings")
        sightings.get(use: index)
        sightings.post(use: create)
        sightings.group(":sightingID") { sighting in
            sighting.get(use: show)
            sighting.delete(use: delete)
            sighting.on(
                .PUT, "photo",
                body: .collect(maxSize: ByteCount(value: settings.maxUploadBytes)),
                use: uploadPhoto
            )
        }
    }

    struct IndexQuery: Content {
        var page: Int?
        var per: Int?
        var species: String?
        var since: Date?
    }

    /// `GET /api/v1/sightings?page=2&per=20&species=scatan&since=2024-05-01T00:00:00Z`
    ///
    /// Newest first. `per` falls back to the configured page size and is clamped to the
    /// configured maximum.
    @Sendable
    func index(req: Request) async throws -> Page<Sighting.Public> {
        let query = try req.query.decode(IndexQuery.self)
        let per = min(max(query.per ?? settings.pageSize, 1), settings.maxPageSize)
        let page = max(query.page ?? 1, 1)

        var builder = Sighting.query(on: req.db)
            .join(Species.self, on: \Sighting.$species.$id == \Species.$id)
            .with(\.$species)
            .sort(\.$observedAt, .descending)

        if let code = query.species?.lowercased() {
            builder = builder.filter(Species.self, \.$code == code)
        }
        if let since = query.since {
            builder = builder.filter(\.$observedAt >= since)
        }

        let result = try await builder.paginate(PageRequest(page: page, per: per))
        return try result.map { try $0.asPublic() }
    }

    /// `POST /api/v1/sightings`
    @Sendable
    func create(req: Request) async throws -> Response {
        try Sighting.Create.validate(content: req)
        let input = try req.content.decode(Sighting.Create.self)

        guard let species = try await Species.query(on: req.db)
            .filter(\.$code == input.speciesCode.lowercased())
            .first()
        else {
            throw Abort(.unprocessableEntity, reason: "Unknown species code \(input.speciesCode).")
        }
        guard input.observedAt <= Date().addingTimeInterval(300) else {
            throw Abort(.unprocessableEntity, reason: "observedAt is in the future.")
        }

        let sighting = Sighting(
            speciesID: try species.requireID(),
            observer: input.observer,
            count: input.count,
            latitude: input.latitude,
            longitude: input.longitude,
            observedAt: input.observedAt,
            notes: input.notes
        )
        try await sighting.create(on: req.db)
        sighting.$species.value = species

        let response = try await sighting.asPublic().encodeResponse(status: .created, for: req)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/sightings/\(try sighting.requireID())")
        return response
    }

    /// `GET /api/v1/sightings/:sightingID`
    @Sendable
    func show(req: Request) async throws -> Sighting.Public {
        try await find(req).asPublic()
    }

    /// `DELETE /api/v1/sightings/:sightingID` — also removes the photo, if any.
    @Sendable
    func delete(req: Request) async throws -> HTTPStatus {
        let sighting = try await find(req)
        if let path = sighting.photoPath {
            try? FileManager.default.removeItem(atPath: path)
        }
        try await sighting.delete(on: req.db)
        return .noContent
    }

    /// `PUT /api/v1/sightings/:sightingID/photo` with a JPEG or PNG body.
    ///
    /// Bodies above `TANAGER_MAX_UPLOAD_MB` are refused with 413 before they reach this handler.
    @Sendable
    func uploadPhoto(req: Request) async throws -> Sighting.Public {
        let sighting = try await find(req)
        guard let type = req.headers.contentType,
              let ext = Self.acceptedPhotoTypes.first(where: { $0.key == type })?.value
        else {
            throw Abort(.unsupportedMediaType, reason: "Photos must be image/jpeg or image/png.")
        }
        guard let body = req.body.data, body.readableBytes > 0 else {
            throw Abort(.badRequest, reason: "Empty photo body.")
        }

        let path = "\(settings.photoDirectory)/\(try sighting.requireID()).\(ext)"
        try await req.fileio.writeFile(body, at: path)

        sighting.photoPath = path
        try await sighting.update(on: req.db)
        return try sighting.asPublic()
    }

    private func find(_ req: Request) async throws -> Sighting {
        guard let id = req.parameters.get("sightingID", as: UUID.self) else {
            throw Abort(.badRequest, reason: "Sighting ids are UUIDs.")
        }
        guard let sighting = try await Sighting.query(on: req.db)
            .filter(\.$id == id)
            .with(\.$species)
            .first()
        else {
            throw Abort(.notFound)
        }
        return sighting
    }
}
