// WRONG: a rename holds an NSLock around both fields, but readers read the fields without it: a
// lock that only the writer takes keeps nobody out, and a reader still sees half a rename.
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterWrongLockWritesOnly: ReaderWriterController {
    private let lock = NSLock()
    private let typist: ReaderWriterTypist
    private var first: String
    private var last: String

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        first = environment.initialName.first
        last = environment.initialName.last
    }

    func rename(to name: ReaderWriterName) {
        DispatchQueue.global().async {
            self.lock.lock()
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
            self.lock.unlock()
        }
    }

    func currentName() -> ReaderWriterName {
        ReaderWriterName(first, last)
    }
}
