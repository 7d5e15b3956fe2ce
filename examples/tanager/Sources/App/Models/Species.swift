import Fluent
import Vapor

/// A bird species from the checklist, keyed by its six-letter eBird code (`scatan` is the
/// Scarlet Tanager). Species are seeded by `CreateSpecies` and are read-only over the API.
final class Species: Model, @unchecked Sendable {
    static let schema = "species"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "code")
    var code: String

    @Field(key: "common_name")
    var commonName: String

    @Field(key: "scientific_name")
    var scientificName: String

    @Field(key: "family")
    var family: String

    @Children(for: \.$species)
    var sightings: [Sighting]

    init() {}

    init(id: UUID? = nil, code: String, commonName: String, scientificName: String, family: String) {
        self.id = id
        self.code = code
        self.commonName = commonName
        self.scientificName = scientificName
        self.family = family
    }
}

extension Species {
    /// What the API returns; hides the database id.
    struct Public: Content, Equatable, Sendable {
        var code: String
        var commonName: String
        var scientificName: String
        var family: String
    }

    func asPublic() -> Public {
        Public(code: code, commonName: commonName, scientificName: scientificName, family: family)
    }
}
