import Foundation
@_spi(LabAuthoring) import LabKit

// MARK: - Likes, their statistics, and the slow part of counting one (harness side)

/// One like: a user liked a photo. The server sends them in bursts.
public struct UncheckedSendableLike: Sendable {
    public let photo: String
    public let user: Int
}

/// What the likes screen shows: how many likes in all, and how many each photo got. A plain
/// value: a copy is a snapshot, and changing a copy changes nothing else.
public struct UncheckedSendableStats: Sendable, Equatable, CustomStringConvertible {
    public private(set) var totalLikes = 0
    public private(set) var likesPerPhoto: [String: Int] = [:]

    public init() {}

    mutating func count(_ like: UncheckedSendableLike) {
        totalLikes += 1
        likesPerPhoto[like.photo, default: 0] += 1
    }

    public var description: String {
        let photos = likesPerPhoto.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "\(totalLikes) likes (\(photos.joined(separator: ", ")))"
    }
}

/// The slow part of counting a like. A variant can make its code safe across this window, but it
/// cannot remove it.
public final class UncheckedSendableTally: Sendable {
    public init() {}

    /// The statistics with one more like counted. It takes a moment (in the app it also re-ranks
    /// the photos): the checkpoint "likes.count", where the harness may hold the task that counts.
    public func counting(_ like: UncheckedSendableLike, in stats: UncheckedSendableStats) -> UncheckedSendableStats {
        // A variant that counts on the main actor counts on the story's own thread: a scripted
        // pause there ends by itself after 0.2 s (of the main thread's own time).
        guard !Thread.isMainThread else {
            _ = Checkpoint.hit("likes.count", pauseLimit: 0.2)
            return stats.counting(like)
        }
        ThreadHold.reached(hit: Checkpoint.hit("likes.count"))
        return stats.counting(like)
    }
}

extension UncheckedSendableStats {
    /// A copy with one more like counted.
    fileprivate func counting(_ like: UncheckedSendableLike) -> UncheckedSendableStats {
        var next = self
        next.count(like)
        return next
    }
}

/// What every variant offers. Shared by many tasks at once, so it must be `Sendable`: the
/// scenario calls `recordLike` from every child task of a task group, and `statistics()` from
/// the screen (a task of its own, which then shows the result on the main actor) while likes
/// are still being counted.
public protocol UncheckedSendableController: AnyObject, Sendable {
    func recordLike(_ like: UncheckedSendableLike) async
    func statistics() async -> UncheckedSendableStats
}

/// The likes badge: what the screen last showed, and how many refreshes have shown. Main
/// thread only (written by tasks on the main actor, read by the story on the main thread).
final class UncheckedSendableBadge: @unchecked Sendable {
    var shown: UncheckedSendableStats?
    var refreshes = 0
}

// MARK: - The lab

public enum UncheckedSendableLab: LabScenario {
    public static let info = LabInfo(
        id: "unchecked-sendable",
        title: "@unchecked Sendable: the compiler stops checking, the race stays",
        source: "Swift concurrency track (LABS.md): a class marked @unchecked Sendable with plain mutable state shared across tasks",
        bug: "a like counter marked @unchecked Sendable keeps its statistics in a plain var; the tasks of a task group update it at once, so likes are lost and the reads race with the writes",
        invariants: [
            "no like lost: once every like is counted, the screen shows as many likes as arrived, and each photo its own",
            "no task reads or writes the statistics while another task writes them (no data race)",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .stress: 60],
        runsTasks: true
    )

    public static let variants: [LabVariant<UncheckedSendableTally, UncheckedSendableController>] = [
        LabVariant(.broken) { UncheckedSendableBroken(tally: $0) }
    ]

    /// The likes of the scripted story: six for three photos (the first arrives alone).
    static let storyLikes = [("sunset", 11), ("harbour", 12), ("sunset", 13), ("cat", 14), ("sunset", 15), ("harbour", 16)]
        .map { UncheckedSendableLike(photo: $0.0, user: $0.1) }

    /// The like that arrives while the screen refreshes.
    static let lateLike = UncheckedSendableLike(photo: "cat", user: 17)

    public static func play(_ variant: LabVariant<UncheckedSendableTally, UncheckedSendableController>, in run: ScenarioRun) {
        let likeCounter = variant.make(UncheckedSendableTally())
        let story = UncheckedSendableStory(run: run, likeCounter: likeCounter)

        switch run.mode {
        case .scripted:
            // Lost likes: the first like is held in the slow step (in the broken code it has
            // read the statistics already) while the rest of the burst arrives and is counted by
            // a task group. Then the held like finishes, from the statistics it read.
            let firstCount = run.pause(at: "likes.count", hit: 1)
            story.likesArrive([storyLikes[0]])
            firstCount.whilePaused {
                story.likesArrive(Array(storyLikes.dropFirst()))
                run.waitUntilDoneOrQuiet(timeout: 3) { Checkpoint.hits("like.done") >= storyLikes.count - 1 }
            }
            story.waitForEveryLike()
            // A read beside a write: one more like arrives, and its task is held just after it
            // is counted, while the screen refreshes its badge (on another thread). Nothing but
            // the variant's own code can order that read after the like's write. (This order, a
            // write and then an unordered read, is the one TSan reported in every run; a read
            // made while the first like was held, written over after it went on, went unreported
            // in our runs, so the first scene alone did not catch an unlocked read.)
            let justCounted = run.pause(at: "like.done", hit: Checkpoint.hits("like.done") + 1)
            story.likesArrive([lateLike])
            justCounted.whilePaused {
                story.badgeRefreshes()
                run.waitUntilDoneOrQuiet(timeout: 3) { story.badge.refreshes >= 1 }
            }
        case .stress:
            for _ in 0..<3 { story.randomBurst() }
        }
        story.checkTheScreen()
        withExtendedLifetime(likeCounter) {}
    }
}

/// The user's side of one iteration: bursts of likes, badge refreshes, and the final check.
struct UncheckedSendableStory {
    let run: ScenarioRun
    let likeCounter: UncheckedSendableController
    let badge = UncheckedSendableBadge()
    /// Every like that arrived, counted once, on the main thread: the right answer.
    private let arrived = UncheckedSendableArrivals()

    init(run: ScenarioRun, likeCounter: UncheckedSendableController) {
        self.run = run
        self.likeCounter = likeCounter
    }

    /// A burst of likes from the server: one child task per like, in one task group.
    func likesArrive(_ likes: [UncheckedSendableLike]) {
        for like in likes { arrived.stats.count(like) }
        let likeCounter = self.likeCounter
        run.user("\(likes.count) likes arrive from the server; a task group counts them, one child task per like") {
            Task.detached {
                await withTaskGroup(of: Void.self) { group in
                    for like in likes {
                        group.addTask {
                            await likeCounter.recordLike(like)
                            Checkpoint.hit("like.done")
                        }
                    }
                }
            }
        }
    }

    /// The screen starts a task that asks for the statistics, then shows them on the main actor.
    /// (The ask is off the main thread: a correct variant may make it wait for a lock that a
    /// held task has, and the story's main thread must stay free to let that task go.)
    func badgeRefreshes() {
        arrived.refreshesAsked += 1
        let likeCounter = self.likeCounter, badge = self.badge
        run.user("the screen refreshes its likes badge") {
            Task.detached {
                let stats = await likeCounter.statistics()
                await MainActor.run {
                    badge.shown = stats
                    badge.refreshes += 1
                }
            }
        }
    }

    /// Stress: a burst of random likes at a random moment, a refresh now and then while it is
    /// counted, and one of its likes held at a random synchronisation point after its slow step.
    func randomBurst() {
        let photos = ["sunset", "harbour", "cat", "lighthouse"]
        let count = 3 + randomBelow(8)
        let likes = (0..<count).map { _ in
            UncheckedSendableLike(photo: photos[randomBelow(photos.count)], user: randomBelow(1000))
        }
        run.randomPause(upTo: 2)
        ThreadHold.arm(atHit: Checkpoint.hits("likes.count") + 1 + randomBelow(count),
                       at: .point(skipping: randomBelow(4)), atMost: 5)
        likesArrive(likes)
        if randomBelow(2) == 0 {
            run.randomPause(upTo: 1)
            badgeRefreshes()
        }
        letTheHeldLikeGo()
        waitForEveryLike()
    }

    private func randomBelow(_ bound: Int) -> Int {
        Int(run.random.next(upperBound: UInt64(bound)))
    }

    /// Stress: once the held like's task is held (or all went quiet without), the others do what
    /// they can; then it goes on.
    private func letTheHeldLikeGo() {
        defer { ThreadHold.cancel() }
        guard ThreadHold.waitUntilHeldOrQuiet(run) else { return }
        _ = run.waitUntil(timeout: 4) { LabQuiet.butForHeldThreadNow }
        ThreadHold.release()
        run.record("likes held", 1)
    }

    func waitForEveryLike() {
        let total = arrived.stats.totalLikes
        if !run.waitUntilDoneOrQuiet({ Checkpoint.hits("like.done") >= total && badge.refreshes >= arrived.refreshesAsked }) {
            run.fail("only \(Checkpoint.hits("like.done")) of \(total) likes were counted; the others wait for something that never comes")
        }
    }

    /// Every like counted, the screen refreshes once more, and must show exactly what arrived.
    func checkTheScreen() {
        waitForEveryLike()
        badgeRefreshes()
        waitForEveryLike()
        let truth = arrived.stats
        guard let shown = badge.shown, badge.refreshes >= arrived.refreshesAsked else {
            run.fail("the screen asked for the statistics, but they never came")
            return
        }
        run.expect(shown.totalLikes == truth.totalLikes,
                   "\(truth.totalLikes) likes arrived, but the badge says \(shown.totalLikes): \(truth.totalLikes - shown.totalLikes) like(s) lost")
        for (photo, likes) in truth.likesPerPhoto.sorted(by: { $0.key < $1.key }) where shown.likesPerPhoto[photo, default: 0] != likes {
            run.fail("\"\(photo)\" got \(likes) likes, but the screen shows \(shown.likesPerPhoto[photo, default: 0])")
        }
        run.record("lost likes", Double(max(truth.totalLikes - shown.totalLikes, 0)))
    }
}

/// The story's own count of what arrived (main thread only).
final class UncheckedSendableArrivals {
    var stats = UncheckedSendableStats()
    var refreshesAsked = 0
}
