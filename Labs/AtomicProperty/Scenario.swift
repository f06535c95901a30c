import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// What every variant offers. Each download thread calls `downloadFinished()` once when its file
/// is done (several at once); the main thread reads `finished` after every download returned.
public protocol AtomicPropertyController: AnyObject {
    func downloadFinished()
    var finished: Int { get }
}

/// The slow part, on the harness side: working out the new progress figure takes a moment. A
/// variant can make its code safe across this window, but it cannot remove it.
public final class AtomicPropertyProgress: Sendable {
    let streak = LosingStreak()

    public init() {}

    /// The figure after one more finished download. The bug's window is open while a thread
    /// is in here.
    public func oneMore(than finished: Int) -> Int {
        Checkpoint.hit("progress.add")
        streak.unluckyIsCounting()
        return finished + 1
    }
}

/// Stress: one unlucky download loses round after round. Each time it is working out its figure
/// (in `oneMore`), another download ends and is counted first, up to `rounds` times in a row. A
/// compare-and-swap loop that retries until it wins still counts every download; one that gives
/// up after so many rounds and writes anyway loses updates. A lock (or a queue) makes the other
/// download wait instead: the streak ends at its first round. Fields are relaxed atomics: TSan
/// sees no order in them.
///
/// A round is judged by what the other download does, never by the clock alone: on a busy
/// machine a new thread can wait a long while for a CPU, and a streak cut short there would let
/// a give-up-after-64 loop pass.
final class LosingStreak: @unchecked Sendable {
    static let rounds = 80
    /// How long the other download must be seen waiting in the kernel (for a lock, a queue)
    /// before the round is over: long enough that a lock the runtime or the system holds for a
    /// moment (a thread's set-up, memory) does not end a streak on a busy machine.
    static let blockedFor = 0.05
    /// How long a round lasts at most, on its own time (time either thread waited for a CPU is
    /// taken off): the other download may spin instead of blocking.
    static let roundLimit = 0.5

    let unluckyThread = Atomic<Int64>(0)
    let roundsLeft = Atomic<Int>(0)
    let otherThread = Atomic<Int64>(0)
    let extraDownloads = Atomic<Int>(0)
    /// Set once, before the unlucky download's thread starts (its start orders it).
    var anotherDownload: (@Sendable () -> Void)?

    /// In `oneMore`: on the unlucky thread, another download ends and is counted first.
    func unluckyIsCounting() {
        let unlucky = unluckyThread.load(ordering: .relaxed)
        guard unlucky != 0, roundsLeft.load(ordering: .relaxed) > 0, ThreadHold.currentThread == unlucky,
              let anotherDownload else { return }
        roundsLeft.subtract(1, ordering: .relaxed)
        let doneBefore = Checkpoint.hits("download.done")
        let startsBefore = Checkpoint.hits("download.start")
        otherThread.store(0, ordering: .relaxed)
        extraDownloads.add(1, ordering: .relaxed)
        let began = Date()
        let unluckyWaitedBefore = ThreadTimes(thread: unlucky)?.waitedForCPU ?? 0
        Thread.detachNewThread {
            self.otherThread.store(ThreadHold.currentThread, ordering: .relaxed)
            anotherDownload()
        }
        var otherWaits = ThreadHold.BlockedWatch(for: Self.blockedFor)
        while Checkpoint.hits("download.done") == doneBefore {
            let other = otherThread.load(ordering: .relaxed)
            // It waits for this one (a lock): not counted first, so the streak is over. Looked at
            // only once it is in the counter: a new thread's set-up takes locks of its own.
            if other != 0, Checkpoint.hits("download.start") > startsBefore,
               otherWaits.isBlocked(thread: other) { break }
            // Or it neither ends nor blocks (a spin): over once the round had its time.
            let unluckyWaited = (ThreadTimes(thread: unlucky)?.waitedForCPU ?? 0) - unluckyWaitedBefore
            let otherWaited = other == 0 ? 0 : ThreadTimes(thread: other)?.waitedForCPU ?? 0
            if -began.timeIntervalSinceNow - max(unluckyWaited, otherWaited) > Self.roundLimit { break }
        }
        // Not counted first: it waits for this one, so the streak is over.
        if Checkpoint.hits("download.done") == doneBefore { roundsLeft.store(0, ordering: .relaxed) }
    }
}

public enum AtomicPropertyLab: LabScenario {
    public static let info = LabInfo(
        id: "atomic-property",
        title: "Every accessor is locked, and updates are still lost",
        source: "source article 001 (atomic properties, @synchronized); source article 002 (a serial queue as a lock, sync getters)",
        bug: "`finished = finished + 1` on a property whose getter and setter each take the lock: two locked steps, with a gap between them",
        invariants: [
            "no lost updates: once every download has returned, the count equals the number of downloads",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 100]
    )

    public static let variants: [LabVariant<AtomicPropertyProgress, AtomicPropertyController>] = [
        LabVariant(.broken) { AtomicPropertyBroken(progress: $0) },
    ]

    public static func play(_ variant: LabVariant<AtomicPropertyProgress, AtomicPropertyController>, in run: ScenarioRun) {
        let progress = AtomicPropertyProgress()
        let counter = variant.make(progress)
        var downloads = 0

        /// One download = one thread of its own that reports once. (Harness side: the
        /// checkpoints only count; they order nothing.)
        let download: @Sendable () -> Void = {
            Checkpoint.hit("download.start")
            counter.downloadFinished()
            Checkpoint.hit("download.done")
        }
        func downloadEnds() {
            downloads += 1
            run.user("download \(downloads) ends") {
                Thread.detachNewThread(download)
            }
        }

        switch run.mode {
        case .scripted:
            // Download 1 has read the figure and is held while it works out the next one;
            // download 2 finishes in that moment and does all it can.
            let firstIsCounting = run.pause(at: "progress.add", hit: 1)
            downloadEnds()
            firstIsCounting.whilePaused {
                downloadEnds()
                run.settle(timeout: 3, until: { Checkpoint.hits("download.start") >= 2 })
            }
        case .stress:
            for _ in 0..<6 {
                run.randomPause(upTo: 1)
                downloadEnds()
            }
            // Then a burst: 16 downloads end at the same moment (each waits at a start line
            // first). A fix that retries only so many times before it writes anyway loses
            // updates here, where a thread can lose many rounds in a row.
            if run.random.next(upperBound: UInt64(2)) == 0 {
                let goal = Checkpoint.hits("burst.go") + 1
                let readyBefore = Checkpoint.hits("burst.ready")
                for _ in 0..<16 {
                    downloads += 1
                    Thread.detachNewThread {
                        Checkpoint.hit("burst.ready")
                        while Checkpoint.hits("burst.go") < goal { sched_yield() }  // the start line (TSan sees no order)
                        Checkpoint.hit("download.start")
                        counter.downloadFinished()
                        Checkpoint.hit("download.done")
                    }
                }
                run.user("16 downloads end at once") {
                    run.waitUntil(timeout: 2) { Checkpoint.hits("burst.ready") - readyBefore >= 16 }
                    Checkpoint.hit("burst.go")
                }
            }
            // And, one iteration in eight, a losing streak (LosingStreak).
            if run.random.next(upperBound: UInt64(8)) == 0 {
                run.waitUntilDoneOrQuiet { Checkpoint.hits("download.done") >= downloads }
                downloads += 1
                progress.streak.anotherDownload = download
                progress.streak.roundsLeft.store(LosingStreak.rounds, ordering: .relaxed)
                run.user("one download keeps losing: \(LosingStreak.rounds) others end while it works out its figure") {
                    Thread.detachNewThread {
                        progress.streak.unluckyThread.store(ThreadHold.currentThread, ordering: .relaxed)
                        download()
                    }
                }
            }
        }

        if !run.waitUntilDoneOrQuiet({ Checkpoint.hits("download.done") >= downloads + progress.streak.extraDownloads.load(ordering: .relaxed) }) {
            run.fail("only \(Checkpoint.hits("download.done")) of \(downloads + progress.streak.extraDownloads.load(ordering: .relaxed)) downloads returned; the others wait for something that never comes")
        }
        let extra = progress.streak.extraDownloads.load(ordering: .relaxed)
        if extra > 0 { run.record("downloads counted while the unlucky one worked out its figure", Double(extra)) }
        downloads += extra
        let counted = counter.finished
        run.expect(counted == downloads,
                   "\(downloads) downloads finished but the count says \(counted): \(downloads - counted) update(s) lost")
        run.record("lost updates", Double(max(downloads - counted, 0)))
    }
}
