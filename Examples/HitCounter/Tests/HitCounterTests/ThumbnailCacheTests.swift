import HitCounter
import RaceLabTesting
import XCTest

/// Two screens ask for the same thumbnail at once: it must be made once. The async pass runs
/// the tasks' jobs one at a time, in orders RaceLab chooses by seed (the same seed, the same
/// order), so the second call's arrival at the cache while the first waits for the maker is
/// tried, not hoped for.
final class ThumbnailCacheTests: XCTestCase {
    /// The fix: each photo made once, in every order tried.
    func testEachThumbnailIsMadeOnce() throws {
        let summary = try RaceTest(self, passes: [.async(iterations: 20)]).run {
            let maker = ThumbnailMaker()
            let cache = ThumbnailCache(maker: maker)
            return AsyncRace([
                { _ = await cache.thumbnail(7) },
                { _ = await cache.thumbnail(7) }
            ]) {
                let times = await maker.times(7)
                return times == 1 ? nil : "photo 7 was made \(times) times"
            }
        }
        print(summary)
    }

    /// The first version makes the photo twice; RaceLab shows it, with the seed that replays the
    /// same order. (This test expects the failure, so that the example's own suite is green.)
    func testTheFirstVersionMakesAThumbnailTwice() throws {
        XCTAssertThrowsError(
            try RaceTest(self, passes: [.async(iterations: 20)]).run {
                let maker = ThumbnailMaker()
                let cache = ReentrantThumbnailCache(maker: maker)
                return AsyncRace([
                    { _ = await cache.thumbnail(7) },
                    { _ = await cache.thumbnail(7) }
                ]) {
                    let times = await maker.times(7)
                    return times == 1 ? nil : "photo 7 was made \(times) times"
                }
            }
        ) { error in
            print(error)
            XCTAssertTrue("\(error)".contains("photo 7 was made 2 times"), "\(error)")
        }
    }
}
