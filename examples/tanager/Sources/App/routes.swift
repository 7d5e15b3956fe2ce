import Fluent
import Vapor

func routes(_ app: Application) throws {
    // Probes stay outside the rate limit so the orchestrator never gets throttled.
    try app.register(collection: HealthController())

    let api = app
        .grouped("api", "v1")
        .grouped(RateLimitMiddleware(limiter: app.requestLimiter))

    try api.register(collection: SpeciesController(cache: app.speciesCache))
    try api.register(collection: SightingController(settings: app.settings))
}
