import XCTest
@testable import SkylogCore

final class ConfigTests: XCTestCase {
    func testStandardConfigUsesThePublicAPI() {
        XCTAssertEqual(Config.standard.baseURL.host, "api.skylog.dev")
        XCTAssertEqual(Config.standard.maxRetries, 3)
    }

    func testFahrenheitConversion() {
        XCTAssertEqual(Render.convert(100, to: .fahrenheit), 212)
        XCTAssertEqual(Render.convert(-40, to: .fahrenheit), -40)
    }
}
