import Dispatch
import LabKit
import ReaderWriter
import Synchronization

/// The same fix in Swift 6 terms: the two fields are one value inside a `Mutex`, so a reader
/// takes the whole name or nothing, and a rename swaps the whole name in one step. The slow
/// typing happens before that step, on a serial queue of the card's own, so renames run one
/// after another in the order the user made them, and readers never wait for the typing.
/// The class is `Sendable`, and Swift 6 checks it: no stored property is a plain `var`.
final class ReaderWriterFixedSwift6: ReaderWriterController, Sendable {
    private let typist: ReaderWriterTypist
    // FIX: first and last name are one value behind one lock: there is no way to read or write half of it.
    private let name: Mutex<(first: String, last: String)>
    // FIX: renames are typed one at a time, in order: the last one asked for is the one that stays.
    private let renames = DispatchQueue(label: "reader-writer.renames")

    init(environment: ReaderWriterEnvironment) {
        typist = environment.typist
        name = Mutex((environment.initialName.first, environment.initialName.last))
    }

    func rename(to newName: ReaderWriterName) {
        let first = newName.first, last = newName.last  // plain strings: Sendable, safe to hand over
        renames.async {
            let typed = (first: self.typist.type(first), last: self.typist.type(last))
            self.name.withLock { $0 = typed }  // FIX: both fields change in one locked step.
        }
    }

    func currentName() -> ReaderWriterName {
        let (first, last) = name.withLock { $0 }  // FIX: one copy of the whole name, taken under the lock.
        return ReaderWriterName(first, last)
    }
}

extension ReaderWriterLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ReaderWriterEnvironment, ReaderWriterController>] {
        [LabVariant(.fixed, name: "fixed-mutex") { ReaderWriterFixedSwift6(environment: $0) }]
    }
}
