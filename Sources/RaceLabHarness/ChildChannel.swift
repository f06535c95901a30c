import Foundation
import LabKit

/// The child's structured messages to its parent: one JSON object per line on the result
/// channel, descriptor 3 of the child (a pipe the parent made for that child alone). Lab code
/// prints to stdout and TSan to stderr; neither can be mistaken for a channel line.
///
/// No secret protects the channel: a secret handed to the child could be read by code that
/// runs in it before the harness does. Instead the parent trusts a result only when it agrees
/// with what the parent saw for itself (see `VerdictBuilder`): exactly one result line, no
/// failure line, nothing from TSan on stderr, the exit status TSan leaves, the iterations the
/// heartbeats announced. A line forged by lab code can therefore only add a failure, never hide
/// one; and the exercise checks (`ExercisePolicy`) reject code that could reach descriptor 3.
public enum ChildChannel {
    /// The child's descriptor for the channel.
    public static let descriptor: Int32 = 3
    /// The child's descriptor for its (sealed) TSan suppressions.
    public static let suppressionsDescriptor: Int32 = 4

    static let progressTag = "RACELAB-PROGRESS "
    static let resultTag = "RACELAB-RESULT "
    static let failureTag = "RACELAB-FAILURE "
    static let catalogTag = "RACELAB-CATALOG "
    static let confinementTag = "RACELAB-CONFINEMENT "

    /// A heartbeat: where the child is. The watchdog treats a change as progress.
    public struct Progress: Codable, Sendable, Equatable {
        public var iteration: Int
        public var checkpointHits: Int64
        public var threads: [ThreadPosition]
        /// Explore mode: the point of this iteration ("1:3").
        public var point: String?
        /// The story's own wait under way while it holds a lab thread (`StoryWait`): the
        /// watchdog does not count that time, up to the wait's limit.
        public var storyWait: StoryWaitBeat?

        public init(
            iteration: Int, checkpointHits: Int64, threads: [ThreadPosition], point: String? = nil,
            storyWait: StoryWaitBeat? = nil
        ) {
            self.iteration = iteration
            self.checkpointHits = checkpointHits
            self.threads = threads
            self.point = point
            self.storyWait = storyWait
        }
    }

    /// A story's wait with a time limit, while it holds a lab thread.
    public struct StoryWaitBeat: Codable, Sendable, Equatable {
        /// Waits begun in the child so far: a new wait is a new number.
        public var number: Int
        /// Its limit, in seconds of the lab's own time.
        public var seconds: Double

        public init(number: Int, seconds: Double) {
            self.number = number
            self.seconds = seconds
        }
    }

    /// One parsed channel line.
    public enum Message: Equatable, Sendable {
        case progress(Progress)
        case result(ScenarioOutcome)
        /// An invariant failure, sent the moment it was found (the result repeats it).
        case failure(InvariantFailure)
        /// The labs the child knows (`racelab-child catalog`).
        case catalog(LabRegistry)
        /// What confined the child and what it could still do (`racelab-child probe`).
        case confinement(Confinement)
        case malformed(String)
    }

    public static func encode(_ progress: Progress) -> String { progressTag + json(progress) }
    public static func encode(_ result: ScenarioOutcome) -> String { resultTag + json(result) }
    public static func encode(_ failure: InvariantFailure) -> String { failureTag + json(failure) }
    public static func encode(_ catalog: LabRegistry) -> String { catalogTag + json(catalog) }
    public static func encode(_ confinement: Confinement) -> String { confinementTag + json(confinement) }

    public static func decode(_ line: String) -> Message {
        func body<T: Decodable>(_ tag: String, _ type: T.Type) -> T? {
            try? JSONDecoder().decode(type, from: Data(line.utf8.dropFirst(tag.utf8.count)))
        }
        if line.hasPrefix(progressTag) {
            return body(progressTag, Progress.self).map(Message.progress) ?? .malformed(line)
        }
        if line.hasPrefix(resultTag) {
            return body(resultTag, ScenarioOutcome.self).map(Message.result) ?? .malformed(line)
        }
        if line.hasPrefix(failureTag) {
            return body(failureTag, InvariantFailure.self).map(Message.failure) ?? .malformed(line)
        }
        if line.hasPrefix(catalogTag) {
            return body(catalogTag, LabRegistry.self).map(Message.catalog) ?? .malformed(line)
        }
        if line.hasPrefix(confinementTag) {
            return body(confinementTag, Confinement.self).map(Message.confinement) ?? .malformed(line)
        }
        return .malformed(line)
    }

    private static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
