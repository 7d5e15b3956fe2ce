import Vapor

/// Fixed-window request limiter keyed by client address.
///
/// Every client gets `limitPerMinute` requests per 60-second window. The request that goes
/// over the limit, and every one after it until the window rolls over, is answered with
/// `429 Too Many Requests` and a `Retry-After` header; the handler never runs.
actor RequestLimiter {
    enum Decision: Equatable {
        case allowed(remaining: Int)
        case limited(retryAfterSeconds: Int)
    }

    static let windowSeconds: TimeInterval = 60

    let limitPerMinute: Int
    private let now: @Sendable () -> Date
    private var windows: [String: (start: Date, count: Int)] = [:]
    private var lastSweep = Date.distantPast

    init(limitPerMinute: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.limitPerMinute = limitPerMinute
        self.now = now
    }

    func record(_ client: String) -> Decision {
        let current = now()
        sweep(at: current)

        var window = windows[client] ?? (start: current, count: 0)
        if current.timeIntervalSince(window.start) >= Self.windowSeconds {
            window = (start: current, count: 0)
        }
        window.count += 1
        windows[client] = window

        if window.count > limitPerMinute {
            let elapsed = current.timeIntervalSince(window.start)
            return .limited(retryAfterSeconds: max(1, Int((Self.windowSeconds - elapsed).rounded(.up))))
        }
        return .allowed(remaining: limitPerMinute - window.count)
    }

    /// Drops expired windows at most once per window so the table cannot grow without bound.
    private func sweep(at current: Date) {
        guard current.timeIntervalSince(lastSweep) >= Self.windowSeconds else { return }
        windows = windows.filter { current.timeIntervalSince($0.value.start) < Self.windowSeconds }
        lastSweep = current
    }
}

struct RateLimitMiddleware: AsyncMiddleware {
    let limiter: RequestLimiter

    func respond(to request: Request, chainingTo next: AsyncResponder) async throws -> Response {
        let client = Self.clientKey(for: request)
        switch await limiter.record(client) {
        case let .limited(retryAfter):
            request.logger.notice("rate limited", metadata: ["client": .string(client)])
            throw Abort(
                .tooManyRequests,
                headers: ["Retry-After": String(retryAfter)],
                reason: "Too many requests; try again in \(retryAfter) seconds."
            )
        case let .allowed(remaining):
            let response = try await next.respond(to: request)
            response.headers.replaceOrAdd(name: "X-RateLimit-Limit", value: String(limiter.limitPerMinute))
            response.headers.replaceOrAdd(name: "X-RateLimit-Remaining", value: String(remaining))
            return response
        }
    }

    /// The first `X-Forwarded-For` hop when running behind the load balancer, else the peer address.
    static func clientKey(for request: Request) -> String {
        if let forwarded = request.headers.first(name: .xForwardedFor),
           let first = forwarded.split(separator: ",").first {
            return first.trimmingCharacters(in: .whitespaces)
        }
        return request.remoteAddress?.ipAddress ?? "unknown"
    }
}

extension Application {
    private struct RequestLimiterKey: StorageKey {
        typealias Value = RequestLimiter
    }

    var requestLimiter: RequestLimiter {
        get {
            guard let limiter = storage[RequestLimiterKey.self] else {
                fatalError("app.requestLimiter read before configure(_:) set it")
            }
            return limiter
        }
        set { storage[RequestLimiterKey.self] = newValue }
    }
}
