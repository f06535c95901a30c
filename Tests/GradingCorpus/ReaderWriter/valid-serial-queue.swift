// VALID: one serial queue for everything: renames are async blocks on it, reads are sync blocks.
// Readers no longer read at the same time as each other, but none ever sees half a rename.
import Dispatch
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterValidSerialQueue: ReaderWriterController {
    private let queue = DispatchQueue(label: "reader-writer.card.serial")
    private let typist: ReaderWriterTypist
    private var first: String
    private var last: String

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        first = environment.initialName.first
        last = environment.initialName.last
    }

    func rename(to name: ReaderWriterName) {
        queue.async {
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
        }
    }

    func currentName() -> ReaderWriterName {
        queue.sync { ReaderWriterName(first, last) }
    }
}
