import Foundation

/// A student's submission as grade-all reads it: a plain folder. Nothing in it is followed
/// through a symbolic link (a link is refused and named), files are read with a size limit, and
/// every entry of the submissions folder is accounted for, hidden ones included.
public enum SubmissionFolder {
    /// One entry of the folder of submissions.
    public struct Entry: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case folder
            case file
            /// A symbolic link, with where it points.
            case link(String)
        }

        public let name: String
        public let url: URL
        public let kind: Kind
    }

    public struct RefusedError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Every entry of `folder`, hidden or not, sorted by name.
    public static func entries(in folder: URL) -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let kind = kind(of: url) else { return nil }
            return Entry(name: name, url: url, kind: kind)
        }
    }

    static func kind(of url: URL) -> Entry.Kind? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .link((try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?")
        case S_IFDIR: return .folder
        default: return .file
        }
    }

    /// Folders that belong to tools, never to a submission's package.
    static func ignored(_ name: String) -> Bool { name.hasPrefix(".") || name == "__MACOSX" }

    /// The package in a submission: the folder itself when it holds `Labs/`, else the one folder
    /// below it (up to three levels: an unpacked archive, a folder in a folder) that does.
    /// Links are not followed.
    public static func packageRoot(in submission: URL) throws(RefusedError) -> URL {
        var candidates: [URL] = []
        func visit(_ folder: URL, depth: Int) {
            if hasLabs(folder) {
                candidates.append(folder)
                return
            }
            guard depth < 3 else { return }
            for entry in entries(in: folder) where entry.kind == .folder && !ignored(entry.name) {
                visit(entry.url, depth: depth + 1)
            }
        }
        visit(submission, depth: 0)
        guard !candidates.isEmpty else {
            throw RefusedError(
                description:
                    "no kit in it: no Labs/ folder (with Labs/<Lab>/Exercise.swift) at its top or up to three folders down"
            )
        }
        guard candidates.count == 1 else {
            let names = candidates.map { relative($0, to: submission) }.joined(separator: ", ")
            throw RefusedError(description: "more than one kit in it (\(names)): submit one")
        }
        return candidates[0]
    }

    static func hasLabs(_ folder: URL) -> Bool { kind(of: folder.appendingPathComponent("Labs")) == .folder }

    /// Symbolic links in the part of `root` a kit is made of (its non-hidden files and
    /// folders); hidden folders (.build, .git) are never read, so links there do not matter.
    /// Relative paths, with their targets, at most `limit` entries looked at.
    public static func links(in root: URL, limit: Int = 50_000) -> [String] {
        var found: [String] = []
        var seen = 0
        func visit(_ folder: URL, _ prefix: String) {
            for entry in entries(in: folder) where !ignored(entry.name) {
                seen += 1
                guard seen <= limit else { return }
                let path = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
                switch entry.kind {
                case .link(let target): found.append("\(path) -> \(target)")
                case .folder: visit(entry.url, path)
                case .file: break
                }
            }
        }
        if case .link(let target) = kind(of: root) ?? .file { return [". -> \(target)"] }
        visit(root, "")
        return found
    }

    /// A file of the submission, read without following a link and only if it is at most
    /// `maxBytes` long. nil when it is missing; an error when it is refused.
    public static func read(_ path: String, in root: URL, maxBytes: Int) throws(RefusedError) -> Data? {
        var folder = root
        for part in path.split(separator: "/").dropLast() {
            folder = folder.appendingPathComponent(String(part))
            switch kind(of: folder) {
            case .folder: continue
            case .link(let target):
                throw RefusedError(
                    description:
                        "\(relative(folder, to: root)) is a link (to \(target)); submissions must be plain folders")
            case .file, nil: return nil
            }
        }
        let url = root.appendingPathComponent(path)
        // Non-blocking: a FIFO put in place of a file would otherwise hold the grader at open()
        // for ever (it is refused just below, as it is not a regular file).
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP {
                throw RefusedError(description: "\(path) is a link; submissions must be plain folders")
            }
            return nil
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw RefusedError(description: "\(path) is not a regular file")
        }
        guard info.st_size <= maxBytes else {
            throw RefusedError(description: "\(path) is \(info.st_size) bytes; an exercise may be at most \(maxBytes)")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        return (try? handle.read(upToCount: maxBytes + 1)) ?? Data()
    }

    static func relative(_ url: URL, to root: URL) -> String {
        let path = PackageRoot.relative(url.standardizedFileURL.path, to: root)
        return path.isEmpty ? "." : path
    }
}
