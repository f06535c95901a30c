import LabCatalog
@_spi(LabAuthoring) import LabKit
import XCTest

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif
#if RACELAB_CORPUS
    import CorpusCatalog
#endif

/// A lab is registered in the lab catalog and, in the full repository, in the catalogs of its
/// reference fixes and of its grading corpus: each of them names every lab once, in the
/// learning path's order, so a lab left out of one fails here, not in a later script's count.
final class CatalogTests: XCTestCase {
    func testEveryCatalogNamesEveryLabOnceInTheLearningPathsOrder() throws {
        let path = labCatalog.labs.map(\.id)
        XCTAssertEqual(path.count, Set(path).count, "a lab registered twice: \(path)")
        XCTAssertEqual(path.first, "list-adder")
        #if RACELAB_SOLUTIONS
            XCTAssertEqual(solutionCatalog.map(\.labID), path, "SolutionCatalog.swift")
        #endif
        #if RACELAB_CORPUS
            XCTAssertEqual(corpusCatalog.map(\.labID), path, "CorpusCatalog.swift")
        #endif
        #if !RACELAB_SOLUTIONS && !RACELAB_CORPUS
            throw XCTSkip("a build without the reference fixes or the corpus has one catalog")
        #endif
    }
}
