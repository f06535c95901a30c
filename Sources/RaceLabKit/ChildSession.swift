import CRaceLabSupport
import Foundation
import Synchronization

/// The child side of a run: dies with its parent, sends heartbeats from a harness thread, runs
/// the scenario on the main thread and sends one result line.
public enum ChildSession {
    public static func run(_ lab: Lab, plan: ScenarioPlan, traceFile: String? = nil) -> Never {
        _ = rl_die_with_parent()
        if let traceFile { TraceFile.attach(traceFile) }
        let heartbeat = Heartbeat()
        heartbeat.start()
        let outcome = ScenarioDriver.run(
            lab, plan: plan, onIteration: { heartbeat.iteration.store($0, ordering: .relaxed) },
            onFailure: { StandardOutput.writeLine(ChildChannel.encode($0)) })
        heartbeat.stop()
        StandardOutput.writeLine(ChildChannel.encode(outcome, key: ChannelAuthentication.receivedKey))
        exit(0)
    }
}

/// Sends a progress line every 100 ms. It reads only the checkpoint counters (invisible to TSan)
/// and its own atomic, so it adds no synchronisation between the lab's threads.
private final class Heartbeat: Sendable {
    let iteration = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)

    func start() {
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                let progress = ChildChannel.Progress(
                    iteration: iteration.load(ordering: .relaxed),
                    checkpointHits: Checkpoint.activity,
                    threads: Checkpoint.threadPositions())
                StandardOutput.writeLine(ChildChannel.encode(progress))
                usleep(100_000)
            }
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

/// Whole lines to stdout from several threads without interleaving.
/// (NSLock, not Synchronization.Mutex: on Linux TSan does not see Mutex as synchronisation.)
enum StandardOutput {
    private static let lock = NSLock()

    static func writeLine(_ line: String) {
        lock.withLock {
            var bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { if errno == EINTR { continue }; return }
                offset += written
            }
        }
    }
}
