/// How a stress run orders threads at their synchronisation points: the labs' stress pass
/// (Preemption.c) and `racelab stress` (StressPreload.c) both offer the two.
public enum StressSchedule: String, Codable, Sendable, CaseIterable {
    /// Random pauses: a thread stopped a random moment while another runs through (the labs:
    /// a random running thread every few microseconds; `racelab stress`: each thread its own
    /// seeded pace).
    case pauses
    /// One thread at a time, the one of highest priority among those that can run; priorities,
    /// and a few points where the first thread's priority drops below all others, chosen by the
    /// seed (PCT). Finds bugs that need two or more preemptions in a given order.
    case priority
}
