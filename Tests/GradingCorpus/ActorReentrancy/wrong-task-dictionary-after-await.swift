// WRONG: keeps the download's task so that others can await it, but stores it once the task has
// finished, after the await: a caller that comes during the download finds no task.
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongTaskDictionaryAfterAwait: ActorReentrancyCache {
    private let server: ImageServer
    private var downloads: [Int: Task<DownloadedImage, Never>] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let download = downloads[id] { return await download.value }
        let server = self.server
        let download = Task { await server.download(id) }
        let image = await download.value
        downloads[id] = download
        return image
    }
}
