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
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.maximumLineLength + 1)
        defer { line.deallocate() }
        let special = Self.specialBytes()
        defer { special.deallocate() }
        var length = 0
        var overflowed = false
        var escape = Escape.none
        var sniffed = false

        func append(_ start: UnsafePointer<CChar>, _ count: Int) {
            let room = min(count, Self.maximumLineLength - length)
            if room > 0 {
                memcpy(line + length, start, room)
                length += room
            }
            if room < count { overflowed = true }
        }
        func endLine() {
            if overflowed { linesCut += 1 }
            lineCount += 1
            line[length] = 0
            body(UnsafeBufferPointer(start: line, count: length))
            length = 0
            overflowed = false
        }

        while true {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(start: chunk, count: Self.chunkSize))
            if count == 0 { break }
            bytesRead += count
            chunk[count] = 0
            var position = 0
            while position < count {
                if escape == .none {
                    let plain = strcspn(chunk + position, special)
                    if plain > 0 {
                        append(chunk + position, plain)
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
                case UInt8(ascii: "\n"): endLine()
                case 0x1B: escape = .started
                case UInt8(ascii: "\r"): break
                case UInt8(ascii: "\t"):
                    var tab = CChar(9)
                    append(&tab, 1)
                case _ where byte >= 0x20 && byte != 0x7F:
                    // Only reached inside an escape sequence that just ended on this byte's behalf.
                    var text = CChar(bitPattern: byte)
                    append(&text, 1)
                default: binaryBytes += 1
                }
            }
            if !sniffed, bytesRead >= Self.sniffLength {
                sniffed = true
                try checkIsText()
            }
        }
        if !sniffed { try checkIsText() }
        if length > 0 || overflowed { endLine() }
    }

    /// A TSan log is text: if nearly a third of the first bytes are control bytes, this is
    /// something else, and reading on (maybe forever, as from /dev/zero) would help no one.
    private func checkIsText() throws(LogReadError) {
        if refusesBinary, bytesRead > 0, binaryBytes * 10 >= bytesRead * 3 { throw LogReadError.notText }
    }
}
