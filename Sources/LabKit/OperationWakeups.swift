import CRaceLabSupport
import Foundation
import Synchronization

/// Operations that Foundation on Linux forgot to start. swift-corelibs-foundation's
/// OperationQueue can lose an operation's wake-up: when the operation's last dependency finishes
/// on another thread while the operation is being added to its queue, the queue can miss that it
/// became ready, and the operation waits there for ever (measured: 3 to 5 in 200,000 adds in a
/// program that did nothing else; Apple's Foundation starts it). A valid fix would then fail now and then, for
/// Foundation's fault, not the student's. So before the harness calls the app quiet, each
/// operation still waiting in a queue it can see, though all its dependencies have finished, is
/// told once that it is ready, as Apple's KVO tells its queue: the queue starts it, and the app
/// is busy again. An operation its
/// queue cannot start (the queue is full or suspended) stays where it is, and quiet comes.
///
/// The queues it can see: the main operation queue, every `OperationQueue` a variant's object
/// keeps in a stored property (the object `LabVariant.make` returned), and those a scenario hands
/// to `watch`. The harness does this unseen by ThreadSanitizer: it orders no thread after another.
public enum OperationWakeups {
    private struct Watched {
        var objects: [Weak] = []  // looked into again at each wake-up
        var queues: [Weak] = []
        var told: Set<ObjectIdentifier> = []
    }
    private static let watched = Mutex(Watched())

    /// A new story: forget the last one's objects.
    static func beginStory() {
        watched.withLock { $0 = Watched() }
    }

    /// Watch `subject`'s queues for this story: `subject` itself if it is an `OperationQueue`,
    /// else the queues in its stored properties (its superclasses' included). An object is
    /// looked at again each time (held weakly); a value, now. Returns `subject`.
    @discardableResult
    public static func watch<Subject>(_ subject: Subject) -> Subject {
        #if os(Linux)
            if Mirror(reflecting: subject).displayStyle == .class {
                let object = Weak(subject as AnyObject)
                watched.withLock { $0.objects.append(object) }
            } else {
                let found = queues(in: subject).map { Weak($0) }
                watched.withLock { $0.queues += found }
            }
        #endif
        return subject
    }

    /// Tells each ready operation its queue has not started that it is ready (once per story);
    /// true when there was one (its queue may start it now: the app is not quiet yet). Call it on
    /// the main thread once every lab thread is waiting: it runs Foundation's code and the
    /// operation's `isReady` there, which must not wait for a thread paused in the story.
    static func wakeForgotten() -> Bool {
        #if os(Linux)
            guard rl_quiet_any_paused() == 0 else { return false }
            rl_tsan_unseen_begin()
            defer { rl_tsan_unseen_end() }
            let (objects, kept) = watched.withLock { ($0.objects, $0.queues) }
            var queues = [OperationQueue.main] + kept.compactMap { $0.object as? OperationQueue }
            for object in objects { if let object = object.object { queues += self.queues(in: object) } }
            var woken = false
            for queue in queues {
                for operation in queue.operations where forgotten(operation) {
                    let first = watched.withLock { $0.told.insert(ObjectIdentifier(operation)).inserted }
                    guard first else { continue }
                    operation.didChangeValue(forKey: "isReady")
                    woken = true
                }
            }
            return woken
        #else
            return false  // Apple's Foundation does not lose the wake-up
        #endif
    }

    /// Waiting in its queue although every one of its dependencies has finished: the one state
    /// the lost wake-up leaves (an operation with no dependency is never woken this way).
    private static func forgotten(_ operation: Operation) -> Bool {
        let dependencies = operation.dependencies
        return !dependencies.isEmpty && dependencies.allSatisfy(\.isFinished) && !operation.isExecuting
            && !operation.isFinished && operation.isReady
    }

    private static func queues(in subject: Any) -> [OperationQueue] {
        if let queue = subject as? OperationQueue { return [queue] }
        var found: [OperationQueue] = []
        var mirror: Mirror? = Mirror(reflecting: subject)
        while let current = mirror {
            for child in current.children {
                if let queue = child.value as? OperationQueue { found.append(queue) }
            }
            mirror = current.superclassMirror
        }
        return found
    }

    /// Held weakly: watching keeps nothing alive. Read on the main thread only.
    private struct Weak: @unchecked Sendable {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }
}
