// VALID: one long-lived worker thread takes photo names from a shared list (behind a lock, with
// a condition to wait on) and reads them one by one. When the gallery goes away the list is
// closed and the worker ends.
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsValidWorkList: @unchecked Sendable {
    private let condition = NSCondition()
    private var names: [String] = []
    private var closed = false

    func add(_ more: [String]) {
        condition.lock()
        names += more
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next name, waiting for one while the list is empty; nil once it is closed.
    func next() -> String? {
        condition.lock()
        defer { condition.unlock() }
        while names.isEmpty && !closed { condition.wait() }
        return names.isEmpty ? nil : names.removeFirst()
    }
}

final class TooManyThreadsValidOneWorker: TooManyThreadsController {
    private let work = TooManyThreadsValidWorkList()

    init(environment: TooManyThreadsEnvironment) {
        let gallery = environment.gallery, reader = environment.reader, work = self.work
        Thread.detachNewThread {
            while let name = work.next() {
                let photo = reader.read(name)
                DispatchQueue.main.async { gallery.show(photo) }
            }
        }
    }

    deinit { work.close() }

    func importPhotos(_ names: [String]) {
        work.add(names)
    }
}
