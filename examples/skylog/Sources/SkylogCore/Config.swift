import Foundation

/// Settings the API client runs with.
public struct Config: Sendable {
    public var baseURL: URL
    public var timeoutSeconds: TimeInterval
    public var maxRetries: Int
    public var retryBackoffSeconds: TimeInterval
    public var userAgent: String

    public init(
        baseURL: URL,
        timeoutSeconds: TimeInterval = 15,
        maxRetries: Int = 3,
        retryBackoffSeconds: TimeInterval = 2,
        userAgent: String = "skylog/0.3.1"
    ) {
        self.baseURL = baseURL
        self.timeoutSeconds = timeoutSeconds
        self.maxRetries = maxRetries
        self.retryBackoffSeconds = retryBackoffSeconds
        self.userAgent = userAgent
    }

    /// The public API with the default timeout and retries.
    public static let standard = Config(baseURL: URL(string: "https://api.skylog.dev/v2")!)
}
