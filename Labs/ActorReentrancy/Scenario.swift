import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// What every variant offers: an image cache that the app's views share. The scenario calls
/// `image(_:)` from several tasks at once; each call returns the image the view asked for.
public protocol ActorReentrancyCache: Sendable {
    func image(_ id: Int) async -> DownloadedImage
}

/// One downloaded image. `copy` numbers the downloads: two downloads of one photo are two copies.
public final class DownloadedImage: Sendable {
    public let id: Int
    public let copy: Int

    init(id: Int, copy: Int) {
        self.id = id
        self.copy = copy
    }
}

/// The photo server, on the harness side: every variant gets its images from `download(_:)`, and
/// the server counts how often each photo was fetched. Every field is a relaxed atomic: TSan sees
/// no order in them, so the counting hides no race of the cache's.
public final class ImageServer: Sendable {
    static let photos = 8
    private let downloadsPerPhoto = (0..<ImageServer.photos).map { _ in DownloadCounter() }
    private let copies = Atomic<Int>(0)

    public init() {}

    /// Fetches photo `id` (0 to 7). Not isolated to anything: a cache actor that awaits it is free
    /// for other calls while the download is on its way.
    public func download(_ id: Int) async -> DownloadedImage {
        // The request is out: the bug's window is open while a download is on its way.
        await SuspensionPoint.reach("server.download")
        downloadsPerPhoto[id].count.add(1, ordering: .relaxed)
        let copy = copies.add(1, ordering: .relaxed).newValue
        Checkpoint.hit("server.sends")
        return DownloadedImage(id: id, copy: copy)
    }

    /// How many times photo `id` was downloaded.
    public func downloads(of id: Int) -> Int { downloadsPerPhoto[id].count.load(ordering: .relaxed) }
}

final class DownloadCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// A view that asks the cache for one photo and shows what it gets (relaxed atomics again).
final class PhotoView: Sendable {
    let asked: Int
    let shownID = Atomic<Int>(-1)
    /// The thread its task asked on (0 until it asks).
    let thread = Atomic<Int64>(0)

    init(asking id: Int) { asked = id }

    /// Starts the view's own task, as a SwiftUI `.task` would: it asks the cache and shows the image.
    func appear(using cache: ActorReentrancyCache) {
        Task.detached { [self] in
            thread.store(ThreadHold.currentThread, ordering: .relaxed)
            Checkpoint.hit("view.asks")
            let image = await cache.image(asked)
            shownID.store(image.id, ordering: .relaxed)
            Checkpoint.hit("view.shows")
        }
    }
}

public enum ActorReentrancyLab: LabScenario {
    public static let info = LabInfo(
        id: "actor-reentrancy",
        title: "An actor that trusts a check it made before an await",
        source: "the Swift concurrency track (no source article): actor reentrancy, as in the image-cache example of \"Protect mutable state with Swift actors\" (WWDC 2021), retold",
        bug: "an image-cache actor finds no image, awaits the download, then stores it: a second call for the same photo runs while the first is suspended, finds no image either, and the photo is downloaded twice",
        invariants: [
            "each photo is downloaded once, however many views ask for it at the same moment",
            "every view that asks for a photo gets that photo",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 100],
        runsTasks: true
    )

    public static let variants: [LabVariant<ImageServer, ActorReentrancyCache>] = [
        LabVariant(.broken) { ActorReentrancyBroken(server: $0) },
    ]

    public static func play(_ variant: LabVariant<ImageServer, ActorReentrancyCache>, in run: ScenarioRun) {
        let server = ImageServer()
        let cache = variant.make(server)
        var views: [PhotoView] = []

        @discardableResult
        func viewAppears(_ name: String, asking id: Int) -> PhotoView {
            let view = PhotoView(asking: id)
            views.append(view)
            run.user("the \(name) asks for photo \(id)") { view.appear(using: cache) }
            return view
        }

        switch run.mode {
        case .scripted:
            playScripted(run, server: server, viewAppears)
        case .stress:
            // Six views appear close together, each asking for one of two photos.
            for index in 0..<6 {
                run.randomPause(upTo: 1)
                viewAppears("view \(index + 1)", asking: 1 + Int(run.random.next(upperBound: UInt64(2))))
            }
        }

        if !run.waitUntilDoneOrQuiet({ Checkpoint.hits("view.shows") >= views.count }) {
            run.fail("only \(Checkpoint.hits("view.shows")) of \(views.count) views got an image; the others wait for something that never comes")
        }
        checkDownloads(of: Set(views.map(\.asked)), server: server, in: run)
        for view in views {
            let shown = view.shownID.load(ordering: .relaxed)
            run.expect(shown == view.asked || shown == -1,
                       "a view asked for photo \(view.asked) and was given photo \(shown)")
        }
        withExtendedLifetime(cache) {}
    }

    /// The gallery asks for photo 7 and its download is held on its way; the detail view asks for
    /// photo 7 in that moment and does all it can: download it again (broken), or wait for the
    /// first download (fixed). Only then does the first download arrive.
    static func playScripted(_ run: ScenarioRun, server: ImageServer, _ viewAppears: (String, Int) -> PhotoView) {
        let firstDownload = run.pause(at: "server.download", hit: 1)
        _ = viewAppears("gallery", 7)
        firstDownload.whilePaused {
            let detail = viewAppears("detail view", 7)
            // The second view's task is running once it asks: from there to its check it never
            // waits, so quiet after that means it waits for something (the first download).
            if !run.waitUntil(timeout: 3, { Checkpoint.hits("view.asks") >= 2 }) {
                run.note("the detail view's task did not start while the gallery's download was held")
            }
            // A cache whose second call polls (awaits Task.yield() until the first download is in)
            // never goes quiet: it has done all it can once its thread has run a quarter of a
            // second on a CPU. Counted in CPU time, not waited for: a busy machine only slows it.
            let ranBefore = ThreadTimes(thread: detail.thread.load(ordering: .relaxed))?.ran
            run.waitUntilDoneOrQuiet(timeout: 3) {
                server.downloads(of: 7) >= 2 || Checkpoint.hits("view.shows") >= 1
                    || ranSince(ranBefore, on: detail.thread.load(ordering: .relaxed)) >= 0.25
            }
        }
    }

    /// Seconds thread `id` ran on a CPU since it had run `before` (0 where the kernel cannot say).
    static func ranSince(_ before: Double?, on id: Int64) -> Double {
        guard let before, let now = ThreadTimes(thread: id)?.ran else { return 0 }
        return now - before
    }

    /// Each photo a view asked for was downloaded exactly once.
    static func checkDownloads(of photos: Set<Int>, server: ImageServer, in run: ScenarioRun) {
        var extra = 0
        for id in photos.sorted() {
            let downloads = server.downloads(of: id)
            extra += max(downloads - 1, 0)
            run.expect(downloads <= 1,
                       "photo \(id) was downloaded \(downloads) times: a second view asked while the first download was on its way, and the cache did not know")
        }
        run.record("extra downloads", Double(extra))
    }
}
