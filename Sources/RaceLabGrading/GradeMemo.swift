import Foundation
import RaceLabHarness

/// Grades given during one grade-all, by lab and the exact bytes of that lab's exercise files.
/// A lab's exercise module is built from its own files and the kit alone, and every student is
/// run with the same seed, so identical files earn the identical grade: reusing it saves the
/// compile and the runs (most of a class leaves some labs as handed out), and two students
/// with the same code cannot get different marks from a second roll of the stress dice.
/// Only judged grades are kept, and only when every run ended undisturbed (no SIGKILL from
/// outside, nothing left running): a harness error, or a grade something else may have shaped,
/// is worked out afresh for the next student with the same files.
final class GradeMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var grades: [String: LabGrade] = [:]

    func key(lab: String, files: [(path: String, data: Data)]) -> String {
        var hasher = SHA256()
        hasher.update(Array("\(lab)\n".utf8))
        for (path, data) in files.sorted(by: { $0.path < $1.path }) {
            hasher.update(Array("\(path)\n\(data.count)\n".utf8) + Array(data))
        }
        return SHA256.hexString(hasher.finalize())
    }

    func grade(for key: String) -> LabGrade? { lock.withLock { grades[key] } }

    func remember(_ grade: LabGrade, for key: String) {
        guard [.passed, .partial, .failed, .rejected].contains(grade.status), grade.undisturbed else { return }
        lock.withLock { grades[key] = grade }
    }
}
