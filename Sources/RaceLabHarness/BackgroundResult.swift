import Dispatch

/// A value worked out on another thread while the caller does something else; `value` waits
/// for it. (The group's wait is the happens-before edge that makes reading it safe.)
public final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
    private var result: Value?
    private let group = DispatchGroup()

    public init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async(group: group) { self.result = work() }
    }

    public var value: Value {
        group.wait()
        return result!
    }
}
