import XCTest

@testable import RaceLabGrading
@testable import RaceLabHarness

/// grade-all's shards (`--shard K/N`) and grade-merge's checks, on shard folders made up here.
final class ClassShardTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-shard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    func testShardsTakeEveryNthEntryAndTogetherCoverTheClassOnce() throws {
        let names = (0..<11).map { "student\($0)" }
        for count in 1...5 {
            let shares = (1...count).map { ClassShard(index: $0, count: count)!.share(of: names) }
            XCTAssertEqual(shares.flatMap { $0 }.sorted(), names.sorted(), "N=\(count): every entry, once")
            let sizes = shares.map(\.count)
            XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 1, "N=\(count): shares of one size, give or take one")
        }
        let shard = try ClassShard.parse("2/3")
        XCTAssertEqual(shard.share(of: names), ["student1", "student4", "student7", "student10"])
        XCTAssertEqual(try ClassShard.parse("1/1").share(of: names), names)
        XCTAssertEqual(try ClassShard.parse("4/4").share(of: ["a", "b"]), [], "more runners than students")
    }

    func testABadShardSaysWhatIsValid() {
        for text in ["0/2", "3/2", "x", "1/0", "2", "", "/", "1/", "/3", "+1/2", "1/2/3", " 1/2", "1/-2", "٢/٣"] {
            XCTAssertThrowsError(try ClassShard.parse(text), text) { error in
                XCTAssertEqual(
                    "\(error)",
                    "--shard must be K/N, runner K of N: N at least 1 and K from 1 to N (e.g. --shard 2/3), "
                        + "not '\(text)'"
                )
            }
        }
        XCTAssertEqual(try ClassShard.parse("3/12"), ClassShard(index: 3, count: 12))
    }

    // MARK: summary.csv

    /// grade-all's summary holds every student graded so far, in the class's order, at each step.
    func testTheSummaryGrowsAsStudentsFinish() throws {
        let results = ["alice", "bob", "carol"].map { name in
            ClassGrader.StudentResult(
                student: name, status: .graded, report: nil, note: "", reportFile: nil, elapsedSeconds: 2)
        }
        let summary = ClassSummaryFile(in: scratch, labs: labs, count: results.count)
        XCTAssertEqual(summary.url, scratch.appendingPathComponent("summary.csv"))
        summary.record(2, results[2])
        summary.record(0, results[0])
        XCTAssertEqual(
            try String(contentsOf: summary.url, encoding: .utf8),
            ClassGrader.summaryCSV([results[0], results[2]], labs: labs))
        try summary.write(results)
        XCTAssertEqual(
            try String(contentsOf: summary.url, encoding: .utf8), ClassGrader.summaryCSV(results, labs: labs))
    }

    // MARK: grade-merge

    let labs = ["list-adder"]

    /// A shard's folder as grade-all --shard writes it: its record, summary.csv and a report per
    /// graded student.
    @discardableResult
    func shard(
        _ index: Int, of count: Int, class names: [String], edit: (inout ClassShardRecord) -> Void = { _ in }
    ) throws -> URL {
        let folder = scratch.appendingPathComponent("shard-\(index)-of-\(count)-\(UUID().uuidString.prefix(4))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shard = try XCTUnwrap(ClassShard(index: index, count: count))
        var record = ClassShardRecord(
            shard: index, of: count, seed: 7, kitManifest: "abc", labs: labs, reportFormat: "json",
            policy: GradingPolicy(), exerciseChecks: true, classSize: names.count,
            classDigest: ClassShardRecord.digest(of: names), students: shard.share(of: names))
        edit(&record)
        let mine = record.students
        try record.write(into: folder)
        let results = mine.map { name in
            ClassGrader.StudentResult(
                student: name, status: name.hasPrefix("x") ? .skipped : .graded, report: nil, note: "note \(name)",
                reportFile: nil, elapsedSeconds: 1)
        }
        try Data(ClassGrader.summaryCSV(results, labs: labs).utf8).write(
            to: folder.appendingPathComponent("summary.csv"))
        for name in mine where !name.hasPrefix("x") {
            try Data("report of \(name)".utf8).write(
                to: folder.appendingPathComponent("\(ClassGrader.fileName(for: name)).json"))
        }
        return folder
    }

    let names = ["Zed", "_under", ".hidden", "=formula", "alice", "bob, jr", "carol", "xavier"].sorted()

    func testMergedShardsAreTheUnshardedSummaryAndEveryReport() throws {
        let folders = try [3, 1, 2].map { try shard($0, of: 3, class: names) }
        let output = scratch.appendingPathComponent("merged")
        let merged = try ClassShardMerge.merge(folders, into: output)
        XCTAssertEqual(merged.students, names.count)
        XCTAssertEqual(merged.shards, 3)
        let whole = names.map { name in
            ClassGrader.StudentResult(
                student: name, status: name.hasPrefix("x") ? .skipped : .graded, report: nil, note: "note \(name)",
                reportFile: nil, elapsedSeconds: 1)
        }
        XCTAssertEqual(
            try String(contentsOf: output.appendingPathComponent("summary.csv"), encoding: .utf8),
            ClassGrader.summaryCSV(whole, labs: labs))
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        XCTAssertEqual(
            files,
            (names.filter { !$0.hasPrefix("x") }.map { "\(ClassGrader.fileName(for: $0)).json" } + ["summary.csv"])
                .sorted(),
            "every report, no shard record")
        XCTAssertEqual(merged.files, names.count - 1)
        XCTAssertEqual(merged.harnessErrors, [])
    }

    func testOneShardOfOneIsTheClass() throws {
        let output = scratch.appendingPathComponent("merged")
        XCTAssertEqual(try ClassShardMerge.merge([try shard(1, of: 1, class: names)], into: output).students, 8)
    }

    /// Why grade-merge refuses `folders` (checking it wrote nothing), or "merged".
    func refusal(_ folders: [URL], into output: URL? = nil) -> String {
        let output = output ?? scratch.appendingPathComponent("merged-\(UUID().uuidString)")
        let before = try? FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        do {
            _ = try ClassShardMerge.merge(folders, into: output)
            return "merged"
        } catch {
            XCTAssertEqual(
                try? FileManager.default.contentsOfDirectory(atPath: output.path).sorted(), before,
                "nothing written: \(error)")
            return error.description
        }
    }

    func testAMissingShardIsNamed() throws {
        let one = try shard(1, of: 3, class: names)
        let three = try shard(3, of: 3, class: names)
        XCTAssertTrue(
            refusal([one, three]).hasPrefix("shard 2/3 is missing (given: 1/3, 3/3): give every shard's folder"),
            refusal([one, three]))
        XCTAssertTrue(refusal([three]).hasPrefix("shards 1/3, 2/3 are missing (given: 3/3)"), refusal([three]))
    }

    func testAShardGivenTwiceOrAStudentInTwoShardsIsRefused() throws {
        let one = try shard(1, of: 2, class: names)
        let again = try shard(1, of: 2, class: names)
        XCTAssertTrue(refusal([one, again]).hasPrefix("shard 1/2 is given twice"), refusal([one, again]))
        XCTAssertEqual(refusal([one, try shard(2, of: 2, class: names)]), "merged")
        // A shard that graded one of the other shard's students (a hand-edited folder).
        XCTAssertEqual(ClassShard(index: 1, count: 2)!.share(of: names).first, ".hidden")
        let forged = try shard(2, of: 2, class: names) { $0.students[0] = ".hidden" }
        XCTAssertTrue(
            refusal([one, forged]).hasPrefix(
                "student '.hidden' is in two shards: 1/2 ('\(one.path)') and 2/2 ('\(forged.path)')"),
            refusal([one, forged]))
        // A record whose students are not its summary's rows.
        let swapped = try shard(2, of: 2, class: names)
        var record = try XCTUnwrap(try ClassShardRecord.read(in: swapped))
        record.students.swapAt(0, 1)
        try record.write(into: swapped)
        XCTAssertTrue(
            refusal([one, swapped]).hasPrefix(
                "shard 2/2's summary.csv in '\(swapped.path)' does not have its students"),
            refusal([one, swapped]))
    }

    func testShardsOfAnotherClassAreRefused() throws {
        let one = try shard(1, of: 2, class: names)
        for (edit, what) in [
            ({ (record: inout ClassShardRecord) in record.seed = 8 }, "seed differs ('\(one.path)': 7; "),
            ({ $0.kitManifest = "def" }, "kit manifest differs"),
            ({ $0.reportFormat = "text" }, "report format differs"),
            ({ $0.policy.partialCredit = true }, "grading policy differs ('\(one.path)': all or nothing; "),
            ({ $0.exerciseChecks = false }, "exercise checks differs"),
            ({ $0.classDigest = "0" }, "submissions differs")
        ] as [((inout ClassShardRecord) -> Void, String)] {
            let two = try shard(2, of: 2, class: names, edit: edit)
            let message = refusal([one, two])
            XCTAssertTrue(message.hasPrefix("shards 1/2 and 2/2 are not of one class: their \(what)"), message)
            XCTAssertEqual(message.split(separator: "\n").count, 1)
        }
        let otherSplit = try shard(2, of: 3, class: names)
        XCTAssertTrue(refusal([one, otherSplit]).contains("give the shards of one split"), refusal([one, otherSplit]))
        // Other labs: another header too.
        let otherLabs = try shard(2, of: 2, class: names) { $0.labs = ["deadlock"] }
        XCTAssertTrue(refusal([one, otherLabs]).contains("does not start with grade-all's header for its labs"))
    }

    func testAnUnfinishedShardOrAFolderThatIsNoShardIsRefused() throws {
        let one = try shard(1, of: 2, class: names)
        let two = try shard(2, of: 2, class: names)
        let summary = two.appendingPathComponent("summary.csv")
        let full = try String(contentsOf: summary, encoding: .utf8)
        try Data((full.split(separator: "\n").dropLast().joined(separator: "\n") + "\n").utf8).write(to: summary)
        XCTAssertTrue(
            refusal([one, two]).hasPrefix(
                "shard 2/2 in '\(two.path)' did not finish: its summary.csv has 3 of its 4 students"),
            refusal([one, two]))
        try FileManager.default.removeItem(at: summary)
        XCTAssertTrue(refusal([one, two]).hasPrefix("shard 2/2 in '\(two.path)' has no summary.csv"))
        let plain = scratch.appendingPathComponent("grades")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        XCTAssertTrue(refusal([one, plain]).hasPrefix("'\(plain.path)' is not a shard's folder"))
        XCTAssertTrue(refusal([one], into: one).hasPrefix("--output '\(one.path)' is shard 1/2's own folder"))
    }

    func testCSVRecordsKeepQuotedLineBreaks() {
        XCTAssertEqual(
            ClassShardMerge.records("a,b\n\"x\ny\",2\nlast,\"\"\"q\"\"\"\n"),
            ["a,b", "\"x\ny\",2", "last,\"\"\"q\"\"\""])
        XCTAssertEqual(
            ClassShardMerge.fields(of: "\"bob, jr\",error,\"say \"\"hi\"\"\",,"),
            ["bob, jr", "error", "say \"hi\"", "", ""])
    }
}
