// VALID: Grand Central Dispatch: each row's work is one DispatchWorkItem on a serial queue that
// downloads, then filters, into local variables, asking a per-row cancellation token (a flag
// behind an NSLock) at every chunk and step; the queue is suspended while the user scrolls; the
// result is handed to the main thread, which alone keeps the rows' states and the bookkeeping.
import Dispatch
import Foundation
import LabKit
import PhotoPipeline

final class PhotoPipelineValidToken: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    func cancel() { lock.withLock { cancelled = true } }
    var isCancelled: Bool { lock.withLock { cancelled } }
}

final class PhotoPipelineValidGCDWorkItems: PhotoPipelineController {
    private enum RowState {
        case new, downloaded(PhotoPipelineImage), filtered(PhotoPipelineImage), failed
    }
    private enum Outcome {
        case failed, downloaded(PhotoPipelineImage), filtered(PhotoPipelineImage), stopped
    }

    private let table: PhotoPipelineTable
    private let photos: [PhotoPipelinePhoto]
    private let network: PhotoPipelineNetwork
    private let filter: PhotoPipelineSepiaFilter
    private var states: [RowState]  // main thread only
    private var work: [Int: (item: DispatchWorkItem, token: PhotoPipelineValidToken)] = [:]  // main thread only
    private let queue = DispatchQueue(label: "photo-pipeline.corpus.rows")
    private var suspended = false  // main thread only

    init(environment: PhotoPipelineEnvironment) {
        table = environment.table
        photos = environment.photos
        network = environment.network
        filter = environment.filter
        states = Array(repeating: .new, count: environment.photos.count)
    }

    deinit {
        for entry in work.values {
            entry.token.cancel()
            entry.item.cancel()
        }
        if suspended { queue.resume() }
    }

    func cell(forRow row: Int) -> PhotoPipelineCell {
        switch states[row] {
        case .filtered(let picture):
            return .photo(picture)
        case .failed:
            return .failed
        case .downloaded(let picture):
            if !table.isScrolling() { start(row) }
            return .photo(picture)
        case .new:
            if !table.isScrolling() { start(row) }
            return .placeholder
        }
    }

    private func start(_ row: Int) {
        guard work[row] == nil else { return }
        var input: PhotoPipelineImage?
        switch states[row] {
        case .new: input = nil
        case .downloaded(let picture): input = picture
        case .filtered, .failed: return
        }
        let token = PhotoPipelineValidToken()
        let url = photos[row].url, network = self.network, filter = self.filter
        let item = DispatchWorkItem { [weak self] in
            let outcome: Outcome
            var picture = input
            if picture == nil {
                var fetched: PhotoPipelineImage?
                if network.download(url, into: &fetched, isCancelled: { token.isCancelled }), let fetched {
                    picture = fetched
                }
            }
            if let picture {
                if let toned = filter.apply(to: picture, isCancelled: { token.isCancelled }) {
                    outcome = .filtered(toned)
                } else {
                    outcome = input == nil ? .downloaded(picture) : .stopped
                }
            } else {
                outcome = token.isCancelled ? .stopped : .failed
            }
            DispatchQueue.main.async { self?.finished(row, token, outcome) }
        }
        work[row] = (item, token)
        queue.async(execute: item)
    }

    private func finished(_ row: Int, _ token: PhotoPipelineValidToken, _ outcome: Outcome) {
        guard work[row]?.token === token else { return }
        work[row] = nil
        switch outcome {
        case .failed: states[row] = .failed
        case .downloaded(let picture): states[row] = .downloaded(picture)
        case .filtered(let picture): states[row] = .filtered(picture)
        case .stopped: return
        }
        table.reloadRow(row)
    }

    func scrollWillBegin() {
        guard !suspended else { return }
        suspended = true
        queue.suspend()
    }

    func scrollDidEnd() {
        let visible = Set(table.visibleRows())
        for row in Set(work.keys).subtracting(visible) {
            if let entry = work.removeValue(forKey: row) {
                entry.token.cancel()
                entry.item.cancel()
            }
        }
        for row in visible.sorted() { start(row) }
        if suspended {
            suspended = false
            queue.resume()
        }
    }
}
