import Foundation

/// Proof that a result line came from the harness, not from lab code printing a forged one.
///
/// The parent makes a fresh random key for every child and writes it to the child's stdin. The
/// child reads it and closes stdin (fd 0 then points at /dev/null) before any lab code runs:
/// `main.swift` calls `receiveKeyIfAsked` before it even touches the lab catalog. The child
/// signs its result line with HMAC-SHA-256 under that key; the parent rejects any result line
/// whose code does not match (a harness error: never a pass).
///
/// Lab code runs in the same process as the harness, so a determined attacker could dig the key
/// out of memory. What this stops is the easy forgery: `print("RACELAB-RESULT {...clean...}")`
/// from a student's exercise, or a line replayed from another run.
public enum ChannelAuthentication {
    /// The child option telling it to read its key from stdin.
    public static let stdinOption = "--auth-stdin"

    /// 32 random bytes from the system's generator.
    public static func newKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var storedKey: [UInt8]?
    nonisolated(unsafe) private static var attempted = false

    /// The key this process received from its parent, if it was asked to read one.
    static var receivedKey: [UInt8]? { lock.withLock { storedKey } }

    /// When `arguments` (the whole command line) holds `--auth-stdin`: read one line of hex from
    /// stdin, keep it as the key, and replace stdin with /dev/null. Does nothing otherwise, and
    /// nothing the second time.
    public static func receiveKeyIfAsked(_ arguments: [String] = CommandLine.arguments) {
        guard arguments.contains(stdinOption) else { return }
        lock.withLock {
            guard !attempted else { return }
            attempted = true
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while line.count < 256 {
                let count = read(0, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 || byte == UInt8(ascii: "\n") { break }
                line.append(byte)
            }
            let devNull = open("/dev/null", O_RDONLY)
            if devNull >= 0 {
                dup2(devNull, 0)
                if devNull != 0 { close(devNull) }
            } else {
                close(0)
            }
            let key = SHA256.bytes(hex: String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces))
            storedKey = (key?.isEmpty ?? true) ? nil : key
        }
    }

    /// Hex HMAC-SHA-256 of `payload` under `key`.
    public static func signature(of payload: String, key: [UInt8]) -> String {
        SHA256.hexString(SHA256.hmac(key: key, message: Array(payload.utf8)))
    }

    public static func isValid(signature: String, of payload: String, key: [UInt8]) -> Bool {
        guard let given = SHA256.bytes(hex: signature) else { return false }
        return SHA256.constantTimeEqual(given, SHA256.hmac(key: key, message: Array(payload.utf8)))
    }

    /// `"<tag>hmac=<hex> <payload>"` when a key is given, else `"<tag><payload>"`.
    public static func line(tag: String, payload: String, key: [UInt8]?) -> String {
        guard let key else { return tag + payload }
        return tag + "hmac=" + signature(of: payload, key: key) + " " + payload
    }

    /// Splits the part after a tag into (signature, payload); signature nil when unsigned.
    public static func split(_ body: Substring) -> (signature: String?, payload: Substring) {
        guard body.hasPrefix("hmac="), let space = body.firstIndex(of: " ") else { return (nil, body) }
        return (String(body[body.index(body.startIndex, offsetBy: 5)..<space]), body[body.index(after: space)...])
    }
}
