import CRaceLabSupport
import Foundation
@_spi(LabAuthoring) import LabKit
import RaceLabHarness

/// `racelab-child`: the process that runs lab code. `racelab` starts it; people do not need to.
///   racelab-child catalog                 every lab's facts and variants, as JSON (for the parent)
///   racelab-child run <lab> --variant ... one variant, some iterations; results on descriptor 3
///   racelab-child probe --outsider PID --outside DIR
///                                         confines itself as a run does, then tries to escape
struct ChildCommand {
    let labs: PlayableLabRegistry

    /// `racelab-child run`'s options, each read by its symbol.
    enum Run {
        static let variant = Option.text("variant", "NAME", "the variant")
        static let mode = Option.runMode("the pass")
        static let iterations = Option.number("iterations", "N", "iterations", in: 1...1_000_000)
        static let seed = Option.unsigned("seed", "S", "the run's seed")
        static let point = Option.explorationPoint("explore only this point")
        static let shard = Option("shard", "I/N", "explore only this share") { text throws(UsageError) in
            guard let shard = ExplorationShard(text) else {
                throw UsageError("--shard must be I/N (0 <= I < N), not '\(text)'")
            }
            return shard
        }
        static let traceFile = Option.text("trace-file", "F", "write the interleaving there")
        static let plain = Flag("plain", "the story with nothing armed")
        static let schedule = Option("schedule", "WAY", "stress: pauses, priority or both", parse: StressSchedule.parse)
        static let spec = CommandSpec(
            program: "racelab-child", name: "run", arguments: "<lab>", positionals: 1...1,
            summary: "run one lab variant in one mode (racelab starts it; not for people)",
            options: [variant, mode, iterations, seed, point, shard, traceFile, plain, schedule])
    }

    /// `racelab-child probe`'s options.
    enum Probe {
        static let outsider = Option.number("outsider", "PID", "a process to signal", in: 1...Int(Int32.max))
        static let outside = Option.text("outside", "DIR", "a folder to read")
        static let spec = CommandSpec(
            program: "racelab-child", name: "probe",
            summary: "try to escape a run's confinement (racelab policy --isolation)", options: [outsider, outside])
    }

    func main(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            switch arguments.first {
            case "catalog":
                ChannelWriter.writeLine(ChildChannel.encode(labs.registry))
                return 0
            case "run":
                // Before any lab code runs, and while no thread of ours exists: for good.
                _ = rl_confine(".")
                try run(ParsedArguments(Array(arguments.dropFirst()), spec: Run.spec))
            case "probe":
                let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: Probe.spec)
                let inForce = rl_confine(".")
                let outsider = try parsed[Probe.outsider] ?? 0
                let escapes =
                    try parsed[Probe.outside].map { rl_confinement_escapes(Int32(outsider), $0) }
                    ?? rl_confinement_escapes(Int32(outsider), nil)
                ChannelWriter.writeLine(ChildChannel.encode(Confinement(inForce: Int(inForce), escapes: Int(escapes))))
                return 0
            default:
                throw UsageError("racelab-child is started by racelab; commands: catalog, run (\(Run.spec.usage))")
            }
        } catch {
            FileHandle.standardError.write(Data("racelab-child: \(error.message)\n".utf8))
            return 2
        }
    }

    func run(_ arguments: ParsedArguments) throws(UsageError) -> Never {
        guard let lab = labs.lab(arguments.positionals[0]) else {
            throw UsageError(
                "unknown lab '\(arguments.positionals[0])'; valid: \(labs.labs.map(\.id).joined(separator: ", "))")
        }
        guard let name = try arguments[Run.variant], lab.variant(named: name) != nil else {
            throw UsageError("run needs --variant, one of \(lab.variants.map(\.name).joined(separator: ", "))")
        }
        guard let mode = try arguments[Run.mode] else {
            throw UsageError("run needs --mode, one of \(RunMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let point = try arguments[Run.point]
        var plan = ScenarioPlan(
            lab: lab.id, variant: name, mode: mode, iterations: try arguments[Run.iterations] ?? 1,
            seed: try arguments[Run.seed] ?? 0, point: point)
        plan.shard = try arguments[Run.shard]
        if arguments[Run.plain] { plan.plain = true }
        if let ways = try arguments[Run.schedule], ways.count == 1 { plan.schedule = ways[0] }
        rl_thread_limit_set(RL_LAB_THREAD_LIMIT, 1)  // before any lab code: see the header
        ChildSession.run(lab, plan: plan, traceFile: try arguments[Run.traceFile])
    }
}
