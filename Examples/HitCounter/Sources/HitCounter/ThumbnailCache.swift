/// Makes thumbnails, slowly: the stand-in for a decoder or a download. It counts what it made,
/// so a test can see a photo made twice.
public actor ThumbnailMaker {
    private var made: [Int: Int] = [:]

    public init() {}

    public func make(_ photo: Int) async -> String {
        made[photo, default: 0] += 1
        try? await Task.sleep(for: .milliseconds(1))  // the slow part: the task waits here
        return "thumbnail of photo \(photo)"
    }

    public func times(_ photo: Int) -> Int { made[photo] ?? 0 }
}

/// A cache of thumbnails in front of the maker. Each photo is made once, however many screens
/// ask for it at the same moment: a call that finds it on its way waits for that one.
public actor ThumbnailCache {
    private let maker: ThumbnailMaker
    private var thumbnails: [Int: Task<String, Never>] = [:]

    public init(maker: ThumbnailMaker) { self.maker = maker }

    public func thumbnail(_ photo: Int) async -> String {
        if let onItsWay = thumbnails[photo] { return await onItsWay.value }
        let maker = self.maker
        // FIX: the task is stored before the first await, so a second call finds it.
        let making = Task { await maker.make(photo) }
        thumbnails[photo] = making
        return await making.value
    }
}

/// The first version: it looks in the cache, awaits the maker, then stores. The actor lets
/// other calls in at that await, so a second screen asking for the same photo finds nothing
/// either and has it made again. No data race (an actor runs one call at a time): nothing
/// ThreadSanitizer can see.
public actor ReentrantThumbnailCache {
    private let maker: ThumbnailMaker
    private var thumbnails: [Int: String] = [:]

    public init(maker: ThumbnailMaker) { self.maker = maker }

    public func thumbnail(_ photo: Int) async -> String {
        if let made = thumbnails[photo] { return made }
        let made = await maker.make(photo)  // BUG: other calls run here, and find no thumbnail yet
        thumbnails[photo] = made
        return made
    }
}
