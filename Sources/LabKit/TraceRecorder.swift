import CRaceLabSupport
import Foundation

/// One event of the interleaving timeline.
public struct TraceEvent: Codable, Sendable, Equatable {
    public enum Kind: Int, Codable, Sendable {
        case checkpoint = 0
        case action = 1
        case pause = 2
        case report = 3
        case failure = 4
        /// The async pass ran a job on this thread (its text: which, of how many ready).
        case job = 5
    }

    public var kind: Kind
    /// Milliseconds since the iteration began.
    public var milliseconds: Double
    public var threadID: Int64
    public var isMainThread: Bool
    public var text: String
    /// For checkpoints and pauses: which arrival at the checkpoint.
    public var hit: Int
}

/// The events of the last iteration a child ran, read back by the parent.
public struct Trace: Codable, Sendable, Equatable {
    public var iteration: Int
    public var events: [TraceEvent]
    /// More events happened than the file could hold; the later ones are missing.
    public var overflowed: Bool
}

/// The trace file: created by the parent, mapped by the child (see CRaceLabTrace.h), read by
/// the parent after the child ended, however it ended.
@_spi(LabAuthoring) public enum TraceFile {
    static let capacity = 8192
    static var byteCount: Int { MemoryLayout<rl_trace_header>.stride + capacity * MemoryLayout<rl_trace_event>.stride }

    /// Parent: a fresh, zero-filled trace file in `folder` (the run's private folder).
    public static func create(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("trace")
        guard FileManager.default.createFile(atPath: url.path, contents: Data(count: byteCount)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return url
    }

    /// Child: map the file and start recording into it. False if it cannot be mapped.
    @discardableResult
    public static func attach(_ path: String) -> Bool {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            return false
        }
        rl_trace_attach(memory, Int64(byteCount))
        return true
    }

    /// Parent: the events in the file, or nil if the child never attached.
    public static func read(_ url: URL) -> Trace? {
        // Never more than the file was made with, whatever the child did to it.
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: byteCount), data.count >= MemoryLayout<rl_trace_header>.stride
        else { return nil }
        return data.withUnsafeBytes { raw -> Trace? in
            let header = raw.loadUnaligned(as: rl_trace_header.self)
            guard header.magic == RL_TRACE_MAGIC else { return nil }
            let stored = min(Int(header.count), Int(header.capacity), capacity)
            var events: [TraceEvent] = []
            for index in 0..<stored {
                let offset = MemoryLayout<rl_trace_header>.stride + index * MemoryLayout<rl_trace_event>.stride
                var event = raw.loadUnaligned(fromByteOffset: offset, as: rl_trace_event.self)
                let text = withUnsafeBytes(of: &event.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard let kind = TraceEvent.Kind(rawValue: Int(event.kind)) else { continue }
                events.append(
                    TraceEvent(
                        kind: kind, milliseconds: Double(event.at_ns - header.started_ns) / 1e6,
                        threadID: event.thread_id,
                        isMainThread: event.is_main_thread != 0, text: text, hit: Int(event.hit)))
            }
            events.sort { $0.milliseconds < $1.milliseconds }
            return Trace(iteration: Int(header.iteration), events: events, overflowed: Int(header.count) > stored)
        }
    }

    /// Child: note something the scenario did (main thread).
    static func note(_ kind: TraceEvent.Kind, _ text: String, hit: Int = 0) {
        text.withCString { rl_trace_note(Int32(kind.rawValue), $0, Int64(hit)) }
    }
}
