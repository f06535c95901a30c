// WRONG: the barrier is on the wrong side: reads are barrier blocks and renames plain blocks. A
// read then waits for the renames before it, but two renames still run side by side, mixing the
// fields of two names.
import Dispatch
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterWrongBarrierReads: ReaderWriterController {
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
        queue.async {
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
        }
    }

    func currentName() -> ReaderWriterName {
        queue.sync(flags: .barrier) { ReaderWriterName(first, last) }
    }
}
