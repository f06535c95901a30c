/// A small repeatable random generator (SplitMix64): the same seed gives the same choices,
/// so a failing stress run can be replayed with `--seed`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SeededRandom.mix(state)
    }

    /// A stateless hash of several values: used where threads need "random" numbers without
    /// sharing a generator (a shared generator would need a lock, and a lock hides races).
    public static func hash(_ values: UInt64...) -> UInt64 {
        var result: UInt64 = 0x243F_6A88_85A3_08D3
        for value in values { result = mix(result ^ value &+ 0x9E37_79B9_7F4A_7C15) }
        return result
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
