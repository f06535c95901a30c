import Foundation

/// The lines of one report as TSan printed them, before parsing.
struct ReportBlock {
    var lines: [String]
    /// The report reached its closing "==================" line.
    var closed = false
    /// Lines after `ReportBlockCollector.maximumLines`, not kept.
    var linesDropped = 0
    /// A hash of the text with addresses, pids and tids left out: the same report printed again
    /// has the same fingerprint, so it is counted without being parsed again.
    var fingerprint = ReportFingerprint()
}

/// Cuts a log's lines into report blocks, one line at a time: a report starts at
/// "WARNING: ThreadSanitizer: ..." (or TSan's "... finished with ignores enabled" message) and
/// ends at "==================", at the next report, or at the end of the log (cut off).
/// It also notes the lines that say the program crashed. Memory: one report, bounded.
struct ReportBlockCollector {
    /// A report keeps at most this many lines (real ones have tens; a hostile one, millions).
    static let maximumLines = 2_000
    static let separator: StaticString = "=================="
    static let warningPrefix: StaticString = "WARNING: ThreadSanitizer: "
    static let ignoresPrefix: StaticString = "ThreadSanitizer: "
    static let ignoresMarker: StaticString = "finished with ignores enabled"

    /// Text on stderr meaning the process is crashing (TSan's handler or Swift's runtime).
    static let crashMarkers: [StaticString] = [
        "ThreadSanitizer:DEADLYSIGNAL", "Fatal error:", "Precondition failed:", "Assertion failed:",
        "ERROR: ThreadSanitizer: SEGV",
        // TSan ending the process itself: an allocation it refused, memory it could not map.
        "ERROR: ThreadSanitizer: requested allocation size", "ERROR: ThreadSanitizer: out of memory",
        "ThreadSanitizer: out of memory",
        "ERROR: ThreadSanitizer failed to allocate"
    ]

    private var current: ReportBlock?
    private var currentIsIgnoresMessage = false
    /// Distinct crash lines, in order, at most `maximumCrashLines`.
    private(set) var crashLines: [String] = []
    static let maximumCrashLines = 3

    mutating func consume(_ line: UnsafeBufferPointer<UInt8>, emit: (ReportBlock) -> Void) {
        noteCrash(line)
        if currentIsIgnoresMessage, let first = line.first, first != UInt8(ascii: " ") {
            // The message is over: TSan ends the process right after it, so this is other output.
            finishCurrent(closed: true, emit: emit)
        }
        if starts(line, with: Self.warningPrefix) {
            finishCurrent(closed: false, emit: emit)
            begin(line)
        } else if equals(line, Self.separator) {
            finishCurrent(closed: true, emit: emit)
        } else if starts(line, with: Self.ignoresPrefix), contains(line, Self.ignoresMarker) {
            finishCurrent(closed: false, emit: emit)
            begin(line)
            currentIsIgnoresMessage = true
        } else if current != nil {
            append(line)
        }
    }

    /// The end of the log: a report still open was cut off (the ignores message never has a
    /// closing line: it is whole).
    mutating func finish(emit: (ReportBlock) -> Void) {
        finishCurrent(closed: currentIsIgnoresMessage, emit: emit)
    }

    private mutating func begin(_ line: UnsafeBufferPointer<UInt8>) {
        current = ReportBlock(lines: [])
        append(line)
    }

    private mutating func append(_ line: UnsafeBufferPointer<UInt8>) {
        guard current != nil else { return }
        if current!.lines.count >= Self.maximumLines {
            current!.linesDropped += 1
            return
        }
        current!.fingerprint.add(line)
        current!.lines.append(String(decoding: line, as: UTF8.self))
    }

    private mutating func finishCurrent(closed: Bool, emit: (ReportBlock) -> Void) {
        guard var block = current else { return }
        block.closed = closed
        current = nil
        currentIsIgnoresMessage = false
        emit(block)
    }

    private mutating func noteCrash(_ line: UnsafeBufferPointer<UInt8>) {
        guard crashLines.count < Self.maximumCrashLines, Self.crashMarkers.contains(where: { contains(line, $0) })
        else { return }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        if !crashLines.contains(text) { crashLines.append(text) }
    }

    // Byte comparisons with the C library: most lines are looked at only here, so no String is
    // made for them (and racelab runs unoptimised, under TSan, where a Swift loop per byte is slow).

    private func starts(_ line: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        line.count >= prefix.utf8CodeUnitCount
            && memcmp(line.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    private func equals(_ line: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        line.count == text.utf8CodeUnitCount && starts(line, with: text)
    }

    /// `line` is followed by a NUL (`LogLineReader` promises it), so strstr can search it.
    private func contains(_ line: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        guard let base = line.baseAddress else { return false }
        return base.withMemoryRebound(to: CChar.self, capacity: line.count + 1) { text in
            needle.utf8Start.withMemoryRebound(to: CChar.self, capacity: needle.utf8CodeUnitCount + 1) {
                strstr(text, $0) != nil
            }
        }
    }
}

/// A hash of a report's lines that leaves out what differs between two printings of the same
/// report: hexadecimal numbers after "0x" (addresses) and the numbers after "pid=" and "tid=".
/// Line and thread numbers stay: they change what the explanation says. The text between is
/// hashed by the standard library in whole pieces, not byte by byte.
struct ReportFingerprint: Hashable {
    private var hasher = Hasher()
    private(set) var value = 0

    mutating func add(_ line: UnsafeBufferPointer<UInt8>) {
        guard let base = line.baseAddress else { return }
        let end = base + line.count
        var start = base
        while start < end {
            let next = nextVariablePart(from: start, end: end)
            hasher.combine(bytes: UnsafeRawBufferPointer(start: start, count: next.text - start))
            start = next.resume
        }
        hasher.combine(UInt8(ascii: "\n"))
        value = hasher.finalize()
    }

    mutating func add(byte: UInt8) {
        hasher.combine(byte)
        value = hasher.finalize()
    }

    static func == (left: Self, right: Self) -> Bool { left.value == right.value }
    func hash(into other: inout Hasher) { other.combine(value) }

    /// Where the next address or id starts (`text`, the end of the text before it) and where
    /// the text after it starts (`resume`); both `end` when there is none.
    private func nextVariablePart(from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>)
        -> (text: UnsafePointer<UInt8>, resume: UnsafePointer<UInt8>)
    {
        var cursor = start
        while cursor < end,
            let hit = memchr(cursor, Int32(UInt8(ascii: "0")), end - cursor).map({
                UnsafePointer($0.assumingMemoryBound(to: UInt8.self))
            })
        {
            let equalsSign = findIdEquals(from: cursor, before: hit)
            if let equalsSign { return (equalsSign + 1, skip(from: equalsSign + 1, end: end, hex: false)) }
            if hit + 1 < end, hit[1] == UInt8(ascii: "x") { return (hit, skip(from: hit + 2, end: end, hex: true)) }
            cursor = hit + 1
        }
        if let equalsSign = findIdEquals(from: cursor, before: end) {
            return (equalsSign + 1, skip(from: equalsSign + 1, end: end, hex: false))
        }
        return (end, end)
    }

    /// "pid=" or "tid=" between `start` and `limit`: the "=" of the first one.
    private func findIdEquals(from start: UnsafePointer<UInt8>, before limit: UnsafePointer<UInt8>) -> UnsafePointer<
        UInt8
    >? {
        var cursor = start
        while cursor < limit,
            let hit = memchr(cursor, Int32(UInt8(ascii: "=")), limit - cursor).map({
                UnsafePointer($0.assumingMemoryBound(to: UInt8.self))
            })
        {
            if hit - 3 >= start, hit[-1] == UInt8(ascii: "d"), hit[-2] == UInt8(ascii: "i"),
                hit[-3] == UInt8(ascii: "p") || hit[-3] == UInt8(ascii: "t")
            {
                return hit
            }
            cursor = hit + 1
        }
        return nil
    }

    private func skip(from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hex: Bool) -> UnsafePointer<UInt8> {
        var cursor = start
        while cursor < end {
            let byte = cursor.pointee
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let letter =
                hex
                && (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")
                    || byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
            guard digit || letter else { break }
            cursor += 1
        }
        return cursor
    }
}
