/// Every fact about one pass that anything outside its child-side behaviour acts on. Each pass's
/// file declares its own next to that behaviour (`ScriptedPass.policy`, ...), `RunMode.policy`
/// picks it, and everything that lists or counts passes (the grader's passes, the modes a variant
/// is run in, a grade's points and children, the lab's default iterations, the help) is derived
/// from `RunMode.allCases` and these facts, so a new pass is its case and its file.
public struct PassPolicy: Sendable {
    /// Iterations per run when a lab sets none (`LabInfo.defaultIterations`).
    public let defaultIterations: Int
    /// Added to a grade's seed for this pass's children (then + the run's number): each pass
    /// its own range, so no two children of one grade share a seed.
    public let seedOffset: UInt64
    /// A grade's child processes for this pass (`GradingPolicy`'s default; for a calibrated
    /// pass, the runs its calibrated total is split over).
    public let gradeRuns: Int
    /// What a clean pass scores in a grade (`GradingPolicy`'s default).
    public let gradePoints: Double
    /// A pass that walks every point of the story once (explore): one run is the whole pass,
    /// it may be split into shards that walk side by side, its length is the number of points
    /// found (not the iterations asked for), and a detection names the point that replays it.
    public let isSystematic: Bool
    /// A pass whose runs and iterations come from the lab's stress calibration (how many an
    /// unfixed exercise cannot survive), not from the grading policy's fixed counts.
    public let isCalibrated: Bool
    /// What the story sees in this pass (an explored iteration is the scripted story with one
    /// pause moved).
    public let storyMode: ScenarioMode
    /// When the pass's children start among others' (lower first; `LabRunner.run`), and, for a
    /// systematic pass split into shards, when its shards do.
    public let startOrder: Int
    public let shardedStartOrder: Int
    /// Broken variants are run in this pass when no mode is asked for (the demo); fixed
    /// variants and exercises are run in every pass.
    public let showsBroken: Bool
    /// How the pass tries the code, in a student's words (`racelab check`).
    public let howItTries: String
    /// What the pass does, after its name, in `racelab run --mode`'s help.
    public let helpText: String
    /// The pass's behaviour in the child, for a plan of this mode (`ScenarioPlan.makePass`).
    let makePass: @Sendable (ScenarioPlan) -> any ScenarioPass
    /// The variants the pass is for, in their lab: every one, unless the pass says otherwise.
    var appliesTo: @Sendable (Lab.Variant, LabInfo) -> Bool = { _, _ in true }
    /// One of a grade's passes (`Grader.passes`).
    public var isGraded = true
}
