import Foundation

/// A student kit's test suite: one XCTest per lab, in the order of the learning path, each
/// running `racelab check` on that lab's exercise and failing with its feedback until the
/// exercise passes. `swift test --sanitize=thread` (and Xcode's Cmd-U) in a kit is then the
/// student's check, red to green, lab by lab; the harness's own suite stays in the project.
public enum KitLabChecks {
    /// The test target's folder in a kit (Package.swift declares it when the folder exists).
    public static let folder = "Tests/LabChecks"
    public static let file = "\(folder)/LabChecks.swift"
    /// The harness's own test suites: they test the project (its lessons, its reference fixes,
    /// its corpus), which a kit does not ship, so they stay in the project.
    public static let projectSuites = ["Tests/RaceLabTests/", "Tests/LabsTests/"]

    public static func staysInProject(_ path: String) -> Bool { projectSuites.contains { path.hasPrefix($0) } }

    /// The XCTest method of lab number `index` (from 1): `test01_list_adder`.
    public static func testName(_ lab: String, index: Int) -> String {
        let number = index < 10 ? "0\(index)" : "\(index)"
        return "test\(number)_" + lab.replacingOccurrences(of: "-", with: "_")
    }

    /// The test file for `labs` (ids, in the order of the learning path).
    public static func source(labs: [String]) -> String {
        let methods = labs.enumerated().map { index, lab in
            "    func \(testName(lab, index: index + 1))() throws { try check(\"\(lab)\") }"
        }
        return """
            // Your labs, one test each, in the order of the course (written by `racelab export`).
            // Each runs `racelab check LAB` on your exercise, exactly as the grader will, and fails
            // with what it says until the exercise passes. Run one: swift test --sanitize=thread
            // --filter \(testName(labs.first ?? "list-adder", index: 1))
            import Foundation
            import XCTest

            final class LabChecks: XCTestCase {
            \(methods.joined(separator: "\n"))

                /// `racelab check LAB` from this kit's build; a failure carries its whole feedback.
                private func check(_ lab: String, file: StaticString = #filePath, line: UInt = #line) throws {
                    let kit = URL(fileURLWithPath: "\\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    let racelab = try XCTUnwrap(Self.racelab(), "racelab was not built next to the tests; run make build first")
                    let process = Process()
                    process.executableURL = racelab
                    process.arguments = ["check", lab]
                    process.currentDirectoryURL = kit
                    let output = Pipe()
                    process.standardOutput = output
                    process.standardError = output
                    try process.run()
                    let feedback = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    XCTAssertEqual(process.terminationStatus, 0, "\\(lab): not fixed yet\\n\\(feedback)", file: file, line: line)
                }

                /// The racelab program built with these tests (beside the test bundle).
                private static func racelab() -> URL? {
                    let bundle = Bundle(for: LabChecks.self).bundleURL
                    return [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("racelab") }
                        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
                }
            }

            """
    }
}
