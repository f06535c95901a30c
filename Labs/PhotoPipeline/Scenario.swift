import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

// MARK: - Photos and pictures

/// One row of the list: a photo's name and where to download it.
public struct PhotoPipelinePhoto: Sendable {
    public let name: String
    public let url: String
}

/// A downloaded picture: where it came from, its bytes, and how many sepia passes it went through.
public struct PhotoPipelineImage: Equatable, Sendable {
    public let source: String
    public var pixels: [UInt8]
    public var sepiaPasses: Int
}

/// What a row of the table shows. `Sendable`: a value, whose only payload is a `Sendable` picture.
public enum PhotoPipelineCell: Equatable, Sendable {
    /// Still loading: a grey square and a spinner.
    case placeholder
    /// A picture (sepia or not yet).
    case photo(PhotoPipelineImage)
    /// The download failed: a "failed to load" picture.
    case failed
}

// MARK: - The slow work (harness side)

/// Per-row counters of the work done: how many download chunks and filter steps each row got.
/// Written by whatever thread does the work, read by the scenario. Relaxed atomics: ThreadSanitizer
/// sees no synchronisation in them, so they cannot hide a race between the lab's threads.
final class PhotoPipelineWorkLog: Sendable {
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    let downloadSteps: [Counter]
    let filterSteps: [Counter]
    /// How many downloads and filters took their last step, and the row of the latest, as
    /// `count << 8 | row`: which row a thread held after that step works for.
    let lastSteps = Atomic<Int>(0)

    /// A thread took the last step of `row`'s download or filter: it may be held at one of its
    /// next synchronisation points (stress, `ThreadHold.arm` with this count).
    func tookLastStep(of row: Int) {
        var seen = lastSteps.load(ordering: .relaxed)
        while !lastSteps.compareExchange(expected: seen, desired: ((seen >> 8) + 1) << 8 | row, ordering: .relaxed).exchanged {
            seen = lastSteps.load(ordering: .relaxed)
        }
        ThreadHold.reached(hit: (seen >> 8) + 1)
    }

    init(rows: Int) {
        downloadSteps = (0..<rows).map { _ in Counter() }
        filterSteps = (0..<rows).map { _ in Counter() }
    }

    func steps(_ row: Int) -> (download: Int, filter: Int) {
        (downloadSteps[row].value.load(ordering: .relaxed), filterSteps[row].value.load(ordering: .relaxed))
    }
}

/// A fake network, repeatable per seed: each photo takes a few chunks to arrive (one checkpoint
/// "photo.download" per chunk), and some URLs are misspelled, so their download fails at the end,
/// as in the tutorial. Stateless apart from the work log, so any thread may use it.
public final class PhotoPipelineNetwork: Sendable {
    static let bytesPerChunk = 8
    let photos: [PhotoPipelinePhoto]
    private let rowOfURL: [String: Int]
    private let chunks: [Int]
    private let missing: Set<String>
    let log: PhotoPipelineWorkLog

    init(photos: [PhotoPipelinePhoto], chunks: [Int], missing: Set<String>, log: PhotoPipelineWorkLog) {
        self.photos = photos
        self.rowOfURL = Dictionary(uniqueKeysWithValues: photos.enumerated().map { ($1.url, $0) })
        self.chunks = chunks
        self.missing = missing
        self.log = log
    }

    /// Download the picture at `url` into `image`, chunk by chunk (the picture grows as the
    /// bytes arrive, so a reader may see part of it). Slow. Returns true once the whole picture
    /// is there; false if the server has no such picture (`image` becomes nil) or `isCancelled`
    /// said to stop (it is asked before every chunk).
    public func download(_ url: String, into image: inout PhotoPipelineImage?, isCancelled: () -> Bool = { false }) -> Bool {
        guard let row = rowOfURL[url] else { image = nil; return false }
        image = PhotoPipelineImage(source: url, pixels: [], sepiaPasses: 0)
        for chunk in 0..<chunks[row] {
            if isCancelled() { return false }
            log.downloadSteps[row].value.add(1, ordering: .relaxed)
            Checkpoint.hit("photo.download")
            if chunk == chunks[row] - 1 { log.tookLastStep(of: row) }
            image?.pixels += Self.bytes(row: row, chunk: chunk)
        }
        if missing.contains(url) {  // 404: the whole wait was for nothing
            image = nil
            return false
        }
        return true
    }

    func fails(_ row: Int) -> Bool { missing.contains(photos[row].url) }

    func chunkCount(_ row: Int) -> Int { chunks[row] }

    /// The picture a complete download of `row` gives (worked out quietly, for the checks).
    func expectedImage(_ row: Int) -> PhotoPipelineImage {
        let pixels = (0..<chunks[row]).flatMap { Self.bytes(row: row, chunk: $0) }
        return PhotoPipelineImage(source: photos[row].url, pixels: pixels, sepiaPasses: 0)
    }

    func row(of url: String) -> Int? { rowOfURL[url] }

    static func bytes(row: Int, chunk: Int) -> [UInt8] {
        (0..<bytesPerChunk).map { UInt8(truncatingIfNeeded: 17 &* row &+ 31 &* chunk &+ 7 &* $0 &+ 60) }
    }
}

/// A fake sepia filter: three slow steps (checkpoint "photo.filter" each) over a copy of the
/// picture. Stateless apart from the work log.
public final class PhotoPipelineSepiaFilter: Sendable {
    static let steps = 3
    private let network: PhotoPipelineNetwork

    init(network: PhotoPipelineNetwork) { self.network = network }

    /// A sepia copy of `image`. Slow. Returns nil if `isCancelled` said to stop (asked before
    /// every step).
    public func apply(to image: PhotoPipelineImage, isCancelled: () -> Bool = { false }) -> PhotoPipelineImage? {
        let row = network.row(of: image.source)
        var toned = image
        for step in 0..<Self.steps {
            if isCancelled() { return nil }
            if let row { network.log.filterSteps[row].value.add(1, ordering: .relaxed) }
            Checkpoint.hit("photo.filter")
            if let row, step == Self.steps - 1 { network.log.tookLastStep(of: row) }
            Self.tone(&toned.pixels, step: step)
        }
        toned.sepiaPasses += 1
        return toned
    }

    /// The result of one complete pass (worked out quietly, for the checks).
    static func expectedSepia(_ image: PhotoPipelineImage) -> PhotoPipelineImage {
        var toned = image
        for step in 0..<steps { tone(&toned.pixels, step: step) }
        toned.sepiaPasses += 1
        return toned
    }

    private static func tone(_ pixels: inout [UInt8], step: Int) {
        for index in pixels.indices where index % steps == step {
            pixels[index] = UInt8((Int(pixels[index]) * 3 / 4 + 40) & 0xFF)
        }
    }
}

// MARK: - The table (harness side)

/// A stand-in for the table view. Main thread only, like UIKit. The scenario scrolls it; the
/// variant asks which rows are visible, whether the user is scrolling, and reloads rows. When a
/// row comes into view or is reloaded, the table asks the variant for its cell.
/// `@MainActor`, as UIKit's table view is; `@preconcurrency`, as UIKit is to code written before
/// Swift's concurrency checks: the labs' Swift 5 code still compiles, and the main-thread checker
/// still sees a call from another thread.
@preconcurrency @MainActor
public final class PhotoPipelineTable {
    public let rowCount: Int
    private var visible: [Int] = []
    private var scrolling = false
    weak var dataSource: PhotoPipelineController?
    /// What each visible row shows right now.
    private(set) var shown: [Int: PhotoPipelineCell] = [:]
    /// A view: released on the main thread, or a fixed variant fails (`ScreenLifetime`).
    private let lifetime = ScreenLifetime("photo table")

    init(rowCount: Int) { self.rowCount = rowCount }

    /// The rows on screen, top to bottom.
    public func visibleRows(file: StaticString = #filePath, line: UInt = #line) -> [Int] {
        MainThreadChecker.shared.check("table.visibleRows", file: file, line: line)
        return visible
    }

    /// True while the user drags the table or it is still gliding.
    public func isScrolling(file: StaticString = #filePath, line: UInt = #line) -> Bool {
        MainThreadChecker.shared.check("table.isScrolling", file: file, line: line)
        return scrolling
    }

    /// Redraw one row: if it is on screen, the table asks for its cell again.
    public func reloadRow(_ row: Int, file: StaticString = #filePath, line: UInt = #line) {
        MainThreadChecker.shared.check("table.reloadRow(\(row))", file: file, line: line)
        guard Thread.isMainThread, visible.contains(row), let dataSource else { return }
        shown[row] = dataSource.cell(forRow: row)
    }

    // The user's side (the scenario).

    func scroll(to rows: [Int]) {
        let appearing = rows.filter { !visible.contains($0) }
        visible = rows
        shown = shown.filter { rows.contains($0.key) }
        for row in appearing {
            if let cell = dataSource?.cell(forRow: row) { shown[row] = cell }
        }
    }

    func setScrolling(_ isScrolling: Bool) { scrolling = isScrolling }
}

// MARK: - The lab

/// What each photo-pipeline variant gets from the harness. `Sendable`: a main-actor table, values,
/// and a network and a filter that keep no state of their own.
public struct PhotoPipelineEnvironment: Sendable {
    public let table: PhotoPipelineTable
    public let photos: [PhotoPipelinePhoto]
    public let network: PhotoPipelineNetwork
    public let filter: PhotoPipelineSepiaFilter
}

/// The list screen, as every variant must offer it. Everything is called on the main thread.
public protocol PhotoPipelineController: AnyObject {
    /// The table wants to show `row` (it came into view, or was reloaded). Return what it should
    /// show now; start the row's work if it needs some and the user is not scrolling.
    func cell(forRow row: Int) -> PhotoPipelineCell
    /// The user starts dragging the table.
    func scrollWillBegin()
    /// The table came to rest: get back to work, for the rows now on screen only.
    func scrollDidEnd()
}

public enum PhotoPipelineLab: LabScenario {
    public static let info = LabInfo(
        id: "photo-pipeline",
        title: "Downloading and filtering photos for a scrolling table",
        source: "source article 001 (ClassicPhotos: download and sepia-filter operations, scrolling)",
        bug: "the tutorial's operations write the shared photo record while the table reads it, and a "
            + "cancelled download runs to its end (a failed one also leaves its filter behind, unseen)",
        invariants: [
            "every row visible at the end shows its photo filtered exactly once, from its complete download",
            "rows whose download failed show as failed",
            "no download or filter step runs for a row after it was cancelled (one step already under way may finish)",
            "the table is used on the main thread only",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .explore: 13, .stress: 100]
    )

    public static let variants: [LabVariant<PhotoPipelineEnvironment, PhotoPipelineController>] = [
        LabVariant(.broken) { PhotoPipelineBroken(environment: $0) },
    ]

    static let names = [
        "Lighthouse", "Old Harbour", "Steam Train", "Market Day", "Bridge in Fog", "Windmill",
        "Tram Stop", "Rowing Boats", "Clock Tower", "Hay Wagon", "Pier at Dusk", "Barber Shop",
    ]
    static let visibleCount = 4

    public static func play(_ variant: LabVariant<PhotoPipelineEnvironment, PhotoPipelineController>, in run: ScenarioRun) {
        // The photo list for this seed: latencies of 3 to 5 chunks; one photo in each half of the
        // list has a misspelled URL (its download fails). In the scripted story the second one is
        // among the rows on screen at the end (8 to 11), so a failed row is always checked.
        var random = SeededRandom(seed: run.seed ^ 0x5EED_F00D)
        let rows = names.count
        let lastScreen = run.mode == .scripted ? 2 : 0
        let failing = [Int(random.next(upperBound: UInt64(rows / 2))),
                       rows / 2 + lastScreen + Int(random.next(upperBound: UInt64(rows / 2 - lastScreen)))]
        let photos = names.enumerated().map { row, name in
            let slug = name.lowercased().replacingOccurrences(of: " ", with: "-")
            return PhotoPipelinePhoto(name: name, url: "https://photos.example/\(failing.contains(row) ? slug + "-misnamed" : slug).jpg")
        }
        let log = PhotoPipelineWorkLog(rows: rows)
        let network = PhotoPipelineNetwork(
            photos: photos, chunks: (0..<rows).map { _ in 3 + Int(random.next(upperBound: UInt64(3))) },
            missing: Set(failing.map { photos[$0].url }), log: log)
        let table = PhotoPipelineTable(rowCount: rows)
        let controller = variant.make(PhotoPipelineEnvironment(
            table: table, photos: photos, network: network, filter: PhotoPipelineSepiaFilter(network: network)))
        table.dataSource = controller

        // "Nothing is processed for a row after it was cancelled": when the table stops, every
        // off-screen row is cancelled; remember its work counters until it is back on screen.
        var cancelledAt: [Int: (download: Int, filter: Int)] = [:]
        func checkCancelledRows(_ rowsToCheck: [Int]) {
            for row in rowsToCheck {
                guard let before = cancelledAt.removeValue(forKey: row) else { continue }
                let now = log.steps(row)
                let extraDownload = now.download - before.download, extraFilter = now.filter - before.filter
                run.record("work steps after cancel", Double(extraDownload + extraFilter))
                run.expect(extraDownload <= 1 && extraFilter <= 1,
                           "row \(row) (\(photos[row].name)) went off screen and was cancelled, yet got "
                           + "\(extraDownload) more download chunk(s) and \(extraFilter) more filter step(s)")
            }
        }

        func top(_ first: Int) -> [Int] { Array(first..<first + visibleCount) }
        func beginScroll() {
            table.setScrolling(true)
            controller.scrollWillBegin()
        }
        func endScroll() {
            let onScreen = table.visibleRows()
            checkCancelledRows(onScreen)
            table.setScrolling(false)
            controller.scrollDidEnd()
            for row in 0..<rows where !onScreen.contains(row) && cancelledAt[row] == nil {
                cancelledAt[row] = log.steps(row)
            }
        }
        /// Wait until the app is quiet: every visible row done (filtered or failed), or nothing
        /// left running that could get it there.
        func waitForVisibleRows() { run.settle() }

        // 1. The list appears: rows 0-3. Their downloads and filters start.
        let row0Downloading = run.pause(at: "photo.download", hit: 2)
        table.scroll(to: top(0))
        switch run.mode {
        case .scripted:
            // 2. Row 0's download is half way when the user flicks the list down one row and
            //    straight back (row 0 leaves and is drawn again before the table stops), and
            //    holds the finger still for a moment.
            row0Downloading.whilePaused {
                beginScroll()
                table.scroll(to: top(1))
                table.scroll(to: top(0))
                run.settle()  // the finger rests: whatever the app does while scrolling, it has done
                endScroll()
            }
            waitForVisibleRows()

            // 3. The user scrolls down two rows (rows 4 and 5 start) and, as the first of their
            //    filters takes its last step, touches the list again. The main thread is busy
            //    (it runs nothing from its queue) until the work under way has ended, then the
            //    finger flicks the list to the top and back: rows 4 and 5 are drawn while their
            //    results still wait in the main queue, every time.
            beginScroll()
            table.scroll(to: top(2))
            let filtering = run.pause(at: "photo.filter", hit: Checkpoint.hits("photo.filter") + PhotoPipelineSepiaFilter.steps)
            endScroll()
            filtering.whilePaused { beginScroll() }
            run.busyUntilThreadsWait()
            table.scroll(to: top(0))
            table.scroll(to: top(2))
            endScroll()
            waitForVisibleRows()

            // 4. The user scrolls to rows 6-9; while row 6 downloads, on to rows 8-11.
            beginScroll()
            for first in [2, 4, 6] { table.scroll(to: top(first)) }
            let row6 = run.pause(at: "photo.download", hit: Checkpoint.hits("photo.download") + 1)
            endScroll()
            row6.whilePaused {
                beginScroll()
                table.scroll(to: top(8))
                run.settle()
                endScroll()
            }
        case .stress:
            var first = 0
            // Now and then the thread that has just done a visible row's last download chunk or
            // filter step is held at one of its next synchronisation points (but 0 to 15: memory
            // allocated, a cancellation check, the queue's own locks), while the user scrolls
            // that row away and back. A cancelled operation that goes on to write what the table
            // reads is then caught whichever machine grades it, not only when a busy one happens
            // to stall it there. The hold ends early if the main thread waits for it.
            if run.random.next(upperBound: UInt64(2)) == 0 {
                // Of the 4 visible rows' 8 last steps (a download's, a filter's), one not yet taken.
                let taken = log.lastSteps.load(ordering: .relaxed) >> 8
                let due = taken + 1 + Int(run.random.next(upperBound: UInt64(max(2 * visibleCount - taken, 1))))
                ThreadHold.arm(atHit: due, at: .point(skipping: Int(run.random.next(upperBound: UInt64(16)))), atMost: 2, untilIWait: true)
                defer { ThreadHold.cancel() }
                let held = ThreadHold.waitUntilHeldOrQuiet(run)
                let step = log.lastSteps.load(ordering: .relaxed)
                if held, step >> 8 == due {
                    let row = step & 0xFF
                    beginScroll()
                    table.scroll(to: top(row + 1 <= rows - visibleCount ? row + 1 : row - visibleCount))
                    endScroll()
                    beginScroll()
                    table.scroll(to: top(min(row, rows - visibleCount)))
                    endScroll()
                    first = min(row, rows - visibleCount)
                    run.record("rows held while scrolled away", 1)
                }
                ThreadHold.release()
            }
            for _ in 0..<3 {
                run.randomPause(upTo: 3)
                beginScroll()
                for _ in 0..<(1 + Int(run.random.next(upperBound: UInt64(3)))) {
                    let step = 1 + Int(run.random.next(upperBound: UInt64(3)))
                    first = run.random.next(upperBound: UInt64(2)) == 0 ? max(0, first - step) : min(rows - visibleCount, first + step)
                    table.scroll(to: top(first))
                    run.randomPause(upTo: 2)
                }
                endScroll()
            }
        }
        waitForVisibleRows()

        func describe(_ cell: PhotoPipelineCell?) -> String {
            switch cell {
            case nil: return "nothing"
            case .placeholder: return "a placeholder"
            case .failed: return "\"failed\""
            case .photo(let image): return "a photo with \(image.sepiaPasses) sepia pass(es)"
            }
        }

        // Every visible row: its photo, filtered exactly once, from the complete download; or
        // "failed" if its URL is wrong.
        for row in table.visibleRows() {
            let name = "row \(row) (\(photos[row].name))"
            let shown = table.shown[row]
            if network.fails(row) {
                run.expect(shown == .failed, "\(name): its download failed, but the row shows \(describe(shown))")
                continue
            }
            let expected = PhotoPipelineSepiaFilter.expectedSepia(network.expectedImage(row))
            switch shown {
            case .photo(let image) where image == expected:
                break
            case .photo(let image) where image.sepiaPasses == 0:
                run.fail("\(name) shows its photo unfiltered: the filter never ran on the downloaded picture")
            case .photo(let image) where image.pixels.count < expected.pixels.count:
                run.fail("\(name) shows a picture made from part of its download (\(image.pixels.count) of "
                         + "\(expected.pixels.count) bytes, \(image.sepiaPasses) sepia pass(es)): the filter ran before the download finished")
            case .photo(let image) where image.sepiaPasses > 1:
                run.fail("\(name) shows its photo filtered \(image.sepiaPasses) times")
            default:
                run.fail("\(name) shows \(describe(shown)), not its filtered photo")
            }
        }
        checkCancelledRows(Array(cancelledAt.keys).sorted())
        withExtendedLifetime(controller) {}
    }
}
