import Foundation
import LabKit
import RaceLabGrading
import XCTest

/// The binary exercise checks on the real build: every lab's exercise as shipped, every
/// reference fix and every fix of the grading corpus (valid and wrong: all honest code), compiled
/// as an exercise would be, pass; so honest fixes are never refused for what the compiler makes
/// of them, nor for an API missing from the allowed list.
final class CompiledExerciseTests: XCTestCase {
    func testShippedExercisesAndReferenceFixesPassTheBinaryChecks() throws {
        #if !os(Linux)
            throw XCTSkip("the binary checks read ELF objects (Linux)")
        #else
            let build = LabsTestSupport.products
            var objects = 0
            for lab in testLabs.labs {
                let folder = lab.info.folder.lastPathComponent
                for module in ["\(folder)Exercises", "\(folder)Solutions", "\(folder)Corpus"] {
                    let directory = build.appendingPathComponent("\(module).build")
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                    // (Corpus.swift registers a corpus module's fixes: catalog code, not an answer.)
                    for name in names where name.hasSuffix(".o") && name != "Corpus.swift.o" {
                        let object = try ObjectFile(contentsOf: directory.appendingPathComponent(name))
                        XCTAssertEqual(
                            ExercisePolicy.check(object: object, file: "\(module)/\(name)", module: module), [],
                            "\(module)/\(name)")
                        objects += 1
                    }
                }
            }
            XCTAssertGreaterThanOrEqual(
                objects, testLabs.labs.count, "every lab's exercise module was found in \(build.path)")
        #endif
    }
}
