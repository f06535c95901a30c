/// Why a run could not be judged, as a type: the grader decides on this, never on a message's
/// wording (`RunVerdict.harnessError` says it in words).
public enum HarnessProblem: String, Codable, Sendable {
    /// The child process could not be started at all.
    case couldNotStart
    /// The child gave no sign of life and was killed before any lab code ran.
    case neverStarted
    /// The child refused the arguments the harness gave it.
    case rejectedArguments
    /// The child ended without a result line, or with one that could not be read.
    case noResult
    /// The result channel overflowed, so what it carried cannot be trusted.
    case channelOverflow
    /// The child had no ThreadSanitizer: nothing it says about races counts.
    case builtWithoutTSan
    /// A result line the harness did not write (lab code forged it).
    case forged

    /// What every place that meets a build without ThreadSanitizer advises (one wording).
    public static let tsanAdvice = "build it with `make build` (swift build --sanitize=thread)"

    /// The harness or the machine failed, not the code under test: a grade is then an error to
    /// look into (and grade again), not a mark.
    public var isHarnessFailure: Bool {
        switch self {
        case .couldNotStart, .neverStarted, .builtWithoutTSan: true
        case .rejectedArguments, .noResult, .channelOverflow, .forged: false
        }
    }
}
