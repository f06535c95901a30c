#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a stream of log bytes into lines, a chunk at a time, with memory bounded whatever
/// comes in: a line longer than `maximumLineLength` keeps its start and drops the rest; ANSI
/// escape sequences (TSan's colours) are removed on the way; control bytes (NUL, binary junk)
/// are dropped and counted. Linear time: each byte is looked at once.
///
/// The scanning is left to the C library (`strcspn` finds the next byte that is not plain
/// text, `memcpy` copies the text before it): racelab is built with ThreadSanitizer and
/// without optimisation, where a Swift loop over every byte of 200 MB takes minutes.
public struct LogLineReader<Source: LogByteSource> {
    /// Longer lines keep this many bytes: a real frame line (a long Swift symbol, a path, a
    /// BuildId) stays far below it.
    public static var maximumLineLength: Int { 8_192 }
    static var chunkSize: Int { 1 << 20 }
    /// The first bytes are checked for being text at all (`/dev/zero`, an executable).
    static var sniffLength: Int { 65_536 }

    private var source: Source
    /// Whether input that is mostly binary is refused (`LogReadError.notText`).
    private let refusesBinary: Bool
    public private(set) var bytesRead = 0
    /// Control bytes dropped (NUL and the like: never part of a TSan log).
    public private(set) var binaryBytes = 0
    /// Lines longer than `maximumLineLength`, cut.
    public private(set) var linesCut = 0
    public private(set) var lineCount = 0

    private enum Escape { case none, started, controlSequence, operatingSystemCommand }

    /// What one chunk leaves to the next: the line so far (at most `maximumLineLength` bytes,
    /// with room for a NUL after them) and the escape sequence under way.
    private struct LineInProgress {
        let bytes: UnsafeMutablePointer<UInt8>
        var length = 0
        /// Bytes of this line were dropped for want of room.
        var overflowed = false
        var escape = Escape.none

        /// Adds `count` bytes from `start`, as many as there is room for.
        mutating func append(_ start: UnsafePointer<CChar>, _ count: Int) {
            let room = min(count, LogLineReader.maximumLineLength - length)
            if room > 0 {
                memcpy(bytes + length, start, room)
                length += room
            }
            if room < count { overflowed = true }
        }
    }

    /// Every byte that is not plain text, as a C string: where `strcspn` stops (it also stops
    /// at a NUL, such as the one after each chunk).
    private static func specialBytes() -> UnsafeMutablePointer<CChar> {
        let bytes = Array(1...31) + [127, 0]
        let set = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        for (index, byte) in bytes.enumerated() { set[index] = CChar(truncatingIfNeeded: byte) }
        return set
    }

    /// `refusesBinary`: stop with `LogReadError.notText` when the first bytes are mostly not
    /// text (a file or a stream given by a user); a string in memory is read whatever it holds.
    public init(_ source: Source, refusesBinary: Bool = true) {
        self.source = source
        self.refusesBinary = refusesBinary
    }

    /// Calls `body` with each line (without its newline, colour codes removed), in order. The
    /// buffer is valid only during the call, and is followed by a NUL (C string functions work).
    public mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(LogReadError) {
        // One byte more than a chunk: a NUL after the data stops strcspn.
        let chunk = UnsafeMutablePointer<CChar>.allocate(capacity: Self.chunkSize + 1)
        defer { chunk.deallocate() }
        var line = LineInProgress(bytes: .allocate(capacity: Self.maximumLineLength + 1))
        defer { line.bytes.deallocate() }
        let special = Self.specialBytes()
        defer { special.deallocate() }
        var sniffed = false
        while true {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(start: chunk, count: Self.chunkSize))
            if count == 0 { break }
            bytesRead += count
            chunk[count] = 0
            split(chunk, count: count, special: special, into: &line, body)
            if !sniffed, bytesRead >= Self.sniffLength {
                sniffed = true
                try checkIsText()
            }
        }
        if !sniffed { try checkIsText() }
        if line.length > 0 || line.overflowed { end(&line, body) }
    }

    /// Cuts one chunk (a NUL after its `count` bytes) into lines, the last one left unfinished in
    /// `line`. Plain text is copied a run at a time; the other bytes are looked at one by one, in
    /// this loop itself: a call per byte would cost (an unoptimised build inlines nothing).
    private mutating func split(
        _ chunk: UnsafeMutablePointer<CChar>, count: Int, special: UnsafePointer<CChar>,
        into line: inout LineInProgress, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var escape = line.escape  // a local, not a field of `line`: it is read for every byte
        defer { line.escape = escape }
        var position = 0
        while position < count {
            if escape == .none {
                let plain = strcspn(chunk + position, special)
                if plain > 0 {
                    line.append(chunk + position, plain)
                    position += plain
                    continue
                }
            }
            let byte = UInt8(bitPattern: chunk[position])
            position += 1
            switch escape {
            case .none: break
            case .started:
                escape =
                    byte == UInt8(ascii: "[")
                    ? .controlSequence : byte == UInt8(ascii: "]") ? .operatingSystemCommand : .none
                if byte != UInt8(ascii: "\n") { continue }
            case .controlSequence:
                // Parameters and intermediates (0x20-0x3F), then one final byte (0x40-0x7E).
                if byte >= 0x20 && byte <= 0x3F { continue }
                escape = .none
                if byte >= 0x40 && byte <= 0x7E { continue }
            case .operatingSystemCommand:
                // Ends with BEL or ESC (of "ESC \"); a newline ends it too, so a broken one costs a line at most.
                if byte == 0x07 {
                    escape = .none
                    continue
                }
                if byte == 0x1B {
                    escape = .started
                    continue
                }
                if byte != UInt8(ascii: "\n") { continue }
                escape = .none
            }
            switch byte {
            case UInt8(ascii: "\n"): end(&line, body)
            case 0x1B: escape = .started
            case UInt8(ascii: "\r"): break
            case UInt8(ascii: "\t"):
                var tab = CChar(9)
                line.append(&tab, 1)
            case _ where byte >= 0x20 && byte != 0x7F:
                // Only reached inside an escape sequence that just ended on this byte's behalf.
                var text = CChar(bitPattern: byte)
                line.append(&text, 1)
            default: binaryBytes += 1
            }
        }
    }

    /// Hands the line to `body`, counted, and starts the next one.
    private mutating func end(_ line: inout LineInProgress, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if line.overflowed { linesCut += 1 }
        lineCount += 1
        line.bytes[line.length] = 0
        body(UnsafeBufferPointer(start: line.bytes, count: line.length))
        line.length = 0
        line.overflowed = false
    }

    /// A TSan log is text: if nearly a third of the first bytes are control bytes, this is
    /// something else, and reading on (maybe forever, as from /dev/zero) would help no one.
    private func checkIsText() throws(LogReadError) {
        if refusesBinary, bytesRead > 0, binaryBytes * 10 >= bytesRead * 3 { throw LogReadError.notText }
    }
}
