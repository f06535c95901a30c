// VALID: an NSCondition and a three-state slot (empty, building, ready): the first caller builds outside the lock, the others wait, and a broadcast wakes every one of them.
import Foundation
import LabKit
import OnceOnlyInit

final class OnceOnlyInitValidConditionBroadcast: OnceOnlyInitController {
    private enum Slot {
        case empty, building
        case ready(OnceOnlyInitCache)
    }

    private let builder: OnceOnlyInitBuilder
    private let condition = NSCondition()
    private var slot = Slot.empty  // only touched with `condition` locked

    init(environment: OnceOnlyInitEnvironment) {
        builder = environment.builder
    }

    var sharedCache: OnceOnlyInitCache {
        condition.lock()
        while true {
            switch slot {
            case .ready(let cache):
                condition.unlock()
                return cache
            case .building:
                condition.wait()  // someone else is building: wait for the broadcast
            case .empty:
                slot = .building
                condition.unlock()
                let cache = builder.build()  // slow, so not under the lock
                condition.lock()
                slot = .ready(cache)
                condition.broadcast()
                condition.unlock()
                return cache
            }
        }
    }
}
