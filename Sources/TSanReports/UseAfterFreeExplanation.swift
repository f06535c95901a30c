/// heap-use-after-free, and its C++ flavour (a virtual call on a deleted object).
extension TSanExplainer.Writer {
    mutating func explainUseAfterFree(_ report: TSanReport) {
        let freeing = report.accesses.first(where: Explainer.isFreeing)
        let uses = report.accesses.filter { !Explainer.isFreeing($0) }
        if let freeing {
            say(
                "1. " + Explainer.capitalised(Explainer.who(freeing.thread)) + " freed the memory", indent: 2,
                hanging: 5)
            whereAbouts(freeing.frames, indent: 5)
            if let origin = Explainer.origin(of: freeing.thread, in: report) { say(origin, indent: 5) }
        } else {
            say("Where the memory was freed is not in the log.", indent: 2)
        }
        for use in uses {
            let what =
                report.kind == .vptrUseAfterFree
                ? "called a virtual function on it (reading its vptr)"
                : Explainer.action(use) + " of it"
            say("2. Then " + Explainer.who(use.thread) + " " + what, indent: 2, hanging: 5)
            whereAbouts(use.frames, indent: 5)
            if let origin = Explainer.origin(of: use.thread, in: report) { say(origin, indent: 5) }
        }
        if let memory = memoryDescription(report) {
            blank()
            say(memory)
            callChain(report.locationFrames, indent: 2, title: "where it was made, innermost first:")
        }
        blank()
        say(
            "Why they could overlap: nothing — no lock, queue, join or other synchronisation — made "
                + "the freeing wait until every other thread was done with the memory.")
        if report.kind == .vptrUseAfterFree {
            cures(Self.objectLifetimeCures)
            return
        }
        cures([
            "Let Swift manage the lifetime: use a class, an Array or Data instead of UnsafeMutablePointer, so the memory lives as long as anyone still uses it.",
            "If you must free by hand, give the memory one owner, and free it only after every other user is done (join the threads, or wait on a DispatchGroup).",
            "Never hand a raw pointer to another thread without deciding who frees it, and when."
        ])
    }
}
