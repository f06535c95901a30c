// WRONG: looks in the cache twice, to be sure, but both looks come before the await: the second
// caller runs while the first is suspended in the download, after both of its looks.
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongCheckTwiceBeforeAwait: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let cached = images[id] { return cached }
        if let cached = images[id] { return cached }
        let image = await server.download(id)
        images[id] = image
        return image
    }
}
