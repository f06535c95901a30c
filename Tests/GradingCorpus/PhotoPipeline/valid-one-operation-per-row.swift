// VALID: one operation per row that downloads, then filters, into its own variables (so the
// filter always has the whole picture, with no dependency to manage); it asks isCancelled at
// every chunk and step. Rows' states and the bookkeeping live on the main thread: the completion
// block hops there, a failed download marks the row failed, off-screen rows are cancelled.
import Foundation
import LabKit
import PhotoPipeline

final class PhotoPipelineValidRowJob: Operation, @unchecked Sendable {
    let row: Int
    private let url: String
    private let input: PhotoPipelineImage?
    private let network: PhotoPipelineNetwork
    private let filter: PhotoPipelineSepiaFilter
    // Written in main(), read on the main thread after the completion block hopped there.
    private(set) var downloaded: PhotoPipelineImage?
    private(set) var filtered: PhotoPipelineImage?
    private(set) var failed = false

    init(row: Int, url: String, input: PhotoPipelineImage?, network: PhotoPipelineNetwork, filter: PhotoPipelineSepiaFilter) {
        self.row = row
        self.url = url
        self.input = input
        self.network = network
        self.filter = filter
    }

    override func main() {
        if isCancelled { return }
        var picture = input
        if picture == nil {
            var fetched: PhotoPipelineImage?
            let complete = network.download(url, into: &fetched, isCancelled: { [unowned self] in isCancelled })
            guard complete, let fetched else {
                failed = !isCancelled
                return
            }
            downloaded = fetched
            picture = fetched
        }
        if let picture {
            filtered = filter.apply(to: picture, isCancelled: { [unowned self] in isCancelled })
        }
    }
}

final class PhotoPipelineValidOneOperationPerRow: PhotoPipelineController {
    private enum RowState {
        case new, downloaded(PhotoPipelineImage), filtered(PhotoPipelineImage), failed
    }

    private let table: PhotoPipelineTable
    private let photos: [PhotoPipelinePhoto]
    private let network: PhotoPipelineNetwork
    private let filter: PhotoPipelineSepiaFilter
    private var states: [RowState]  // main thread only
    private var jobs: [Int: PhotoPipelineValidRowJob] = [:]  // main thread only
    private let queue = OperationQueue()

    init(environment: PhotoPipelineEnvironment) {
        table = environment.table
        photos = environment.photos
        network = environment.network
        filter = environment.filter
        states = Array(repeating: .new, count: environment.photos.count)
        queue.name = "photo-pipeline.rows"
        queue.maxConcurrentOperationCount = 2
    }

    deinit { queue.cancelAllOperations() }

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
        guard jobs[row] == nil else { return }
        var input: PhotoPipelineImage?
        switch states[row] {
        case .new: input = nil
        case .downloaded(let picture): input = picture
        case .filtered, .failed: return
        }
        let job = PhotoPipelineValidRowJob(row: row, url: photos[row].url, input: input, network: network, filter: filter)
        job.completionBlock = { [weak self, weak job] in
            guard let job else { return }
            OperationQueue.main.addOperation { [weak self] in self?.finished(job) }
        }
        jobs[row] = job
        queue.addOperation(job)
    }

    private func finished(_ job: PhotoPipelineValidRowJob) {
        let row = job.row
        guard jobs[row] === job else { return }  // cancelled and replaced, or dropped
        jobs[row] = nil
        if job.failed {
            states[row] = .failed
        } else if let picture = job.filtered {
            states[row] = .filtered(picture)
        } else if let picture = job.downloaded {
            states[row] = .downloaded(picture)
        }
        table.reloadRow(row)
    }

    func scrollWillBegin() {
        queue.isSuspended = true
    }

    func scrollDidEnd() {
        let visible = Set(table.visibleRows())
        for row in Set(jobs.keys).subtracting(visible) {
            jobs.removeValue(forKey: row)?.cancel()
        }
        for row in visible.sorted() { start(row) }
        queue.isSuspended = false
    }
}
