// WRONG: a "busy" flag that makes a second caller wait, but it is raised when the image arrives,
// after the await: while the download is on its way the flag is still down.
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongBusyFlagAfterAwait: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        if let cached = images[id] { return cached }
        let image = await server.download(id)
        busy = true
        images[id] = image
        busy = false
        for caller in waiting { caller.resume() }
        waiting = []
        return image
    }
}
