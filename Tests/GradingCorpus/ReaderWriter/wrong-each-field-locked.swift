// WRONG: every field access is locked, one at a time: the rename locks to set the first name,
// then again for the last name; a reader locks to read each. Between the two writes the lock is
// free, so a reader can still get the new first name with the old last name. No data race, and
// still torn.
import Dispatch
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterWrongEachFieldLocked: ReaderWriterController {
    private let lock = NSLock()
    private let writer = DispatchQueue(label: "reader-writer.card.writer")
    private let typist: ReaderWriterTypist
    private var first: String
    private var last: String

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        first = environment.initialName.first
        last = environment.initialName.last
    }

    func rename(to name: ReaderWriterName) {
        writer.async {
            let newFirst = self.typist.type(name.first)
            self.lock.withLock { self.first = newFirst }
            let newLast = self.typist.type(name.last)
            self.lock.withLock { self.last = newLast }
        }
    }

    func currentName() -> ReaderWriterName {
        let first = lock.withLock { self.first }
        let last = lock.withLock { self.last }
        return ReaderWriterName(first, last)
    }
}
