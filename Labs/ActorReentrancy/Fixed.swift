import LabKit
import ActorReentrancy

/// Marks a photo as on its way before the await, so the check and the act are one step; a second
/// caller waits for that download to end and then looks again.
actor ActorReentrancyFixed: ActorReentrancyCache {
    private let server: ImageServer
    private var images: [Int: DownloadedImage] = [:]
    private var downloading: Set<Int> = []
    private var waiters: [Int: [CheckedContinuation<Void, Never>]] = [:]

    init(server: ImageServer) {
        self.server = server
    }

    func image(_ id: Int) async -> DownloadedImage {
        while true {
            if let cached = images[id] { return cached }
            guard downloading.contains(id) else { break }
            // FIX: another call is fetching this photo: wait until its download ends...
            await withCheckedContinuation { waiters[id, default: []].append($0) }
            // FIX: ...and then check again: the state may have changed while this call waited.
        }
        // FIX: reserve the photo before the await: no await between the check and this line, so
        // no other call can come in between.
        downloading.insert(id)
        let image = await server.download(id)
        images[id] = image
        downloading.remove(id)
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume() }
        return image
    }
}

extension ActorReentrancyLab {
    public static var solutions: [LabVariant<ImageServer, ActorReentrancyCache>] {
        [LabVariant(.fixed, name: "fixed-reserve") { ActorReentrancyFixed(server: $0) }]
    }
}
