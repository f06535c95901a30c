import LabKit

/// An image cache shared by the app's views. It is an actor, so only one call at a time runs
/// its code: no data race on `images` is possible, and the compiler is satisfied.
actor ActorReentrancyBroken: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let cached = images[id] { return cached }
        // BUG: the await is a suspension point. While this call waits for the download, the actor
        // runs other calls: a second view asking for the same photo finds no image either and
        // starts a download of its own. "Not in the cache" was true before the await, not after.
        let image = await server.download(id)
        images[id] = image  // BUG: acts on the check made before the await (and replaces the other copy).
        return image
    }
}
