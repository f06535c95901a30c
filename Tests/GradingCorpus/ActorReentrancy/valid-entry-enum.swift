// VALID: one dictionary, each entry either ready or loading (with its task); the loading entry
// is written before the await, and replaced by the image once it is in.
import LabKit
import ActorReentrancy

actor ActorReentrancyValidEntryEnum: ActorReentrancyCache {
    private enum Entry {
        case ready(DownloadedImage)
        case loading(Task<DownloadedImage, Never>)
    }

    private let server: ImageServer
    private var entries: [Int: Entry] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        switch entries[id] {
        case .ready(let image):
            return image
        case .loading(let task):
            return await task.value
        case nil:
            let server = self.server
            let task = Task { await server.download(id) }
            entries[id] = .loading(task)
            let image = await task.value
            entries[id] = .ready(image)
            return image
        }
    }
}
