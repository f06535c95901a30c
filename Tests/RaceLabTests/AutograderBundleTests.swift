import Foundation
import XCTest

@testable import RaceLabGrading

final class AutograderBundleTests: XCTestCase {
    func testCRC32MatchesTheStandardCheckValue() {
        XCTAssertEqual(CRC32.checksum(Data("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum(Data()), 0)
    }

    func testZipRoundTripsPathsContentsAndExecutableBits() throws {
        var archive = ZipArchive()
        archive.add("setup.sh", Data("#!/bin/sh\necho hi\n".utf8), executable: true)
        archive.add("kit/Labs/ListAdder/Exercise.swift", Data("// ü\n".utf8))
        archive.add("kit/empty", Data())
        let bytes = try archive.encoded()
        XCTAssertEqual(Array(bytes.prefix(4)), [0x50, 0x4B, 0x03, 0x04], "a zip starts with a local file header")
        let back = try XCTUnwrap(ZipArchive.read(bytes))
        XCTAssertEqual(back, archive.entries)
        XCTAssertEqual(try archive.encoded(), bytes, "the same entries give the same bytes")
    }

    func testAReadRefusesACorruptedEntry() throws {
        var archive = ZipArchive()
        archive.add("a.txt", Data("hello".utf8))
        var bytes = try archive.encoded()
        let at = try XCTUnwrap(bytes.range(of: Data("hello".utf8))).lowerBound
        bytes[at] = UInt8(ascii: "j")
        XCTAssertNil(ZipArchive.read(bytes), "the CRC no longer matches")
        XCTAssertNil(ZipArchive.read(Data("not a zip".utf8)))
    }

    /// The system's unzip, when there is one, agrees (what Gradescope's unpacking sees).
    func testUnzipReadsTheArchiveWhenInstalled() throws {
        let unzip = ["/usr/bin/unzip", "/bin/unzip"].first { FileManager.default.isExecutableFile(atPath: $0) }
        try XCTSkipIf(unzip == nil, "no unzip on this machine")
        var archive = ZipArchive()
        archive.add("run_autograder", Data("#!/bin/sh\n".utf8), executable: true)
        archive.add("kit/Package.swift", Data("// swift-tools-version:6.0\n".utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try archive.encoded().write(to: folder.appendingPathComponent("a.zip"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unzip!)
        process.arguments = ["-q", "a.zip", "-d", "out"]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let out = folder.appendingPathComponent("out")
        XCTAssertEqual(
            FileManager.default.contents(atPath: out.appendingPathComponent("kit/Package.swift").path),
            Data("// swift-tools-version:6.0\n".utf8))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: out.appendingPathComponent("run_autograder").path))
    }

    func testClassroomWorkflowHasOneScoredStepPerLab() {
        let workflow = ClassroomWorkflow(labs: ["list-adder", "deadlock"], pointsPerLab: 10)
        let yaml = workflow.yaml
        XCTAssertTrue(yaml.contains("run: bash Grading/Classroom/setup.sh"))
        for lab in ["list-adder", "deadlock"] {
            let command = "bash Grading/Classroom/grade-lab.sh \(lab)"
            XCTAssertTrue(
                yaml.contains("        id: \(lab)\n        uses: classroom-resources/autograding-command-grader@v1"),
                lab)
            XCTAssertTrue(yaml.contains("          command: \(command)\n"), lab)
            XCTAssertTrue(yaml.contains("\(lab.uppercased())_RESULTS: \"${{steps.\(lab).outputs.result}}\""), lab)
        }
        XCTAssertTrue(yaml.contains("runners: list-adder,deadlock\n"))
        XCTAssertTrue(yaml.contains("max-score: 10"))
    }
}
