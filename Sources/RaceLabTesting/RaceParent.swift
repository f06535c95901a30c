import CRaceLabSupport
import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// The parent side of a ``RaceTest``: each pass in a child (the test program again, on this one
/// test), watched and judged as a lab's run is (`ChildRunner`, `VerdictBuilder`): a race report,
/// a failed check, a crash or a hang is a failure; a child that could not be judged is one too,
/// said as such.
struct RaceParent {
    let test: RaceTest

    /// The base seed: the test's own, else `RACELAB_SEED`, else a random one.
    static func seed(_ given: UInt64?, environment: [String: String] = ProcessInfo.processInfo.environment) -> UInt64 {
        given ?? environment["RACELAB_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...999_999)
    }

    /// The running test program (Linux: the `.xctest` file itself).
    static var testProgram: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }

    func runPasses() throws -> RaceTestSummary {
        let seed = Self.seed(test.seed)
        let replay = "RACELAB_SEED=\(seed) swift test --sanitize=thread --filter \(Self.filter(test))"
        guard rl_tsan_enabled() != 0 else {
            // Without it no race can be seen, and a clean result would say nothing.
            throw RaceTestFailure(
                testName: test.testName, pass: "none", seed: seed,
                message: "\(test.testName): this test program was built without ThreadSanitizer, so a race "
                    + "test cannot judge anything: run the tests with swift test --sanitize=thread",
                replay: replay)
        }
        var tried: [(pass: String, iterations: Int)] = []
        for pass in test.passes {
            let plan = ScenarioPlan(
                lab: "race-test", variant: test.testName, mode: pass.mode, iterations: pass.iterations,
                seed: seed &+ pass.mode.seedOffset)
            let (verdict, child) = try Self.runChild(
                plan, runner: test.runner, hangSeconds: test.hangSeconds, replay: replay)
            if verdict.detected || verdict.harnessError != nil {
                throw RaceTestFailure(
                    testName: test.testName, pass: pass.mode.rawValue, seed: seed,
                    message: Self.explain(verdict, child: child, pass: pass, seed: seed, replay: replay),
                    replay: replay)
            }
            tried.append((pass.mode.rawValue, verdict.iterationsRun))
        }
        return RaceTestSummary(testName: test.testName, seed: seed, passes: tried)
    }

    /// `swift test --filter`'s argument for this test alone: XCTest's name, or Swift Testing's
    /// test ID as an anchored pattern (quoted for a shell).
    static func filter(_ test: RaceTest) -> String {
        switch test.runner {
        case .xctest: test.testName
        case .swiftTesting: "'^" + NSRegularExpression.escapedPattern(for: test.testName) + "$'"
        }
    }

    static func runChild(_ plan: ScenarioPlan, runner: RaceTest.TestRunner, hangSeconds: Double, replay: String) throws
        -> (RunVerdict, ChildOutcome)
    {
        let folder: RunFolder
        do { folder = try RunFolder.make() } catch {
            throw RaceTestFailure(
                testName: plan.variant, pass: plan.mode.rawValue, seed: plan.seed,
                message: "\(plan.variant): could not make a private folder for the child: \(error)", replay: replay)
        }
        defer { folder.remove() }
        let arguments: [String]
        switch runner {
        case .xctest: arguments = [plan.variant]
        case .swiftTesting:
            let only = "^" + NSRegularExpression.escapedPattern(for: plan.variant) + "$"
            arguments = ["--testing-library", "swift-testing", "--filter", only]
        }
        var request = LabRunner.childRequest(
            testProgram, arguments: arguments, folder: folder, stallTimeout: hangSeconds, sandbox: false)
        request.environment[RaceChild.planVariable] = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        // Swift Testing parks the main thread: its dispatch_main lends it to the passes instead.
        if runner == .swiftTesting { request.environment[MainThreadLoan.variable] = "1" }
        request.startupTimeout = 60
        let child = ChildRunner.run(request)
        return (VerdictBuilder.verdict(plan: plan, kind: .fixed, child: child, reproduce: replay), child)
    }

    /// The failure, in words: what was found (each detector's summary), ThreadSanitizer's first
    /// reports explained, the seed and the replay command.
    static func explain(_ verdict: RunVerdict, child: ChildOutcome, pass: RacePass, seed: UInt64, replay: String)
        -> String
    {
        var lines = ["\(verdict.variant): the \(pass.mode.rawValue) pass found a problem (seed \(seed))"]
        if let problem = verdict.harnessError { lines.append("  could not be judged: \(problem)") }
        for detection in verdict.detections {
            let when = detection.iteration.map { " in iteration \($0)" } ?? ""
            lines.append("  \(detection.detector.rawValue)\(when): \(detection.summary)")
        }
        if !verdict.reports.isEmpty {
            let explanation = TSanExplainer.explain(child.stderr, sourceLine: SourceLineReader.lookup())
            lines += ["", explanation.text.trimmingCharacters(in: .newlines)]
        }
        lines += ["", "Replay: \(replay)"]
        return lines.joined(separator: "\n")
    }
}
