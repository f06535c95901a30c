import XCTest

@testable import RaceLabGrading

/// Reports carry what students chose (folder names, text their code printed): none of it may
/// act on whoever opens the report.
final class ReportSafetyTests: XCTestCase {
    func testNoTwoStudentsShareAReportFile() {
        let names = [".sneaky", "_sneaky", "_dot_sneaky", "sneaky", "__x", "_x", ".x"]
        let files = names.map(ClassGrader.fileName(for:))
        XCTAssertEqual(Set(files).count, names.count, "\(files)")
        XCTAssertFalse(files.contains { $0.hasPrefix(".") }, "hidden names get a visible file")
    }

    func testASpreadsheetFormulaIsKeptAsText() {
        XCTAssertEqual(ClassGrader.csv("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"")
        XCTAssertEqual(ClassGrader.csv("+1"), "'+1")
        XCTAssertEqual(ClassGrader.csv("alice"), "alice")
    }

    func testControlCharactersInATextReportAreShownNotObeyed() {
        let text = GradeText.visible("10/10 \u{1B}[2J\u{1B}[Hpassed\u{7}\nnext\tline")
        XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, text)
        XCTAssertEqual(text, "10/10 ^[[2J^[[Hpassed^G\nnext\tline")
    }
}
