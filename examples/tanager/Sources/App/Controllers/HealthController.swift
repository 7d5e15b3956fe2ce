import Fluent
import Vapor

/// Liveness and readiness probes for the orchestrator. Not rate limited.
struct HealthController: RouteCollection {
    func boot(routes: RoutesBuilder) throws {
        routes.get("healthz", use: healthz)
        routes.get("readyz", use: readyz)
    }

    /// The process is up and the event loops answer.
    @Sendable
    func healthz(req: Request) async throws -> HTTPStatus {
        .ok
    }

    /// The database answers a trivial query. Fails with 503 so the load balancer drains us.
    @Sendable
    func readyz(req: Request) async throws -> HTTPStatus {
        do {
            _ = try await Species.query(on: req.db).count()
            return .ok
        } catch {
            req.logger.warning("readiness check failed", metadata: ["error": .string(String(reflecting: error))])
            throw Abort(.serviceUnavailable, reason: "database unavailable")
        }
    }
}
