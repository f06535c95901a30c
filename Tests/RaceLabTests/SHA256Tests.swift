import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// FIPS 180-4 example vectors (via NIST's CAVP "SHA-256 examples") and RFC 4231 for HMAC.
final class SHA256Tests: XCTestCase {
    func testStandardVectors() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            ),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testOneMillionAs() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        XCTAssertEqual(
            SHA256.hexString(hasher.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testPaddingBoundariesAndSplitUpdatesAgree() {
        // 55, 56, 63, 64 and 65 bytes straddle the padding cases; any split must give the same hash.
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hash(message)
            for split in Set([0, 1, length / 2, max(length - 1, 0), length]) where split <= length {
                var hasher = SHA256()
                hasher.update(message[0..<split])
                hasher.update(message[split...])
                XCTAssertEqual(hasher.finalize(), whole, "length \(length) split \(split)")
            }
        }
        XCTAssertEqual(
            SHA256.hex(String(repeating: "a", count: 56)),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }

    func testHMACRFC4231() {
        let case1 = SHA256.hmac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
        XCTAssertEqual(SHA256.hexString(case1), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let case2 = SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        XCTAssertEqual(SHA256.hexString(case2), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let case6 = SHA256.hmac(
            key: [UInt8](repeating: 0xaa, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        XCTAssertEqual(SHA256.hexString(case6), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func testHexRoundTrip() {
        XCTAssertEqual(SHA256.bytes(hex: "00ff10Ab"), [0x00, 0xff, 0x10, 0xab])
        XCTAssertNil(SHA256.bytes(hex: "abc"))
        XCTAssertNil(SHA256.bytes(hex: "zz"))
        XCTAssertTrue(SHA256.constantTimeEqual([1, 2], [1, 2]))
        XCTAssertFalse(SHA256.constantTimeEqual([1, 2], [1, 3]))
        XCTAssertFalse(SHA256.constantTimeEqual([1], [1, 2]))
    }
}
