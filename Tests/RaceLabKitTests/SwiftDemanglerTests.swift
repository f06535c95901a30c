@testable import RaceLabKit
import XCTest

final class SwiftDemanglerTests: XCTestCase {
    func testUsesTheRuntimeDemanglerAndTrimsNoise() {
        XCTAssertEqual(SwiftDemangler.demangle("$s4Labs15ListAdderBrokenC3addyySiF"), "ListAdderBroken.add(Int)")
        XCTAssertEqual(
            SwiftDemangler.demangle("$s4Labs15ListAdderBrokenC11recalculate33_38F923B6D0E65AA8B7C45A62C26ABC01LLyyFyyYbcfU_"),
            "closure #1 in ListAdderBroken.recalculate()")
    }

    func testLeavesOtherNamesAlone() {
        XCTAssertEqual(SwiftDemangler.demangle("pthread_create"), "pthread_create")
        XCTAssertEqual(SwiftDemangler.demangle("$sNOT_A_SYMBOL"), "$sNOT_A_SYMBOL")
    }
}
