import Fluent

/// Creates the `sightings` table. Deleting a species that still has sightings is refused.
struct CreateSighting: AsyncMigration {
    func prepare(on database: Database) async throws {
        try await database.schema(Sighting.schema)
            .id()
            .field("species_id", .uuid, .required, .references(Species.schema, "id", onDelete: .restrict))
            .field("observer", .string, .required)
            .field("count", .int, .required)
            .field("latitude", .double, .required)
            .field("longitude", .double, .required)
            .field("observed_at", .datetime, .required)
            .field("notes", .string)
            .field("photo_path", .string)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: Database) async throws {
        try await database.schema(Sighting.schema).delete()
    }
}
