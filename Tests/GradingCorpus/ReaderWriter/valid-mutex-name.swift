// VALID: the whole name is one value in a Synchronization.Mutex. A rename types both fields on a
// serial queue (off the lock), then swaps the new name in with one locked store; a reader copies
// it with one locked load. Nobody can see half of it.
import Dispatch
import Foundation
import LabKit
import ReaderWriter
import Synchronization

final class ReaderWriterValidMutexName: ReaderWriterController {
    private let name: Mutex<ReaderWriterName>
    private let writer = DispatchQueue(label: "reader-writer.card.writer")
    private let typist: ReaderWriterTypist

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        name = Mutex(environment.initialName)
    }

    func rename(to newName: ReaderWriterName) {
        writer.async {
            let typed = ReaderWriterName(self.typist.type(newName.first), self.typist.type(newName.last))
            self.name.withLock { $0 = typed }
        }
    }

    func currentName() -> ReaderWriterName {
        name.withLock { $0 }
    }
}
