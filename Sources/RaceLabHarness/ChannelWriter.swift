import Foundation

/// Whole lines to the result channel from several threads without interleaving. The channel
/// is descriptor 3, which the parent opened for this child alone (`ChildRunner`); run by hand,
/// without one, the child writes to standard output instead.
/// (NSLock, not Synchronization.Mutex: on Linux TSan does not see Mutex as synchronisation.)
public enum ChannelWriter {
    private static let lock = NSLock()
    private static let descriptor: Int32 = fcntl(ChildChannel.descriptor, F_GETFD) >= 0 ? ChildChannel.descriptor : 1

    public static func writeLine(_ line: String) {
        lock.withLock {
            var bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes {
                    write(descriptor, $0.baseAddress! + offset, $0.count - offset)
                }
                if written <= 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
