#if canImport(Testing)
    import Foundation
    import Testing

    extension RaceTest {
        /// In a Swift Testing test function (`@Test`): the test running now. The passes run in
        /// children as from XCTest (the test program again, on this one test).
        ///
        /// ```swift
        /// @Test func noVisitIsLost() throws {
        ///     try RaceTest().run {
        ///         let counter = HitCounter()
        ///         return Race([{ counter.record("home") }, { counter.record("home") }]) {
        ///             counter.hits("home") == 2 ? nil : "a visit was lost"
        ///         }
        ///     }
        /// }
        /// ```
        public init(passes: [RacePass] = [.stress(iterations: 100)], seed: UInt64? = nil) {
            guard let test = Test.current else {
                preconditionFailure("RaceTest(): call it inside a @Test function (in an XCTest method: RaceTest(self))")
            }
            self.init(testName: String(describing: test.id), passes: passes, seed: seed)
            runner = .swiftTesting
            if test.isParameterized {
                // Its cases share one ID, so a child could not be started on one case alone.
                refusal =
                    "\(testName): a parameterized test cannot be a race test (its cases share one test ID); "
                    + "write one @Test per case, or loop over the cases inside the race's bodies"
            }
        }
    }
#endif
