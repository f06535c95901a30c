import Foundation
import LabKit

/// The shared contact card, kept behind a concurrent queue: reads are `sync` blocks (many may run
/// at once, which is what a concurrent queue is for) and renames are `async` blocks on it too.
final class ReaderWriterBroken: ReaderWriterController {
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
        // BUG: a plain block on a concurrent queue runs side by side with the readers' blocks (and
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
