import Foundation

public enum Render {
    public static func table(_ days: [Day], units: Units) -> String {
        days.map { day in
            let high = convert(day.highC, to: units)
            let low = convert(day.lowC, to: units)
            return "\(day.date)  \(format(high))/\(format(low))  \(day.summary)"
        }.joined(separator: "\n")
    }

    public static func json(_ days: [Day]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(days), as: UTF8.self)
    }

    static func convert(_ celsius: Double, to units: Units) -> Double {
        units == .fahrenheit ? celsius * 9 / 5 + 32 : celsius
    }

    static func format(_ value: Double) -> String {
        String(format: "%.1f°", value)
    }
}
