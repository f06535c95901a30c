// WRONG: one long-lived worker thread reads the photos one by one (right), but its closure owns
// the gallery, a view: when the gallery goes away the worker wakes up, ends, and lets go of the
// gallery last, on its own thread (the off-main-dealloc lab's rule: a view dies on main).
import Foundation
import LabKit
import TooManyThreads

final class TooManyThreadsWrongWorkList: @unchecked Sendable {
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

final class TooManyThreadsWrongWorkerOwnsGallery: TooManyThreadsController {
    private let work = TooManyThreadsWrongWorkList()

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
