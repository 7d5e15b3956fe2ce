import ArgumentParser
import Foundation
import SkylogCore

@main
struct Skylog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skylog",
        abstract: "Log and forecast the weather from the terminal.",
        version: "0.3.1",
        subcommands: [Forecast.self, Record.self],
        defaultSubcommand: Forecast.self
    )
}

struct Forecast: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the forecast for a place.")

    @Argument(help: "A city name or \"lat,lon\".")
    var place: String

    @Option(name: .shortAndLong, help: "How many days to show.")
    var days: Int = 5

    @Option(name: .shortAndLong, help: "Temperature units: celsius or fahrenheit.")
    var units: Units = .celsius

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        let client = ForecastClient(config: .standard)
        let days = try await client.forecast(for: place, days: days)
        let output = json ? try Render.json(days) : Render.table(days, units: units)
        print(output)
    }
}

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Append today's reading to the log.")

    @Option(help: "Where the log is kept.")
    var logFile = "~/.skylog/readings.csv"

    func run() async throws {
        let store = ReadingStore(path: NSString(string: logFile).expandingTildeInPath)
        try store.append(Reading.now())
    }
}

extension Units: ExpressibleByArgument {}
