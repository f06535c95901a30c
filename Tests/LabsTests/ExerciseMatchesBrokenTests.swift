import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import XCTest

/// Each lab's exercise starts as a copy of its broken variant, so that what the student repairs
/// is the bug the lesson shows. The two files may differ only where they must: the type names
/// (`<Lab>Broken...` / `<Lab>Exercise...`), imports, comments (`// BUG:` there, `// TODO:` here,
/// the header), and the exercise's factory at the end. Anything else is drift.
final class ExerciseMatchesBrokenTests: XCTestCase {
    func testEachExerciseIsItsBrokenVariantButForNamesCommentsAndTheFactory() throws {
        var compared = 0
        for lab in testLabs.labs {
            let folder = lab.info.folder
            let name = folder.lastPathComponent
            let broken = folder.appendingPathComponent("Broken.swift")
            let exercise = folder.appendingPathComponent("Exercise.swift")
            guard FileManager.default.fileExists(atPath: broken.path),
                FileManager.default.fileExists(atPath: exercise.path)
            else { continue }
            let brokenCode = Self.code(
                try String(contentsOf: broken, encoding: .utf8), renaming: name + "Broken", to: name)
            var exerciseCode = Self.code(
                try String(contentsOf: exercise, encoding: .utf8), renaming: name + "Exercise", to: name)
            if let factory = exerciseCode.firstIndex(where: { $0.hasPrefix("public func make\(name)(") }) {
                exerciseCode.removeSubrange(factory...)
            }
            if let index = zip(brokenCode, exerciseCode).enumerated().first(where: { $0.element.0 != $0.element.1 })?
                .offset
            {
                XCTFail(
                    "\(lab.id): Exercise.swift has drifted from Broken.swift:\n  broken:   \(brokenCode[index])\n  exercise: \(exerciseCode[index])"
                )
            } else {
                XCTAssertEqual(
                    brokenCode.count, exerciseCode.count,
                    "\(lab.id): one file has code the other lacks, after line \(min(brokenCode.count, exerciseCode.count)) of the code"
                )
            }
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, testLabs.labs.count, "every lab has a Broken.swift and an Exercise.swift")
    }

    /// The code lines of `text`: no comments, blank lines or imports; `from` renamed `to`.
    static func code(_ text: String, renaming from: String, to: String) -> [String] {
        text.replacingOccurrences(of: from, with: to).split(separator: "\n", omittingEmptySubsequences: false)
            .compactMap { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("import ") { return nil }
                let code = line.range(of: "  //").map { String(line[..<$0.lowerBound]) } ?? String(line)
                return code.trimmingCharacters(in: .whitespaces)
            }
    }
}
