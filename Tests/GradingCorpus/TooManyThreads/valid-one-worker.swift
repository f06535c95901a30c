// VALID: one long-lived worker thread takes photo names from a shared list (behind a lock, with
// a condition to wait on) and reads them one by one. It never holds the gallery: each photo goes
// to the main thread, which looks the gallery up there (a weak link read only on main), so the
// gallery dies on main. When the controller goes away the list is closed and the worker ends.
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

/// A weak link to the gallery, read only on the main thread: a worker that holds this holds no view.
final class TooManyThreadsValidGalleryLink: @unchecked Sendable {
    weak var gallery: TooManyThreadsGallery?  // main thread only
    init(_ gallery: TooManyThreadsGallery) { self.gallery = gallery }
}

final class TooManyThreadsValidOneWorker: TooManyThreadsController {
    private let work = TooManyThreadsValidWorkList()

    init(environment: TooManyThreadsEnvironment) {
        let screen = TooManyThreadsValidGalleryLink(environment.gallery)
        let reader = environment.reader, work = self.work
        Thread.detachNewThread {
            while let name = work.next() {
                let photo = reader.read(name)
                DispatchQueue.main.async { screen.gallery?.show(photo) }
            }
        }
    }

    deinit { work.close() }

    func importPhotos(_ names: [String]) {
        work.add(names)
    }
}
