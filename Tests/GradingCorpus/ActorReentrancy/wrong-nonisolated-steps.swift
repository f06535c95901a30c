// WRONG: the method is made nonisolated and calls small isolated steps, "so that nothing runs
// on the actor during the download": each step is isolated, but the caller still awaits between
// the look and the store, and a second caller looks in that gap.
import LabKit
import ActorReentrancy

actor ActorReentrancyWrongNonisolatedSteps: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    nonisolated func image(_ id: Int) async -> DownloadedImage {
        if let cached = await cached(id) { return cached }
        let image = await server.download(id)
        await store(image)
        return image
    }

    private func cached(_ id: Int) -> DownloadedImage? { images[id] }

    private func store(_ image: DownloadedImage) { images[image.id] = image }
}
