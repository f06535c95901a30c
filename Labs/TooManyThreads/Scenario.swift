import Foundation
import Synchronization
@_spi(LabAuthoring) import LabKit

/// A photo read from the card. Only `TooManyThreadsCardReader` can make one, so the gallery can
/// tell a real import from a placeholder.
public struct ImportedPhoto: Sendable, Equatable {
    public let name: String
    init(name: String) { self.name = name }
}

/// The camera's memory card, in its reader: like a disk, it reads one file at a time well, and
/// two or more at once only make every one of them slower (the head, or the bus, jumps from file
/// to file). A read blocks the calling thread until the photo is in. Any thread may call it.
public final class TooManyThreadsCardReader: Sendable {
    /// How many files the card reads well at once.
    public static let filesAtOnce = 1
    /// Reads in progress now, and the most there ever were at once (harness side). Relaxed
    /// atomics: they order nothing between the lab's threads, so they cannot hide a race.
    private let reading = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)
    private let readMicroseconds: UInt32

    init(readMicroseconds: UInt32) {
        self.readMicroseconds = readMicroseconds
    }

    /// Reads the photo `name` from the card: blocks this thread for a while (the checkpoint
    /// "card.read" is its start, where the harness may hold or delay it).
    public func read(_ name: String) -> ImportedPhoto {
        SlowWork.step()
        let now = reading.add(1, ordering: .relaxed).newValue
        var seen = peak.load(ordering: .relaxed)
        while now > seen {
            let (exchanged, current) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if exchanged { break }
            seen = current
        }
        Checkpoint.hit("card.read")
        usleep(readMicroseconds)
        reading.subtract(1, ordering: .relaxed)
        Checkpoint.hit("card.done")
        return ImportedPhoto(name: name)
    }

    /// The most reads that were ever in progress at once.
    var mostAtOnce: Int { peak.load(ordering: .relaxed) }
}

/// The gallery (a view: main thread only). It shows each photo once it is imported.
public final class TooManyThreadsGallery: @unchecked Sendable {
    public let caption = ScreenLabel("gallery caption")
    /// The photos shown, in order (main thread only).
    private(set) var shown: [String] = []

    public init() {}

    /// Shows an imported photo in its cell. Main thread only, like any view.
    public func show(_ photo: ImportedPhoto, file: StaticString = #filePath, line: UInt = #line) {
        caption.setText(photo.name, file: file, line: line)
        if Thread.isMainThread { shown.append(photo.name) }
    }
}

/// What each variant is handed: the gallery and the card reader.
public struct TooManyThreadsEnvironment: Sendable {
    public let gallery: TooManyThreadsGallery
    public let reader: TooManyThreadsCardReader
}

/// The user's action, as every variant must offer it. Called on the main thread, and returns at
/// once: read every photo from the card in the background and show each one in the gallery (on
/// the main thread) when it is in. The card reads `TooManyThreadsCardReader.filesAtOnce` at a time.
public protocol TooManyThreadsController: AnyObject {
    func importPhotos(_ names: [String])
}

public enum TooManyThreadsLab: LabScenario {
    public static let info = LabInfo(
        id: "too-many-threads",
        title: "A thread for every photo: too many threads at once",
        source: "source article 001 (\"Sleepy Time\": too many threads at once, and maxConcurrentOperationCount); source article 000 (queue width: one queue per disk)",
        bug: "the gallery starts a new thread for every photo it imports, so every read hits the memory card at once, and each one is slower for it",
        invariants: [
            "the card reads one photo at a time (at most 1 read in progress)",
            "every photo is shown once, on the main thread, once the reads are over",
            "no photo is read on the main thread (a read blocks its thread: the screen would freeze)",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .explore: 13, .stress: 60]  // caught in the first stress iteration (calibration)
    )

    public static let variants: [LabVariant<TooManyThreadsEnvironment, TooManyThreadsController>] = [
        LabVariant(.broken) { TooManyThreadsBroken(environment: $0) },
    ]

    public static func play(_ variant: LabVariant<TooManyThreadsEnvironment, TooManyThreadsController>, in run: ScenarioRun) {
        let limit = TooManyThreadsCardReader.filesAtOnce
        let reader = TooManyThreadsCardReader(readMicroseconds: run.mode == .scripted ? 2_000 : 1_000)
        let gallery = TooManyThreadsGallery()
        let controller = variant.make(TooManyThreadsEnvironment(gallery: gallery, reader: reader))
        var expected: [String] = []

        /// The user imports an album: its reads start in the background.
        func importAlbum(_ album: String, photos count: Int) {
            let names = (1...count).map { "\(album)-\($0)" }
            expected += names
            SlowWork.expectNoWait(showingIn: gallery.caption, in: run) { run.user("imports \(album), \(count) photos") { controller.importPhotos(names) } }
        }

        switch run.mode {
        case .scripted:
            // The first read is held as it starts. Meanwhile the user imports a second album: a
            // gallery that gives every photo a thread reads them all at once, and one that gives
            // every album a queue of its own reads one per album.
            let firstRead = run.pause(at: "card.read", hit: 1)
            importAlbum("holiday", photos: 8)
            firstRead.whilePaused {
                importAlbum("birthday", photos: 8)
                run.settle(timeout: 3)  // every read that can start beside the held one has (a queue of 1 starts none)
            }
        case .stress:
            // Two albums of random sizes, the second imported at a random moment while the first
            // may still be reading.
            for album in ["holiday", "birthday"] {
                importAlbum(album, photos: 2 + Int(run.random.next(upperBound: UInt64(7))))
                run.randomPause(upTo: 10)
            }
        }
        // Then every photo must be on screen, once.
        if !run.settle(until: { Checkpoint.hits("card.done") >= expected.count }) {
            run.fail("only \(Checkpoint.hits("card.done")) of \(expected.count) photos were read once the app was quiet")
        }

        let most = reader.mostAtOnce
        run.record("most reads at once", Double(most))
        run.expect(most <= limit, "\(most) photos were read at once; the card reads \(limit) at a time well: too many threads at once")
        SlowWork.expectOffMain("card read(s)", in: run)
        let counted = Dictionary(gallery.shown.map { ($0, 1) }, uniquingKeysWith: +)
        let missing = expected.filter { counted[$0] == nil }
        let twice = counted.filter { $0.value > 1 }.keys.sorted()
        run.expect(missing.isEmpty, "\(missing.count) photo(s) never shown, e.g. \(missing.first ?? "")")
        run.expect(twice.isEmpty, "photo(s) shown more than once: \(twice.joined(separator: ", "))")
        if sysconf(Int32(_SC_NPROCESSORS_ONLN)) < 2 {
            // Dispatch gives blocking work about a thread per CPU it is told of (2 in a lab
            // child, on every machine): told of one, a queue of default width reads one photo
            // at a time too, and cannot be told from the fix.
            run.note("one processor: an operation queue left at its default width would pass here; grade on 2 cores or more")
        }
        withExtendedLifetime(controller) {}
    }
}
