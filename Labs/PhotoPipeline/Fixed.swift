import Foundation
import LabKit
import PhotoPipeline

/// Downloads one photo. Thread-safety strategy per property: `row`, `url` and `network` never
/// change; `image` is written in `main()` and read only after the operation finished (by the
/// filter that depends on it, or on the main thread after the completion block hopped there).
final class PhotoPipelineDownload: Operation, @unchecked Sendable {
    let row: Int
    private let url: String
    private let network: PhotoPipelineNetwork
    private(set) var image: PhotoPipelineImage?

    init(row: Int, url: String, network: PhotoPipelineNetwork) {
        self.row = row
        self.url = url
        self.network = network
    }

    override func main() {
        if isCancelled { return }
        // FIX: the picture is downloaded into a variable of this operation, not into a shared
        // record; and the download stops at the next chunk once the row is cancelled.
        var picture: PhotoPipelineImage?
        if network.download(url, into: &picture, isCancelled: { [unowned self] in isCancelled }) {
            image = picture
        }
    }
}

/// Applies the sepia filter to one photo: either a picture the row already has, or the result
/// of the download this operation depends on. Same strategy as the download: `output` is read
/// only after the operation finished.
final class PhotoPipelineSepia: Operation, @unchecked Sendable {
    let row: Int
    private let input: PhotoPipelineImage?
    private let filter: PhotoPipelineSepiaFilter
    private(set) var output: PhotoPipelineImage?

    init(row: Int, input: PhotoPipelineImage?, filter: PhotoPipelineSepiaFilter) {
        self.row = row
        self.input = input
        self.filter = filter
    }

    override func main() {
        if isCancelled { return }
        // FIX: the picture comes from a download that has finished: this operation depends on it.
        let download = dependencies.lazy.compactMap { $0 as? PhotoPipelineDownload }.first
        guard let picture = input ?? download?.image else { return }  // the download failed
        output = filter.apply(to: picture, isCancelled: { [unowned self] in isCancelled })
    }
}

/// The list screen with every piece of shared state confined to the main thread: the rows'
/// states, the bookkeeping of operations in progress, and the table. Operations see only their
/// own inputs and outputs.
final class PhotoPipelineFixed: PhotoPipelineController {
    /// Where a row stands. Main thread only.
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
    private var states: [RowState]  // FIX: records are updated on the main thread only.
    private var downloadsInProgress: [Int: PhotoPipelineDownload] = [:]  // FIX: main thread only.
    private var filtrationsInProgress: [Int: PhotoPipelineSepia] = [:]  // FIX: main thread only.
    private let downloadQueue = OperationQueue()
    private let filtrationQueue = OperationQueue()

    init(environment: PhotoPipelineEnvironment) {
        table = environment.table
        photos = environment.photos
        network = environment.network
        filter = environment.filter
        states = Array(repeating: .new, count: environment.photos.count)
        downloadQueue.name = "photo-pipeline.downloads"
        downloadQueue.maxConcurrentOperationCount = 2
        filtrationQueue.name = "photo-pipeline.filters"
        filtrationQueue.maxConcurrentOperationCount = 1
    }

    deinit {
        for sepia in filtrationsInProgress.values { drop(sepia) }
        downloadQueue.cancelAllOperations()
        filtrationQueue.cancelAllOperations()
    }

    /// Cancels a filter for good. Foundation on Linux keeps only an unowned pointer from a
    /// download to the operations that depend on it; a cancelled filter finishes at once and is
    /// freed, and its download, finishing later, would touch freed memory. So the filter lets go
    /// of its download first.
    private func drop(_ sepia: PhotoPipelineSepia) {
        for download in sepia.dependencies { sepia.removeDependency(download) }
        sepia.cancel()
    }

    func cell(forRow row: Int) -> PhotoPipelineCell {
        switch states[row] {
        case .filtered(let picture):
            return .photo(picture)
        case .failed:
            return .failed  // FIX: a failed download is shown as failed.
        case .downloaded(let picture):
            if !table.isScrolling() { startOperations(at: row) }
            return .photo(picture)
        case .new:
            if !table.isScrolling() { startOperations(at: row) }
            return .placeholder
        }
    }

    private func startOperations(at row: Int) {
        switch states[row] {
        case .new:
            let download = startDownload(at: row)
            startFiltration(at: row, input: nil, after: download)
        case .downloaded(let picture):
            startFiltration(at: row, input: picture, after: nil)
        case .filtered, .failed:
            break
        }
    }

    @discardableResult
    private func startDownload(at row: Int) -> PhotoPipelineDownload {
        if let running = downloadsInProgress[row] { return running }
        let download = PhotoPipelineDownload(row: row, url: photos[row].url, network: network)
        download.completionBlock = { [weak self, weak download] in
            guard let download else { return }
            // FIX: completion blocks run on a background thread: hop to main before touching state.
            // The weak self is passed on, not loaded: only the main thread ever holds the controller
            // strongly (a `[weak self]` here would load it for a moment, on this thread).
            OperationQueue.main.addOperation { self?.downloadFinished(download) }
        }
        downloadsInProgress[row] = download
        downloadQueue.addOperation(download)
        return download
    }

    private func startFiltration(at row: Int, input: PhotoPipelineImage?, after download: PhotoPipelineDownload?) {
        guard filtrationsInProgress[row] == nil else { return }
        let sepia = PhotoPipelineSepia(row: row, input: input, filter: filter)
        if let download { sepia.addDependency(download) }  // FIX: the filter starts only after the download finished.
        sepia.completionBlock = { [weak self, weak sepia] in
            guard let sepia else { return }
            // The weak self is passed on, not loaded: only the main thread ever holds the controller
            // strongly (a `[weak self]` here would load it for a moment, on this thread).
            OperationQueue.main.addOperation { self?.filterFinished(sepia) }
        }
        filtrationsInProgress[row] = sepia
        filtrationQueue.addOperation(sepia)
    }

    private func downloadFinished(_ download: PhotoPipelineDownload) {
        let row = download.row
        // A cancelled download was already taken out of the bookkeeping: ignore what it left.
        guard downloadsInProgress[row] === download else { return }
        downloadsInProgress[row] = nil
        guard case .new = states[row] else { return }
        if let picture = download.image {
            states[row] = .downloaded(picture)
        } else {
            states[row] = .failed  // FIX: failed downloads are marked failed, and their filter dropped.
            filtrationsInProgress.removeValue(forKey: row).map(drop)
        }
        table.reloadRow(row)
    }

    private func filterFinished(_ sepia: PhotoPipelineSepia) {
        let row = sepia.row
        guard filtrationsInProgress[row] === sepia else { return }
        filtrationsInProgress[row] = nil
        guard let picture = sepia.output else { return }
        states[row] = .filtered(picture)
        table.reloadRow(row)
    }

    func scrollWillBegin() {
        downloadQueue.isSuspended = true
        filtrationQueue.isSuspended = true
    }

    func scrollDidEnd() {
        loadImagesForOnscreenCells()
        downloadQueue.isSuspended = false
        filtrationQueue.isSuspended = false
    }

    /// Cancel the rows that scrolled away, start the ones that came into view.
    private func loadImagesForOnscreenCells() {
        let visible = Set(table.visibleRows())
        let pending = Set(downloadsInProgress.keys).union(filtrationsInProgress.keys)
        for row in pending.subtracting(visible) {
            downloadsInProgress.removeValue(forKey: row)?.cancel()
            filtrationsInProgress.removeValue(forKey: row).map(drop)
        }
        for row in visible.subtracting(pending).sorted() {
            startOperations(at: row)
        }
    }
}

extension PhotoPipelineLab {
    public static var solutions: [LabVariant<PhotoPipelineEnvironment, PhotoPipelineController>] {
        [LabVariant(.fixed) { PhotoPipelineFixed(environment: $0) }]
    }
}
