import Foundation
import XCTest

@testable import RaceLabGrading

/// Minutes per lab on real learners: each student's own commands keep a timeline in their
/// progress file, and `racelab bench learners` adds a class's files up.
final class LearnerMinutesTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func at(minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    func testATimelineRunsFromTheFirstCommandToTheFirstPassingCheck() {
        var progress = StudentProgress()
        progress.checked("list-adder", passing: false, at: start)
        progress.hinted("list-adder", at: at(minutes: 4))
        progress.checked("list-adder", passing: false, at: at(minutes: 9))
        progress.checked("list-adder", passing: true, at: at(minutes: 17))
        progress.hinted("list-adder", at: at(minutes: 20))
        progress.checked("list-adder", passing: false, at: at(minutes: 30))
        let timeline = progress.timelines["list-adder"]
        XCTAssertEqual(timeline?.minutesToPass, 17, "later checks and hints do not move the first pass")
        XCTAssertEqual(timeline?.checksToPass, 3)
        XCTAssertEqual(timeline?.hintsToPass, 1)

        progress.hinted("deadlock", at: at(minutes: 40))
        XCTAssertEqual(progress.timelines["deadlock"]?.started, at(minutes: 40), "a hint begins a lab too")
        XCTAssertNil(progress.timelines["deadlock"]?.minutesToPass, "not passed yet")
    }

    func testTimelinesSurviveTheFileAndOlderFilesStillRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("learners-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("progress.json")
        try StudentProgress.update(at: file) { $0.checked("list-adder", passing: true, at: self.at(minutes: 2)) }
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("\"started\" : \"2027-01-15T08:02:00Z\""), "dates are written as ISO 8601: \(text)")
        XCTAssertEqual(StudentProgress.load(from: file).timelines["list-adder"]?.checksToPass, 1)

        try Data(#"{"checks": {}, "hintsShown": {"deadlock": 2}}"#.utf8).write(to: file)
        guard case .fresh(let older) = StudentProgress.read(from: file) else {
            return XCTFail("a file from before timelines must still read")
        }
        XCTAssertEqual(older.hintsShown, ["deadlock": 2])
        XCTAssertEqual(older.timelines, [:])
    }

    func testAClassOfProgressFilesGivesMinutesPerLab() throws {
        let minutes: [Double] = [10, 20, 30, 40, 50]
        let progresses =
            minutes.map { value -> StudentProgress in
                var progress = StudentProgress()
                progress.checked("list-adder", passing: false, at: start)
                progress.checked("list-adder", passing: true, at: at(minutes: value))
                return progress
            } + [
                {
                    var stuck = StudentProgress()
                    stuck.checked("list-adder", passing: false, at: start)
                    return stuck
                }()
            ]
        let rows = LearnerMinutes.rows(labs: ["list-adder", "deadlock"], progresses: progresses)
        XCTAssertEqual(
            rows[0],
            LearnerMinutes.Row(
                lab: "list-adder", started: 6, passed: 5, medianMinutes: 30, slowMinutes: 40,
                medianChecks: 2, medianHints: 0))
        XCTAssertEqual(
            rows[1],
            LearnerMinutes.Row(
                lab: "deadlock", started: 0, passed: 0, medianMinutes: nil, slowMinutes: nil,
                medianChecks: nil, medianHints: nil))
        let table = LearnerMinutes.table(rows, students: 6)
        XCTAssertTrue(table.contains("1  list-adder  6      5       30                40             2       0"), table)
        XCTAssertTrue(table.contains("2  deadlock    0      0       -                 -              -       -"), table)
        XCTAssertEqual(LearnerMinutes.percentile([7], 80), 7)
        XCTAssertNil(LearnerMinutes.percentile([], 50))
    }

    func testFilesAreFoundInAFolderOfKitsAndBadInputIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("learners-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for student in ["ada", "grace"] {
            try StudentProgress.update(
                at: folder.appendingPathComponent(student).appendingPathComponent(StudentProgress.relativePath)
            ) {
                $0.checked("list-adder", passing: true, at: self.start)
            }
        }
        let broken = folder.appendingPathComponent("linus").appendingPathComponent(StudentProgress.relativePath)
        try FileManager.default.createDirectory(
            at: broken.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: broken)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("no-progress"), withIntermediateDirectories: true)

        let collection = try LearnerMinutes.collect([folder.path])
        XCTAssertEqual(
            collection.files.map { URL(fileURLWithPath: $0.path).pathComponents.suffix(3).first }, ["ada", "grace"])
        XCTAssertEqual(collection.skipped.count, 1)
        XCTAssertTrue(collection.skipped[0].contains("linus"), "\(collection.skipped)")

        XCTAssertThrowsError(try LearnerMinutes.collect([folder.appendingPathComponent("nobody").path])) { error in
            XCTAssertTrue("\(error)".contains("is not there"), "\(error)")
        }
        XCTAssertThrowsError(try LearnerMinutes.collect([folder.appendingPathComponent("no-progress").path])) { error in
            XCTAssertTrue("\(error)".hasPrefix("no progress file in"), "\(error)")
        }
    }
}
