#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a log's bytes come from: a file, a pipe, standard input, or a string in memory.
public protocol LogByteSource {
    /// Fills the start of `buffer`; returns how many bytes it put there, 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(LogReadError) -> Int
}

/// Why a log could not be read. `message` is one line that also says what would be valid.
public enum LogReadError: Error, Equatable {
    case cannotOpen(path: String, reason: String)
    case readFailed(reason: String)
    case notText

    public var message: String {
        let valid = "give a ThreadSanitizer log as text (a program's standard error) in a file, or - for standard input"
        switch self {
        case .cannotOpen(let path, let reason): return "cannot read '\(path)' (\(reason)): \(valid)"
        case .readFailed(let reason): return "reading the log failed (\(reason)): \(valid)"
        case .notText: return "this is not a text log (its first bytes are mostly binary): \(valid)"
        }
    }
}

/// An open file descriptor, read with read(2): works for files, pipes and terminals alike.
public struct FileDescriptorSource: LogByteSource {
    public let descriptor: Int32
    private let path: String

    /// Opens `path` for reading; "-" is standard input.
    public init(path: String) throws(LogReadError) {
        self.path = path
        if path == "-" {
            descriptor = 0
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        if fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            closeDescriptor(opened)
            throw .cannotOpen(path: path, reason: "it is a folder")
        }
        descriptor = opened
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(LogReadError) -> Int {
        while true {
            let count = readBytes(descriptor, buffer)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw path == "-"
                ? .readFailed(reason: String(cString: strerror(errno)))
                : .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Closes the file (never standard input).
    public func close() {
        if descriptor != 0 { closeDescriptor(descriptor) }
    }
}

/// Bytes already in memory (a child's captured standard error, a test's fixture).
public struct InMemorySource: LogByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ text: String) { bytes = Array(text.utf8) }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(LogReadError) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

// The C calls, at file scope, where `read` and `close` are not the methods above.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
