/// Data races of every flavour (plain, Swift access, an annotated library object, a C++ vptr):
/// the two accesses in order, the memory, why nothing ordered them, the cures.
extension TSanExplainer.Writer {
    typealias Explainer = TSanExplainer

    mutating func explainRace(_ report: TSanReport) {
        accesses(report)
        let outsideTheProgram =
            !report.accesses.isEmpty && !report.accesses.contains { $0.frames.contains(where: \.isUserCode) }
        if outsideTheProgram {
            blank()
            say(
                "Neither access is in the program's own code: both happened inside \(Self.libraries(of: report)). "
                    + "TSan checks only code built with -sanitize=thread; it sees a library only through the calls it "
                    + "intercepts (memcpy, locks), not through the library's own atomic operations. A race reported "
                    + "entirely inside a system library is most likely such a blind spot, not a bug of the program.")
        }
        if let variable = Explainer.accessedVariable(report) {
            blank()
            say("The variable: \(variable.name)" + (variable.type.map { ", a \($0)" } ?? "") + ".")
        }
        if let memory = memoryDescription(report) {
            blank()
            say(memory)
            callChain(report.locationFrames, indent: 2, title: "where it was made, innermost first:")
        } else if report.truncated {
            blank()
            say("Which memory it was, and where the threads came from, was cut off with the rest of the report.")
        }
        blank()
        whyUnordered(report)
        if outsideTheProgram {
            cures(Self.libraryRaceCures(report))
        } else {
            cures(report.kind == .vptrRace ? Self.objectLifetimeCures : raceCures(report))
        }
    }

    /// "the Swift runtime", "Dispatch and Foundation": whose code the accesses' frames are in.
    static func libraries(of report: TSanReport) -> String {
        var names: [String] = []
        for frame in report.accesses.flatMap(\.frames) {
            let name: String
            switch frame.origin ?? .noSource {
            case .swiftRuntime: name = "the Swift runtime"
            case .dispatch: name = "Dispatch"
            case .foundation: name = "Foundation"
            case .cLibrary: name = "the C library"
            case .cxxLibrary: name = "the C++ library"
            case .compilerGenerated: name = "compiler-generated code"
            case .noSource: name = "code without source lines"
            case .sanitizer, .raceLab, .userCode: continue
            }
            if !names.contains(name) { names.append(name) }
        }
        return names.isEmpty ? "libraries" : names.prefix(2).joined(separator: " and ")
    }

    /// For a race seen only inside libraries: what to check, and how to quiet a known false report.
    static func libraryRaceCures(_ report: TSanReport) -> [String] {
        let function = report.accesses.lazy.compactMap { $0.frames.first { $0.origin != .sanitizer }?.function }.first
        let pattern = function.map { $0.prefix { $0 != "(" && $0 != "<" } }.map(String.init) ?? "FUNCTION"
        return [
            "If the program's own code shares data between tasks or threads, check that as usual: this report alone does not point at it.",
            "If it recurs, hide just this report with a suppressions file: a line `race:\(pattern)`, passed with "
                + "TSAN_OPTIONS=suppressions=FILE.",
            "Leave ignore_noninstrumented_modules at its default (1) unless you need lock-order or mutex reports from "
                + "code TSan does not instrument: the default hides reports like this one."
        ]
    }

    /// Both accesses, oldest first: TSan prints the one it caught first, then the "previous" one.
    mutating func accesses(_ report: TSanReport) {
        let ordered = report.accesses.filter(\.isPrevious) + report.accesses.filter { !$0.isPrevious }
        switch ordered.count {
        case 0: say("The accesses: none made it into the log.")
        case 1: say("The access in the log (the other one was cut off):")
        default: say("The two accesses, in the order they happened:")
        }
        for (index, access) in ordered.enumerated() {
            let label = "\(index + 1). "
            var what = Explainer.action(access)
            if report.kind == .vptrRace {
                what =
                    access.isWrite
                    ? "rewrote the object's vptr (a constructor or destructor running)"
                    : "read the object's vptr (to call a virtual function)"
            }
            say(
                label + Explainer.capitalised(Explainer.who(access.thread)) + " " + what + through(access), indent: 2,
                hanging: 5)
            whereAbouts(access.frames, indent: 5)
            let locks = Explainer.lockNames(access)
            if !locks.isEmpty {
                say("(holding lock \(locks.joined(separator: " and ")))", indent: 5)
            }
            if let origin = Explainer.origin(of: access.thread, in: report) {
                say(origin, indent: 5)
            }
        }
    }

    /// " (through memcpy: a struct copy, or a memcpy)" when the access happened inside a C
    /// library call that TSan watches, rather than in the program's own statement.
    func through(_ access: TSanReport.Access) -> String {
        guard let top = access.frames.first, top.origin == .sanitizer else { return "" }
        let name = top.function.replacingOccurrences(of: "__tsan_", with: "").replacingOccurrences(
            of: "__interceptor_", with: "")
        switch name {
        case "memcpy", "memmove": return " (through \(name): a copy of a struct or a buffer)"
        case "memset": return " (through memset)"
        case "close", "write", "read", "send", "recv", "fclose", "fwrite", "fread", "dup2", "pipe":
            return " (through \(name)(), which uses the file descriptor)"
        default: return " (through \(name)())"
        }
    }

    /// "The memory: the global variable ..." from TSan's "Location is ..." line.
    func memoryDescription(_ report: TSanReport) -> String? {
        guard let location = report.location else { return nil }
        let userFrame = report.locationFrames.first(where: \.isUserCode).map { " " + Explainer.place($0) } ?? ""
        if let global = Self.globalName(location) {
            let size = Self.number(after: " of size ", in: location).map { " (\($0) bytes)" } ?? ""
            return "The memory: the global variable \(SwiftDemangler.demangle(global))\(size). "
                + "Every thread can reach a global, so every thread must follow the same rule to use it."
        }
        if location.hasPrefix("file descriptor "), let owner = TSanReportParser.threadName(in: location, after: " by ")
        {
            let descriptor = location.dropFirst("file descriptor ".count).prefix { $0 != " " }
            let how = location.contains(" created by ") ? "created" : "used"
            return
                "The memory: TSan's record of file descriptor \(descriptor), \(how) by \(Explainer.who(owner))\(userFrame). "
                + "TSan treats a descriptor as shared data: closing it while another thread still "
                + "reads or writes it is a race (the other thread may use a closed descriptor, or a new file that reused its number)."
        }
        if let size = Self.number(after: " of size ", in: location),
            let owner = TSanReportParser.threadName(in: location, after: "allocated by ")
        {
            return "The memory: part of a block of \(size) bytes on the heap (where objects and the "
                + "contents of arrays, dictionaries and strings live), allocated by \(Explainer.who(owner))\(userFrame)."
        }
        if location.hasPrefix("stack of "), let owner = TSanReportParser.threadName(in: location, after: "stack of ") {
            return "The memory: a local variable on the stack of \(Explainer.who(owner)), "
                + "shared with another thread (captured by a closure, or passed as a pointer)."
        }
        if location.hasPrefix("TLS of "), let owner = TSanReportParser.threadName(in: location, after: "TLS of ") {
            return
                "The memory: thread-local storage of \(Explainer.who(owner)), reached by another thread through a pointer."
        }
        return "The memory: " + location + "."
    }

    /// "counter" from "global 'counter' of size 8 at 0x...".
    static func globalName(_ location: String) -> String? {
        guard location.hasPrefix("global '") else { return nil }
        let name = location.dropFirst("global '".count).prefix { $0 != "'" }
        return name.isEmpty ? nil : String(name)
    }

    /// The number right after `marker` ("of size 40" gives 40).
    static func number(after marker: String, in text: String) -> Int? {
        guard let start = text.range(of: marker) else { return nil }
        return Int(text[start.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }

    mutating func whyUnordered(_ report: TSanReport) {
        let accesses = report.accesses
        let locking = accesses.filter { !Explainer.lockNames($0).isEmpty }
        var why: String
        if locking.isEmpty || accesses.count < 2 {
            why =
                "nothing — no lock, queue or other synchronisation — made one access wait for the other, "
                + "so they can happen in either order, or at the same moment."
        } else if locking.count == accesses.count {
            let held = accesses.map {
                "\(Explainer.who($0.thread)) held \(Explainer.lockNames($0).joined(separator: " and "))"
            }
            why =
                "both threads held a lock, but not the same one (\(held.joined(separator: "; "))). "
                + "Different locks do not keep each other out, so nothing made one access wait for the other."
        } else {
            let holder = locking[0]
            let other = accesses.first { Explainer.lockNames($0).isEmpty }
            let locks = Explainer.lockNames(holder).joined(separator: " and ")
            why =
                "\(Explainer.who(holder.thread)) held lock \(locks) during its access, but "
                + "\(Explainer.who(other?.thread)) held no lock. A lock only keeps out threads that take it too, "
                + "so nothing made \(Explainer.who(other?.thread)) wait."
            if let created = report.mutexes?.first(where: { $0.mutex == Explainer.lockNames(holder).first }),
                let frame = created.frames.first(where: \.isUserCode)
            {
                why += " (\(created.mutex ?? "The lock") was made \(Explainer.place(frame)).)"
            }
        }
        let atomic = accesses.filter { $0.description.lowercased().contains("atomic") }
        if !atomic.isEmpty, atomic.count < accesses.count {
            why +=
                " One side used an atomic operation and the other did not: atomics only help when every access is atomic."
        }
        say("Why they could overlap: " + why)
        if let sleep = report.sleepFrames, !sleep.isEmpty {
            let frame = sleep.dropFirst().first(where: \.isUserCode) ?? sleep.first
            let sleepName = sleep.first.map { Explainer.readableName($0) } ?? "sleep"
            let at = frame.map { " (\(sleepName), " + Explainer.place($0) + ")" } ?? ""
            blank()
            say(
                "Only a sleep kept them apart in time\(at). A sleep is not synchronisation: "
                    + "it makes the bad timing rarer, never impossible.")
        }
    }

    func raceCures(_ report: TSanReport) -> [String] {
        var cures: [String] = []
        if let sameLock = sameLockCure(report.accesses) { cures.append(sameLock) }
        if report.location?.hasPrefix("file descriptor") == true {
            cures.append(
                "Close a descriptor only when every thread is done with it: join the threads that use it first, "
                    + "or give it one owner thread that does all the I/O and the close.")
        }
        cures.append(
            """
            Confine the data to one thread or one serial queue (a queue that runs one block at a time): \
            only that queue touches it; other threads send it work (queue.async { ... }) or ask it for \
            a value (queue.sync { ... }). In C: one thread owns it, others send it messages.
            """)
        return cures + updateCures(report) + ownerCures(report)
    }

    /// When one side held a lock and the other none: take it on the other side too.
    private func sameLockCure(_ accesses: [TSanReport.Access]) -> String? {
        let locking = accesses.filter { !Explainer.lockNames($0).isEmpty }
        guard !locking.isEmpty, locking.count < accesses.count,
            let unlocked = accesses.first(where: { Explainer.lockNames($0).isEmpty })
        else { return nil }
        let place = Explainer.mainFrame(unlocked.frames).map { ", here also " + Explainer.place($0) } ?? ""
        return "Take the same lock around every access to this memory, reads included\(place)."
    }

    /// Two writes: make the update one step. A write and a read: hand the reader a copy.
    private func updateCures(_ report: TSanReport) -> [String] {
        let accesses = report.accesses
        guard accesses.count >= 2 && accesses.allSatisfy(\.isWrite) else {
            return [
                """
                Hand the reader an immutable copy: take a `let` snapshot where the data lives and pass \
                that to the other thread, instead of sharing the live variable.
                """
            ]
        }
        var cures = [
            """
            Make the whole read-modify-write one step: run it on one serial queue, or hold one lock \
            from the read to the write. Locking the read and the write separately still loses updates.
            """
        ]
        if report.kind == .dataRace, accesses.allSatisfy({ ($0.size ?? 99) <= 8 }) {
            cures.append(
                "For a single number, an atomic does the read-modify-write as one step "
                    + "(Atomic from the Synchronization module, e.g. wrappingAdd; in C, <stdatomic.h>).")
        }
        return cures
    }

    /// Who should own the data: the main thread when it is one side, an actor otherwise.
    private func ownerCures(_ report: TSanReport) -> [String] {
        var cures: [String] = []
        // On the main thread, but not as one of concurrentPerform's workers: main owns this data.
        if report.accesses.contains(where: { access in
            access.thread == "main thread" && !access.frames.contains { $0.function.contains("dispatch_apply") }
        }) {
            cures.append(
                """
                The main thread is one side: keep this data main-thread-only, do slow work on a copy \
                elsewhere, and bring the result back with DispatchQueue.main.async (or OperationQueue.main).
                """)
        }
        let inTasks = report.accesses.contains { access in
            access.thread.flatMap { ThreadOrigin.of($0, in: report) } == .concurrencyPool
        }
        if inTasks {
            cures.append(
                "The accesses run in tasks: put the shared state in an actor (or isolate it to @MainActor) "
                    + "and `await` its methods; in Swift 6 language mode the compiler then rejects this race.")
        } else {
            cures.append(
                "Or make the owner an actor (Swift concurrency): every access then waits its turn, and the compiler checks it."
            )
        }
        return cures
    }

    /// Cures for using a C++ object while it is being built, destroyed or after it was freed.
    static let objectLifetimeCures = [
        "Destroy an object only when no other thread can still call it: stop and join the threads that use it, "
            + "or unregister it and wait until no callback is running, before `delete`.",
        "Share ownership instead of guessing when the last user is done: std::shared_ptr in C++ "
            + "(in Swift, a class reference does this for you).",
        "Do not let other threads see an object from inside its constructor: publish the pointer only once it is fully built."
    ]
}
