import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness
import Synchronization

/// `racelab watch`'s declaration.
enum WatchCommand {
    static let spec = CommandSpec(
        name: "watch", arguments: "[<lab>]", positionals: 0...1,
        summary: "check the lab again each time its exercise is saved (h and Enter: a hint; q and Enter: stop)")
}

/// `racelab watch [LAB]`: the student loop without switching windows. Checks the lab now (when
/// one is named), then again each time one of its exercise files is saved; `h` and Enter shows
/// the next hint, `q` and Enter (or Ctrl-C) ends it.
extension RaceLabCommandLine {
    func watch(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        var named: Lab?
        if let id = arguments.positionals.first { named = try lab(id) }
        try requireTSan()
        let labs: [Lab]
        if let named { labs = [named] } else { labs = try registry.labs }
        var watcher = ExerciseWatcher(labs: labs)
        let keys = KeyLines()
        var current = named
        print(
            named.map {
                "racelab watch: checking \($0.id) now, then each time you save its exercise (\(files(of: $0)))."
            }
                ?? "racelab watch: each time you save an exercise (Labs/*/Exercise.swift), its lab is checked.")
        print("Type h and Enter for a hint, q and Enter to stop (or Ctrl-C).\n")
        if let lab = named { _ = try check(ParsedArguments([lab.id], spec: CheckCommand.spec)) }
        while true {
            for line in keys.take() {
                switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                case "q", "quit": return 0
                case "h", "hint":
                    if let lab = current {
                        _ = try hint(ParsedArguments([lab.id], spec: HintCommand.spec))
                    } else {
                        print(
                            "racelab watch: hints are per lab; save an exercise first, or start with racelab watch LAB")
                    }
                case "": break
                default: print("racelab watch: h and Enter for a hint, q and Enter to stop")
                }
            }
            for lab in watcher.savedLabs() {
                current = lab
                print("\n=== \(lab.id): \(files(of: lab)) saved at \(Self.clock(Date())): checking ===\n")
                _ = try check(ParsedArguments([lab.id], spec: CheckCommand.spec))
                print("\nWatching. h and Enter: a hint; q and Enter: stop.")
                _ = watcher.savedLabs()  // a build's own touches are not a save
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    private func files(of lab: Lab) -> String {
        ExerciseChecks.exerciseFiles(of: lab).map {
            PackageRoot.relative($0.path, to: packageRoot ?? URL(fileURLWithPath: "/"))
        }
        .joined(separator: ", ")
    }

    private static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}

/// Lines typed on standard input, read on a thread of their own; none once it is closed (not a
/// terminal: the watch goes on, keys or not).
final class KeyLines: Sendable {
    private let lines = Mutex<[String]>([])

    init() {
        Thread.detachNewThread { [self] in
            while let line = readLine() { lines.withLock { $0.append(line) } }
        }
    }

    func take() -> [String] {
        lines.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }
}
