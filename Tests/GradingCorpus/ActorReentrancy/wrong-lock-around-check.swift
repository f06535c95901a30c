// WRONG: an NSLock around the look into the cache and another around the store: each step is
// locked, but the lock is let go before the await, and the second caller looks in between.
import Foundation
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongLockAroundCheck: ActorReentrancyCache {
    private let server: ImageServer
    private let lock = NSLock()
    private var images: [Int: DownloadedImage] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        let cached = lock.withLock { images[id] }
        if let cached { return cached }
        let image = await server.download(id)
        lock.withLock { images[id] = image }
        return image
    }
}
