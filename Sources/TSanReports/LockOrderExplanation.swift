/// lock-order-inversion: the cycle, where each lock was taken, and why it can hang. One thread
/// taking the locks in both orders at different times is said as such: it is not two threads.
extension TSanExplainer.Writer {
    mutating func explainLockOrder(_ report: TSanReport) {
        if let cycle = report.lockCycle {
            let plain = cycle.replacingOccurrences(of: #" \(0x[0-9a-fA-F]+\)"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: " => ", with: " -> ")
            say("The cycle: \(plain) (M0, M1 are TSan's names for the locks).")
        }
        let edges = report.accesses.filter { $0.mutex != nil && $0.heldMutex != nil }
        let edgeThreads = edges.map(\.thread)
        let oneThread = edges.count > 1 && Set(edgeThreads.map { $0 ?? "?" }).count == 1 && edgeThreads[0] != nil
        if oneThread {
            say(
                "\(Explainer.capitalised(Explainer.who(edgeThreads[0]))) took these locks in both orders, at different times:"
            )
        }
        let waits = sayAcquisitions(report, edges: edges, oneThread: oneThread)
        blank()
        sayWhyItCanHang(waits: waits, oneThread: oneThread)
        cures(Self.lockOrderCures)
    }

    /// Where each lock of the cycle was taken while holding another (and, when the log has it,
    /// where the held one was taken), then where the threads came from. Returns each wait, as in
    /// "thread T1 holds M0 and wants M1".
    private mutating func sayAcquisitions(_ report: TSanReport, edges: [TSanReport.Access], oneThread: Bool)
        -> [String]
    {
        let accesses = report.accesses
        // A helper that takes both locks (lock(a, b)) is the first frame of every acquisition:
        // then only its callers tell the orders apart.
        let places = edges.compactMap { Explainer.mainFrame($0.frames)?.function }
        let withCaller = Set(places).count < places.count
        var waits: [String] = []
        var threadsSeen: [String?] = []
        for (index, edge) in accesses.enumerated() {
            guard let wanted = edge.mutex, let held = edge.heldMutex else { continue }
            let thread = Explainer.who(edge.thread)
            let holder = oneThread ? (waits.isEmpty ? "one thread" : "another") : thread
            waits.append("\(holder) holds \(held) and wants \(wanted)")
            if !threadsSeen.contains(edge.thread) { threadsSeen.append(edge.thread) }
            let subject = oneThread ? "It" : Explainer.capitalised(thread)
            let next = index + 1 < accesses.count ? accesses[index + 1] : nil
            if let earlier = next, earlier.mutex == held, earlier.heldMutex == nil {
                say("\(subject) took \(held)", indent: 2)
                whereAbouts(earlier.frames, indent: 4, withCaller: withCaller)
                say("and then \(wanted), still holding \(held)", indent: 2)
            } else {
                say("\(subject) took \(wanted) while holding \(held)", indent: 2)
            }
            whereAbouts(edge.frames, indent: 4, withCaller: withCaller)
        }
        if !accesses.contains(where: { $0.heldMutex == nil && $0.mutex != nil }), !waits.isEmpty {
            say(
                "(Where each thread took its first lock is not in the log: TSAN_OPTIONS=second_deadlock_stack=1 adds it.)",
                indent: 2)
        }
        for thread in threadsSeen {
            if let origin = Explainer.origin(of: thread, in: report) { say(origin, indent: 2) }
        }
        return waits
    }

    private mutating func sayWhyItCanHang(waits: [String], oneThread: Bool) {
        if waits.isEmpty {
            say(
                "Why it can hang: each thread would hold one lock and wait for another that a thread in the cycle holds."
            )
        } else if oneThread {
            say(
                "Why it can hang: with one thread it cannot, yet. But the day two threads run these two paths at "
                    + "the same time, " + waits.joined(separator: ", while ") + "; neither can go on, and nothing "
                    + "in the program stops that from happening.")
        } else {
            say(
                "Why it can hang: " + waits.joined(separator: ", while ") + ". If they get there at the same time, "
                    + "neither can go on, and nothing in the program stops them from doing so.")
        }
    }

    static let lockOrderCures = [
        "Pick one order for these locks and take them in that order everywhere (for example, always M0 before M1).",
        "Hold one lock at a time: copy what you need, unlock, then take the other lock.",
        "If the locks guard data that belongs together, use one lock (or one serial queue) for all of it.",
        "Do not call out to other code (callbacks, delegates) while holding a lock: it may take another lock."
    ]
}
