// VALID: the cache keeps tasks, not images: the task for a photo is stored before the first
// await, and every caller awaits the same task (a finished task hands out its value at once).
import LabKit
import ActorReentrancy

actor ActorReentrancyValidTaskCache: ActorReentrancyCache {
    private let server: ImageServer
    private var photos: [Int: Task<DownloadedImage, Never>] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let photo = photos[id] { return await photo.value }
        let server = self.server
        let photo = Task { await server.download(id) }
        photos[id] = photo
        return await photo.value
    }
}
