// WRONG: the in-flight task dictionary, but with an `await Task.yield()` between the look and
// the line that stores the task: a call already waiting for the actor runs at that yield, finds
// no task, and starts a second download. No checkpoint lies in that gap, so the scripted story
// cannot hold it open; the stress pass, with views asking at nearly the same moment, does.
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongYieldBeforeReserve: ActorReentrancyCache {
    private let server: ImageServer
    private var downloads: [Int: Task<DownloadedImage, Never>] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let download = downloads[id] { return await download.value }
        await Task.yield()
        let server = self.server
        let download = Task { await server.download(id) }
        downloads[id] = download
        return await download.value
    }
}
