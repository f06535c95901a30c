// WRONG: a Task.yield() before the store, "to let the other call finish first": it is one more
// suspension point, not a fix; the second caller has long since started its own download.
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongYieldBeforeStore: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let cached = images[id] { return cached }
        let image = await server.download(id)
        await Task.yield()
        if let cached = images[id] { return cached }
        images[id] = image
        return image
    }
}
