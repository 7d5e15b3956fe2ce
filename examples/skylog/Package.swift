// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Skylog",
    platforms: [
        .macOS(.v13),
        .iOS(.v16),
    ],
    products: [
        .executable(name: "skylog", targets: ["Skylog"]),
        .library(name: "SkylogCore", targets: ["SkylogCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.4"),
    ],
    targets: [
        .executableTarget(
            name: "Skylog",
            dependencies: [
                "SkylogCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "SkylogCore",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "SkylogCoreTests", dependencies: ["SkylogCore"]),
    ]
)
