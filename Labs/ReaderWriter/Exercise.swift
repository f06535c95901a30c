import Foundation
import LabKit
import ReaderWriter

/// EXERCISE: this starts as a copy of the broken variant. Make the card safe: a reader must never
/// see half a rename. Keep the concurrent queue (readers should still run side by side), the class
/// name and the two methods. Check it with `make check LAB=reader-writer`.
///
/// The shared contact card, kept behind a concurrent queue: reads are `sync` blocks (many may run
/// at once, which is what a concurrent queue is for) and renames are `async` blocks on it too.
final class ReaderWriterExercise: ReaderWriterController {
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
        // TODO: fix this: a plain block on a concurrent queue runs side by side with the readers' blocks (and
        // with other renames): a reader can get the new first name with the old last name.
        queue.async {
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
        }
    }

    func currentName() -> ReaderWriterName {
        // Reading both fields in one sync block is right: the caller gets a copy, not the fields.
        queue.sync { ReaderWriterName(first, last) }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeReaderWriterExercise(_ environment: ReaderWriterEnvironment) -> ReaderWriterController {
    ReaderWriterExercise(environment: environment)
}
