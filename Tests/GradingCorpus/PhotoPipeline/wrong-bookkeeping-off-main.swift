// WRONG: the operations keep their results to themselves and the filter waits for its download,
// but the completion blocks take the operation out of the "in progress" dictionaries right there,
// on the operation's thread, while scrolling reads and changes them on the main thread.
import Foundation
import LabKit
import PhotoPipeline

/// Downloads one photo. Thread-safety strategy per property: `row`, `url` and `network` never
/// change; `image` is written in `main()` and read only after the operation finished (by the
/// filter that depends on it, or on the main thread after the completion block hopped there).
final class PhotoPipelineWrongBookkeepingOffMainDownload: Operation, @unchecked Sendable {
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
final class PhotoPipelineWrongBookkeepingOffMainSepia: Operation, @unchecked Sendable {
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
        let download = dependencies.lazy.compactMap { $0 as? PhotoPipelineWrongBookkeepingOffMainDownload }.first
        guard let picture = input ?? download?.image else { return }  // the download failed
        output = filter.apply(to: picture, isCancelled: { [unowned self] in isCancelled })
    }
}

/// The list screen with every piece of shared state confined to the main thread: the rows'
/// states, the bookkeeping of operations in progress, and the table. Operations see only their
/// own inputs and outputs.
final class PhotoPipelineWrongBookkeepingOffMain: PhotoPipelineController {
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
    private var states: [RowState]
    private var downloadsInProgress: [Int: PhotoPipelineWrongBookkeepingOffMainDownload] = [:]
    private var filtrationsInProgress: [Int: PhotoPipelineWrongBookkeepingOffMainSepia] = [:]
    /// Cancelled filters whose download has not finished yet. Foundation on Linux keeps only an
    /// unowned pointer from a download to the operations waiting for it, so such a filter must
    /// stay alive until its download is done. Main thread only.
    private var cancelledFilters: [ObjectIdentifier: PhotoPipelineWrongBookkeepingOffMainSepia] = [:]
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
        downloadQueue.cancelAllOperations()
        filtrationQueue.cancelAllOperations()
    }

    func cell(forRow row: Int) -> PhotoPipelineCell {
        switch states[row] {
        case .filtered(let picture):
            return .photo(picture)
        case .failed:
            return .failed
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
    private func startDownload(at row: Int) -> PhotoPipelineWrongBookkeepingOffMainDownload {
        if let running = downloadsInProgress[row] { return running }
        let download = PhotoPipelineWrongBookkeepingOffMainDownload(row: row, url: photos[row].url, network: network)
        download.completionBlock = { [weak self, weak download] in
            guard let self, let download else { return }
            if self.downloadsInProgress[row] === download { self.downloadsInProgress[row] = nil }
            OperationQueue.main.addOperation { [weak self] in self?.downloadFinished(download) }
        }
        downloadsInProgress[row] = download
        downloadQueue.addOperation(download)
        return download
    }

    private func startFiltration(at row: Int, input: PhotoPipelineImage?, after download: PhotoPipelineWrongBookkeepingOffMainDownload?) {
        guard filtrationsInProgress[row] == nil else { return }
        let sepia = PhotoPipelineWrongBookkeepingOffMainSepia(row: row, input: input, filter: filter)
        if let download { sepia.addDependency(download) }
        sepia.completionBlock = { [weak self, weak sepia] in
            guard let self, let sepia else { return }
            if self.filtrationsInProgress[row] === sepia { self.filtrationsInProgress[row] = nil }
            OperationQueue.main.addOperation { [weak self] in self?.filterFinished(sepia) }
        }
        filtrationsInProgress[row] = sepia
        filtrationQueue.addOperation(sepia)
    }

    private func downloadFinished(_ download: PhotoPipelineWrongBookkeepingOffMainDownload) {
        cancelledFilters[ObjectIdentifier(download)] = nil
        let row = download.row
        if download.isCancelled { return }
        guard case .new = states[row] else { return }
        if let picture = download.image {
            states[row] = .downloaded(picture)
        } else {
            states[row] = .failed
            filtrationsInProgress.removeValue(forKey: row)?.cancel()
        }
        table.reloadRow(row)
    }

    private func filterFinished(_ sepia: PhotoPipelineWrongBookkeepingOffMainSepia) {
        let row = sepia.row
        if sepia.isCancelled { return }
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
            let download = downloadsInProgress.removeValue(forKey: row)
            let sepia = filtrationsInProgress.removeValue(forKey: row)
            download?.cancel()
            sepia?.cancel()
            if let download, let sepia { cancelledFilters[ObjectIdentifier(download)] = sepia }
        }
        for row in visible.subtracting(pending).sorted() {
            startOperations(at: row)
        }
    }
}
