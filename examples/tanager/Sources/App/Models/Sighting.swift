import Fluent
import Vapor

/// One report of a species seen at a place and time, optionally with a photo.
final class Sighting: Model, @unchecked Sendable {
    static let schema = "sightings"

    @ID(key: .id)
    var id: UUID?

    @Parent(key: "species_id")
    var species: Species

    @Field(key: "observer")
    var observer: String

    @Field(key: "count")
    var count: Int

    @Field(key: "latitude")
    var latitude: Double

    @Field(key: "longitude")
    var longitude: Double

    @Field(key: "observed_at")
    var observedAt: Date

    @OptionalField(key: "notes")
    var notes: String?

    @OptionalField(key: "photo_path")
    var photoPath: String?

    @Timestamp(key: "created_at", on: .create)
    var createdAt: Date?

    init() {}

    init(
        id: UUID? = nil,
        speciesID: Species.IDValue,
        observer: String,
        count: Int,
        latitude: Double,
        longitude: Double,
        observedAt: Date,
        notes: String? = nil
    ) {
        self.id = id
        self.$species.id = speciesID
        self.observer = observer
        self.count = count
        self.latitude = latitude
        self.longitude = longitude
        self.observedAt = observedAt
        self.notes = notes
    }
}

extension Sighting {
    /// Request body for `POST /api/v1/sightings`.
    struct Create: Content, Validatable {
        var speciesCode: String
        var observer: String
        var count: Int
        var latitude: Double
        var longitude: Double
        var observedAt: Date
        var notes: String?

        static func validations(_ validations: inout Validations) {
            validations.add("speciesCode", as: String.self, is: .count(6...6) && .alphanumeric)
            validations.add("observer", as: String.self, is: !.empty && .count(...80))
            validations.add("count", as: Int.self, is: .range(1...2_500))
            validations.add("latitude", as: Double.self, is: .range(-90...90))
            validations.add("longitude", as: Double.self, is: .range(-180...180))
            validations.add("notes", as: String?.self, is: .nil || .count(...2_000), required: false)
        }
    }

    /// What the API returns. `species` must be eager-loaded.
    struct Public: Content, Equatable {
        var id: UUID
        var speciesCode: String
        var commonName: String
        var observer: String
        var count: Int
        var latitude: Double
        var longitude: Double
        var observedAt: Date
        var notes: String?
        var hasPhoto: Bool
    }

    func asPublic() throws -> Public {
        Public(
            id: try requireID(),
            speciesCode: species.code,
            commonName: species.commonName,
            observer: observer,
            count: count,
            latitude: latitude,
            longitude: longitude,
            observedAt: observedAt,
            notes: notes,
            hasPhoto: photoPath != nil
        )
    }
}
