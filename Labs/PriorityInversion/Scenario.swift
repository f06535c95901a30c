import Foundation
import Synchronization
@_spi(LabAuthoring) import LabKit

/// A photo the decoder made. Only `PriorityInversionDecoder` can make one, so the screen can
/// tell a decoded picture from a placeholder.
public struct DecodedPhoto: Sendable, Equatable {
    public let name: String
    init(name: String) { self.name = name }
}

/// The phone's photo decoder: slow, and it can decode one photo at a time (it owns the one big
/// buffer a full photo needs). Any thread may call it, one call at a time.
public final class PriorityInversionDecoder: Sendable {
    /// Per photo: the order in which its first and its last decode started (1 = the first decode
    /// of the iteration), and how often it was decoded. Relaxed atomics: they order nothing
    /// between the lab's threads, so they cannot hide a race in a variant.
    final class Record: Sendable {
        let firstStart = Atomic<Int>(0)
        let lastStart = Atomic<Int>(0)
        let decodes = Atomic<Int>(0)
    }
    let records: [String: Record]

    init(photos: [String]) {
        records = Dictionary(uniqueKeysWithValues: photos.map { ($0, Record()) })
    }

    /// Decodes `name` (about a millisecond of work).
    public func decode(_ name: String) -> DecodedPhoto {
        let order = Checkpoint.hit("decode.start")
        if Checkpoint.hits("decode.start") - Checkpoint.hits("decode.done") > 1 {
            Checkpoint.hit("decode.overlap")  // two decodes at once: the buffer is shared
        }
        if let record = records[name] {
            _ = record.firstStart.compareExchange(expected: 0, desired: order, ordering: .relaxed)
            record.lastStart.store(order, ordering: .relaxed)
            record.decodes.add(1, ordering: .relaxed)
        }
        usleep(1_000)
        Checkpoint.hit("decode.done")
        return DecodedPhoto(name: name)
    }

    /// How many decodes have started so far.
    static var started: Int { Checkpoint.hits("decode.start") }
}

/// The full-screen photo viewer (a view: main thread only).
public final class PriorityInversionScreen: @unchecked Sendable {
    public let title = ScreenLabel("photo title")
    /// What the screen shows (main thread only).
    private(set) var shown: DecodedPhoto?
    /// A view: released on the main thread, or a fixed variant fails (`ScreenLifetime`).
    private let lifetime = ScreenLifetime("photo viewer")

    public init() {}

    /// Shows a decoded photo full screen. Main thread only, like any view.
    public func show(_ photo: DecodedPhoto, file: StaticString = #filePath, line: UInt = #line) {
        title.setText(photo.name, file: file, line: line)
        if Thread.isMainThread { shown = photo }
    }
}

/// What each variant is handed: the viewer and the decoder.
public struct PriorityInversionEnvironment: Sendable {
    public let screen: PriorityInversionScreen
    public let decoder: PriorityInversionDecoder
}

/// The user's actions, as every variant must offer them. All are called on the main thread.
public protocol PriorityInversionController: AnyObject {
    /// The user scrolls: these thumbnails come into view and must be decoded (the user sees them).
    func showThumbnails(_ names: [String])
    /// The app guesses the user may open these photos next: decode them, but only when nothing
    /// the user is looking at waits.
    func prefetch(_ names: [String])
    /// The user taps a prefetched photo: show it full screen (`screen.show`) as soon as it is decoded.
    func open(_ name: String)
}

public enum PriorityInversionLab: LabScenario {
    public static let info = LabInfo(
        id: "priority-inversion",
        title: "The photo you tapped waits behind the thumbnails: priority inversion in an operation queue",
        source: "source article 001 (NSOperation: queuePriority, dependencies, and the note on the Mars Pathfinder's priority inversion)",
        bug: "the urgent \"show the tapped photo\" operation depends on a prefetch decode queued at very low priority, "
            + "so the queue runs every normal-priority thumbnail before the one decode the user waits for",
        invariants: [
            "once the user taps a photo, at most one other decode starts before its decode does",
            "a prefetch the user did not open starts only after every thumbnail started",
            "every thumbnail and prefetched photo is decoded; the decoder never decodes two photos at once",
            "the screen shows the decoded photo the user tapped, on the main thread",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 50]
    )

    public static let variants: [LabVariant<PriorityInversionEnvironment, PriorityInversionController>] = [
        LabVariant(.broken) { PriorityInversionBroken(environment: $0) },
    ]

    static let thumbnails = (1...6).map { "thumbnail-\($0)" }
    static let photos = (1...3).map { "photo-\($0)" }

    public static func play(_ variant: LabVariant<PriorityInversionEnvironment, PriorityInversionController>, in run: ScenarioRun) {
        let screen = PriorityInversionScreen()
        let decoder = PriorityInversionDecoder(photos: thumbnails + photos)
        let controller = variant.make(PriorityInversionEnvironment(screen: screen, decoder: decoder))
        var decodesStartedAtTap = 0
        // The story's tap is on photo-2; stress taps any of the three (a fix must not know which).
        let tapped = run.mode == .scripted ? "photo-2" : photos[Int(run.random.next(upperBound: UInt64(photos.count)))]

        func scrolls() {
            run.user("scrolls: \(thumbnails.count) thumbnails come into view, \(photos.count) photos are prefetched") {
                controller.showThumbnails(thumbnails)
                controller.prefetch(photos)
            }
        }
        var decodesStartedBeforeTap = 0
        func taps() {
            decodesStartedBeforeTap = PriorityInversionDecoder.started
            run.user("taps \(tapped)") { controller.open(tapped) }
            decodesStartedAtTap = PriorityInversionDecoder.started
        }

        switch run.mode {
        case .scripted:
            // The first thumbnail is held as it starts decoding; the user taps the photo then,
            // with five thumbnails and three prefetches still waiting in the queue.
            let firstDecode = run.pause(at: "decode.start", hit: 1)
            scrolls()
            firstDecode.whilePaused { taps() }
        case .stress:
            scrolls()
            run.randomPause(upTo: 8)
            taps()
        }

        let everything = thumbnails.count + photos.count
        let finished = run.settle(until: {
            screen.shown != nil && decoder.records.values.allSatisfy { $0.decodes.load(ordering: .relaxed) > 0 }
                && Checkpoint.hits("decode.done") >= Checkpoint.hits("decode.start")
        })
        run.expect(finished, "once the app was quiet, \(Checkpoint.hits("decode.done")) of \(everything) photos were decoded"
            + (screen.shown == nil ? " and the tapped photo was never shown" : ""))

        // The tapped photo: the next decode to start once the running one ends (the harness allows
        // one other, the decode a tap can land just after), then on screen.
        let record = decoder.records[tapped]!
        let tappedStart = [record.firstStart.load(ordering: .relaxed), record.lastStart.load(ordering: .relaxed)]
            .filter { $0 > decodesStartedAtTap }.min()
        if let tappedStart {
            let others = tappedStart - decodesStartedAtTap - 1
            run.record("decodes before the tapped photo", Double(others))
            run.expect(others <= 1, "after the tap, \(others) other photos started decoding before \(tapped) did: "
                + "the urgent work waited behind less urgent work (priority inversion)")
        }
        if let shown = screen.shown {
            run.expect(shown.name == tapped, "the user tapped \(tapped) but the screen shows \(shown.name)")
        }
        // Prefetching stays in the background until someone needs it.
        let lastThumbnail = thumbnails.map { decoder.records[$0]!.firstStart.load(ordering: .relaxed) }.max() ?? 0
        for photo in photos {
            let start = decoder.records[photo]!.firstStart.load(ordering: .relaxed)
            // The tapped photo may jump ahead once tapped, not before.
            let beforeAnyoneAsked = photo != tapped || (start > 0 && start <= decodesStartedBeforeTap)
            run.expect(!beforeAnyoneAsked || start == 0 || start > lastThumbnail,
                       "prefetched \(photo) started decoding before a thumbnail on screen, before anyone opened it")
        }
        let overlaps = Checkpoint.hits("decode.overlap")
        run.expect(overlaps == 0, "the decoder was asked to decode two photos at once (\(overlaps) time(s)); it has one buffer")
        withExtendedLifetime(controller) {}
    }
}
