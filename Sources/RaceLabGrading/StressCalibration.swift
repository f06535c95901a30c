import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// How readily the stress pass catches an unfixed exercise, measured on the lab's broken variant
/// (an exercise ships as a copy of it). Each sample is one child running the broken variant in
/// stress mode until something fires (or up to a cap); the iterations it took are its sample.
///
/// Iterations are independent trials (each has its own seed and fresh objects), so the number
/// of clean iterations before the first detection is geometric: with `d` detections in `t`
/// iterations, `p = d / t` per iteration, and an unfixed exercise survives `n` iterations with
/// chance `(1 - p)^n`. The grade uses a 95% lower bound on `p`, so the chance it reports is an
/// upper bound, and picks `n` so that chance is below the target.
public struct StressCalibration: Codable, Sendable, Equatable {
    public var lab: String
    public var variant: String
    /// SHA-256 over the lab's Scenario.swift and Broken*.swift when measured: a calibration
    /// is used only while they are unchanged.
    public var sourceDigest: String?
    public var seed: UInt64
    public var iterationCap: Int
    /// Per judged sample: iterations run (up to and including the one that detected).
    public var iterationsRun: [Int]
    /// Per judged sample: whether a detector fired.
    public var detected: [Bool]
    /// Samples that could not be judged (left out of the numbers above).
    public var harnessErrors: Int
    /// The scripted pass on the broken variant: runs, and how many caught it.
    public var scriptedRuns: Int
    public var scriptedCaught: Int
    public var measuredAt: String

    public var samples: Int { iterationsRun.count }
    public var detections: Int { detected.filter { $0 }.count }
    public var trials: Int { iterationsRun.map { max($0, 1) }.reduce(0, +) }
    /// The most iterations any sample needed before it was caught.
    public var longestToDetection: Int { zip(iterationsRun, detected).filter(\.1).map(\.0).max() ?? 0 }

    /// Estimated chance that one stress iteration catches the broken variant.
    public var perIteration: Double { trials == 0 ? 0 : Double(detections) / Double(trials) }

    /// One-sided 95% lower bound on `perIteration` (Poisson count, Wilson-Hilferty chi-square).
    public var perIterationLowerBound: Double {
        guard detections > 0, trials > 0 else { return 0 }
        let k = Double(2 * detections)
        let z = -1.6448536
        let chiSquare = k * pow(1 - 2 / (9 * k) + z * (2 / (9 * k)).squareRoot(), 3)
        return min(perIteration, max(0, chiSquare / 2 / Double(trials)))
    }

    /// Total stress iterations after which an unfixed exercise is still clean with chance below
    /// `target` (at the lower bound); nil when the broken variant was never caught in stress mode.
    public func iterationsNeeded(target: Double) -> Int? {
        let p = perIterationLowerBound
        guard p > 0 else { return nil }
        if p >= 1 { return 1 }
        return Int((log(target) / log(1 - p)).rounded(.up))
    }

    /// log10 of the chance that an unfixed exercise stays clean for `iterations`: the estimate
    /// and the 95% upper bound. (Logarithms: the chances are often far below Double's range.)
    public func log10ChanceUnfixedPasses(iterations: Int) -> (estimate: Double, upperBound: Double) {
        func chance(_ p: Double) -> Double { p >= 1 ? -Double.infinity : Double(iterations) * log10(1 - p) }
        return (chance(perIteration), chance(perIterationLowerBound))
    }

    /// "caught in 40 of 40 runs within 39 iterations (463 iterations in all: 0.086 per iteration, at least 0.066)".
    public var summary: String {
        var text = "broken variant caught in \(detections) of \(samples) stress runs"
        if detections > 0 { text += " within \(longestToDetection) iteration(s)" }
        text += String(
            format: " (%d iterations in all: %.3g per iteration, at least %.3g)", trials, perIteration,
            perIterationLowerBound)
        if scriptedRuns > 0 { text += "; scripted: caught in \(scriptedCaught) of \(scriptedRuns) runs" }
        return text
    }

    /// "3e-12", "< 1e-300", "1".
    public static func formatChance(log10 value: Double) -> String {
        if value == -.infinity || value < -300 { return "< 1e-300" }
        if value >= 0 { return "1" }
        return String(format: "%.0e", pow(10, value))
    }
}

/// `Grading/calibration.json`: the measurements `racelab calibrate` made, shipped with the kit.
public struct CalibrationFile: Codable, Sendable {
    public static let relativePath = "Grading/calibration.json"
    public var labs: [StressCalibration]

    public init(labs: [StressCalibration]) { self.labs = labs.sorted { $0.lab < $1.lab } }

    public static func read(packageAt root: URL) -> CalibrationFile? {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(relativePath)) else { return nil }
        return try? JSONDecoder().decode(CalibrationFile.self, from: data)
    }

    public func write(packageAt root: URL) throws {
        let url = root.appendingPathComponent(Self.relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var text = String(decoding: try encoder.encode(self), as: UTF8.self)
        // Arrays of numbers and booleans on one line each: hundreds of samples stay readable.
        let scalars = try NSRegularExpression(pattern: #"\[\s*\n([\s0-9a-z.,-]*?)\n\s*\]"#)
        for match in scalars.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let whole = Range(match.range, in: text), let inner = Range(match.range(at: 1), in: text) else {
                continue
            }
            let items = text[inner].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            text.replaceSubrange(whole, with: "[" + items.joined(separator: ", ") + "]")
        }
        try Data((text + "\n").utf8).write(to: url)
    }

    /// The calibration of `lab` if its sources are unchanged since it was measured.
    public func current(for lab: Lab) -> StressCalibration? {
        let digest = Calibrator.sourceDigest(lab)
        return labs.first { $0.lab == lab.id && (digest == nil || $0.sourceDigest == digest) }
    }

    /// The ids of those of `labs` this file has no current calibration for (grading measures
    /// each of them again every time).
    public func uncalibrated(_ labs: [Lab]) -> [String] { labs.filter { current(for: $0) == nil }.map(\.id) }

    /// This file with `calibration` added or replaced.
    public func replacing(_ calibration: StressCalibration) -> CalibrationFile {
        CalibrationFile(labs: labs.filter { $0.lab != calibration.lab } + [calibration])
    }
}

/// Measures a lab's broken variant (`racelab calibrate`, or on the fly when grading a lab that
/// has no current calibration).
public enum Calibrator {
    public struct Settings: Sendable {
        public var samples = 40
        public var iterationCap = 2_000
        public var scriptedRuns = 10
        public var seed: UInt64 = 1
        /// Children at once. The rate measured holds for grading at the same parallelism
        /// (children side by side run a little slower, which can change how soon a bug shows).
        public var jobs = 1
        public init() {}
    }

    /// SHA-256 over the lab's Scenario.swift and Broken*.swift (what decides how the broken
    /// variant behaves); nil when the lab's folder cannot be read.
    public static func sourceDigest(_ lab: Lab) -> String? {
        let folder = lab.info.folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        let relevant = names.filter { $0 == "Scenario.swift" || ($0.hasPrefix("Broken") && $0.hasSuffix(".swift")) }
            .sorted()
        guard relevant.contains("Scenario.swift") else { return nil }
        var hasher = SHA256()
        for name in relevant {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            hasher.update(Array("\(name)\n".utf8) + Array(data))
        }
        return SHA256.hexString(hasher.finalize())
    }

    /// Runs the broken variant `settings.samples` times in stress mode (each up to
    /// `iterationCap` iterations, stopping at the first detection) and `scriptedRuns` times
    /// scripted. nil when the lab has no broken variant.
    public static func measure(
        _ lab: Lab, executable: URL, settings: Settings = Settings(),
        onRun: @escaping @Sendable (String) -> Void = { _ in }
    ) -> StressCalibration? {
        guard let broken = lab.variants.first(where: { $0.kind == .broken }) else { return nil }
        var stress = RunSettings(
            executable: executable, iterations: settings.iterationCap, runs: settings.samples, seed: settings.seed)
        stress.programName = "racelab"
        stress.jobs = settings.jobs
        let stressOutcome = LabRunner.run(lab, variant: broken, mode: .stress, settings: stress) {
            onRun("stress run \($0)/\(settings.samples)")
        }
        let judged = stressOutcome.runs.filter { $0.harnessError == nil }
        var scriptedCaught = 0
        var scriptedRuns = 0
        if settings.scriptedRuns > 0 {
            var scripted = RunSettings(executable: executable, runs: settings.scriptedRuns, seed: settings.seed)
            scripted.jobs = settings.jobs
            let outcome = LabRunner.run(lab, variant: broken, mode: .scripted, settings: scripted) {
                onRun("scripted run \($0)/\(settings.scriptedRuns)")
            }
            scriptedRuns = outcome.runs.count - outcome.harnessErrors
            scriptedCaught = outcome.detectedRuns
        }
        return StressCalibration(
            lab: lab.id, variant: broken.name, sourceDigest: sourceDigest(lab), seed: settings.seed,
            iterationCap: settings.iterationCap,
            iterationsRun: judged.map { max($0.iterationsRun, 1) }, detected: judged.map(\.detected),
            harnessErrors: stressOutcome.harnessErrors, scriptedRuns: scriptedRuns, scriptedCaught: scriptedCaught,
            measuredAt: ISO8601DateFormatter().string(from: Date()))
    }
}
