@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports
import XCTest

final class SwiftDemanglerTests: XCTestCase {
    func testUsesTheRuntimeDemanglerAndTrimsNoise() {
        XCTAssertEqual(SwiftDemangler.demangle("$s9ListAdder0aB6BrokenC3addyySiF"), "ListAdderBroken.add(Int)")
        XCTAssertEqual(
            SwiftDemangler.demangle("$s9ListAdder0aB6BrokenC11recalculate33_908AB684ADE0C0BF360D07FCC854AF9ALLyyFyyYbcfU_"),
            "closure #1 in ListAdderBroken.recalculate()")
    }

    func testDropsALabModuleThatItsTypeNameRepeats() {
        XCTAssertEqual(SwiftDemangler.simplify("ListAdder.ListAdderExercise.add(Swift.Int) -> ()"), "ListAdderExercise.add(Int)")
        XCTAssertEqual(SwiftDemangler.simplify("Other.Thing.run() -> ()"), "Other.Thing.run()")
    }

    func testLeavesOtherNamesAlone() {
        XCTAssertEqual(SwiftDemangler.demangle("pthread_create"), "pthread_create")
        XCTAssertEqual(SwiftDemangler.demangle("$sNOT_A_SYMBOL"), "$sNOT_A_SYMBOL")
    }
}
