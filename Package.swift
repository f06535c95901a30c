// swift-tools-version:6.0
import PackageDescription
import Foundation

// Every folder in Labs/ with a Scenario.swift is one lab, built as its own module (Swift 5 mode,
// because teaching code is racy on purpose). One module per lab lets every lab use the plain
// file names Scenario/Broken/Fixed/Exercise.swift (a module cannot hold two files of one name).
// The lesson (README.md) is read at run time, not compiled.
let labsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Labs")
let labNames = ((try? FileManager.default.contentsOfDirectory(atPath: labsDirectory.path)) ?? [])
    .filter { FileManager.default.fileExists(atPath: labsDirectory.appendingPathComponent("\($0)/Scenario.swift").path) }
    .sorted()
let labTargets: [Target] = labNames.map { name in
    let hasLesson = FileManager.default.fileExists(atPath: labsDirectory.appendingPathComponent("\(name)/README.md").path)
    return .target(
        name: name,
        dependencies: ["RaceLabKit"],
        path: "Labs/\(name)",
        exclude: hasLesson ? ["README.md"] : [],
        swiftSettings: [.swiftLanguageMode(.v5)]
    )
}

let package = Package(
    name: "RaceLab",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "racelab", targets: ["racelab"]),
        .library(name: "RaceLabKit", targets: ["RaceLabKit"]),
    ],
    targets: labTargets + [
        // Tiny C layer: state that lab threads share with the harness without TSan seeing it as
        // synchronisation (so checkpoints never hide a lab's race), plus TSan/Linux hooks.
        .target(name: "CRaceLabSupport"),
        .target(name: "RaceLabKit", dependencies: ["CRaceLabSupport"]),
        // The list of labs: one import and one line per lab.
        .target(name: "LabCatalog", dependencies: ["RaceLabKit"] + labNames.map { .target(name: $0) }),
        .executableTarget(name: "racelab", dependencies: ["RaceLabKit", "LabCatalog"]),
        .testTarget(
            name: "RaceLabKitTests",
            dependencies: ["RaceLabKit"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "LabsTests",
            dependencies: ["LabCatalog", "RaceLabKit", "racelab"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
