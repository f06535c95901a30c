import Foundation
import LabKit
import RaceLabGrading
import XCTest

/// `racelab watch` checks a lab again when one of its exercise files is saved: written, added or
/// removed; once per save, and only that lab.
final class ExerciseWatcherTests: XCTestCase {
    func testASaveIsSeenOnceAndOnlyForItsLab() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func lab(_ id: String) throws -> Lab {
            let folder = root.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "// start\n".write(
                to: folder.appendingPathComponent("Exercise.swift"), atomically: true, encoding: .utf8)
            let info = LabInfo(id: id, title: "t", source: "s", bug: "b", invariants: [], expectedDetectors: [.tsan])
            var json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as? [String: Any])
            json["folder"] = folder.absoluteString
            let moved = try JSONDecoder().decode(LabInfo.self, from: JSONSerialization.data(withJSONObject: json))
            return Lab(info: moved, variants: [])
        }
        let alpha = try lab("alpha")
        let beta = try lab("beta")
        var watcher = ExerciseWatcher(labs: [alpha, beta])
        XCTAssertEqual(watcher.savedLabs().map(\.id), [], "nothing saved yet")

        try "// fixed, at last\n".write(
            to: alpha.info.folder.appendingPathComponent("Exercise.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(watcher.savedLabs().map(\.id), ["alpha"])
        XCTAssertEqual(watcher.savedLabs().map(\.id), [], "one save, one check")

        let helper = beta.info.folder.appendingPathComponent("ExerciseHelpers.swift")
        try "// more\n".write(to: helper, atomically: true, encoding: .utf8)
        XCTAssertEqual(watcher.savedLabs().map(\.id), ["beta"], "a new exercise file")
        try FileManager.default.removeItem(at: helper)
        XCTAssertEqual(watcher.savedLabs().map(\.id), ["beta"], "an exercise file gone")

        try "not an exercise\n".write(
            to: alpha.info.folder.appendingPathComponent("Notes.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(watcher.savedLabs().map(\.id), [], "other files are not watched")
    }
}
