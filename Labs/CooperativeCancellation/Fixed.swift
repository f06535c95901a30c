import Foundation
import LabKit
import CooperativeCancellation
import Synchronization

/// The job an encoding started, and whether the task was cancelled before it existed.
final class CooperativeCancellationJobBox: Sendable {
    private let state = Mutex<(job: EncodeJob?, cancelled: Bool)>((nil, false))

    /// The task was cancelled: cancel the job, or the one still to come.
    func cancel() {
        let job = state.withLock { state -> EncodeJob? in
            state.cancelled = true
            return state.job
        }
        job?.cancel()
    }

    /// The job is made: keep it, and cancel it at once if the cancel came first.
    func keep(_ job: EncodeJob) {
        let cancelled = state.withLock { state -> Bool in
            state.job = job
            return state.cancelled
        }
        if cancelled { job.cancel() }
    }
}

/// Exports in a `Task` that checks its cancellation at every step, and hands the cancel on to the
/// encoder's job.
final class CooperativeCancellationFixed: CooperativeCancellationController {
    private let photos: [Int]
    private let encoder: LegacyPhotoEncoder
    private let album: ExportAlbum
    private var export: Task<Void, Error>?  // main thread only

    init(environment: ExportEnvironment) {
        photos = environment.photos
        encoder = environment.encoder
        album = environment.album
    }

    func startExport() {
        export = Task { [photos, encoder, album] in
            for photo in photos {
                try Task.checkCancellation()  // FIX: a cancelled export starts no other photo.
                let file = try await CooperativeCancellationFixed.encode(photo, with: encoder)
                try await MainActor.run {
                    // FIX: checked again after the await, on main where the cancel happens: a photo
                    // that was on its way when the user cancelled never lands.
                    try Task.checkCancellation()
                    album.add(file)
                }
            }
            try await MainActor.run {
                try Task.checkCancellation()  // FIX: a cancelled export never says it is done.
                album.finish()
            }
        }
    }

    func cancelExport() {
        export?.cancel()
    }

    /// The old encoder, wrapped so that the task's cancel reaches its job.
    static func encode(_ photo: Int, with encoder: LegacyPhotoEncoder) async throws -> EncodedPhoto {
        let box = CooperativeCancellationJobBox()
        // FIX: the handler runs when the task is cancelled (at once if it already was) and cancels
        // the job; the job then calls back with nil, and this throws CancellationError.
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let job = encoder.encodingJob(for: photo) { file in
                    if let file {
                        continuation.resume(returning: file)
                    } else {
                        continuation.resume(throwing: CancellationError())
                    }
                }
                // FIX: kept before it starts: a cancel from now on reaches it, and one that came
                // before stops it before its first chunk.
                box.keep(job)
                job.start()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

extension CooperativeCancellationLab {
    public static var solutions: [LabVariant<ExportEnvironment, CooperativeCancellationController>] {
        [LabVariant(.fixed) { CooperativeCancellationFixed(environment: $0) }]
    }
}
