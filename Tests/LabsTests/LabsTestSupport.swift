import CRaceLabSupport
import Foundation
import LabCatalog
import RaceLabKit
import XCTest

enum LabsTestSupport {
    /// The racelab binary built next to the test bundle (the test target depends on it).
    static var racelab: URL { Bundle.main.bundleURL.appendingPathComponent("racelab") }

    static var tsanEnabled: Bool { rl_tsan_enabled() != 0 }

    static func runRacelab(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = racelab
        process.arguments = arguments
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
