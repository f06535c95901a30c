/// The options several racelab commands share, declared once (their help too).
public enum CommonOptions {
    public static let jobs = Option.number(
        "jobs", "N",
        "children at once (default: RACELAB_JOBS, else four times the cores; children mostly wait, so more than the cores helps)",
        in: 1...64)
    /// Lab ids, comma-separated; which are valid is known only to the program that has the labs.
    public static let labs = Option.text("labs", "a,b", "only these labs (default: every lab)")
    public static let seed = Option.unsigned("seed", "S", "base seed (default: random, always printed)")
}
