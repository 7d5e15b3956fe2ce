import Fluent

/// Creates the `species` table and seeds the checklist the app ships with.
struct CreateSpecies: AsyncMigration {
    static let seeds: [(code: String, common: String, scientific: String, family: String)] = [
        ("scatan", "Scarlet Tanager", "Piranga olivacea", "Cardinalidae"),
        ("sumtan", "Summer Tanager", "Piranga rubra", "Cardinalidae"),
        ("westan", "Western Tanager", "Piranga ludoviciana", "Cardinalidae"),
        ("heptan", "Hepatic Tanager", "Piranga flava", "Cardinalidae"),
        ("norcar", "Northern Cardinal", "Cardinalis cardinalis", "Cardinalidae"),
        ("robgro", "Rose-breasted Grosbeak", "Pheucticus ludovicianus", "Cardinalidae"),
        ("indbun", "Indigo Bunting", "Passerina cyanea", "Cardinalidae"),
        ("paibun", "Painted Bunting", "Passerina ciris", "Cardinalidae"),
        ("balori", "Baltimore Oriole", "Icterus galbula", "Icteridae"),
        ("amerob", "American Robin", "Turdus migratorius", "Turdidae"),
    ]

    func prepare(on database: Database) async throws {
        try await database.schema(Species.schema)
            .id()
            .field("code", .string, .required)
            .field("common_name", .string, .required)
            .field("scientific_name", .string, .required)
            .field("family", .string, .required)
            .unique(on: "code")
            .create()

        for seed in Self.seeds {
            try await Species(
                code: seed.code,
                commonName: seed.common,
                scientificName: seed.scientific,
                family: seed.family
            ).create(on: database)
        }
    }

    func revert(on database: Database) async throws {
        try await database.schema(Species.schema).delete()
    }
}
