import Foundation

/// One student's time on one lab, kept in their progress file: from the first thing they did
/// with the lab (`racelab run LAB`, which `make lab` starts with, a check or a hint) to their
/// first passing `racelab check`. Only the student's own commands write it; nothing is sent
/// anywhere (an instructor sees it only if the student hands in the progress file).
public struct LabTimeline: Codable, Sendable, Equatable {
    public var started: Date
    public var firstPassed: Date?
    /// Checks up to and including the first passing one.
    public var checksToPass = 0
    /// Hints shown before the first passing check.
    public var hintsToPass = 0

    public init(started: Date) {
        self.started = started
    }

    mutating func checked(passing: Bool, at date: Date) {
        guard firstPassed == nil else { return }
        checksToPass += 1
        if passing { firstPassed = max(date, started) }
    }

    mutating func hinted() {
        if firstPassed == nil { hintsToPass += 1 }
    }

    /// Minutes from the start to the first pass; nil while the lab has not passed.
    public var minutesToPass: Double? {
        firstPassed.map { $0.timeIntervalSince(started) / 60 }
    }

    /// "under a minute", "1 min", "23 min", "2 h 05 min".
    public static func describe(minutes: Double) -> String {
        let whole = Int(minutes.rounded())
        if minutes < 0.5 { return "under a minute" }
        if whole < 60 { return "\(whole) min" }
        return "\(whole / 60) h \(String(format: "%02d", whole % 60)) min"
    }
}
