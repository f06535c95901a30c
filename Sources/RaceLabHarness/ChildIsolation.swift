import CRaceLabSupport
import Foundation

/// What a confined child put in force and what it could still do (`racelab-child probe`).
public struct Confinement: Codable, Sendable, Equatable {
    /// RL_CONFINED_* bits (CRaceLabConfinement.h).
    public var inForce: Int
    /// RL_ESCAPE_* bits: what the probe still managed to do.
    public var escapes: Int

    public init(inForce: Int, escapes: Int) {
        self.inForce = inForce
        self.escapes = escapes
    }
}

/// How children that run lab code are isolated on this machine, as measured rather than
/// assumed: a probe child, started exactly as a lab's child is (sandbox, private run folder,
/// environment), confines itself the way a run does and then tries each way out for real.
/// Reports and `racelab check` say what it found, so a grade made where the operating system
/// gives less (a container without namespaces, a Mac) says so.
public struct ChildIsolation: Sendable, Equatable {
    /// What the probe found; nil when it did not answer (`problem` says why).
    public var confinement: Confinement?
    /// Whether children run in `ChildSandbox` (mount, network and PID namespaces).
    public var sandboxed: Bool
    /// The kernel's limits on each child's tasks and memory, when in force (the probe child
    /// itself ran in them).
    public var limits: ChildLimits? { sandboxed ? ChildLimits.here : nil }
    public var problem: String?

    /// Every way out refused, and the file system read-only and the network gone.
    public var isComplete: Bool { confinement?.escapes == 0 && sandboxed }

    /// What the kernel refused the probe, in words.
    public var refused: [String] {
        guard let confinement else { return [] }
        var words: [String] = []
        for (bit, text) in Self.escapeWords where confinement.escapes & bit == 0 { words.append(text.refused) }
        if sandboxed { words.append("a read-only file system outside their run folder") }
        if confinement.inForce & Int(RL_CONFINED_NO_CAPABILITIES) != 0 { words.append("no capabilities") }
        if confinement.inForce & Int(RL_CONFINED_LIMITS) != 0 { words.append("resource limits") }
        if let limits {
            words.append(
                "at most \(RL_LAB_THREAD_LIMIT) live threads (RaceLab's count) and, by the kernel, \(ChildLimits.tasksPerChild) tasks and \(ChildLimits.memoryPerChild >> 20) MiB of memory each, at most \(limits.slots) at once (fewer while other graders' runs take the room)"
            )
        }
        return words
    }

    /// What a child could still do here, in words.
    public var open: [String] {
        guard let confinement else {
            return ["anything its user can (the isolation probe did not answer: \(problem ?? "no reason given"))"]
        }
        return Self.escapeWords.filter { confinement.escapes & $0.bit != 0 }.map(\.text.open)
            + (limits == nil && sandboxed
                ? [
                    "use as many tasks and as much memory as the machine has (no kernel limits: \(ChildLimits.missingReason))"
                ]
                : [])
    }

    /// One line for reports.
    public var summary: String {
        let refusedText =
            refused.isEmpty ? "" : "children are confined (measured by a probe): " + refused.joined(separator: ", ")
        guard !open.isEmpty else { return refusedText }
        return (refusedText.isEmpty ? "" : refusedText + ". ") + "NOT in force on this machine: children could "
            + open.joined(separator: ", ") + "; a submission could harm other students' runs or the grader"
    }

    static let escapeWords: [(bit: Int, text: (refused: String, open: String))] = [
        (
            Int(RL_ESCAPE_PROCESS_TABLE),
            (
                "a PID namespace of their own (no other process in sight; all they start dies with them)",
                "see the machine's other processes"
            )
        ),
        (Int(RL_ESCAPE_PROCESS), ("no new processes", "start processes")),
        (Int(RL_ESCAPE_PROGRAM), ("no other programs", "run other programs")),
        (
            Int(RL_ESCAPE_SIGNAL),
            ("signals only to themselves", "signal processes outside themselves (the grader, other students' runs)")
        ),
        (Int(RL_ESCAPE_WRITE), ("writes only in their run folder", "write files outside their run folder")),
        (
            Int(RL_ESCAPE_READ),
            (
                "reads only the system's files and their own (not the grader's workspace or other submissions)",
                "read files outside the system's and their own (the grader's workspace, other submissions)"
            )
        ),
        (Int(RL_ESCAPE_SOCKET), ("no network", "open network sockets"))
    ]

    private static let cache = IsolationCache()

    /// The isolation children of `executable` get here (probed once per program and setting).
    public static func probe(executable: URL, sandbox: Bool = true) -> ChildIsolation {
        let key = "\(executable.path)|\(sandbox)"
        if let known = cache.value(for: key) { return known }
        let measured = measure(executable: executable, sandbox: sandbox)
        cache.store(measured, for: key)
        return measured
    }

    /// A fresh measurement (`probe` keeps one per program).
    public static func measure(executable: URL, sandbox: Bool) -> ChildIsolation {
        let sandboxed = sandbox && ChildSandbox.unshare != nil
        func failed(_ problem: String) -> ChildIsolation {
            ChildIsolation(confinement: nil, sandboxed: sandboxed, problem: problem)
        }
        let folder: RunFolder
        let outside: URL
        do {
            folder = try RunFolder.make()
            outside = try RunFolder.privateFolder(named: "racelab-isolation-probe")
            try Data("not yours".utf8).write(to: outside.appendingPathComponent("secret"))
        } catch let error as RunFolder.SetupError {
            return failed(error.description)
        } catch {
            return failed("\(error)")
        }
        defer {
            folder.remove()
            try? FileManager.default.removeItem(at: outside)
            Interruption.untrack(folder: outside)
        }
        let request = LabRunner.childRequest(
            executable, arguments: ["probe", "--outsider", String(getpid()), "--outside", outside.path], folder: folder,
            stallTimeout: 30, sandbox: sandbox)
        let child = ChildRunner.run(request)
        guard child.confinements.count == 1, child.ending == .exited(0) else {
            let why = child.stderr.split(separator: "\n").last.map(String.init) ?? "\(child.ending)"
            return failed("\(executable.lastPathComponent) probe: \(why)")
        }
        return ChildIsolation(confinement: child.confinements[0], sandboxed: sandboxed, problem: nil)
    }
}

private final class IsolationCache: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: ChildIsolation] = [:]
    func value(for key: String) -> ChildIsolation? { lock.withLock { values[key] } }
    func store(_ value: ChildIsolation, for key: String) { lock.withLock { values[key] = value } }
}
