import CRaceLabSupport
import Foundation
import LabCatalog
import RaceLabKit
import XCTest

enum LabsTestSupport {
    /// The racelab binary built next to the test bundle (the test target depends on it).
    static var racelab: URL { Bundle.main.bundleURL.appendingPathComponent("racelab") }

    static var tsanEnabled: Bool { rl_tsan_enabled() != 0 }

    /// Whether the lab's reference solutions are in this copy (a student kit has none).
    static func shipsSolutions(_ lab: Lab) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: lab.info.folder.path)) ?? []
        return names.contains { $0.hasPrefix("Fixed") && $0.hasSuffix(".swift") }
    }

    /// Skips a test about a lab's fixed variants in a student kit (racelab export leaves them out).
    static func requireSolutions(_ lab: Lab) throws {
        guard shipsSolutions(lab) else { throw XCTSkip("\(lab.id): no reference solutions in this copy (a student kit)") }
    }

    static func runRacelab(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = racelab
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
