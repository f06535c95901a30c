// VALID: reserves the photo before the await with a list of waiting callers; a caller that finds
// the photo reserved suspends on a continuation, and the download hands its image to each one.
import LabKit
import ActorReentrancy

actor ActorReentrancyValidReserveContinuations: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]
    private var waiting: [Int: [CheckedContinuation<DownloadedImage, Never>]] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let cached = images[id] { return cached }
        if waiting[id] != nil {
            return await withCheckedContinuation { waiting[id, default: []].append($0) }
        }
        waiting[id] = []
        let image = await server.download(id)
        images[id] = image
        for caller in waiting.removeValue(forKey: id) ?? [] { caller.resume(returning: image) }
        return image
    }
}
