import Foundation

/// The child's structured messages to its parent: one JSON object per line on stdout, each
/// line tagged so that anything else a lab prints is told apart. TSan writes to stderr.
public enum ChildChannel {
    static let progressTag = "RACELAB-PROGRESS "
    static let resultTag = "RACELAB-RESULT "
    static let failureTag = "RACELAB-FAILURE "

    /// A heartbeat: where the child is. The watchdog treats a change as progress.
    public struct Progress: Codable, Sendable, Equatable {
        public var iteration: Int
        public var checkpointHits: Int64
        public var threads: [ThreadPosition]
    }

    /// One parsed line of the child's stdout.
    public enum Message: Equatable, Sendable {
        case progress(Progress)
        case result(ScenarioOutcome)
        /// An invariant failure, sent the moment it was found (the result repeats it). Unsigned:
        /// a forged one can only make a run fail, never pass.
        case failure(InvariantFailure)
        /// A result line carrying an authentication code (`ChannelAuthentication`); the parent
        /// checks `signature` against `payload` with the key it gave the child.
        case signedResult(ScenarioOutcome, signature: String, payload: String)
        case malformed(String)
        case other(String)
    }

    public static func encode(_ progress: Progress) -> String { progressTag + json(progress) }
    public static func encode(_ result: ScenarioOutcome) -> String { resultTag + json(result) }
    public static func encode(_ failure: InvariantFailure) -> String { failureTag + json(failure) }
    /// Signed with `key` when there is one (the child was started with `--auth-stdin`).
    public static func encode(_ result: ScenarioOutcome, key: [UInt8]?) -> String {
        ChannelAuthentication.line(tag: resultTag, payload: json(result), key: key)
    }

    public static func decode(_ line: String) -> Message {
        if line.hasPrefix(progressTag) {
            guard let progress = try? JSONDecoder().decode(Progress.self, from: Data(line.dropFirst(progressTag.count).utf8)) else {
                return .malformed(line)
            }
            return .progress(progress)
        }
        if line.hasPrefix(resultTag) {
            let (signature, payload) = ChannelAuthentication.split(line.dropFirst(resultTag.count))
            guard let result = try? JSONDecoder().decode(ScenarioOutcome.self, from: Data(payload.utf8)) else {
                return .malformed(line)
            }
            if let signature { return .signedResult(result, signature: signature, payload: String(payload)) }
            return .result(result)
        }
        if line.hasPrefix(failureTag) {
            guard let failure = try? JSONDecoder().decode(InvariantFailure.self, from: Data(line.dropFirst(failureTag.count).utf8)) else {
                return .malformed(line)
            }
            return .failure(failure)
        }
        return .other(line)
    }

    private static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
