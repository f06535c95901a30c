import CRaceLabSupport
import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports
import XCTest

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif

/// Every lab with its exercise and, in the full repository, its reference fixes.
#if RACELAB_SOLUTIONS
    let testLabs = labCatalog.adding(solutionCatalog)
#else
    let testLabs = labCatalog
#endif

extension LabRunner {
    /// Runs a lab the tests hold with its code, as the parent does: in child processes.
    static func run(_ lab: PlayableLab, variant: Lab.Variant, mode: RunMode, settings: RunSettings) -> VariantOutcome {
        run(lab.lab, variant: variant, mode: mode, settings: settings)
    }
}

extension RunVerdict {
    /// What a test prints when a run did not go as it expected: everything the run says of itself,
    /// so that a failure seen once (on a loaded machine) explains itself without a rerun.
    var testDescription: String {
        let caught = detections.map { "\($0.detector): \($0.summary)" }
        return "detections \(caught), failures \(failures.map(\.message)), notes \(notes), "
            + "harness error \(harnessError ?? "none"), interference \(interference ?? "none"), "
            + "\(iterationsRun) of \(iterationsRequested) iterations in \(elapsedSeconds) s; replay: \(reproduce)"
    }
}

enum LabsTestSupport {
    /// The build folder the test bundle sits in: on Linux the test program is that folder's
    /// main bundle; under Xcode's or macOS's `xctest` the main bundle is the runner, and the
    /// tests are a `.xctest` bundle inside the folder.
    static var products: URL {
        let tests = Bundle(for: BundleMarker.self).bundleURL
        return tests.pathExtension == "xctest" ? tests.deletingLastPathComponent() : tests
    }
    private final class BundleMarker {}
    /// The racelab binary built next to the test bundle (the test target depends on it).
    static var racelab: URL { products.appendingPathComponent("racelab") }
    /// The lab program racelab runs its children with.
    static var child: URL { products.appendingPathComponent("racelab-child") }

    static var tsanEnabled: Bool { rl_tsan_enabled() != 0 }

    /// Whether the lab's reference solutions are in this copy (a student kit has none).
    static func shipsSolutions(_ lab: PlayableLab) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: lab.info.folder.path)) ?? []
        return names.contains { $0.hasPrefix("Fixed") && $0.hasSuffix(".swift") }
    }

    /// Skips a test about a lab's fixed variants in a student kit (racelab export leaves them out).
    static func requireSolutions(_ lab: PlayableLab) throws {
        guard shipsSolutions(lab) else {
            throw XCTSkip("\(lab.id): no reference solutions in this copy (a student kit)")
        }
    }

    /// The package this test was built from.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The 1-based line of the first line holding `text` in `file` (relative to the package), so
    /// tests name a racing line without hard-coding a number that drifts.
    static func line(of text: String, in file: String) throws -> Int {
        let lines = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        return try XCTUnwrap(lines.firstIndex { $0.contains(text) }, "\(file) has no line with \(text)") + 1
    }

    static func runRacelab(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = racelab
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }
}
