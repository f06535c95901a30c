import Foundation
import LabKit

/// Compiles one part of a lab in Swift 5 mode (the control: it must compile, as it does in the
/// build) and then in Swift 6 mode, against the lab modules of the existing build, and judges
/// the difference. About half a second a part: cheap enough to run on demand, too slow for
/// every `racelab run`, which reads the stored results instead.
public struct CompilerChecker: Sendable {
    public var compiler: SwiftCompiler
    public var build: BuildProducts

    public init(compiler: SwiftCompiler, build: BuildProducts) {
        self.compiler = compiler
        self.build = build
    }

    /// The arguments for one mode. `-emit-sil` rather than `-typecheck`: region-based isolation
    /// ("sending 'x' risks causing data races") is diagnosed on SIL, after type checking.
    public func arguments(_ sources: LabModuleSources, swiftVersion: Int) -> [String] {
        [
            "-emit-sil", "-o", "/dev/null", "-swift-version", "\(swiftVersion)", "-wmo", "-parse-as-library",
            "-module-name", sources.moduleName, "-diagnostic-style", "llvm", "-no-color-diagnostics"
        ]
            + build.searchArguments + sources.moduleArguments + sources.urls.map(\.path)
    }

    /// The result, or why there is none (`CompilerVerdict.Unjudged`).
    public func check(_ sources: LabModuleSources, now: Date = Date()) -> Result<
        CompilerCheckResult, CompilerVerdict.Unjudged
    > {
        guard let digest = sources.digest else {
            return .failure(.init(description: "cannot read the files of Labs/\(sources.labModule)"))
        }
        if let problem = build.problem(checking: sources) { return .failure(.init(description: problem)) }
        var modes: [(status: Int32, diagnostics: [CompilerDiagnostic])] = []
        for version in [5, 6] {
            let output = compiler.run(arguments(sources, swiftVersion: version))
            if output.timedOut {
                return .failure(
                    .init(
                        description:
                            "swiftc took longer than \(Int(compiler.timeout)) s in Swift \(version) mode and was stopped"
                    ))
            }
            modes.append((output.status, DiagnosticParser.parse(output.output)))
        }
        do {
            var result = try CompilerVerdict.judge(
                sources, swift5: modes[0], swift6: modes[1], digest: digest, compiler: compiler.version,
                measuredAt: ISO8601DateFormatter().string(from: now))
            if sources.part == .broken { result.scenarioErrors = scenarioErrors(sources) }
            return .success(result)
        } catch {
            return .failure(error)
        }
    }

    /// The broken module as the build makes it (Scenario.swift with Broken*.swift) in Swift 6
    /// mode: the errors in Scenario.swift. (Compiled apart from the broken files' own check:
    /// a type-checking error anywhere in a module keeps swiftc from its SIL diagnostics.)
    func scenarioErrors(_ sources: LabModuleSources) -> [CompilerDiagnostic] {
        let scenario = sources.folder.appendingPathComponent("Scenario.swift")
        let arguments =
            [
                "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-wmo", "-parse-as-library",
                "-module-name", sources.labModule, "-diagnostic-style", "llvm", "-no-color-diagnostics"
            ]
            + build.searchArguments + [scenario.path] + sources.urls.map(\.path)
        let output = compiler.run(arguments)
        let errors = DiagnosticParser.parse(output.output).filter {
            $0.severity == .error
                && $0.file.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                    == scenario.standardizedFileURL.path
        }
        return CompilerVerdict.inReadingOrder(errors).prefix(CompilerCheckResult.keptDiagnostics).map {
            var copy = $0
            copy.file = "Labs/\(sources.labModule)/Scenario.swift"
            return copy
        }
    }

    /// Checks every part, `jobs` at a time (each swiftc mostly uses one core); the results in
    /// the order given. `onDone` is called as each finishes, from any thread.
    public func check(
        _ parts: [LabModuleSources], jobs: Int,
        onDone: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [Result<CompilerCheckResult, CompilerVerdict.Unjudged>] {
        let results = CheckResults(count: parts.count)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = max(1, jobs)
        for (index, sources) in parts.enumerated() {
            queue.addOperation {
                let finished = results.store(check(sources), at: index)
                onDone(finished)
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        return results.all
    }
}

/// The results of parallel checks, each in its slot.
private final class CheckResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<CompilerCheckResult, CompilerVerdict.Unjudged>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Stores one result; returns how many are in.
    func store(_ result: Result<CompilerCheckResult, CompilerVerdict.Unjudged>, at index: Int) -> Int {
        lock.withLock {
            slots[index] = result
            return slots.filter { $0 != nil }.count
        }
    }

    var all: [Result<CompilerCheckResult, CompilerVerdict.Unjudged>] {
        lock.withLock { slots.map { $0 ?? .failure(.init(description: "not checked")) } }
    }
}
