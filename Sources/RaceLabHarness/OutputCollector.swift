import Foundation

/// What the parent keeps of one of a child's output streams: at most `limit` bytes, and for a
/// line-based stream at most `lineLimit` bytes a line (the rest of a longer line is dropped, so
/// an endless line or binary junk costs bounded memory and time). Used by one reader thread
/// and read once the child is done. (NSLock: on Linux TSan does not see Mutex.)
final class OutputCollector: @unchecked Sendable {
    private let limit: Int
    private let lineLimit: Int
    private let splitLines: Bool
    private let crashMarkers: [String]
    private let lock = NSLock()
    private var data = Data()
    private var pending = Data()
    private var pendingOverflowed = false
    private var storedLines: [String] = []
    private var storedBytes = 0
    private var overflowed = false
    private var crashMarkerSeen = false
    private var newestProgress: String?
    private var newestProgressDecoded: ChildChannel.Progress?
    private var progressLines = 0
    private var markerWindow = Data()
    private var resultSeen = false
    private var afterResult = 0
    private var iterations: Set<Int> = []
    private var points: Set<String> = []
    /// Most iterations and points remembered from heartbeats (more than any plan has).
    static let announcedLimit = 1_000_000

    init(limit: Int, lineLimit: Int = 1 << 20, splitLines: Bool, crashMarkers: [String] = []) {
        self.limit = limit
        self.lineLimit = lineLimit
        self.splitLines = splitLines
        self.crashMarkers = crashMarkers
    }

    func append(_ chunk: Data) {
        lock.lock()
        defer { lock.unlock() }
        if !crashMarkers.isEmpty && !crashMarkerSeen {
            // Look at the chunk with the end of the previous one, so a marker split across two
            // reads is still seen.
            markerWindow.append(chunk)
            let text = String(decoding: markerWindow, as: UTF8.self)
            crashMarkerSeen = crashMarkers.contains { text.contains($0) }
            markerWindow = Data(markerWindow.suffix(64))
        }
        guard splitLines else {
            let room = limit - data.count
            if chunk.count > room { overflowed = true }
            if room > 0 { data.append(chunk.prefix(room)) }
            return
        }
        var rest = chunk[...]
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            appendToLine(rest[rest.startIndex..<newline])
            finishLine()
            rest = rest[rest.index(after: newline)...]
        }
        appendToLine(rest)
    }

    private func appendToLine(_ bytes: Data.SubSequence) {
        guard !pendingOverflowed else { return }
        if pending.count + bytes.count > lineLimit {
            pendingOverflowed = true
            pending.removeAll()
            overflowed = true
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private func finishLine() {
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingOverflowed = false
        }
        guard !pendingOverflowed else { return }
        let line = String(decoding: pending, as: UTF8.self)
        // Order matters for one thing only: the harness sends its result last (heartbeats are
        // kept newest-only below, so their order is noted here).
        if resultSeen { afterResult += 1 }
        if line.hasPrefix(ChildChannel.resultTag) { resultSeen = true }
        if line.hasPrefix(ChildChannel.progressTag) {
            newestProgress = line  // only the newest heartbeat is kept, and what it announced
            newestProgressDecoded = nil
            progressLines += 1
            if case .progress(let progress) = ChildChannel.decode(line) {
                newestProgressDecoded = progress
                if iterations.count + points.count < Self.announcedLimit {
                    iterations.insert(progress.iteration)
                    if let point = progress.point { points.insert(point) }
                }
            }
        } else if storedBytes + pending.count <= limit {
            storedLines.append(line)
            storedBytes += pending.count
        } else {
            overflowed = true
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    var truncated: Bool { lock.withLock { overflowed } }
    var sawCrashMarker: Bool { lock.withLock { crashMarkerSeen } }
    var heartbeats: Int { lock.withLock { progressLines } }
    /// Lines (whole or not) that came after the first result line.
    var linesAfterResult: Int { lock.withLock { afterResult + (resultSeen && !pending.isEmpty ? 1 : 0) } }
    /// The newest heartbeat and what it says, decoded once as it was read (nil: malformed).
    var latestProgress: (line: String?, decoded: ChildChannel.Progress?) {
        lock.withLock { (newestProgress, newestProgressDecoded) }
    }
    /// Every iteration and exploration point a heartbeat announced (`RunStory`).
    var announcedIterations: Set<Int> { lock.withLock { iterations } }
    var announcedPoints: Set<String> { lock.withLock { points } }
    /// Every whole line kept, then the newest heartbeat, then an unfinished last line.
    var lines: [String] {
        lock.withLock {
            var all = storedLines
            if let newestProgress { all.append(newestProgress) }
            if !pending.isEmpty && !pendingOverflowed { all.append(String(decoding: pending, as: UTF8.self)) }
            return all
        }
    }
}
