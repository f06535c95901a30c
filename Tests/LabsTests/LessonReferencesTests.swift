import Foundation
import XCTest

/// The lessons (Labs/*/README.md) quote `File.swift:N` references and `// BUG:` / `// FIX:`
/// comments, from the code and from racelab's output. When the code moves, those quotes drift.
/// These tests read every lesson and check its quotes against the lab's files as they are now.
final class LessonReferencesTests: XCTestCase {
    /// One lab folder with a lesson.
    struct Lesson {
        let folder: URL
        let readme: String
        /// The lesson's path from the package root, for messages.
        let name: String
        /// The lab's Swift files, by file name, as lines.
        let files: [String: [String]]
    }

    static func lessons() throws -> [Lesson] {
        let labs = LabsTestSupport.packageRoot.appendingPathComponent("Labs")
        let fm = FileManager.default
        var lessons: [Lesson] = []
        for folder in try fm.contentsOfDirectory(atPath: labs.path).sorted() {
            let dir = labs.appendingPathComponent(folder)
            let readme = dir.appendingPathComponent("README.md")
            guard fm.fileExists(atPath: readme.path),
                fm.fileExists(atPath: dir.appendingPathComponent("Scenario.swift").path)
            else { continue }
            var files: [String: [String]] = [:]
            for name in try fm.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".swift") {
                let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
                files[name] = text.components(separatedBy: "\n")
            }
            lessons.append(
                Lesson(
                    folder: dir, readme: try String(contentsOf: readme, encoding: .utf8),
                    name: "Labs/\(folder)/README.md", files: files))
        }
        return lessons
    }

    /// A line a reference may not point at: blank, only brackets and punctuation (`}`, `})`,
    /// `],`), or only a comment, unless that comment is a `// BUG:` or `// FIX:` marker (a lesson
    /// may point at those). Neither TSan nor the harness ever reports such a line, and a lesson
    /// that says "look at line N" means code.
    static func isTrivial(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("// BUG:") || trimmed.hasPrefix("// FIX:") { return false }
        if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("/*") || trimmed.hasPrefix("*") {
            return true
        }
        return trimmed.allSatisfy { "{}()[],;".contains($0) }
    }

    /// Every `Name.swift:N` (or `Name.swift:N-M`) in the lesson whose `Name.swift` is a file of
    /// the lab's own folder. A name right after a `/` is some other file (a toolchain path such
    /// as `Swift/ContiguousArrayBuffer.swift:692`, or another lab's) and is left alone; so is a
    /// file the folder does not have (`Fixed.swift` in a student kit).
    func testLineReferencesPointAtCode() throws {
        let pattern = try NSRegularExpression(
            pattern: #"(?<![/A-Za-z0-9_])([A-Za-z0-9_+]+\.swift):([0-9]+)(?:-([0-9]+))?"#)
        var checked = 0
        for lesson in try Self.lessons() {
            for (index, readmeLine) in lesson.readme.components(separatedBy: "\n").enumerated() {
                let range = NSRange(readmeLine.startIndex..., in: readmeLine)
                for match in pattern.matches(in: readmeLine, range: range) {
                    let file = String(readmeLine[Range(match.range(at: 1), in: readmeLine)!])
                    guard let lines = lesson.files[file] else { continue }
                    let reference = String(readmeLine[Range(match.range, in: readmeLine)!])
                    var numbers = [Int(readmeLine[Range(match.range(at: 2), in: readmeLine)!])!]
                    if let end = Range(match.range(at: 3), in: readmeLine) { numbers.append(Int(readmeLine[end])!) }
                    // Files end with a newline: the last element after splitting is not a line.
                    let count = lines.last == "" ? lines.count - 1 : lines.count
                    let at = "\(lesson.name):\(index + 1) quotes \(reference)"
                    checked += 1
                    for number in numbers {
                        guard number >= 1, number <= count else {
                            XCTFail("\(at), but \(file) has \(count) lines")
                            continue
                        }
                        let code = lines[number - 1]
                        if Self.isTrivial(code) {
                            XCTFail(
                                "\(at), but line \(number) of \(file) is not code: \"\(code.trimmingCharacters(in: .whitespaces))\""
                            )
                        }
                        // racelab reports an invariant at the line of its `run.expect(` or
                        // `run.fail(` call: a quoted invariant in Scenario.swift must land on one.
                        if file == "Scenario.swift", readmeLine.contains("invariant:"),
                            !code.contains("expect(") && !code.contains("fail(")
                        {
                            XCTFail(
                                "\(at) as the line of an invariant, but line \(number) of \(file) is no run.expect/run.fail call: \"\(code.trimmingCharacters(in: .whitespaces))\""
                            )
                        }
                    }
                }
            }
        }
        // The lessons quote dozens of references: finding none means this test is looking wrong.
        XCTAssertGreaterThan(checked, 20, "found only \(checked) File.swift:N references in the lessons")
    }

    /// Where a lesson quotes a `// BUG:` or `// FIX:` comment, the lab's files must have it. The
    /// quote runs to the closing backtick (or the end of the README line); a bare "`// FIX:`"
    /// only says the lab has such comments. Comments that wrap in the code are read as one line.
    func testQuotedBugAndFixCommentsExist() throws {
        var checked = 0
        for lesson in try Self.lessons() {
            let hasFixed = lesson.files.keys.contains { $0.hasPrefix("Fixed") }
            // All the lab's code, each comment line that goes on with a comment (`\n    // more`,
            // not a new `// BUG:` or `// FIX:`) joined to the line before it, whitespace collapsed.
            let code = lesson.files.keys.sorted().map { name -> String in
                Self.collapse(
                    lesson.files[name]!.joined(separator: "\n")
                        .replacingOccurrences(
                            of: #"\n[ \t]*//(?!/)(?![ \t]*(?:BUG|FIX):)"#, with: " ", options: .regularExpression))
            }.joined(separator: "\n")
            for (index, readmeLine) in lesson.readme.components(separatedBy: "\n").enumerated() {
                for marker in ["// BUG:", "// FIX:"] {
                    var rest = readmeLine[...]
                    while let found = rest.range(of: marker) {
                        rest = rest[found.upperBound...]
                        if marker == "// FIX:" && !hasFixed { continue }  // a student kit has no Fixed.swift
                        var quote = String(rest.prefix { $0 != "`" }).trimmingCharacters(in: .whitespaces)
                        for ellipsis in ["...", "…"] where quote.hasSuffix(ellipsis) {
                            quote = String(quote.dropLast(ellipsis.count))
                        }
                        let wanted = Self.collapse("\(marker) \(quote)")
                        checked += 1
                        if !code.contains(wanted) {
                            XCTFail(
                                "\(lesson.name):\(index + 1) quotes \"\(wanted)\", but no file in \(lesson.folder.lastPathComponent)/ has it"
                            )
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 3, "found only \(checked) quoted BUG/FIX comments in the lessons")
    }

    static func collapse(_ text: String) -> String {
        text.replacingOccurrences(of: #"[ \t]+"#, with: " ", options: .regularExpression)
            .trimmingCharacters(in: .whitespaces)
    }

    /// The checks themselves, on made-up lines, so a check that can never fail is noticed.
    func testTheChecksCanFail() {
        XCTAssertTrue(Self.isTrivial("    }"))
        XCTAssertTrue(Self.isTrivial("        })"))
        XCTAssertTrue(Self.isTrivial(""))
        XCTAssertTrue(Self.isTrivial("    // a comment"))
        XCTAssertFalse(Self.isTrivial("    // FIX: a marker a lesson may point at"))
        XCTAssertFalse(Self.isTrivial("    total = total + 1"))
        XCTAssertFalse(Self.isTrivial("    } else {"))
    }
}
