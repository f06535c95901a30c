// swift-tools-version:6.2
import PackageDescription

// A package of its own that tests its concurrent type with RaceLab, as any package would: by
// depending on RaceLab (here by path; by URL once it is hosted) and using RaceLabTesting from its
// tests. Run: swift test --sanitize=thread
let package = Package(
    name: "HitCounter",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RaceLab", path: "../..")],
    targets: [
        .target(name: "HitCounter"),
        .testTarget(
            name: "HitCounterTests",
            dependencies: ["HitCounter", .product(name: "RaceLabTesting", package: "RaceLab")])
    ]
)
