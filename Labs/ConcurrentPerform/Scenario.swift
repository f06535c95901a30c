import Foundation
@_spi(LabAuthoring) import LabKit

// MARK: - The screen and the photo (harness side)

/// The photo editor's exposure panel: the photo's total brightness, and a "measuring" spinner.
/// Both are UI stand-ins: main thread only.
public final class ConcurrentPerformScreen: @unchecked Sendable {
    public let brightness = ScreenLabel("brightness", text: "-")
    public let measuring = ScreenFlag("measuring")
    /// A view: released on the main thread, or a fixed variant fails (`ScreenLifetime`).
    private let lifetime = ScreenLifetime("photo screen")

    public init() {}
}

/// A photo, row by row. Measuring one row's brightness is the slow part (in a real editor it
/// walks every pixel of the row), which is why the app measures the rows in parallel. The
/// photo never changes, so any thread may measure any row at any time.
public final class ConcurrentPerformPhoto: Sendable {
    private let rows: [Int]

    init(rows: [Int]) { self.rows = rows }

    /// How many rows the photo has.
    public var rowCount: Int { rows.count }

    /// The brightness of one row (0 to 255). Slow: every call is the checkpoint "photo.row",
    /// where the harness may hold or delay the thread that measures it.
    public func brightness(ofRow row: Int) -> Int {
        let hit = Checkpoint.hit("photo.row")
        if !Thread.isMainThread { ThreadHold.reached(hit: hit) }
        return rows[row]
    }

    /// The right answer: every row's brightness, added up once.
    var trueTotal: Int { rows.reduce(0, +) }
}

/// The user's action, as every variant must offer it. Called on the main thread: measure the
/// photo's total brightness in the background, then show it on the screen (on the main thread)
/// and stop the spinner.
public protocol ConcurrentPerformController: AnyObject {
    func measure(_ photo: ConcurrentPerformPhoto)
}

// MARK: - The lab

public enum ConcurrentPerformLab: LabScenario {
    public static let info = LabInfo(
        id: "concurrent-perform",
        title: "concurrentPerform: parallel iterations that all add into one total",
        source: "source article 002 (threads chapter: dispatch_apply on a concurrent queue, \"only if the iterations do not depend on one another\")",
        bug: "the iterations of DispatchQueue.concurrentPerform each read and write one shared total, so updates are lost and the brightness shown is too low",
        invariants: [
            "once measured, the brightness shown is the photo's true total (no row lost)",
            "two measurements at once do not mix: the screen shows one photo's true total",
            "the iterations share no memory that one writes while another reads it (no data race)",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .stress: 60]  // the broken sum is caught in its first iteration
    )

    public static let variants: [LabVariant<ConcurrentPerformScreen, ConcurrentPerformController>] = [
        LabVariant(.broken) { ConcurrentPerformBroken(screen: $0) },
    ]

    /// The photo of the scripted story: 12 rows.
    static let storyRows = [112, 87, 203, 45, 160, 99, 251, 18, 134, 76, 190, 63]

    public static func play(_ variant: LabVariant<ConcurrentPerformScreen, ConcurrentPerformController>, in run: ScenarioRun) {
        let screen = ConcurrentPerformScreen()
        let controller = variant.make(screen)

        /// The user measures a photo and waits for the answer; then the screen must show it.
        func measure(_ photo: ConcurrentPerformPhoto, during: (() -> Void)? = nil) {
            if run.mode == .stress { holdOneRow(of: photo) }
            run.user("measures a photo of \(photo.rowCount) rows") { controller.measure(photo) }
            during?()
            if run.mode == .stress { letTheRowGo() }
            if !run.waitUntilDoneOrQuiet({ !screen.measuring.isOn() }) {
                run.fail("the spinner still turns, and nothing is left running that could stop it")
            }
            run.settle()
            let shown = screen.brightness.text()
            run.expect(shown == String(photo.trueTotal),
                       "the photo's \(photo.rowCount) rows add up to \(photo.trueTotal), but the screen shows \(shown)"
                       + (Int(shown).map { $0 < photo.trueTotal ? " (\(photo.trueTotal - $0) of its brightness lost)" : "" } ?? ""))
            if shown != String(photo.trueTotal) { run.record("wrong totals", 1) }
        }

        /// Stress: the thread that measures one of the photo's first rows is held at one of the
        /// next synchronisation points after it (but 0 to 3: a total loaded, a lock taken, a
        /// store), until every other thread is done or waits for it. A total read in one step and
        /// written in another then misses every other row's update, on any machine, however busy.
        func holdOneRow(of photo: ConcurrentPerformPhoto) {
            let row = 1 + Int(run.random.next(upperBound: UInt64(max(photo.rowCount / 2, 1))))
            ThreadHold.arm(atHit: Checkpoint.hits("photo.row") + row,
                           at: .point(skipping: Int(run.random.next(upperBound: UInt64(4)))), atMost: 5)
        }
        func letTheRowGo() {
            defer { ThreadHold.cancel() }
            // Held, or all done without (the rows were measured on the main thread, or with no
            // synchronisation point after them). The caps are for a lab that never settles.
            guard ThreadHold.waitUntilHeldOrQuiet(run) else { return }
            _ = run.waitUntil(timeout: 4) { LabQuiet.butForHeldThreadNow }
            ThreadHold.release()
            run.record("rows held", 1)
        }

        switch run.mode {
        case .scripted:
            // The story: the second row to be measured is held (its thread has already read the
            // running total, in the broken code). Meanwhile the other thread of concurrentPerform
            // measures every row it can get: at least two more, then it runs out of work and all
            // is quiet. Then the held row finishes.
            let photo = ConcurrentPerformPhoto(rows: storyRows)
            let secondRow = run.pause(at: "photo.row", hit: 2)
            measure(photo) {
                secondRow.whilePaused {
                    run.settle(timeout: 2, until: { Checkpoint.hits("photo.row") >= 4 })
                }
            }
        case .stress:
            // A few photos of random sizes, one after the other, at random moments; the
            // harness's jitter and holds vary which thread measures which row, and when.
            func randomPhoto() -> ConcurrentPerformPhoto {
                let rowCount = 4 + Int(run.random.next(upperBound: UInt64(13)))
                return ConcurrentPerformPhoto(rows: (0..<rowCount).map { _ in 1 + Int(run.random.next(upperBound: UInt64(255))) })
            }
            for _ in 0..<2 {
                run.randomPause(upTo: 2)
                measure(randomPhoto())
            }
            // Now and then a large photo (48 rows): many more moments where two rows meet, for a
            // total that is read and written in two steps (an atomic load, then a store).
            if run.random.next(upperBound: UInt64(5)) == 0 {
                measure(ConcurrentPerformPhoto(rows: (0..<48).map { _ in 1 + Int(run.random.next(upperBound: UInt64(255))) }))
            }
            // Now and then the user measures a second photo while the first is still measured.
            // Which of the two ends up on screen is not this lab's question, but it must be one
            // photo's true total: two measurements that share a running total mix their rows.
            if run.random.next(upperBound: UInt64(3)) == 0 {
                let first = randomPhoto(), second = randomPhoto()
                run.user("measures a photo of \(first.rowCount) rows") { controller.measure(first) }
                run.randomPause(upTo: 1)
                run.user("measures another photo, of \(second.rowCount) rows, before the first is done") { controller.measure(second) }
                if !run.waitUntilDoneOrQuiet({ !screen.measuring.isOn() }) {
                    run.fail("the spinner still turns, and nothing is left running that could stop it")
                }
                run.settle()
                let shown = screen.brightness.text()
                run.expect(shown == String(first.trueTotal) || shown == String(second.trueTotal),
                           "two photos were measured at once (totals \(first.trueTotal) and \(second.trueTotal)), but the screen shows \(shown): their rows were mixed")
            }
        }
        withExtendedLifetime(controller) {}
    }
}
