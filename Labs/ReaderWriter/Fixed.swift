import Foundation
import LabKit
import ReaderWriter

/// The source article's reader-writer recipe: reads are `sync` blocks on a concurrent queue (they may run
/// together), writes are barrier blocks (they run alone: the queue lets the blocks before a
/// barrier finish, runs the barrier by itself, then lets the blocks after it start).
final class ReaderWriterFixed: ReaderWriterController {
    private let queue = DispatchQueue(label: "reader-writer.card", attributes: .concurrent)
    private let typist: ReaderWriterTypist
    private var first: String
    private var last: String

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        first = environment.initialName.first
        last = environment.initialName.last
    }

    func rename(to name: ReaderWriterName) {
        // FIX: a barrier block: no reader (and no other rename) runs while both fields change.
        // The plainest of the barrier forms (the lesson says why the others need care on Linux).
        queue.async(flags: .barrier) {
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
        }
    }

    func currentName() -> ReaderWriterName {
        // Unchanged from broken: one sync block copies both fields. Now it also waits for any
        // rename (barrier) queued ahead of it.
        queue.sync { ReaderWriterName(first, last) }
    }
}

extension ReaderWriterLab {
    public static var solutions: [LabVariant<ReaderWriterEnvironment, ReaderWriterController>] {
        [LabVariant(.fixed) { ReaderWriterFixed(environment: $0) }]
    }
}
