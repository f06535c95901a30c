import CRaceLabSupport

/// The time one thread of this process has had since it began: what it ran on a CPU, and what
/// it waited on a run queue for one (the kernel's scheduler statistics, read with raw system
/// calls: no lock, so a lab thread may read it at any point). A limit on what another thread
/// does is fair only on that thread's own time: on a busy machine a thread that waits for a CPU
/// is slow, not stuck.
@_spi(LabAuthoring) public struct ThreadTimes {
    /// Seconds it ran on a CPU.
    public let ran: Double
    /// Seconds it was ready to run but waited for a CPU.
    public let waitedForCPU: Double
    /// How many times it was given a CPU: a thread waiting for the lab gets none; one that wakes
    /// itself (a sleep, a timed wait) gets one a wake.
    public let turns: Int

    /// Thread `id` (`ThreadHold.currentThread` on it); nil once it ended, or where the kernel
    /// does not say (not Linux).
    public init?(thread id: Int64) {
        var ran: Int64 = 0
        var waited: Int64 = 0
        var turns: Int64 = 0
        guard rl_thread_schedstat(id, &ran, &waited, &turns) == 0 else { return nil }
        self.ran = Double(ran) / 1e9
        waitedForCPU = Double(waited) / 1e9
        self.turns = Int(turns)
    }
}
