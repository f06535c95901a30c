/// Every fact about a pass that the harness acts on outside the child, in one place: the child
/// side of each pass is its `ScenarioPass` (ScriptedPass, ExplorePass, StressPass). A new pass
/// is a new case here and a new pass file there.
extension RunMode {
    /// Added to a grade's seed for this pass's children (then + the run's number): each pass
    /// its own range, so no two children of one grade share a seed.
    public var seedOffset: UInt64 {
        switch self {
        case .scripted: 0
        case .explore: 500
        case .stress: 1000
        }
    }

    /// A pass that walks every point of the story once (explore): one run is the whole pass,
    /// it may be split into shards that walk side by side, its length is the number of points
    /// found (not the iterations asked for), and a detection names the point that replays it.
    public var isSystematic: Bool { self == .explore }

    /// A pass whose runs and iterations come from the lab's stress calibration (how many an
    /// unfixed exercise cannot survive), not from the grading policy's fixed counts.
    public var isCalibrated: Bool { self == .stress }

    /// What the story sees in this pass: an explored iteration is the scripted story with one
    /// pause moved.
    public var storyMode: ScenarioMode { self == .stress ? .stress : .scripted }

    /// When the pass's children start among others: scripted first (short, deterministic),
    /// then a whole explore (one child walks every point: the longest there is), then stress,
    /// then explore shards (many short children that fill the gaps).
    public func startOrder(sharded: Bool) -> Int {
        switch self {
        case .scripted: 0
        case .explore: sharded ? 3 : 1
        case .stress: 2
        }
    }

    /// How the pass tries the code, in a student's words.
    public var howItTries: String {
        switch self {
        case .scripted: "the bad interleaving forced at the lab's checkpoints"
        case .explore: "that pause moved to every other checkpoint arrival in turn"
        case .stress: "random timing"
        }
    }
}
