import Foundation
import XCTest

/// Real TSan logs captured on this toolchain (see Fixtures/README.md for how each was made).
enum Fixture {
    static func text(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            XCTFail("missing fixture \(name)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
