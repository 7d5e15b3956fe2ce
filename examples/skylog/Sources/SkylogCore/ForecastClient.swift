import Foundation
import Logging

public enum Units: String, Sendable, CaseIterable {
    case celsius
    case fahrenheit
}

public struct Day: Codable, Sendable {
    public let date: String
    public let highC: Double
    public let lowC: Double
    public let summary: String
}

public enum ForecastError: Error {
    case badStatus(Int)
    case gaveUp(after: Int)
}

/// Fetches forecasts, retrying failed requests with a fixed backoff.
public final class ForecastClient: Sendable {
    private let config: Config
    private let session: URLSession
    private let logger = Logger(label: "dev.skylog.client")

    public init(config: Config) {
        self.config = config
        let conf = URLSessionConfiguration.default
        conf.timeoutIntervalForRequest = config.timeoutSeconds
        conf.httpAdditionalHeaders = ["User-Agent": config.userAgent]
        self.session = URLSession(configuration: conf)
    }

    public func forecast(for place: String, days: Int) async throws -> [Day] {
        var url = config.baseURL.appending(path: "forecast")
        url.append(queryItems: [
            URLQueryItem(name: "q", value: place),
            URLQueryItem(name: "days", value: String(min(days, 14))),
        ])
        for attempt in 1...config.maxRetries {
            do {
                let (data, response) = try await session.data(from: url)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 200 else { throw ForecastError.badStatus(status) }
                return try JSONDecoder().decode([Day].self, from: data)
            } catch {
                logger.warning("attempt \(attempt) failed: \(error)")
                try await Task.sleep(for: .seconds(config.retryBackoffSeconds))
            }
        }
        throw ForecastError.gaveUp(after: config.maxRetries)
    }
}
