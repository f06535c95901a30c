import CRaceLabSupport
import Foundation

/// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), written out because Linux has no CryptoKit
/// and the package takes no dependencies. Used for the kit manifest's file hashes and to
/// authenticate the child's result line. The block function is in C (see `compress`).
public struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() {}

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let input = Array(bytes)
        length &+= UInt64(input.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, input.count)
            pending += input[0..<take]
            index = take
            if pending.count == 64 {
                compress(pending[...])
                pending.removeAll(keepingCapacity: true)
            }
        }
        let whole = (input.count - index) / 64 * 64
        if whole > 0 {
            compress(input[index..<index + whole])
            index += whole
        }
        pending += input[index...]
    }

    public mutating func update(_ text: String) { update(Array(text.utf8)) }

    /// The 32-byte digest. The hasher is consumed (padding is added to a copy of its state).
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        copy.pending.append(0x80)
        if copy.pending.count > 56 {
            copy.pending += [UInt8](repeating: 0, count: 64 - copy.pending.count)
            copy.compress(copy.pending[...])
            copy.pending.removeAll()
        }
        copy.pending += [UInt8](repeating: 0, count: 56 - copy.pending.count)
        for shift in stride(from: 56, through: 0, by: -8) {
            copy.pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        copy.compress(copy.pending[...])
        return copy.state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    /// Whole 64-byte blocks, in C (CRaceLabSupport's SHA256Blocks.c: uninstrumented; in the debug
    /// TSan build a million bytes take 0.055 s instead of the Swift loop's 1.12 s).
    private mutating func compress(_ blocks: ArraySlice<UInt8>) {
        precondition(blocks.count % 64 == 0)
        blocks.withUnsafeBufferPointer { bytes in
            state.withUnsafeMutableBufferPointer { words in
                rl_sha256_blocks(words.baseAddress!, bytes.baseAddress!, bytes.count / 64)
            }
        }
    }

    // MARK: One-shot helpers

    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        SHA256.hexString(hash(bytes))
    }

    public static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    /// The file's SHA-256 as 64 lowercase hex digits, nil when it cannot be read.
    /// The file's digest, read a piece at a time; nil when it is not a regular file (a link, a
    /// FIFO: opened without waiting), cannot be read, or is larger than `maxBytes` (a sparse file
    /// of terabytes in a submission costs nothing).
    public static func hex(fileAt url: URL, maxBytes: Int = 256 << 20) -> String? {
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maxBytes else { return nil }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            total += got
            guard total <= maxBytes else { return nil }
            hasher.update(Array(buffer[0..<got]))
        }
        return hexString(hasher.finalize())
    }

    /// HMAC-SHA-256 of `message` under `key` (RFC 2104, block size 64).
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    public static func hexString<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes from hex digits; nil for anything else.
    public static func bytes(hex: String) -> [UInt8]? {
        let characters = Array(hex.utf8)
        guard characters.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        var index = 0
        while index < characters.count {
            guard let high = value(characters[index]), let low = value(characters[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Equal bytes, compared without an early exit.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
