// WRONG: renames go through their own serial queue, so they no longer overlap each other; but
// readers read on the concurrent queue, which that serial queue knows nothing about: a reader
// still sees half a rename.
import Dispatch
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterWrongWriterQueueOnly: ReaderWriterController {
    private let readers = DispatchQueue(label: "reader-writer.card.readers", attributes: .concurrent)
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
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
        }
    }

    func currentName() -> ReaderWriterName {
        readers.sync { ReaderWriterName(first, last) }
    }
}
