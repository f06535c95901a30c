import LabKit
import ActorReentrancy

/// The idiomatic fix (this file is built in the Swift 6 language mode, with every warning an
/// error): the cache keeps the download itself, a `Task`, from the moment it starts. A second
/// caller finds that task and awaits the same result instead of starting a download of its own.
actor ActorReentrancyFixedTask: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]
    private var downloads: [Int: Task<DownloadedImage, Never>] = [:]  // in flight, by photo

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        if let cached = images[id] { return cached }
        // FIX: a download already on its way is awaited, not repeated.
        if let inFlight = downloads[id] { return await inFlight.value }
        let server = self.server
        let download = Task { await server.download(id) }
        // FIX: stored before the first await: any call that runs while this one is suspended sees it.
        downloads[id] = download
        let image = await download.value
        images[id] = image
        downloads[id] = nil
        return image
    }
}

extension ActorReentrancyLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ImageServer, ActorReentrancyCache>] {
        [LabVariant(.fixed, name: "fixed-task") { ActorReentrancyFixedTask(server: $0) }]
    }
}
