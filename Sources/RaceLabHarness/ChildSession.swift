import CRaceLabSupport
import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// The child side of a run: dies with its parent, sends heartbeats from a harness thread, runs
/// the scenario on the main thread, and sends each invariant failure as it is found and one
/// result line at the end, all on the result channel (`ChannelWriter`). `racelab-child` runs a
/// lab this way; RaceLabTesting runs a user's test this way, in the test program relaunched.
public enum ChildSession {
    public static func run(_ lab: PlayableLab, plan: ScenarioPlan, traceFile: String? = nil) -> Never {
        _ = rl_die_with_parent()
        if let traceFile { TraceFile.attach(traceFile) }
        let heartbeat = Heartbeat()
        heartbeat.start()
        let outcome = ScenarioDriver.run(
            lab, plan: plan, onIteration: { iteration, point in heartbeat.starting(iteration, point: point) },
            onFailure: { ChannelWriter.writeLine(ChildChannel.encode($0)) })
        heartbeat.stop()
        ChannelWriter.writeLine(ChildChannel.encode(outcome))
        exit(0)
    }
}

/// Sends a progress line every 100 ms. It reads only the checkpoint counters (invisible to TSan)
/// and its own atomic, so it adds no synchronisation between the lab's threads.
private final class Heartbeat: @unchecked Sendable {
    private let iteration = Atomic<Int>(0)
    /// The exploration point of the current iteration, and whether beats have stopped
    /// (NSLock: TSan does not see Mutex here).
    private let lock = NSLock()
    private var point: ExplorationPoint?
    private var stopped = false

    /// A new iteration: said at once, so a crash or hang in it is tied to its point.
    func starting(_ number: Int, point: ExplorationPoint?) {
        iteration.store(number, ordering: .relaxed)
        lock.withLock {
            self.point = point
            iterationBegan = DispatchTime.now().uptimeNanoseconds
        }
        beat()
    }

    /// Checkpoint hits at the last beat, beats in a row that saw none, and beats since the
    /// last one that said where each thread was (under `lock`).
    private var lastActivity: Int64 = -1
    private var beatsWithoutHits = 0
    private var beatsWithoutPositions = 0
    private var iterationBegan = DispatchTime.now().uptimeNanoseconds

    /// Reads and writes under one lock, so lines go out in the order they were taken: the
    /// newest line always names the newest iteration. Where each thread was (read only when a
    /// child hangs: 3 s or more without progress, or an iteration that never ends) is said in
    /// every beat once no checkpoint was hit for half a second or the iteration has lasted 2 s,
    /// and every 2 s besides: a list of a hundred threads ten times a second, encoded here and
    /// decoded by the parent, both under ThreadSanitizer, cost more than the lab's own work.
    private func beat() {
        lock.withLock {
            guard !stopped else { return }
            let activity = Checkpoint.activity
            beatsWithoutHits = activity == lastActivity ? beatsWithoutHits + 1 : 0
            lastActivity = activity
            let longIteration = DispatchTime.now().uptimeNanoseconds &- iterationBegan >= 2_000_000_000
            let withPositions = beatsWithoutHits >= 5 || longIteration || beatsWithoutPositions >= 19
            beatsWithoutPositions = withPositions ? 0 : beatsWithoutPositions + 1
            let progress = ChildChannel.Progress(
                iteration: iteration.load(ordering: .relaxed), checkpointHits: activity,
                threads: withPositions ? Checkpoint.threadPositions() : [], point: point?.description,
                storyWait: StoryWait.whileHolding.map {
                    ChildChannel.StoryWaitBeat(number: $0.number, seconds: $0.seconds)
                })
            ChannelWriter.writeLine(ChildChannel.encode(progress))
        }
    }

    func start() {
        Thread.detachNewThread { [self] in
            rl_quiet_ignore_this_thread()  // the harness's own: never the lab's work
            while !lock.withLock({ stopped }) {
                beat()
                usleep(100_000)
            }
        }
    }

    /// After this returns no progress line is written: the result line is the channel's last,
    /// which the parent relies on to spot a result written by anything else.
    func stop() { lock.withLock { stopped = true } }
}
