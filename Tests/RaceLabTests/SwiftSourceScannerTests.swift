import XCTest

@testable import RaceLabGrading

final class SwiftSourceScannerTests: XCTestCase {
    func testBlanksCommentsAndStringTextButKeepsLinesAndInterpolations() {
        let source = "let a = 1 // note\n/* one\n two */ let b = \"x\\(a + 1)y\"\nlet c = #\"r\\#(b)\"#\n"
        let code = SwiftSourceScanner.codeOnly(source)
        XCTAssertEqual(
            code.split(separator: "\n", omittingEmptySubsequences: false).count,
            source.split(separator: "\n", omittingEmptySubsequences: false).count)
        XCTAssertEqual(code.utf8.count, source.utf8.count, "every byte keeps its place")
        XCTAssertFalse(code.contains("note"))
        XCTAssertFalse(code.contains("one"))
        XCTAssertTrue(code.contains("a + 1"), code)
        XCTAssertTrue(code.contains("(b)"), code)
        XCTAssertFalse(code.contains("x"), code)
    }

    func testNestedCommentsAndMultilineStrings() {
        let source = "/* a /* b */ c */ let x = \"\"\"\n  hidden \"quoted\"\n  \"\"\"\nlet y = 2\n"
        let code = SwiftSourceScanner.codeOnly(source)
        XCTAssertFalse(code.contains("hidden"))
        XCTAssertFalse(code.contains("c */"))
        XCTAssertTrue(code.contains("let y = 2"))
    }

    func testUnterminatedInputDoesNotHang() {
        for source in ["\"open", "/* open", "let s = \"\\(", "#\"raw", "#/ regex"] {
            XCTAssertEqual(SwiftSourceScanner.codeOnly(source).utf8.count, source.utf8.count)
        }
    }
}
