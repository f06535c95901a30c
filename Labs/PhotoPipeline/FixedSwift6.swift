import Foundation
import LabKit
import PhotoPipeline

/// The same pipeline in Swift 6 terms (this file is built in the Swift 6 language mode): no
/// shared records and no operations. The controller is `@MainActor`, so the rows' states, the
/// work in progress and the table are main-actor state, and the compiler holds every access to
/// them. Each row's work is one `Task`: it downloads, then filters, off the main actor, with
/// values only (`PhotoPipelineImage` is `Sendable`), and comes back to the main actor after each
/// step. A row that scrolls away has its task cancelled: the download and the filter stop at
/// their next step, and what they return is not shown.
@MainActor
final class PhotoPipelineFixedSwift6: PhotoPipelineController {
    /// Where a row stands. Main actor only.
    private enum RowState {
        case new
        case downloaded(PhotoPipelineImage)
        case filtered(PhotoPipelineImage)
        case failed
    }

    private let table: PhotoPipelineTable
    private let photos: [PhotoPipelinePhoto]
    private let network: PhotoPipelineNetwork
    private let filter: PhotoPipelineSepiaFilter
    private var states: [RowState]  // FIX: main-actor state: written only where the table reads it.
    private var inProgress: [Int: Task<Void, Never>] = [:]  // FIX: main actor only.

    nonisolated init(environment: PhotoPipelineEnvironment) {
        table = environment.table
        photos = environment.photos
        network = environment.network
        filter = environment.filter
        states = Array(repeating: .new, count: environment.photos.count)
    }

    isolated deinit {
        for task in inProgress.values { task.cancel() }  // the screen went away: its rows' work stops
    }

    // The harness calls these on the main thread; `assumeIsolated` checks that it is (and traps
    // if not) instead of trusting a comment.
    nonisolated func cell(forRow row: Int) -> PhotoPipelineCell {
        MainActor.assumeIsolated { cellOnMain(row) }
    }

    nonisolated func scrollWillBegin() {
        // Nothing to pause: a task cannot be held from outside. No new work starts while the
        // table moves (cell(forRow:) asks it), and the rows that left are cancelled when it stops.
    }

    nonisolated func scrollDidEnd() {
        MainActor.assumeIsolated { loadImagesForOnscreenCells() }
    }

    private func cellOnMain(_ row: Int) -> PhotoPipelineCell {
        switch states[row] {
        case .filtered(let picture):
            return .photo(picture)
        case .failed:
            return .failed  // FIX: a failed download is shown as failed.
        case .downloaded(let picture):
            if !table.isScrolling() { startWork(at: row) }
            return .photo(picture)
        case .new:
            if !table.isScrolling() { startWork(at: row) }
            return .placeholder
        }
    }

    /// Starts the row's task, unless one runs: a download if the row has no picture yet, then the
    /// filter.
    private func startWork(at row: Int) {
        guard inProgress[row] == nil else { return }
        let downloaded: PhotoPipelineImage?
        switch states[row] {
        case .new: downloaded = nil
        case .downloaded(let picture): downloaded = picture
        case .filtered, .failed: return
        }
        let url = photos[row].url, network = self.network, filter = self.filter
        // This task inherits the main actor: it starts and resumes on the main thread, and only
        // the two `@concurrent` calls run elsewhere. It holds the controller weakly.
        inProgress[row] = Task { [weak self] in
            var picture = downloaded
            if picture == nil {
                let result = await Self.download(url, from: network)
                // FIX: back on the main actor, where scrolling away cancels: a cancelled row's
                // download is not this row's business any more.
                guard !Task.isCancelled else { return }
                picture = self?.downloadFinished(result, at: row)
            }
            guard let picture else { return }  // the download failed
            let sepia = await Self.sepia(picture, with: filter)
            guard !Task.isCancelled, let sepia else { return }
            self?.filterFinished(sepia, at: row)
        }
    }

    /// Off the main actor: the whole picture, or nil (missing, or cancelled part way).
    @concurrent
    private nonisolated static func download(_ url: String, from network: PhotoPipelineNetwork) async -> PhotoPipelineImage? {
        if Task.isCancelled { return nil }
        var picture: PhotoPipelineImage?  // FIX: this task's own variable, not a shared record.
        // FIX: the download asks its task before every chunk, and stops once it is cancelled.
        let complete = network.download(url, into: &picture, isCancelled: { Task.isCancelled })
        return complete ? picture : nil
    }

    /// Off the main actor: a sepia copy, or nil if cancelled part way.
    @concurrent
    private nonisolated static func sepia(_ picture: PhotoPipelineImage, with filter: PhotoPipelineSepiaFilter) async -> PhotoPipelineImage? {
        if Task.isCancelled { return nil }
        return filter.apply(to: picture, isCancelled: { Task.isCancelled })
    }

    /// The row's download is back (nil: it failed). Returns the picture to filter, if any.
    private func downloadFinished(_ picture: PhotoPipelineImage?, at row: Int) -> PhotoPipelineImage? {
        guard let picture else {
            states[row] = .failed  // FIX: a failed download ends the row's work: no filter is left behind.
            inProgress[row] = nil
            table.reloadRow(row)
            return nil
        }
        states[row] = .downloaded(picture)  // FIX: stored on the main actor, as a value.
        table.reloadRow(row)
        return picture
    }

    private func filterFinished(_ sepia: PhotoPipelineImage, at row: Int) {
        states[row] = .filtered(sepia)
        inProgress[row] = nil
        table.reloadRow(row)
    }

    /// Cancel the rows that scrolled away, start the ones that came into view.
    private func loadImagesForOnscreenCells() {
        let visible = Set(table.visibleRows())
        for row in Set(inProgress.keys).subtracting(visible) {
            inProgress.removeValue(forKey: row)?.cancel()  // FIX: cancelled, and forgotten at once.
        }
        for row in visible.sorted() {
            startWork(at: row)
        }
    }
}

extension PhotoPipelineLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<PhotoPipelineEnvironment, PhotoPipelineController>] {
        [LabVariant(.fixed, name: "fixed-task", runsTasks: true) { PhotoPipelineFixedSwift6(environment: $0) }]
    }
}
