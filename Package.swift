// swift-tools-version:6.2
import Foundation
import PackageDescription

// The labs. Every folder in Labs/ with a Scenario.swift is one lab, built as four modules
// (Swift 5 mode, because teaching code is racy on purpose, but for the Swift 6 fix):
//   <Lab>           Scenario.swift + Broken*.swift: the story, the invariants, the naive code
//   <Lab>Exercises  Exercise*.swift: the student's file. It may use LabKit and its lab's public
//                   protocol, nothing of the harness (see Labs/README.md, "The trust boundary")
//   <Lab>Solutions  Fixed*.swift: the reference fixes (left out of a student kit)
//   <Lab>Swift6Solutions  FixedSwift6*.swift: the modern fix, in the Swift 6 language mode with
//                   every warning an error, so the build itself proves Swift 6 accepts it
// One module per file kind also lets every lab use the plain file names (a module cannot hold
// two files of one name). The lesson (README.md) is read at run time, not compiled.
let labsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Labs")
let labNames = ((try? FileManager.default.contentsOfDirectory(atPath: labsDirectory.path)) ?? [])
    .filter {
        FileManager.default.fileExists(atPath: labsDirectory.appendingPathComponent("\($0)/Scenario.swift").path)
    }
    .sorted()

func labFiles(_ lab: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: labsDirectory.appendingPathComponent(lab).path)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()
}

/// One module of a lab, built from the files of its folder that `belongs` picks.
func labTarget(
    _ lab: String, name: String, dependencies: [Target.Dependency], belongs: (String) -> Bool,
    languageMode: SwiftLanguageMode = .v5, extraSettings: [SwiftSetting] = []
) -> Target? {
    let files = labFiles(lab)
    let sources = files.filter { $0.hasSuffix(".swift") && belongs($0) }
    guard !sources.isEmpty else { return nil }
    return .target(
        name: name, dependencies: dependencies, path: "Labs/\(lab)",
        exclude: files.filter { !sources.contains($0) }, sources: sources,
        swiftSettings: [.swiftLanguageMode(languageMode)] + extraSettings)
}

// Code a student writes, and every answer written as one (reference fixes, the grading corpus),
// is memory-safe Swift: the compiler refuses pointers, raw memory and every other construct
// that is unsafe by construction (SE-0458), so such code can call only what it names, and the
// exercise checks see every name. Scenarios and LabKit, the harness's own code, are not held
// to it. RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS=1 (tests of the harness's other defences only)
// leaves it out.
let skipsExerciseChecks = ProcessInfo.processInfo.environment["RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS"] == "1"
let memorySafe: [SwiftSetting] =
    skipsExerciseChecks ? [] : [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]
// The reference fixes and the corpus are built without warnings (a learner's first build shows
// only their own code's), and the compiler cannot both silence warnings and make one group an
// error. So their memory safety is proven by a build of its own, RACELAB_REFERENCE_SAFETY=1
// (CI: scripts/check-reference-safety.sh); exercises are always built with it.
let checksReferenceSafety = ProcessInfo.processInfo.environment["RACELAB_REFERENCE_SAFETY"] == "1"

// RACELAB_WITHOUT_LINUX_FACILITIES=1 builds, on Linux, what a system without them gets (macOS):
// no preemption or holds, "quiet" from a clock, children not confined. CI builds and runs it
// (scripts/check-reduced-build.sh) so that path is known to work and to say what it lacks.
let withoutLinuxFacilities = ProcessInfo.processInfo.environment["RACELAB_WITHOUT_LINUX_FACILITIES"] == "1"
let reducedC: [CSetting] = withoutLinuxFacilities ? [.define("RL_NO_LINUX_FACILITIES")] : []
let reducedSwift: [SwiftSetting] = withoutLinuxFacilities ? [.define("RACELAB_NO_LINUX_FACILITIES")] : []

let isScenario: (String) -> Bool = { $0 == "Scenario.swift" || $0.hasPrefix("Broken") }
let isExercise: (String) -> Bool = { $0.hasPrefix("Exercise") }
let isSwift6Solution: (String) -> Bool = { $0.hasPrefix("FixedSwift6") }
let isSolution: (String) -> Bool = { $0.hasPrefix("Fixed") && !isSwift6Solution($0) }

// A learner's first build shows only what their own code says: the scenarios and the naive code
// are racy on purpose, and what Swift 6 thinks of them and of the reference fixes is shown where
// it is explained (the COMPILER column, `racelab compiler-check`). The exercise keeps every
// warning; errors stay errors everywhere (memory safety among them).
let quiet: [SwiftSetting] = [.unsafeFlags(["-suppress-warnings"])]
let scenarioTargets = labNames.compactMap {
    labTarget($0, name: $0, dependencies: ["LabKit"], belongs: isScenario, extraSettings: quiet)
}
// An exercise sees LabKit and its own lab, and (MemberImportVisibility) only members of what it
// imports itself: nothing of the harness leaks in through the lab's module.
let exerciseTargets = labNames.compactMap {
    labTarget(
        $0, name: "\($0)Exercises", dependencies: ["LabKit", .target(name: $0)], belongs: isExercise,
        extraSettings: [.enableUpcomingFeature("MemberImportVisibility")] + memorySafe)
}
let solutionTargets = labNames.compactMap {
    labTarget(
        $0, name: "\($0)Solutions", dependencies: ["LabKit", .target(name: $0)], belongs: isSolution,
        extraSettings: checksReferenceSafety ? memorySafe : quiet)
}
// Not quiet: a Swift 6 fix builds without a single warning (it is what the lesson holds up).
let swift6SolutionTargets = labNames.compactMap {
    labTarget(
        $0, name: "\($0)Swift6Solutions", dependencies: ["LabKit", .target(name: $0)], belongs: isSwift6Solution,
        languageMode: .v6, extraSettings: [.treatAllWarnings(as: .error)] + (checksReferenceSafety ? memorySafe : []))
}

// The reference solutions are registered outside the labs, in Sources/SolutionCatalog; a student
// kit ships neither that folder nor any Fixed*.swift, and then builds without them.
let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let shipsSolutions = FileManager.default.fileExists(
    atPath: packageDirectory.appendingPathComponent("Sources/SolutionCatalog/SolutionCatalog.swift").path)
let solutionCatalog: [Target] =
    shipsSolutions
    ? [
        .target(
            name: "SolutionCatalog",
            dependencies: ["LabKit"] + labNames.map { .target(name: $0) }
                + (solutionTargets + swift6SolutionTargets).map { .target(name: $0.name) })
    ]
    : []
let solutionDependency: [Target.Dependency] = shipsSolutions ? ["SolutionCatalog"] : []

// The grading corpus (Tests/GradingCorpus/<Lab>/*.swift: other valid fixes and plausible wrong
// ones, graded as exercises by `racelab bench corpus`), one module per lab, registered by
// Sources/CorpusCatalog. Like the solutions, a student kit ships without it.
let corpusDirectory = packageDirectory.appendingPathComponent("Tests/GradingCorpus")
let corpusLabs = labNames.filter { lab in
    ((try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.appendingPathComponent(lab).path)) ?? [])
        .contains { $0.hasSuffix(".swift") }
}
let shipsCorpus =
    shipsSolutions
    && FileManager.default.fileExists(
        atPath: packageDirectory.appendingPathComponent("Sources/CorpusCatalog/CorpusCatalog.swift").path)
let corpusTargets: [Target] =
    shipsCorpus
    ? corpusLabs.map { lab in
        .target(
            name: "\(lab)Corpus", dependencies: ["LabKit", .target(name: lab)], path: "Tests/GradingCorpus/\(lab)",
            swiftSettings: [.swiftLanguageMode(.v5), .enableUpcomingFeature("MemberImportVisibility")]
                + (checksReferenceSafety ? memorySafe : quiet))
    } : []
let corpusCatalog: [Target] =
    shipsCorpus
    ? [
        .target(
            name: "CorpusCatalog",
            dependencies: ["LabKit"] + labNames.map { .target(name: $0) } + corpusTargets.map { .target(name: $0.name) }
        )
    ]
    : []
let corpusDependency: [Target.Dependency] = shipsCorpus ? ["CorpusCatalog"] : []
let solutionDefine: [SwiftSetting] =
    (shipsSolutions ? [.define("RACELAB_SOLUTIONS")] : []) + (shipsCorpus ? [.define("RACELAB_CORPUS")] : [])

// The harness's own test suites stay in the project; a student kit has one test per lab instead
// (Tests/LabChecks, written by racelab export: each runs `racelab check` on that lab's exercise).
let hasProjectTests = FileManager.default.fileExists(
    atPath: packageDirectory.appendingPathComponent("Tests/RaceLabTests").path)
let projectTests: [Target] =
    hasProjectTests
    ? [
        .testTarget(
            name: "RaceLabTests",
            dependencies: [
                "LabKit", "RaceLabHarness", "RaceLabReports", "RaceLabGrading", "TSanReports", "CRaceLabSupport",
                "CompilerCheck", "racelab", "RaceLabTesting"
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: reducedSwift
        ),
        .testTarget(
            name: "LabsTests",
            dependencies: [
                "LabCatalog", "LabKit", "RaceLabHarness", "RaceLabReports", "RaceLabGrading", "TSanReports",
                "CRaceLabSupport", "racelab", "racelab-child"
            ] + solutionDependency + corpusDependency,
            swiftSettings: [.swiftLanguageMode(.v5)] + solutionDefine + reducedSwift
        )
    ] : []
let kitTests: [Target] =
    FileManager.default.fileExists(atPath: packageDirectory.appendingPathComponent("Tests/LabChecks").path)
    ? [.testTarget(name: "LabChecks", dependencies: ["racelab", "racelab-child"], path: "Tests/LabChecks")]
    : []

let labModuleTargets =
    scenarioTargets + exerciseTargets + solutionTargets + swift6SolutionTargets + solutionCatalog + corpusTargets
    + corpusCatalog

let package = Package(
    name: "RaceLab",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "racelab", targets: ["racelab"]),
        .executable(name: "racelab-child", targets: ["racelab-child"]),
        // RaceLab's passes for anyone's own concurrent code, from their XCTest tests
        // (Examples/HitCounter depends on it by path).
        .library(name: "RaceLabTesting", targets: ["RaceLabTesting"]),
        // `racelab stress`'s preemption, loaded into the user's program (LD_PRELOAD).
        .library(name: "RaceLabStressPreload", type: .dynamic, targets: ["CRaceLabStressPreload"])
    ],
    targets: labModuleTargets + [
        // Tiny C layer: state that lab threads share with the harness without TSan seeing it as
        // synchronisation (so checkpoints never hide a lab's race), TSan hooks, process spawning.
        .target(name: "CRaceLabSupport", cSettings: reducedC),
        // Pauses at the synchronisation points of any program built with TSan (racelab stress).
        .target(name: "CRaceLabStressPreload"),
        // What a lab is written with: the scenario API, checkpoints, UI stand-ins. Exercises see
        // only its plain public part; scenarios also import its `@_spi(LabAuthoring)` part.
        .target(name: "LabKit", dependencies: ["CRaceLabSupport"], swiftSettings: reducedSwift),
        // ThreadSanitizer logs: parser, explainer, demangler.
        .target(name: "TSanReports"),
        // Runs variants in child processes and judges them.
        .target(
            name: "RaceLabHarness", dependencies: ["LabKit", "TSanReports", "CRaceLabSupport"],
            swiftSettings: reducedSwift),
        // A user's race test: bodies run at once through the labs' own passes, each pass in a
        // child (the test program again, on one test), failures explained.
        .target(name: "RaceLabTesting", dependencies: ["LabKit", "RaceLabHarness", "TSanReports", "CRaceLabSupport"]),
        // The compiler as a detector: each lab's code type-checked in Swift 6 language mode, the
        // diagnostics kept in Grading/compiler.json (racelab compiler-check) for the reports.
        .target(name: "CompilerCheck", dependencies: ["LabKit", "RaceLabHarness"]),
        // Tables, HTML, interleaving timelines.
        .target(name: "RaceLabReports", dependencies: ["LabKit", "RaceLabHarness", "TSanReports", "CompilerCheck"]),
        // Grader, student kit, manifest, exercise policy, report formats.
        .target(name: "RaceLabGrading", dependencies: ["LabKit", "RaceLabHarness", "TSanReports", "CompilerCheck"]),
        // Scenario + exercise of every lab: one line per lab.
        .target(
            name: "LabCatalog",
            dependencies: ["LabKit"] + labNames.map { .target(name: $0) }
                + exerciseTargets.map { .target(name: $0.name) }),
        // The process that runs lab code (and so student code): one variant, then exit.
        .executableTarget(
            name: "racelab-child",
            dependencies: ["LabKit", "RaceLabHarness", "LabCatalog", "CRaceLabSupport"] + solutionDependency
                + corpusDependency,
            swiftSettings: solutionDefine),
        // The command line: plans, judges, reports. It links no lab code; it asks racelab-child.
        .executableTarget(
            name: "racelab",
            dependencies: [
                "LabKit", "RaceLabHarness", "RaceLabReports", "RaceLabGrading", "TSanReports", "CRaceLabSupport",
                "CompilerCheck"
            ])
    ] + projectTests + kitTests
)
