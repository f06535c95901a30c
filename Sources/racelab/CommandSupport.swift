import CRaceLabSupport
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness

/// What the commands share: the package root, the TSan check, children at once, lab lists,
/// output paths.
extension RaceLabCommandLine {
    // MARK: Shared

    var packageRoot: URL? { PackageRoot.locate(try? registry) }

    func requireRoot() throws(UsageError) -> URL {
        guard let root = packageRoot else {
            throw UsageError(
                "cannot find the package's sources (a folder with Package.swift and Labs/); run racelab from inside the package"
            )
        }
        return root
    }

    /// What every command that judges races says of a racelab built without TSan (one place).
    static let builtWithoutTSan =
        "this racelab was built without ThreadSanitizer, so it cannot judge races: " + HarnessProblem.tsanAdvice

    func requireTSan() throws(UsageError) {
        guard rl_tsan_enabled() != 0 else { throw UsageError(Self.builtWithoutTSan) }
    }

    /// `--jobs N` (children at once), else `RACELAB_JOBS`, else four times the cores.
    func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments[CommonOptions.jobs] ?? ChildPool.defaultJobs(environment: environment)
    }

    func lab(_ id: String) throws(UsageError) -> Lab {
        guard let lab = try registry.lab(id) else {
            throw UsageError("unknown lab '\(id)'; valid: \(try registry.ids.joined(separator: ", "))")
        }
        return lab
    }

    /// `--labs a,b` (`CommonOptions.labs`): those labs, each known; nil: every lab.
    func labList(_ text: String?) throws(UsageError) -> [Lab] {
        guard let text else { return try registry.labs }
        var labs: [Lab] = []
        for id in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !id.isEmpty {
            labs.append(try lab(id))
        }
        guard !labs.isEmpty else {
            throw UsageError(
                "--labs needs lab ids, e.g. --labs \(try registry.ids.prefix(2).joined(separator: ",")); valid: \(try registry.ids.joined(separator: ", "))"
            )
        }
        return labs
    }

    // MARK: Output paths

    /// A file the command writes, checked before any work (a typo in a path then costs nothing and
    /// creates nothing): its folder must exist and be writable.
    func checkOutput(file path: String?, option: String, what: String) throws(UsageError) {
        guard let path, let problem = OutputFile.problem(writing: path) else { return }
        throw UsageError("cannot write \(what): \(problem); give \(option) a file in a folder you can write")
    }

    /// A folder the command writes into (made if it is not there: its last part only), checked
    /// the same way: it, or else its parent folder, must exist and be writable.
    func checkOutput(folder: URL, option: String, what: String) throws(UsageError) {
        guard let problem = OutputFile.problem(writingInto: folder) else { return }
        throw UsageError(
            "cannot write \(what) into '\(folder.path)': \(problem); give \(option) a folder you can write, "
                + "in a folder that exists")
    }

    /// How reproduce commands name racelab: as invoked, but relative to the package when the
    /// binary is inside it (grade-all runs a scratch copy that is gone by the time anyone reads
    /// the report; the relative path works in the student's own copy).
    var program: String {
        let invoked = CommandLine.arguments.first ?? "racelab"
        guard invoked.hasPrefix("/"), let root = packageRoot else { return invoked }
        let relative = PackageRoot.relative(invoked, to: root)
        return relative == invoked ? invoked : relative
    }
}
