import Foundation
import RaceLabGrading
import RaceLabHarness
import XCTest

/// grade-all of one class on three runners (`--shard K/3`), merged by grade-merge, against
/// grade-all of the whole class: the same summary.csv and the same reports. The grading is
/// real (racelab, its children, the exercise checks); only the compiler is a stand-in (SWIFT=),
/// which "builds" this test's own lab program, so that a class costs seconds, not a kit build.
final class ShardedGradingTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A kit of one lab (its manifest, exercise, calibrations and Package.swift) and a stand-in `swift`: its
    /// build copies this test's racelab-child into place, and fails, blaming the lab, on an
    /// exercise that says DOES NOT COMPILE.
    func makeKit() throws -> (kit: URL, swift: URL) {
        let kit = scratch.appendingPathComponent("kit")
        let exercise = try String(
            contentsOf: LabsTestSupport.packageRoot.appendingPathComponent("Labs/ListAdder/Exercise.swift"),
            encoding: .utf8)
        // The package's calibrations too, as a kit ships them (else each run measures list-adder's).
        let calibrations = try String(
            contentsOf: LabsTestSupport.packageRoot.appendingPathComponent(CalibrationFile.relativePath),
            encoding: .utf8)
        var files: [String: String] = [:]
        for (path, text) in [
            ("Labs/ListAdder/Exercise.swift", exercise), ("Package.swift", "// the kit\n"),
            (CalibrationFile.relativePath, calibrations)
        ] {
            try write(text, to: kit.appendingPathComponent(path))
            files[path] = SHA256.hex(text)
        }
        try KitManifest(files: files).write(to: kit.appendingPathComponent(KitManifest.fileName))
        let swift = scratch.appendingPathComponent("swift")
        try write(
            """
            #!/bin/sh
            case " $* " in *" --show-bin-path "*) echo "$(pwd)/.build/debug"; exit 0;; esac
            if grep -q "DOES NOT COMPILE" Labs/ListAdder/Exercise.swift; then
                echo "$PWD/Labs/ListAdder/Exercise.swift:1:1: error: cannot find 'nope' in scope"; exit 1
            fi
            mkdir -p .build/debug
            [ -f .build/debug/racelab-child ] || cp '\(LabsTestSupport.child.path)' .build/debug/racelab-child

            """, to: swift)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        return (kit, swift)
    }

    /// Ten entries, in an order that sorting by name changes: the exercise as handed out (three,
    /// graded by running it), two that do not compile, one the exercise checks refuse, a
    /// folder with no kit (twice, one a hidden name, one a spreadsheet formula), a link and a
    /// plain file.
    func makeClass(kit: URL) throws -> URL {
        let submissions = scratch.appendingPathComponent("submissions")
        let exercise = try String(
            contentsOf: kit.appendingPathComponent("Labs/ListAdder/Exercise.swift"), encoding: .utf8)
        let path = "Labs/ListAdder/Exercise.swift"
        for name in ["alice", "Zed", "dave"] {
            try write(exercise, to: submissions.appendingPathComponent("\(name)/\(path)"))
        }
        try write("// DOES NOT COMPILE (bob)\n", to: submissions.appendingPathComponent("bob/\(path)"))
        try write("// DOES NOT COMPILE (frank)\n", to: submissions.appendingPathComponent("frank/\(path)"))
        try write(
            "import LabKit\n@_cdecl(\"__tsan_default_options\") func options() {}\n",
            to: submissions.appendingPathComponent("carol/\(path)"))
        for name in [".hidden", "=SUM(1)"] {
            try write("no kit here\n", to: submissions.appendingPathComponent("\(name)/notes.txt"))
        }
        try FileManager.default.createSymbolicLink(
            at: submissions.appendingPathComponent("erin"),
            withDestinationURL: submissions.appendingPathComponent("alice"))
        try write("not a submission\n", to: submissions.appendingPathComponent("notes.txt"))
        return submissions
    }

    /// summary.csv without its seconds column (how long each student took is the one thing no
    /// two runs share).
    func withoutSeconds(_ folder: URL) throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent("summary.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let column = try XCTUnwrap(lines.first?.split(separator: ",").firstIndex(of: "seconds"))
        return lines.map { line in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if cells.count > column { cells[column] = "-" }
            return cells.joined(separator: ",")
        }
    }

    func testAClassGradedInThreeShardsAndMergedIsTheClassGradedWhole() throws {
        guard LabsTestSupport.tsanEnabled else { throw XCTSkip("grade-all judges races: needs ThreadSanitizer") }
        let (kit, swift) = try makeKit()
        let submissions = try makeClass(kit: kit)
        let environment = ["SWIFT": swift.path]
        let common = ["--kit", kit.path, "--labs", "list-adder", "--seed", "2026", "--format", "json", "--jobs", "4"]

        let whole = scratch.appendingPathComponent("grades-whole")
        let graded = try LabsTestSupport.runRacelab(
            ["grade-all", submissions.path, "--output", whole.path] + common, environment: environment)
        XCTAssertEqual(graded.status, 0, graded.stderr)
        XCTAssertTrue(graded.stdout.hasPrefix("racelab grade-all: 10 submission(s); summary "), graded.stdout)

        var shards: [URL] = []
        for index in 1...3 {
            let folder = scratch.appendingPathComponent("grades-shard-\(index)")
            let shard = try LabsTestSupport.runRacelab(
                ["grade-all", submissions.path, "--shard", "\(index)/3", "--output", folder.path] + common,
                environment: environment)
            XCTAssertEqual(shard.status, 0, shard.stderr)
            XCTAssertTrue(shard.stderr.contains("racelab grade-all: shard \(index)/3: "), shard.stderr)
            XCTAssertTrue(shard.stdout.hasPrefix("racelab grade-all: shard \(index)/3: "), shard.stdout)
            let record = try XCTUnwrap(try ClassShardRecord.read(in: folder), "the folder says which shard it is")
            XCTAssertEqual([record.shard, record.of], [index, 3])
            XCTAssertEqual(record.classSize, 10)
            shards.append(folder)
        }
        let students = try shards.map { try XCTUnwrap(try ClassShardRecord.read(in: $0)).students }
        XCTAssertEqual(students.map(\.count), [4, 3, 3])
        XCTAssertEqual(students[0], [".hidden", "alice", "dave", "notes.txt"], "places 0, 3, 6, 9 of the sorted class")
        XCTAssertEqual(Set(students.joined()).count, 10, "each entry in one shard")

        let merged = scratch.appendingPathComponent("grades-merged")
        let merge = try LabsTestSupport.runRacelab(
            ["grade-merge"] + shards.reversed().map(\.path) + ["--output", merged.path])
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertTrue(merge.stdout.hasPrefix("racelab grade-merge: 3 shard(s), 10 submission(s), "), merge.stdout)

        let expected = try withoutSeconds(whole)
        XCTAssertEqual(try withoutSeconds(merged), expected)
        // The class is the one described: every kind of row is there.
        let rows = expected.joined(separator: "\n")
        for row in [
            ".hidden,skipped,0,10,0,-,no kit in it", "'=SUM(1),skipped,0,10,0,-,no kit in it",
            "Zed,graded,0,10,0,-,", "bob,graded,0,10,0,-,did not compile: list-adder",
            "carol,graded,0,10,0,-,rejected: list-adder", "erin,rejected,0,10,0,-,the submission is a link",
            "notes.txt,skipped,0,,,-,not a folder"
        ] {
            XCTAssertTrue(rows.contains("\n" + row), "\(row) in\n\(rows)")
        }
        let files = { (folder: URL) in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
        XCTAssertEqual(try files(merged), try files(whole), "every report copied, nothing else")
        for name in try files(whole) where name.hasSuffix(".json") {
            let one = try JSONDecoder().decode(
                GradeReport.self, from: Data(contentsOf: whole.appendingPathComponent(name)))
            let other = try JSONDecoder().decode(
                GradeReport.self, from: Data(contentsOf: merged.appendingPathComponent(name)))
            XCTAssertEqual(one.labs.map(\.score), other.labs.map(\.score), name)
            XCTAssertEqual(one.labs.map(\.status), other.labs.map(\.status), name)
        }

        // Without the middle shard: refused, and it says which one is missing.
        let partial = scratch.appendingPathComponent("grades-partial")
        let refused = try LabsTestSupport.runRacelab([
            "grade-merge", shards[0].path, shards[2].path, "--output", partial.path
        ])
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(
            refused.stderr, "racelab: shard 2/3 is missing (given: 1/3, 3/3): give every shard's folder\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial.path), "nothing created")
    }

    /// --shard is checked before anything is read or built: one line that says what is valid.
    func testABadShardIsRefusedBeforeAnyWork() throws {
        let output = scratch.appendingPathComponent("grades")
        let valid = "K/N, runner K of N: N at least 1 and K from 1 to N (e.g. --shard 2/3)"
        for (shard, message) in [
            ("0/2", "--shard must be \(valid), not '0/2'"), ("3/2", "--shard must be \(valid), not '3/2'"),
            ("x", "--shard must be \(valid), not 'x'"), ("1/0", "--shard must be \(valid), not '1/0'"),
            ("2", "--shard must be \(valid), not '2'")
        ] {
            let result = try LabsTestSupport.runRacelab([
                "grade-all", scratch.appendingPathComponent("nowhere").path, "--shard", shard, "--seed", "1",
                "--output", output.path
            ])
            XCTAssertEqual(result.status, 2, shard)
            XCTAssertEqual(result.stderr, "racelab: \(message)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        }
        let unseeded = try LabsTestSupport.runRacelab(["grade-all", scratch.path, "--shard", "1/2"])
        XCTAssertEqual(unseeded.status, 2)
        XCTAssertEqual(
            unseeded.stderr,
            "racelab: --shard 1/2 needs --seed S, the same in every shard (their grades must be comparable)\n")
    }
}
