/// One ThreadSanitizer report, parsed from its text.
public struct TSanReport: Codable, Sendable, Equatable {
    /// One stack frame: `#3 function file:line:column (module+offset)`.
    public struct Frame: Codable, Sendable, Equatable {
        public var function: String
        public var demangled: String
        public var file: String?
        public var line: Int?
        public var column: Int?
        public var module: String?
        /// Whose code this is: the program's own, or TSan's runtime, the C library, Dispatch...
        /// Optional so that JSON saved before this field existed still decodes.
        public var origin: FrameOrigin? = nil

        /// `Broken.swift:37` (file name only; no line when TSan had none), nil without a file.
        public var shortLocation: String? {
            guard let file else { return nil }
            let name = file.split(separator: "/").last.map(String.init) ?? file
            guard let line, line > 0 else { return name }
            return "\(name):\(line)"
        }

        /// A frame the program's author wrote (and can change).
        public var isUserCode: Bool {
            (origin ?? FrameOrigin.classify(function: function, file: file, module: module)) == .userCode
        }
    }

    /// A memory access (or a mutex acquisition / thread creation) with its stack.
    public struct Access: Codable, Sendable, Equatable {
        /// The header line, e.g. "Previous read of size 8 at 0x7b0c... by thread T7".
        public var description: String
        public var isWrite: Bool
        public var isPrevious: Bool
        public var size: Int?
        /// "main thread", "thread T7".
        public var thread: String?
        public var frames: [Frame]
        /// Lock-order inversions: the mutex taken here ("M1") and the one already held ("M0").
        /// Optional so that JSON saved before these fields existed still decodes.
        public var mutex: String? = nil
        public var heldMutex: String? = nil
        /// Data races: the locks this thread held during the access, "write M10", "read M11".
        public var heldMutexes: [String]? = nil
    }

    public var kind: Kind
    /// The text after "WARNING: ThreadSanitizer: " without the pid.
    public var title: String
    public var accesses: [Access]
    /// "heap block of size 40 at 0x... allocated by main thread", "global 'counter' ...".
    public var location: String?
    public var locationFrames: [Frame]
    /// "Thread T7 'racelab' (tid=2615, running) created by main thread", with its creation stack.
    public var threads: [Access]
    /// Lock-order inversions: "M0 (0x...) => M1 (0x...) => M0".
    public var lockCycle: String?
    /// "As if synchronized via sleep": the sleep that alone kept the two accesses apart.
    public var sleepFrames: [Frame]? = nil
    /// "Mutex M10 (0x...) created at": where each lock named in the report was made.
    public var mutexes: [Access]? = nil
    /// The report's own stacks, for kinds that are not about two accesses: where a mutex was
    /// misused, then each "and:" stack (destroy of a locked mutex: where it was locked); where a
    /// signal handler was invoked; where each ignore that was never ended began.
    public var stacks: [[Frame]]? = nil
    /// "signal handler spoils errno": the signal's number ("Signal 14 handler invoked at").
    public var signal: Int? = nil
    public var summary: String?
    /// The report ended before its closing line (a cut-off log).
    public var truncated: Bool
    /// Lines left out because the report was longer than the parser keeps (a hostile log).
    public var linesDropped: Int? = nil
    /// The report's own text, as printed (colour codes removed).
    public var text: String

    /// The first frame of each access that has a source line: where the racing code is.
    public var racingLines: [String] {
        accesses.compactMap {
            ($0.frames.first(where: \.isUserCode) ?? $0.frames.first(where: { $0.shortLocation != nil }))?.shortLocation
        }
    }

    /// Frames (of any access) whose file lies under `folder`: the learner's own lines.
    public func frames(under folder: String) -> [Frame] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return accesses.flatMap(\.frames).filter { $0.file?.hasPrefix(prefix) == true && ($0.line ?? 0) > 0 }
    }

    /// Two reports about the same places in the program's own code count once. The places are
    /// user frames, not TSan's interceptors: every lock-order report starts in
    /// `pthread_mutex_lock`, and two different cycles must not merge.
    public var deduplicationKey: String {
        func place(_ frames: [Frame]) -> String? {
            (frames.first(where: \.isUserCode) ?? frames.first(where: { $0.shortLocation != nil }))
                .map { "\($0.function)@\($0.file ?? ""):\($0.line ?? 0)" }
        }
        var places = accesses.map { access in
            (access.mutex.map { "\($0)<-\(access.heldMutex ?? "") " } ?? "")
                + (place(access.frames) ?? access.frames.first?.function ?? access.description)
        }
        places += (stacks ?? []).compactMap(place)
        if accesses.isEmpty { places += threads.compactMap { place($0.frames) } }
        return "\(kind.rawValue)|\(title)|\(places.sorted().joined(separator: "|"))"
    }
}
