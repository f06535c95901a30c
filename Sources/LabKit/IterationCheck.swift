/// What one check found in one iteration: failures fail the run; notes are worth saying but fail
/// nothing.
struct IterationFindings {
    var failures: [InvariantFailure] = []
    var notes: [String] = []
}

/// One rule judged after each iteration's story. The driver asks every check in its list, in
/// order; a new rule is one new type in that list.
protocol IterationCheck {
    func judge(_ run: ScenarioRun) -> IterationFindings
}

/// The lab's own invariants, as its story checked them (and what it noted on the way).
struct StoryInvariants: IterationCheck {
    func judge(_ run: ScenarioRun) -> IterationFindings {
        IterationFindings(failures: run.failures, notes: run.notes)
    }
}

/// UI work done off the main thread (`MainThreadChecker`), as it was seen during the story.
struct MainThreadRule: IterationCheck {
    func judge(_ run: ScenarioRun) -> IterationFindings {
        IterationFindings(
            failures: MainThreadChecker.shared.drain().map {
                InvariantFailure(
                    iteration: run.iteration, message: "UI rule broken, \($0.what)", file: $0.file, line: $0.line)
            })
    }
}

/// A screen stands for a view, which must be released on the main thread. A fixed variant proves
/// it every iteration, and so does an exercise (or a corpus fix) once the learning path has taught
/// the rule (`strict`); elsewhere it is a note.
struct ViewReleaseRule: IterationCheck {
    /// The most an iteration's screens may take to be released (a block still finishing on
    /// another thread may hold the last reference): a cap; the wait ends as soon as every
    /// screen is gone or the lab is quiet.
    static let releaseWait = 30.0
    let strict: Bool

    /// Whether a screen released off the main thread fails a run of this kind of variant (true)
    /// or is only a note. Broken variants are judged on their own bug; reference fixes always
    /// keep the rule; exercises and corpus fixes keep it from the off-main-dealloc lab on.
    static func holds(_ kind: VariantKind?, exerciseKeepsIt: Bool) -> Bool {
        switch kind {
        case .fixed: true
        case .exercise, .validFix, .wrongFix: exerciseKeepsIt
        case .broken, nil: false
        }
    }

    func judge(_ run: ScenarioRun) -> IterationFindings {
        let releases = ScreenLifetimes.shared.awaitReleases(of: Int64(run.iteration), timeout: Self.releaseWait)
        // A screen that died off main takes its label and spinner with it: one report, not three.
        let screensOffMain = Set(releases.filter { !$0.onMainThread && !$0.isPart }.map(\.threadID))
        var findings = IterationFindings()
        for release in releases
        where !release.onMainThread && !(release.isPart && screensOffMain.contains(release.threadID)) {
            let what = "the \(release.screenName) was released on a background thread"
            if strict {
                findings.failures.append(
                    InvariantFailure(
                        iteration: run.iteration,
                        message:
                            "UI rule broken, \(what) (thread \(release.threadID)): its last owner let go of it there"
                            + " (a view must die on the main thread: the off-main-dealloc lab)",
                        file: release.file, line: release.line))
            } else {
                findings.notes.append(what + " (the off-main-dealloc lab)")
            }
        }
        return findings
    }
}
