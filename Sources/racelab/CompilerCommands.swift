import CompilerCheck
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// `racelab compiler-check`'s declaration.
enum CompilerCheckCommand {
    static let labs = CommonOptions.labs
    static let jobs = CommonOptions.jobs
    static let noWrite = Flag("no-write", "only print (a student kit ships that file)")
    static let json = Flag("json", "the results as JSON")
    static let spec = CommandSpec(
        name: "compiler-check",
        summary:
            "compile each lab's broken code, exercise and fixes in Swift 6 language mode (against this build's modules; make build first) and store what it says in Grading/compiler.json: the COMPILER column of run, list and the HTML report",
        options: [labs, jobs, noWrite, json],
        details:
            "exit status: 0 every part measured, 1 one could not be (no swiftc, a stale build, code that does not\ncompile even in Swift 5 mode), 2 bad usage."
    )
}

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
        let labs = try labList(try arguments[CompilerCheckCommand.labs])
        let jobs = try jobs(arguments)
        let root = try requireRoot()
        let compiler: SwiftCompiler
        do throws(SwiftCompiler.NotFound) { compiler = try SwiftCompiler.locate(environment: environment) } catch {
            stderrLine("racelab: \(error.description)")
            return 1
        }
        // The modules racelab-child was built from: the lab modules, as the labs really are.
        let build = BuildProducts(folder: childProgram.deletingLastPathComponent())
        let json = arguments[CompilerCheckCommand.json]
        if !json {
            print(
                "racelab compiler-check: \(labs.count) lab(s) in Swift 6 language mode, \(compiler.version), against \(PackageRoot.relative(build.folder.path, to: root))"
            )
        }
        let parts = labs.flatMap { lab in LabModuleSources.parts.compactMap { LabModuleSources(lab, part: $0) } }
        let live = ProgressLine(enabled: isatty(2) != 0)
        let results = CompilerChecker(compiler: compiler, build: build).check(parts, jobs: jobs) {
            live.show("\($0)/\(parts.count) checked")
        }
        live.clear()
        let outcome = CompilerCheckOutcome(
            parts: parts, results: results, stored: CompilerFile.read(packageAt: root) ?? CompilerFile(results: []))
        if json {
            print(Self.json(outcome))
        } else {
            printCompilerResults(parts, results)
        }
        if !arguments[CompilerCheckCommand.noWrite] && !outcome.measured.isEmpty {
            do { try outcome.file.write(packageAt: root) } catch {
                stderrLine("racelab: cannot write \(CompilerFile.relativePath): \(error.localizedDescription)")
                return 1
            }
            if !json { print("written: \(CompilerFile.relativePath) (\(outcome.measured.count) result(s))") }
        }
        return outcome.unchecked.isEmpty ? 0 : 1
    }

    /// Each lab's name, then a line for each of its parts: what the compiler said, or why not checked.
    func printCompilerResults(
        _ parts: [LabModuleSources], _ results: [Result<CompilerCheckResult, CompilerVerdict.Unjudged>]
    ) {
        var lastLab: String?
        for (sources, result) in zip(parts, results) {
            if sources.lab != lastLab { print(sources.lab) }
            lastLab = sources.lab
            let label = "  " + sources.part.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + "  "
            switch result {
            case .success(let result):
                print(label + result.summary)
                if let note = result.scenarioNote { print(String(repeating: " ", count: label.count) + note) }
            case .failure(let problem):
                print(label + "NOT CHECKED: " + problem.description)
            }
        }
    }
}
