import Foundation

public struct Reading: Sendable {
    public let time: Date
    public let temperatureC: Double

    public static func now() -> Reading {
        Reading(time: Date(), temperatureC: .nan)
    }
}

/// Appends readings to a CSV file, one line each, creating the file with a header.
public struct ReadingStore {
    public let path: String
    public static let header = "time,temperature_c"

    public init(path: String) {
        self.path = path
    }

    public func append(_ reading: Reading) throws {
        let line = "\(ISO8601DateFormatter().string(from: reading.time)),\(reading.temperatureC)\n"
        if !FileManager.default.fileExists(atPath: path) {
            try (Self.header + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.utf8))
    }
}
