/// Reports about a thread's life: a thread nobody joined, and a thread that finished with a
/// TSan "ignore" still on.
extension TSanExplainer.Writer {
    mutating func explainThreadLeak(_ report: TSanReport) {
        if report.threads.isEmpty { say("The thread: not named in the log.") }
        for thread in report.threads {
            let name = Explainer.capitalised(Explainer.who(thread.thread))
            let creator = TSanReportParser.threadName(in: thread.description, after: "created by ").map(Explainer.who)
            say("\(name) was created by \(creator ?? "another thread") here:", indent: 2)
            whereAbouts(thread.frames, indent: 4)
            if thread.description.contains(", finished)") {
                say("When the program ended, it had finished its work, but nobody had collected it.", indent: 2)
            } else if thread.description.contains(", running)") {
                say("When the program ended, it was still running: its work may have been cut off.", indent: 2)
            }
        }
        blank()
        say("Why: nothing in the program waited for this thread to end.")
        cures([
            "Join the thread (pthread_join) before its owner or the program goes away; then you also know its work is done.",
            "If nobody needs to wait for it, detach it (pthread_detach) right after creating it.",
            "Better: let Foundation or Dispatch manage threads (Thread, DispatchQueue, OperationQueue), and wait for the work with a DispatchGroup or OperationQueue.waitUntilAllOperationsAreFinished()."
        ])
    }

    mutating func explainIgnoresNotEnded(_ report: TSanReport) {
        if let thread = report.threads.first {
            say("The thread: \(Explainer.who(thread.thread)), created here:")
            whereAbouts(thread.frames, indent: 2)
        } else {
            say("The thread: the main thread (TSan checks it when the program ends).")
        }
        let stacks = report.stacks ?? []
        blank()
        switch stacks.count {
        case 0: say("Where the ignore began is not in the log.")
        case 1: say("The ignore that was never ended began here:")
        default: say("One of these ignores was never ended (TSan lists the likeliest first):")
        }
        for stack in stacks { whereAbouts(stack, indent: 2) }
        cures([
            "End every ignore on every path: each ...Begin needs its ...End in the same function. Check early returns "
                + "(a cleanup label in C, an RAII guard in C++, defer in Swift).",
            "Ignore as little as possible: a real race must be fixed, not hidden. For races in code you cannot change, a "
                + "suppressions file (TSAN_OPTIONS=suppressions=FILE) hides just those, without turning TSan off."
        ])
    }
}
