import Foundation
import RaceLabHarness

/// grade-all's `summary.csv`, written again as each student finishes: whatever stops a run,
/// the grades given so far are on disk.
///
/// Sendable by its lock: students finish on several threads, and each write must hold every
/// result recorded before it.
public final class ClassSummaryFile: @unchecked Sendable {
    public static let fileName = "summary.csv"
    public let url: URL
    let labs: [String]
    private let results: IndexedResults<ClassGrader.StudentResult>
    private let lock = NSLock()

    /// The summary of `count` students in `folder`, a column for each of `labs`.
    public init(in folder: URL, labs: [String], count: Int) {
        url = folder.appendingPathComponent(Self.fileName)
        self.labs = labs
        results = IndexedResults(count: count)
    }

    /// Student `index`'s result, written at once with those before it (a write that fails is
    /// made good by the next one, or by `write`).
    public func record(_ index: Int, _ result: ClassGrader.StudentResult) {
        lock.withLock {
            results.set(index, result)
            try? write(results.finished)
        }
    }

    /// The whole class's summary.
    public func write(_ all: [ClassGrader.StudentResult]) throws {
        try Data(ClassGrader.summaryCSV(all, labs: labs).utf8).write(to: url, options: .atomic)
    }
}
