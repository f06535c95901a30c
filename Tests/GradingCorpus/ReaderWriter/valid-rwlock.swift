// VALID: a read-write lock: readers take it for reading (together), a rename takes it for
// writing (alone) around both fields. Renames run one after another on a serial queue, so they
// land in the order the user made them. LabKit's ReadWriteLock, because POSIX's pthread_rwlock_t
// is used through pointers, which memory-safe Swift refuses.
import Dispatch
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterValidRWLock: ReaderWriterController {
    private let lock = ReadWriteLock()
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
            self.lock.withWriteLock {
                self.first = self.typist.type(name.first)
                self.last = self.typist.type(name.last)
            }
        }
    }

    func currentName() -> ReaderWriterName {
        lock.withReadLock { ReaderWriterName(first, last) }
    }
}
