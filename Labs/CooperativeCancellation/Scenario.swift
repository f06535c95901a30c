import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// One photo, encoded for the export.
public struct EncodedPhoto: Sendable, Equatable {
    public let photo: Int

    public init(photo: Int) { self.photo = photo }
}

/// One photo's encoding, as `LegacyPhotoEncoder.encodingJob` makes it: nothing runs until
/// `start()` (like a URLSession task and its `resume()`).
public final class EncodeJob: Sendable {
    private let photo: Int
    private let completion: @Sendable (EncodedPhoto?) -> Void
    private let requests: RequestCounter
    private let cancelled = Atomic<Bool>(false)

    init(photo: Int, requests: RequestCounter, completion: @escaping @Sendable (EncodedPhoto?) -> Void) {
        self.photo = photo
        self.requests = requests
        self.completion = completion
    }

    /// Starts encoding on a thread of the encoder's, and returns at once. The completion is called
    /// once, on that thread: with the encoded photo, or with nil if the job was cancelled.
    public func start() {
        requests.count.add(1, ordering: .relaxed)
        Thread.detachNewThread { [self] in
            for _ in 0..<LegacyPhotoEncoder.chunksPerPhoto {
                if cancelled.load(ordering: .relaxed) {
                    completion(nil)
                    return
                }
                // A chunk is under way: the story may hold it here.
                Checkpoint.hit("encoder.chunk")
            }
            completion(EncodedPhoto(photo: photo))
        }
    }

    /// Stops the job before its next chunk (or before its first, if it has not started): its
    /// completion is then called with nil. A chunk already under way finishes first: a chunk
    /// cannot be interrupted.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }
}

/// Photos the app started encoding.
final class RequestCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// The old encoder the app uses (a vendor's SDK, the scenario's own): a callback API with a thread
/// of its own per photo. Each photo is encoded in three chunks, one checkpoint each. Counters are
/// relaxed atomics: TSan sees no order in them, so they hide no race of the app's.
public final class LegacyPhotoEncoder: Sendable {
    static let chunksPerPhoto = 3
    private let requests = RequestCounter()

    public init() {}

    /// A job that will encode `photo` once started; `completion` as `EncodeJob.start()` says.
    public func encodingJob(for photo: Int, completion: @escaping @Sendable (EncodedPhoto?) -> Void) -> EncodeJob {
        EncodeJob(photo: photo, requests: requests, completion: completion)
    }

    /// How many photos the app has started encoding.
    var requested: Int { requests.count.load(ordering: .relaxed) }
}

/// What the user sees of the export: the photos that landed in the exported album, and the
/// "album exported" message. Main thread only, like any view.
public final class ExportAlbum: Sendable {
    private let photos = Atomic<Int>(0)
    private let finishes = Atomic<Int>(0)
    /// Set by the story as the user cancels; what lands afterwards comes from a cancelled export.
    let cancelled = Atomic<Bool>(false)
    private let photosAfterCancel = Atomic<Int>(0)
    private let finishesAfterCancel = Atomic<Int>(0)

    init() {}

    /// An encoded photo lands in the exported album (on screen, in the album's folder).
    public func add(_ photo: EncodedPhoto, file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("exported album given photo \(photo.photo)", file: file, line: line)
        photos.add(1, ordering: .relaxed)
        if cancelled.load(ordering: .relaxed) { photosAfterCancel.add(1, ordering: .relaxed) }
    }

    /// The app says the export is done ("Album exported: 6 photos").
    public func finish(file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("\"album exported\" shown", file: file, line: line)
        finishes.add(1, ordering: .relaxed)
        if cancelled.load(ordering: .relaxed) { finishesAfterCancel.add(1, ordering: .relaxed) }
    }

    var added: Int { photos.load(ordering: .relaxed) }
    var addedAfterCancel: Int { photosAfterCancel.load(ordering: .relaxed) }
    var finishedAfterCancel: Int { finishesAfterCancel.load(ordering: .relaxed) }
}

/// What each variant is handed: the album's photos, the encoder, and the exported album.
public final class ExportEnvironment: Sendable {
    public let photos: [Int]
    public let encoder: LegacyPhotoEncoder
    public let album: ExportAlbum

    init(photos: [Int]) {
        self.photos = photos
        encoder = LegacyPhotoEncoder()
        album = ExportAlbum()
    }
}

/// The user's two actions, on the main thread.
public protocol CooperativeCancellationController: AnyObject {
    /// The user taps Export: the app exports the album photo by photo, in a `Task`.
    func startExport()
    /// The user taps Cancel: the export must stop, and nothing more of it may show.
    func cancelExport()
}

public enum CooperativeCancellationLab: LabScenario {
    public static let info = LabInfo(
        id: "cooperative-cancellation",
        title: "A cancelled Task that never looks, and goes on to the end",
        source: "the Swift concurrency track (no source article): cooperative cancellation of a Task, `Task.checkCancellation()` and `withTaskCancellationHandler`, retold as an album export",
        bug: "the user cancels an album export; task.cancel() only sets a flag, the export's loop never looks at it and its encoder never hears of it, so every photo is still encoded and lands in the album, and the export says it is done",
        invariants: [
            "after the cancel, the chunk of encoding under way may finish, and no other chunk or photo starts (under random timing, one more at most)",
            "nothing from a cancelled export shows: no photo lands in the album after the cancel, and the export never says it is done",
            "the exported album is updated on the main thread only",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 40],
        runsTasks: true
    )

    public static let variants: [LabVariant<ExportEnvironment, CooperativeCancellationController>] = [
        LabVariant(.broken) { CooperativeCancellationBroken(environment: $0) },
    ]

    public static func play(
        _ variant: LabVariant<ExportEnvironment, CooperativeCancellationController>, in run: ScenarioRun
    ) {
        let environment = ExportEnvironment(photos: Array(1...6))
        let app = variant.make(environment)
        var chunksAtCancel = 0
        var requestsAtCancel = 0

        func userCancels() {
            environment.album.cancelled.store(true, ordering: .relaxed)
            // Scripted: the export is held, so the count is taken before the cancel. Stress: once
            // cancel() has returned (a task's cancellation handlers have run by then): chunks the
            // encoder runs while the main thread is on its way to the cancel are not the app's fault.
            if run.mode == .scripted { (chunksAtCancel, requestsAtCancel) = counts() }
            run.user("taps Cancel") { app.cancelExport() }
            if run.mode == .stress { (chunksAtCancel, requestsAtCancel) = counts() }
        }
        func counts() -> (Int, Int) { (Checkpoint.hits("encoder.chunk"), environment.encoder.requested) }

        let allowed: Int
        switch run.mode {
        case .scripted:
            // The export is held in the middle of photo 3's second chunk while the user cancels, and
            // let go only once the app has done all it can: it may finish that chunk, nothing more.
            // (Exploration moves the cancel to every chunk of the export in turn.)
            allowed = 0
            let held = run.pause(at: "encoder.chunk", hit: 8)
            run.user("taps Export") { app.startExport() }
            held.whilePaused {
                userCancels()
                run.settle(timeout: 2)
            }
        case .stress:
            // The cancel comes after a random number of chunks: a chunk may be just past its check.
            allowed = 1
            run.user("taps Export") { app.startExport() }
            let chunks = 1 + Int(run.random.next(upperBound: UInt64(14)))
            run.waitUntil(timeout: 5) { Checkpoint.hits("encoder.chunk") >= chunks }
            userCancels()
        }
        run.settle(timeout: 10)
        check(environment, chunksAtCancel: chunksAtCancel, requestsAtCancel: requestsAtCancel, allowed: allowed, in: run)
        withExtendedLifetime(app) {}
    }

    static func check(
        _ environment: ExportEnvironment, chunksAtCancel: Int, requestsAtCancel: Int, allowed: Int, in run: ScenarioRun
    ) {
        let chunks = Checkpoint.hits("encoder.chunk") - chunksAtCancel
        let photos = environment.encoder.requested - requestsAtCancel
        run.record("chunks after cancel", Double(chunks))
        run.expect(
            chunks <= allowed,
            "\(chunks) chunk(s) of encoding started after the user cancelled (allowed: \(allowed)): the cancel did not reach the encoder")
        run.expect(
            photos <= allowed,
            "\(photos) photo(s) were sent to the encoder after the user cancelled (allowed: \(allowed)): the export's loop did not look")
        let late = environment.album.addedAfterCancel
        run.expect(late == 0, "\(late) photo(s) landed in the album after the user cancelled the export")
        run.expect(
            environment.album.finishedAfterCancel == 0,
            "the app said \"album exported\" after the user cancelled the export")
    }
}
