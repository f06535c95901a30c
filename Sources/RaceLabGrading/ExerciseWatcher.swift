import Foundation
import LabKit

/// `racelab watch`: which labs' exercise files were saved since the last look. A file counts as
/// saved when its modification date or size changed, or it appeared or went away (editors that
/// save by replacing the file). Polled: no platform file-event API, and two looks a second cost
/// nothing beside a check.
public struct ExerciseWatcher {
    public let labs: [Lab]
    private var seen: [String: Stamp] = [:]

    struct Stamp: Equatable {
        var modified: Date
        var size: Int
    }

    /// Watches the exercise files of `labs`, as they are now.
    public init(labs: [Lab]) {
        self.labs = labs
        seen = Self.stamps(of: labs)
    }

    /// The labs (in `labs`' order) with an exercise file saved since the last call (or `init`).
    public mutating func savedLabs() -> [Lab] {
        let now = Self.stamps(of: labs)
        defer { seen = now }
        return labs.filter { lab in
            let prefix = lab.info.folder.path + "/"
            let keys = Set(now.keys.filter { $0.hasPrefix(prefix) }).union(seen.keys.filter { $0.hasPrefix(prefix) })
            return keys.contains { now[$0] != seen[$0] }
        }
    }

    static func stamps(of labs: [Lab]) -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        for lab in labs {
            for file in ExerciseChecks.exerciseFiles(of: lab) {
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path) else { continue }
                stamps[file.path] = Stamp(
                    modified: attributes[.modificationDate] as? Date ?? .distantPast,
                    size: (attributes[.size] as? NSNumber)?.intValue ?? -1)
            }
        }
        return stamps
    }
}
