import Foundation
import LabKit
import CooperativeCancellation

/// EXERCISE: a copy of the broken variant. After the user cancels, start no other photo, stop the
/// photo being encoded, and let nothing of the cancelled export land in the album. Check it with
/// `make check LAB=cooperative-cancellation`. Keep the class name and its two actions.
///
/// Exports the album in a `Task`, photo by photo, and cancels that task when the user taps Cancel.
final class CooperativeCancellationExercise: CooperativeCancellationController {
    private let photos: [Int]
    private let encoder: LegacyPhotoEncoder
    private let album: ExportAlbum
    private var export: Task<Void, Never>?  // main thread only

    init(environment: ExportEnvironment) {
        photos = environment.photos
        encoder = environment.encoder
        album = environment.album
    }

    func startExport() {
        export = Task { [photos, encoder, album] in
            for photo in photos {
                // TODO: fix this: the loop never asks whether the task was cancelled: it exports
                // every photo.
                let file = await CooperativeCancellationExercise.encode(photo, with: encoder)
                // TODO: fix this: the photo lands even after the user cancelled.
                await MainActor.run { album.add(file) }
            }
            await MainActor.run { album.finish() }
        }
    }

    func cancelExport() {
        // TODO: cancel() only sets the task's flag: nothing in the task ever reads it.
        export?.cancel()
    }

    /// The old encoder, wrapped in a continuation.
    static func encode(_ photo: Int, with encoder: LegacyPhotoEncoder) async -> EncodedPhoto {
        await withCheckedContinuation { continuation in
            // TODO: fix this: the task's cancel never reaches the job: the photo is encoded to its end.
            encoder.encodingJob(for: photo) { file in
                continuation.resume(returning: file ?? EncodedPhoto(photo: photo))
            }.start()
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeCooperativeCancellationExercise(_ environment: ExportEnvironment) -> CooperativeCancellationController {
    CooperativeCancellationExercise(environment: environment)
}
