import Foundation
import XCTest

/// A lesson's "What you will see" quotes racelab's table and the first caught run. Both drift
/// when the harness changes (a new column) or the scenario moves (an invariant's line). This
/// test runs every lab's scripted story for real and holds each quoted row and each quoted
/// invariant location to it.
final class LessonOutputTests: XCTestCase {
    /// One row of racelab's table, by its columns.
    struct Row: Equatable, CustomStringConvertible {
        let lab, variant, mode, verdict, compiler, expected, ok: String
        /// The parts that do not depend on the run's timing (which detector fired first, how many
        /// runs, can vary in a broken variant; these cannot).
        var stable: String { "\(variant) \(mode) \(verdict) compiler=\(compiler) expected=\(expected) ok=\(ok)" }
        var description: String { "\(lab) \(stable)" }

        /// "list-adder  broken  scripted  DETECTED 1/1  1/1  0/1  1/1  0/1  rejected  detected  yes";
        /// nil for any other line. The COMPILER column may be two words ("not measured").
        init?(_ line: String) {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 12, ["DETECTED", "CLEAN", "ERROR"].contains(words[3]),
                ["scripted", "explore", "stress"].contains(words[2])
            else { return nil }
            lab = words[0]
            variant = words[1]
            mode = words[2]
            verdict = words[3]
            compiler = words[9..<(words.count - 2)].joined(separator: " ")
            expected = words[words.count - 2]
            ok = words[words.count - 1]
        }
    }

    /// The first code block after "## What you will see".
    static func quotedOutput(_ lesson: String) -> [String] {
        guard let section = lesson.range(of: "## What you will see") else { return [] }
        var lines: [String] = []
        var inside = false
        for line in lesson[section.upperBound...].components(separatedBy: "\n") {
            if line.hasPrefix("## ") && !inside { break }
            if line.hasPrefix("```") {
                if inside { break }
                inside = true
                continue
            }
            if inside { lines.append(line) }
        }
        return lines
    }

    /// "(Scenario.swift:83)" locations of the `invariant:` lines in `lines`.
    static func invariantLocations(_ lines: [String]) -> Set<String> {
        var found = Set<String>()
        for line in lines where line.trimmingCharacters(in: .whitespaces).hasPrefix("invariant:") {
            if let open = line.range(of: "(Scenario.swift:"), let close = line[open.upperBound...].firstIndex(of: ")") {
                found.insert(String(line[open.lowerBound...close]))
            }
        }
        return found
    }

    /// A quoted row is read under its table's header, aligned as racelab prints it: a row of
    /// numbers alone says nothing to a learner.
    func testEveryQuotedRowHasItsHeader() throws {
        let columns = [
            "LAB", "VARIANT", "MODE", "VERDICT", "TSAN", "INVARIANT", "CRASH", "HANG", "COMPILER", "EXPECTED", "OK"
        ]
        /// Where each column starts: a field follows two spaces (one inside "DETECTED 1/1").
        func starts(_ line: String) -> [Int] {
            let characters = Array(line)
            return characters.indices.filter { index in
                characters[index] != " "
                    && (index == 0 || (index >= 2 && characters[index - 1] == " " && characters[index - 2] == " "))
            }
        }
        var rows = 0
        for lesson in try LessonReferencesTests.lessons() {
            let lines = lesson.readme.components(separatedBy: "\n")
            var header: [Int]?
            for (number, line) in lines.enumerated() {
                if line.hasPrefix("LAB ") {
                    XCTAssertEqual(
                        line.split(separator: " ").map(String.init), columns,
                        "\(lesson.folder.lastPathComponent) line \(number + 1)")
                    header = starts(line)
                } else if Row(line) != nil {
                    rows += 1
                    XCTAssertEqual(
                        header, starts(line),
                        "\(lesson.folder.lastPathComponent) line \(number + 1): a row under no header, or out of line with it"
                    )
                } else {
                    header = nil
                }
            }
        }
        XCTAssertGreaterThan(rows, 20, "the lessons quote their tables")
    }

    func testQuotedRowsAndInvariantsMatchARealRun() throws {
        let lessons = try LessonReferencesTests.lessons().filter { $0.files["Fixed.swift"] != nil }
        try XCTSkipIf(lessons.isEmpty, "no reference solutions in this copy (a student kit)")
        // Every lab's story, broken and fixed, once: the mode a lesson quotes first.
        let result = try LabsTestSupport.runRacelab(["run", "--all", "--runs", "1", "--mode", "scripted", "--seed", "7"]
        )
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let output = result.stdout.components(separatedBy: "\n")
        let realRows = output.compactMap(Row.init)
        XCTAssertGreaterThanOrEqual(
            realRows.count, 2 * lessons.count, "a broken and a fixed row per lab:\n\(result.stdout)")

        var checkedRows = 0
        var checkedInvariants = 0
        for lesson in lessons {
            let quoted = Self.quotedOutput(lesson.readme)
            let lab = lesson.folder.lastPathComponent
            let rows = quoted.compactMap(Row.init)
            for line in quoted where Row(line) == nil {
                let words = line.split(separator: " ")
                if words.count >= 4, ["DETECTED", "CLEAN", "ERROR"].contains(String(words[3])) {
                    XCTFail(
                        "\(lesson.name) quotes a row in an old layout (racelab's table has a COMPILER column now):\n  \(line)"
                    )
                }
            }
            guard let id = rows.first?.lab else {
                XCTFail("\(lesson.name): \"What you will see\" quotes no row of racelab's table (\(lab))")
                continue
            }
            let real = realRows.filter { $0.lab == id }
            for row in rows {
                checkedRows += 1
                // A quoted row of another mode (the fixed variant's stress run) is held to the
                // same variant's scripted row for what cannot differ between modes.
                guard
                    let match = real.first(where: { $0.variant == row.variant && $0.mode == row.mode })
                        ?? real.first(where: { $0.variant == row.variant })
                else {
                    XCTFail("\(lesson.name) quotes \(row), but a real run has no \(row.variant) row:\n\(real)")
                    continue
                }
                let same =
                    match.mode == row.mode
                    ? row.stable == match.stable
                    : (row.compiler, row.expected, row.ok) == (match.compiler, match.expected, match.ok)
                        && (row.verdict == "CLEAN") == (row.expected == "clean")
                XCTAssertTrue(
                    same,
                    "\(lesson.name) quotes\n  \(row)\nbut a real run (racelab run \(id) --mode scripted --runs 1) says\n  \(match)"
                )
            }
            // Quoted invariant lines of the story must point where the real run reports them.
            let quotedInvariants = Self.invariantLocations(quoted)
            guard !quotedInvariants.isEmpty else { continue }
            var details: [String] = []
            var inLab = false
            for line in output {
                if !line.hasPrefix(" ") {
                    inLab = line.hasPrefix("\(id) ") && line.contains("caught")
                } else if inLab {
                    details.append(line)
                }
            }
            let realInvariants = Self.invariantLocations(details)
            for location in quotedInvariants {
                checkedInvariants += 1
                XCTAssertTrue(
                    realInvariants.contains(location),
                    "\(lesson.name) quotes an invariant at \(location); the real run reports \(realInvariants.sorted())"
                )
            }
        }
        XCTAssertGreaterThanOrEqual(checkedRows, lessons.count)
        print("lesson output: \(checkedRows) quoted rows and \(checkedInvariants) invariant locations checked")
    }

    /// The parser the test relies on reads racelab's row and nothing else.
    func testRowParsing() throws {
        let row = try XCTUnwrap(
            Row(
                "off-main-dealloc  broken   scripted  DETECTED 3/3  0/3   3/3        0/3    0/3   not measured  detected  yes"
            ))
        XCTAssertEqual(row.stable, "broken scripted DETECTED compiler=not measured expected=detected ok=yes")
        XCTAssertNil(
            Row("check-then-act  broken   scripted  DETECTED 1/1  1/1   1/1        0/1    0/1   detected  yes"),
            "a row without the COMPILER column is the old layout: it must not pass as a row")
        XCTAssertNil(Row("LAB  VARIANT  MODE  VERDICT  TSAN  INVARIANT  CRASH  HANG  COMPILER  EXPECTED  OK"))
        XCTAssertEqual(
            Self.invariantLocations(["  invariant: 2 visits (Scenario.swift:83) [iteration 1]"]),
            ["(Scenario.swift:83)"])
    }
}
