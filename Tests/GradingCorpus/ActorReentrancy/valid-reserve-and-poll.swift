// VALID: reserves the photo before the await; a second caller polls, giving the actor up with
// Task.yield() and looking again each time, until the first download is in. Wasteful (it keeps
// a thread of the pool busy), but it never downloads a photo twice.
import LabKit
import ActorReentrancy

actor ActorReentrancyValidReserveAndPoll: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]
    private var downloading: Set<Int> = []

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        while downloading.contains(id) { await Task.yield() }
        if let cached = images[id] { return cached }
        downloading.insert(id)
        let image = await server.download(id)
        images[id] = image
        downloading.remove(id)
        return image
    }
}
