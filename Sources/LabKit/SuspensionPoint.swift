import CRaceLabSupport

/// Where a lab's stand-in for slow I/O (a download, a page of a feed) would give up its thread:
/// a real request suspends the task until the answer comes, and other jobs run meanwhile. The
/// stand-ins answer at once, so without this nothing would suspend there. A checkpoint in every
/// pass (the scripted story holds it, explore moves a pause to it, stress delays it); in the
/// async pass also a real suspension: the answer comes back as a job of its own, and the pass
/// chooses what runs before it.
@_spi(LabAuthoring) public enum SuspensionPoint {
    public static func reach(_ name: StaticString) async {
        _ = Checkpoint.hit(name)
        guard rl_jobs_in_story() != 0 else { return }
        // The answer "arrives" in a task of its own: resuming the continuation sends this task's
        // next job to the global executor, where the pass orders it among the others.
        await withCheckedContinuation { (answer: CheckedContinuation<Void, Never>) in
            Task.detached { answer.resume() }
        }
    }
}
