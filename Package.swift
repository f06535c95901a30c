// swift-tools-version:6.0
import PackageDescription
import Foundation

// Lesson files (Labs/<Lab>/README.md) are read at run time from the source tree; keep them
// out of the compiled target without one exclude line per lab.
let labsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Labs")
let lessonFiles = (["README.md"] + ((try? FileManager.default.contentsOfDirectory(atPath: labsDirectory.path)) ?? [])
    .map { "\($0)/README.md" })
    .filter { FileManager.default.fileExists(atPath: labsDirectory.appendingPathComponent($0).path) }
    .sorted()

let package = Package(
    name: "RaceLab",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "racelab", targets: ["racelab"]),
        .library(name: "RaceLabKit", targets: ["RaceLabKit"]),
    ],
    targets: [
        // Tiny C layer: state that lab threads share with the harness without TSan seeing it as
        // synchronisation (so checkpoints never hide a lab's race), plus TSan/Linux hooks.
        .target(name: "CRaceLabSupport"),
        .target(name: "RaceLabKit", dependencies: ["CRaceLabSupport"]),
        // Teaching code: racy on purpose, so Swift 5 language mode.
        .target(
            name: "Labs",
            dependencies: ["RaceLabKit"],
            path: "Labs",
            exclude: lessonFiles,
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(name: "racelab", dependencies: ["RaceLabKit", "Labs"]),
        .testTarget(
            name: "RaceLabKitTests",
            dependencies: ["RaceLabKit"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "LabsTests",
            dependencies: ["Labs", "RaceLabKit", "racelab"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
