import Foundation
import LabKit
import CooperativeCancellation
import Synchronization

/// The Swift 6 fix (this file is built in the Swift 6 language mode, with every warning an error):
/// the controller belongs to the main actor, so its export task does too. The task checks its
/// cancellation before every photo and after every await, and each photo is encoded in a child
/// task of a task group: the export's cancel reaches the child, and its handler cancels the job.
@MainActor
final class CooperativeCancellationFixedTask: CooperativeCancellationController {
    private let photos: [Int]
    private let encoder: LegacyPhotoEncoder
    private let album: ExportAlbum
    private var export: Task<Void, Error>?

    nonisolated init(environment: ExportEnvironment) {
        photos = environment.photos
        encoder = environment.encoder
        album = environment.album
    }

    // The harness calls these on the main thread; `assumeIsolated` checks that it is.
    nonisolated func startExport() {
        MainActor.assumeIsolated { start() }
    }

    nonisolated func cancelExport() {
        MainActor.assumeIsolated { export?.cancel() }
    }

    private func start() {
        export = Task {
            for photo in photos {
                try Task.checkCancellation()  // FIX: before every photo
                let file = try await encodeInChildTask(photo)
                try Task.checkCancellation()  // FIX: after the await, before the photo shows
                album.add(file)
            }
            try Task.checkCancellation()
            album.finish()
        }
    }

    /// A child task in a group: cancelling the export cancels it too (a `Task.detached` would not be).
    private func encodeInChildTask(_ photo: Int) async throws -> EncodedPhoto {
        let encoder = self.encoder
        return try await withThrowingTaskGroup(of: EncodedPhoto.self) { group in
            group.addTask { try await Self.encode(photo, with: encoder) }
            guard let file = try await group.next() else { throw CancellationError() }
            return file
        }
    }

    /// The old encoder, wrapped so that a cancel reaches its job.
    nonisolated static func encode(_ photo: Int, with encoder: LegacyPhotoEncoder) async throws -> EncodedPhoto {
        let job = Mutex<(job: EncodeJob?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let started = encoder.encodingJob(for: photo) { file in
                    if let file {
                        continuation.resume(returning: file)
                    } else {
                        continuation.resume(throwing: CancellationError())
                    }
                }
                // FIX: kept before it starts; cancelled before the job existed: cancel it now.
                if job.withLock({ $0.job = started; return $0.cancelled }) { started.cancel() }
                started.start()
            }
        } onCancel: {
            // FIX: runs as the task is cancelled, on the canceller's thread.
            job.withLock { $0.cancelled = true; return $0.job }?.cancel()
        }
    }
}

extension CooperativeCancellationLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<ExportEnvironment, CooperativeCancellationController>] {
        [LabVariant(.fixed, name: "fixed-task") { CooperativeCancellationFixedTask(environment: $0) }]
    }
}
