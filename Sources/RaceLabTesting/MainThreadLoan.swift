import CRaceLabSupport

/// The main thread of a race test's child under Swift Testing, lent to the harness
/// (MainThreadLoan.c): Swift Testing runs tests on pool threads and parks the main thread, and
/// the passes are driven from the main thread, as a lab's UI is.
enum MainThreadLoan {
    /// Set in the child's environment: its dispatch_main lends the main thread.
    static let variable = "RACELAB_LEND_MAIN_THREAD"

    /// Runs `body` on the main thread and returns once it has run; false (and `body` not run)
    /// where no main thread is lent.
    static func run(_ body: @escaping () -> Void) -> Bool {
        final class Work {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        let status = rl_main_loan_run(
            { raw in Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body() }, context, 30)
        if status != 0 { Unmanaged<Work>.fromOpaque(context).release() }
        return status == 0
    }
}
