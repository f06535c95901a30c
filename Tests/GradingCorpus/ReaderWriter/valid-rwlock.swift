// VALID: a POSIX read-write lock: readers take it for reading (together), a rename takes it for
// writing (alone) around both fields. Renames run one after another on a serial queue, so they
// land in the order the user made them.
import Dispatch
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterValidRWLock: ReaderWriterController {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)  // a fixed address
    private let writer = DispatchQueue(label: "reader-writer.card.writer")
    private let typist: ReaderWriterTypist
    private var first: String
    private var last: String

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        first = environment.initialName.first
        last = environment.initialName.last
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func rename(to name: ReaderWriterName) {
        writer.async {
            pthread_rwlock_wrlock(self.lock)
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
            pthread_rwlock_unlock(self.lock)
        }
    }

    func currentName() -> ReaderWriterName {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return ReaderWriterName(first, last)
    }
}
