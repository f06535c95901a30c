// VALID: the concurrent queue and barrier renames, the barrier given as a work item's flag:
// each rename is a `DispatchWorkItem(flags: .barrier)`, so it runs alone on the queue.
import Dispatch
import Foundation
import LabKit
import ReaderWriter

final class ReaderWriterValidWorkItemBarrier: ReaderWriterController {
    private let queue = DispatchQueue(label: "reader-writer.card.items", attributes: .concurrent)
    private let typist: ReaderWriterTypist
    private var first: String
    private var last: String

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        first = environment.initialName.first
        last = environment.initialName.last
    }

    func rename(to name: ReaderWriterName) {
        let rename = DispatchWorkItem(flags: .barrier) {
            self.first = self.typist.type(name.first)
            self.last = self.typist.type(name.last)
        }
        queue.async(execute: rename)
    }

    func currentName() -> ReaderWriterName {
        queue.sync { ReaderWriterName(first, last) }
    }
}
