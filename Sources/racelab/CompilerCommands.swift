import CompilerCheck
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// `racelab compiler-check`: each lab's broken code, exercise and fixes compiled in Swift 6
/// language mode, the results kept in Grading/compiler.json for `run`, `list` and the HTML report.
/// Thin: the work is done by CompilerChecker.
extension RaceLabCommandLine {
    /// The findings for `labs` from the package's Grading/compiler.json, as current for their
    /// sources now.
    func compilerFindings(_ labs: [Lab]) -> [CompilerFinding] {
        CompilerFinding.current(for: labs, in: packageRoot.flatMap(CompilerFile.read))
    }

    func compilerCheck(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let labs = try labList(arguments.string("labs"))
        let jobs = try jobs(arguments)
        let root = try requireRoot()
        let compiler: SwiftCompiler
        do throws(SwiftCompiler.NotFound) { compiler = try SwiftCompiler.locate(environment: environment) } catch {
            stderrLine("racelab: \(error.description)")
            return 1
        }
        // The modules racelab-child was built from: the lab modules, as the labs really are.
        let build = BuildProducts(folder: childProgram.deletingLastPathComponent())
        let checker = CompilerChecker(compiler: compiler, build: build)
        let json = arguments.has("json")
        if !json {
            print(
                "racelab compiler-check: \(labs.count) lab(s) in Swift 6 language mode, \(compiler.version), against \(PackageRoot.relative(build.folder.path, to: root))"
            )
        }
        struct Unchecked: Codable {
            let lab: String
            let part: VariantKind
            let reason: String
        }
        var file = CompilerFile.read(packageAt: root) ?? CompilerFile(results: [])
        var measured: [CompilerCheckResult] = []
        var unchecked: [Unchecked] = []
        let parts = labs.flatMap { lab in LabModuleSources.parts.compactMap { LabModuleSources(lab, part: $0) } }
        let live = ProgressLine(enabled: isatty(2) != 0)
        let results = checker.check(parts, jobs: jobs) { live.show("\($0)/\(parts.count) checked") }
        live.clear()
        var lastLab: String?
        for (sources, result) in zip(parts, results) {
            if !json && sources.lab != lastLab { print(sources.lab) }
            lastLab = sources.lab
            let label = "  " + sources.part.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + "  "
            switch result {
            case .success(let result):
                measured.append(result)
                file = file.replacing(result)
                if !json {
                    print(label + result.summary)
                    if let note = result.scenarioNote { print(String(repeating: " ", count: label.count) + note) }
                }
            case .failure(let problem):
                unchecked.append(Unchecked(lab: sources.lab, part: sources.part, reason: problem.description))
                if !json { print(label + "NOT CHECKED: " + problem.description) }
            }
        }
        if json {
            struct Answer: Codable {
                let results: [CompilerCheckResult]
                let unchecked: [Unchecked]
            }
            print(Self.json(Answer(results: measured, unchecked: unchecked)))
        }
        if !arguments.has("no-write") && !measured.isEmpty {
            do { try file.write(packageAt: root) } catch {
                stderrLine("racelab: cannot write \(CompilerFile.relativePath): \(error.localizedDescription)")
                return 1
            }
            if !json { print("written: \(CompilerFile.relativePath) (\(measured.count) result(s))") }
        }
        return unchecked.isEmpty ? 0 : 1
    }
}
