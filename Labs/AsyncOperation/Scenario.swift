import Foundation
@_spi(LabAuthoring) import LabKit

/// The feed screen's four requests. Parsing needs the feed; the thumbnail is cut from the avatar.
public enum Endpoint: CaseIterable, Sendable {
    case feed, parse, avatar, thumbnail

    /// The request whose operation must have finished before this one may start its work.
    var prerequisite: Endpoint? {
        switch self {
        case .parse: .feed
        case .thumbnail: .avatar
        case .feed, .avatar: nil
        }
    }

    var answer: String { "\(self) data" }

    // Checkpoint names are static strings (the checkpoint layer keeps their pointers), one per
    // request and event. They double as the scenario's journal: hit counters that TSan cannot see.

    /// Reached by the fake network's thread just before it delivers the answer.
    var answering: StaticString {
        switch self {
        case .feed: "feed.answer"
        case .parse: "parse.answer"
        case .avatar: "avatar.answer"
        case .thumbnail: "thumbnail.answer"
        }
    }

    /// The operation started its work: it sent its request.
    var sent: StaticString {
        switch self {
        case .feed: "feed.sent"
        case .parse: "parse.sent"
        case .avatar: "avatar.sent"
        case .thumbnail: "thumbnail.sent"
        }
    }

    /// The operation sent its request before its prerequisite had finished.
    var sentEarly: StaticString {
        switch self {
        case .feed: "feed.sent-early"
        case .parse: "parse.sent-early"
        case .avatar: "avatar.sent-early"
        case .thumbnail: "thumbnail.sent-early"
        }
    }

    /// The network's thread is back from delivering the answer.
    var replied: StaticString {
        switch self {
        case .feed: "feed.replied"
        case .parse: "parse.replied"
        case .avatar: "avatar.replied"
        case .thumbnail: "thumbnail.replied"
        }
    }

    /// The operation reported that it finished (its completion handler ran).
    var finished: StaticString {
        switch self {
        case .feed: "feed.finished"
        case .parse: "parse.finished"
        case .avatar: "avatar.finished"
        case .thumbnail: "thumbnail.finished"
        }
    }
}

/// The harness's fake network: a request is answered later, on a background thread of its own,
/// like a URLSession completion handler. Stateless, so any thread may use it.
public final class FakeNetwork: Sendable {
    public init() {}

    /// Sends `endpoint`'s request; `reply` gets the answer later, on another thread.
    public func send(_ endpoint: Endpoint, reply: @escaping @Sendable (String) -> Void) {
        Checkpoint.hit(endpoint.sent)
        if let prerequisite = endpoint.prerequisite, Checkpoint.hits(prerequisite.finished) == 0 {
            Checkpoint.hit(endpoint.sentEarly)
        }
        let answer = endpoint.answer
        Thread.detachNewThread {
            Checkpoint.hit(endpoint.answering)  // scripted mode can hold the answer here
            reply(answer)
            Checkpoint.hit(endpoint.replied)
        }
    }
}

/// One operation's delivered result (harness side): a plain variable, so a read that nothing
/// orders after the write is a data race ThreadSanitizer reports.
final class Delivery: @unchecked Sendable {
    var answer: String?
}

/// What every variant provides: asynchronous operations that fetch one endpoint each.
public protocol AsyncOperationFactory {
    /// An operation that, once started, sends `endpoint`'s request on `network` and finishes when
    /// the answer arrives, or as soon as it is cancelled. It calls `completion` exactly once, just
    /// before it finishes: with the answer, or nil if it was cancelled first.
    func fetchOperation(_ endpoint: Endpoint, completion: @escaping @Sendable (String?) -> Void) -> Operation
}

public enum AsyncOperationLab: LabScenario {
    public static let info = LabInfo(
        id: "async-operation",
        title: "An asynchronous Operation that does not say when it is done",
        source: "source article 003 (Asynchronicity and the Main Thread, part 2): the AsyncOperation base class",
        bug: "the blog's async Operation base: a state enum with no lock, changed from the answer's thread; a cancelled operation returns from start() without ever finishing, so its dependents never run and the queue never drains",
        invariants: [
            "an operation starts its work only after its dependency has finished",
            "every operation finishes exactly once (its completion runs once), cancelled ones included",
            "an operation cancelled before it started never starts its work",
            "a running operation that is cancelled finishes at once, without waiting for its answer",
            "once isFinished is true, the result its completion delivered is visible to the thread that asked",
            "the queue drains (a child that waits for it forever is caught as a hang)",
        ],
        expectedDetectors: [.tsan, .invariant, .hang],
        defaultIterations: [.scripted: 3, .stress: 60],  // the broken variant: caught in its first stress iteration
        // The broken variant leaves the queue waiting forever: catch that quickly.
        watchdogSeconds: 3
    )

    public static let variants: [LabVariant<FakeNetwork, AsyncOperationFactory>] = [
        LabVariant(.broken) { AsyncOperationBrokenFactory(network: $0) },
    ]

    public static func play(_ variant: LabVariant<FakeNetwork, AsyncOperationFactory>, in run: ScenarioRun) {
        let factory = variant.make(FakeNetwork())
        let queue = OperationWakeups.watch(OperationQueue())  // Foundation can forget to start an operation
        // As in the blog, the operations start on the main thread (a queue on top of the main
        // dispatch queue). Stress mode also uses an ordinary background queue: a base class ends
        // up on every kind of queue.
        let onMain = run.mode == .scripted || run.random.next(upperBound: UInt64(2)) == 0
        if onMain { queue.underlyingQueue = .main }

        // Scripted: the feed's completion takes a while (30 ms of the app's own time). Parsing depends on the feed, so it
        // may not start before that completion has returned; an operation that tells the queue it
        // finished before it delivers its result lets it start meanwhile, every time.
        let slowFeedDelivery = run.mode == .scripted
        var operations: [Endpoint: Operation] = [:]
        for endpoint in Endpoint.allCases {
            operations[endpoint] = factory.fetchOperation(endpoint) { _ in
                if slowFeedDelivery && endpoint == .feed {
                    var deadline = LabDeadline(seconds: 0.03, ownTime: true)  // a busy machine's CPU waits excluded
                    while Checkpoint.hits(Endpoint.parse.sent) == 0 && !deadline.hasPassed() { usleep(200) }
                }
                Checkpoint.hit(endpoint.finished)
            }
        }
        for endpoint in Endpoint.allCases {
            if let prerequisite = endpoint.prerequisite {
                operations[endpoint]!.addDependency(operations[prerequisite]!)
            }
        }
        // The screen update (a plain block operation) waits for the parsed feed and the thumbnail.
        let show = BlockOperation {
            if Checkpoint.hits(Endpoint.parse.finished) == 0 || Checkpoint.hits(Endpoint.thumbnail.finished) == 0 {
                Checkpoint.hit("show.early")
            }
            Checkpoint.hit("show.ran")
        }
        show.addDependency(operations[.parse]!)
        show.addDependency(operations[.thumbnail]!)

        func userOpensTheScreen() {
            run.user("opens the feed screen") {
                queue.addOperations(Array(operations.values) + [show], waitUntilFinished: false)
            }
        }
        // The user scrolls the avatar away: its request is in flight, its thumbnail not started.
        // The thumbnail depends on the avatar, so while the avatar is not finished the thumbnail
        // cannot have started: cancelled then, it must send nothing. Whether that was so is read
        // just after the cancel (the avatar finishes once, for good): read before it, the
        // avatar's answer could finish it in between on a busy machine, and a correct operation
        // that rightly started would be blamed.
        var thumbnailCancelledBeforeItCouldStart = false
        func userScrollsAway() {
            run.user("scrolls the avatar away (cancels thumbnail and avatar)") {
                operations[.thumbnail]!.cancel()
                thumbnailCancelledBeforeItCouldStart = !operations[.avatar]!.isFinished
                operations[.avatar]!.cancel()
            }
        }
        var avatarWaitedForItsAnswer = false

        switch run.mode {
        case .scripted:
            // The avatar's answer is held until the user has cancelled both operations. A running
            // operation that is cancelled finishes then, without its answer: a request can stall
            // for a long time, and the queue would wait for it.
            let avatarInFlight = run.pause(at: Endpoint.avatar.answering)
            userOpensTheScreen()
            avatarInFlight.whilePaused {
                userScrollsAway()
                let sent = Checkpoint.hits(Endpoint.avatar.sent) > 0
                // Finished by the cancel, or the app is quiet without it: it waits for its answer.
                let finished = run.waitUntilDoneOrQuiet { Checkpoint.hits(Endpoint.avatar.finished) > 0 }
                avatarWaitedForItsAnswer = sent && !finished && Checkpoint.hits(Endpoint.avatar.replied) == 0
            }
        case .stress:
            userOpensTheScreen()
            run.randomPause(upTo: 2)
            userScrollsAway()
        }

        // Once the avatar's answer is in, the screen asks its operation whether it is done (to hide
        // a spinner). It blocks meanwhile instead of running the main run loop: a read of the
        // operation's state that nothing orders with the answer's thread, so a race there is a race.
        if Checkpoint.hits(Endpoint.avatar.sent) > 0 {
            run.busyWaitUntilDoneOrQuiet { Checkpoint.hits(Endpoint.avatar.replied) > 0 }
            _ = operations[.avatar]!.isFinished
        }

        let everyoneFinished = run.waitUntilDoneOrQuiet {
            Endpoint.allCases.allSatisfy { Checkpoint.hits($0.finished) >= 1 } && Checkpoint.hits("show.ran") >= 1
        }
        run.settle()
        for endpoint in Endpoint.allCases {
            let finishes = Checkpoint.hits(endpoint.finished)
            if finishes > 1 {
                run.fail("\(endpoint) finished \(finishes) times (its completion ran \(finishes) times); it must finish exactly once")
            } else if finishes == 0 && !everyoneFinished {
                let cancelled = operations[endpoint]!.isCancelled ? " (it had been cancelled)" : ""
                run.fail("\(endpoint) never finished\(cancelled): its completion never ran")
            }
            if Checkpoint.hits(endpoint.sentEarly) > 0, let prerequisite = endpoint.prerequisite {
                run.fail("\(endpoint) started its work before \(prerequisite), its dependency, had finished")
            }
        }
        if Checkpoint.hits("show.early") > 0 {
            run.fail("the screen update ran before the parse and thumbnail operations had finished")
        }
        if avatarWaitedForItsAnswer {
            run.fail("avatar was cancelled while its request was in flight, yet it did not finish until its answer came: a running operation that is cancelled must finish at once")
        }
        if thumbnailCancelledBeforeItCouldStart, Checkpoint.hits(Endpoint.thumbnail.sent) > 0 {
            run.fail("thumbnail was cancelled before it started, yet it sent its request")
        }

        // The screen waits for its queue to drain. A queue that never drains is a hang: in a child
        // process the watchdog kills it long before this cap (which only keeps an in-process
        // test from waiting for ever).
        Checkpoint.hit("queue.waiting-to-drain")
        if !run.waitUntil(timeout: 60, { queue.operationCount == 0 }) {
            run.fail("the queue never drained: \(queue.operationCount) operation(s) never finished")
        }
        let shows = Checkpoint.hits("show.ran")
        run.expect(shows == 1, "the screen update ran \(shows) times; it should run once, after everything else")

        screenPollsAnOperation(factory, in: run)
        if run.mode == .stress {
            for _ in 0..<startRaceRounds where cancelRacesStart(factory, in: run) {}
        }
    }

    /// The screen starts a refresh of the feed by hand and polls it: "finished yet?", then it
    /// reads what the completion delivered. It touches no run loop and no lock while it polls,
    /// so only the operation's own isFinished can order the result before that read: an
    /// isFinished that orders nothing (a relaxed atomic) is a data race on the result.
    static func screenPollsAnOperation(_ factory: AsyncOperationFactory, in run: ScenarioRun) {
        let delivery = Delivery()
        let operation = factory.fetchOperation(.feed) { answer in
            delivery.answer = answer
            Checkpoint.hit("refresh.finished")
        }
        Thread.detachNewThread { operation.start() }
        if run.busyWaitUntilDoneOrQuiet({ operation.isFinished }) {
            run.record("results read once finished", delivery.answer == nil ? 0 : 1)
        } else {
            run.fail("an operation started by hand (start() on a thread of its own) never finished: nothing left running could finish it")
        }
    }

    /// Stress rounds a cancel is raced against `start()` itself, per iteration.
    static let startRaceRounds = 2

    /// Stress: the user cancels an operation at the very moment it starts. Its start() runs on a
    /// thread of the harness's that is held at a random synchronisation point inside it (a lock,
    /// an atomic, a call into Foundation) while the cancel runs. A start() whose cancel check and
    /// state change are two steps has a window between them that no checkpoint can reach (it is
    /// all the student's code); a cancel that lands there must still end in one finish. False
    /// once a round failed (the rest would only repeat it).
    static func cancelRacesStart(_ factory: AsyncOperationFactory, in run: ScenarioRun) -> Bool {
        let finishedBefore = Checkpoint.hits("start-race.finished")
        let sentBefore = Checkpoint.hits(Endpoint.avatar.sent)
        let repliedBefore = Checkpoint.hits(Endpoint.avatar.replied)
        let answersBefore = Checkpoint.hits(Endpoint.avatar.answering)
        let delivery = Delivery()
        let operation = factory.fetchOperation(.avatar) { answer in
            delivery.answer = answer
            Checkpoint.hit("start-race.finished")
        }
        var cancelledBeforeAnyAnswer = false
        let held = ThreadHold.race(run, skippingUpTo: 24, work: { operation.start() }) {
            run.user("cancels an operation while it starts") { operation.cancel() }
            cancelledBeforeAnyAnswer = Checkpoint.hits(Endpoint.avatar.answering) == answersBefore
        }
        if held { run.record("cancels that landed inside start()", 1) }

        let finished = run.waitUntilDoneOrQuiet {
            Checkpoint.hits("start-race.finished") > finishedBefore && operation.isFinished
        }
        if !finished {
            run.fail("an operation cancelled while its start() was running never finished (its completion \(Checkpoint.hits("start-race.finished") > finishedBefore ? "ran, but isFinished stayed false" : "never ran")): a cancel can land between start()'s isCancelled check and its state change, and the operation must still finish")
            return false
        }
        // Cancelled before any answer came: it was cancelled first, so it ends without one (a
        // cancel that start() let slip would leave it waiting for its answer instead).
        if cancelledBeforeAnyAnswer, let answer = delivery.answer {
            run.fail("an operation cancelled while its start() was running, before any answer came, still delivered \"\(answer)\": the cancel was lost between start()'s check and its state change")
            return false
        }
        // Its request may be out: wait for the answer too, which must not finish it again.
        if Checkpoint.hits(Endpoint.avatar.sent) > sentBefore {
            run.waitUntilDoneOrQuiet { Checkpoint.hits(Endpoint.avatar.replied) > repliedBefore }
        }
        let finishes = Checkpoint.hits("start-race.finished") - finishedBefore
        if finishes > 1 {
            run.fail("an operation cancelled while its start() was running finished \(finishes) times; it must finish exactly once")
            return false
        }
        return true
    }
}
