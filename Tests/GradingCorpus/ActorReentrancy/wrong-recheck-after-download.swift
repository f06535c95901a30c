// WRONG: looks in the cache again after the download and keeps the copy that got there first:
// every view then shows the same copy, but by then the photo has been downloaded twice.
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongRecheckAfterDownload: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let cached = images[id] { return cached }
        let image = await server.download(id)
        if let cached = images[id] { return cached }
        images[id] = image
        return image
    }
}
