import LabKit
import AtomicProperty
import Synchronization

/// The same fix in Swift 6 terms (this file is built in the Swift 6 language mode), without a lock: the count is an `Atomic`, and an update is a
/// compare-and-exchange that lands only if the count is still the one the work started from.
/// If another download got in first, the exchange fails, hands back the newer count, and this
/// download does its work again from there. Nothing waits; a lost race costs a retry, not an
/// update. The class is `Sendable`, and Swift 6 accepts it: every stored property is.
final class AtomicPropertyFixedSwift6: AtomicPropertyController, Sendable {
    private let progress: AtomicPropertyProgress
    private let count = Atomic<Int>(0)

    init(progress: AtomicPropertyProgress) {
        self.progress = progress
    }

    // Sequentially consistent: the strongest ordering, and the easiest to reason about.
    var finished: Int { count.load(ordering: .sequentiallyConsistent) }

    func downloadFinished() {
        var seen = count.load(ordering: .sequentiallyConsistent)
        while true {
            let next = progress.oneMore(than: seen)
            // FIX: the write happens only if nobody changed the count since `seen` was read;
            // otherwise `current` is the newer count and the loop works it out again.
            let (exchanged, current) = count.compareExchange(expected: seen, desired: next, ordering: .sequentiallyConsistent)
            if exchanged { return }
            seen = current
        }
    }
}

extension AtomicPropertyLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<AtomicPropertyProgress, AtomicPropertyController>] {
        [LabVariant(.fixed, name: "fixed-atomic") { AtomicPropertyFixedSwift6(progress: $0) }]
    }
}
