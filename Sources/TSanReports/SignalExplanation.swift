/// Signal handlers that call unsafe functions or spoil errno: the handler, the call, and what
/// the signal interrupted.
extension TSanExplainer.Writer {
    mutating func explainSignal(_ report: TSanReport) {
        let frames = report.stacks?.first ?? []
        let user = frames.filter(\.isUserCode)
        if report.kind == .signalUnsafeCall, let call = frames.first {
            say("The unsafe call: \(Explainer.readableName(call))()".replacingOccurrences(of: ")()", with: ")"))
        }
        let signal = report.signal.map { " for " + Explainer.signalName($0) } ?? ""
        if let handler = user.first {
            say("The signal handler\(signal):")
            whereAbouts(Array(frames[frames.firstIndex(of: handler)!...]), indent: 2)
        } else {
            say("The signal handler\(signal): not in the log.")
        }
        // Below the handler: TSan's own delivery frames, then the code the signal interrupted.
        if user.count > 1 {
            say("The signal arrived while the program was here:")
            say(Explainer.place(user[1]), indent: 2, hanging: 5)
            source(of: user[1], indent: 6)
        }
        if report.kind == .signalUnsafeCall {
            cures([
                "In the handler, only set a flag (a volatile sig_atomic_t, or an atomic) and return; do the work in ordinary code that checks the flag.",
                "Handle the signal outside any handler: in Swift, DispatchSource.makeSignalSource(signal:queue:) after "
                    + "signal(SIGALRM, SIG_IGN) runs your code on a queue; in C, signalfd, or a pipe that the main loop reads.",
                "Inside a handler call only async-signal-safe functions (man 7 signal-safety: write, _exit, ...): never malloc, "
                    + "printf, a lock, or Swift code that allocates."
            ])
        } else {
            cures([
                "Save errno when the handler starts and put it back before it returns: int saved = errno; ...; errno = saved;",
                "Better, do nothing in the handler but set a flag (volatile sig_atomic_t); or handle the signal outside any "
                    + "handler (DispatchSource.makeSignalSource in Swift, signalfd in C)."
            ])
        }
    }
}
