import Foundation

/// One runner's share of a class (`racelab grade-all --shard K/N`): the submissions at places
/// K-1, K-1+N, K-1+2N... of grade-all's sorted list of entries. It depends on the names only,
/// so N runners given the same folder take disjoint shares that together cover it.
public struct ClassShard: Sendable, Equatable, CustomStringConvertible {
    /// K, from 1.
    public let index: Int
    /// N, at least 1.
    public let count: Int

    public struct InvalidError: Error, CustomStringConvertible {
        public let description: String
    }

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// "K/N" as given to --shard.
    public static func parse(_ text: String) throws(InvalidError) -> ClassShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        // Digits only: Int would read "+2" as 2.
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let index = Int(parts[0]), let count = Int(parts[1]), let shard = ClassShard(index: index, count: count)
        else {
            throw InvalidError(
                description:
                    "--shard must be K/N, runner K of N: N at least 1 and K from 1 to N (e.g. --shard 2/3), "
                    + "not '\(text)'"
            )
        }
        return shard
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the entry at `place` (from 0) of the sorted list is this shard's.
    public func takes(place: Int) -> Bool { place % count == index - 1 }

    /// This shard's items of the whole sorted list, in its order.
    public func share<Item>(of items: [Item]) -> [Item] {
        items.enumerated().filter { takes(place: $0.offset) }.map(\.element)
    }
}
