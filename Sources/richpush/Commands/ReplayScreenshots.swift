import Foundation
import RichPushFiles
import RichPushReplay

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `replay --screenshots DIR`: each notification's views as PNGs, drawn by the HTML report's own code in headless
/// Chromium, named for their payloads (`order.lockScreen.png`, `order.lockScreen-dark.png`).
///
/// Chromium writes each picture into a private temporary folder; richpush then copies it into DIR itself, by
/// name inside DIR, never following a symbolic link there and never replacing anything that is not a regular file.
struct ReplayScreenshots {
    let chromium: String
    let directory: String
    /// Pixels per CSS pixel: a 390-point phone gives a 780-pixel picture, sharp on a slide.
    static let scale = 2
    /// Chromiums running at once.
    static let parallel = 2

    /// Checks, before the replay, that Chromium is installed and DIR is (or can be made) a folder.
    static func prepare(_ directory: String) throws(CommandFailure) -> ReplayScreenshots {
        guard let chromium = findChromium() else {
            throw .io("richpush replay: --screenshots needs Chromium, which is not installed: apt-get install chromium")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .io("richpush replay: cannot make the screenshot folder \(directory): \(error.localizedDescription)")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
            throw .io("richpush replay: --screenshots \(directory) is not a folder")
        }
        return ReplayScreenshots(chromium: chromium, directory: directory)
    }

    /// `chromium` or `chromium-browser` on the PATH.
    static func findChromium() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser"] {
            for folder in path.split(separator: ":") where !folder.isEmpty {
                let candidate = "\(folder)/\(name)"
                if access(candidate, X_OK) == 0 { return candidate }
            }
        }
        return nil
    }

    /// Renders every page and writes its PNG into DIR; one line naming the file and the problem otherwise.
    func write(_ pages: [ScreenshotPage]) async throws(CommandFailure) {
        let work: String
        do {
            work = try Self.temporaryFolder()
        } catch {
            throw .io("richpush replay: cannot make a temporary folder for the screenshots: \(error.reason)")
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw .io(
                "richpush replay: cannot open the screenshot folder \(directory): \(String(cString: strerror(errno)))")
        }
        defer { close(folder) }

        let chromium = self.chromium
        let outcomes = await withTaskGroup(of: (Int, Result<[UInt8], Failure>).self) { group in
            var results: [Int: Result<[UInt8], Failure>] = [:]
            var next = 0
            while next < min(Self.parallel, pages.count) {
                let (index, page) = (next, pages[next])
                group.addTask { (index, Self.renderRetrying(page, number: index, in: work, chromium: chromium)) }
                next += 1
            }
            for await (index, result) in group {
                results[index] = result
                if next < pages.count {
                    let (index, page) = (next, pages[next])
                    group.addTask { (index, Self.renderRetrying(page, number: index, in: work, chromium: chromium)) }
                    next += 1
                }
            }
            return results
        }
        for (index, page) in pages.enumerated() {
            switch outcomes[index] {
            case .success(let png)?:
                if let problem = Self.put(png, named: page.fileName, in: folder) {
                    throw .io("richpush replay: cannot write the screenshot \(directory)/\(page.fileName): \(problem)")
                }
            case .failure(let failure)?:
                throw .io("richpush replay: cannot draw the screenshot \(page.fileName): \(failure.reason)")
            case nil:
                throw .io("richpush replay: the screenshot \(page.fileName) was not drawn")
            }
        }
    }

    struct Failure: Error, Sendable {
        var reason: String
        /// Chromium ended well without the picture (worth another try).
        var noPicture = false
    }

    /// One page, drawn again (up to twice more, each in a new profile) when Chromium ended well but wrote no PNG: with
    /// one core kept busy, headless Chromium once exited 0 without its screenshot (docs-check, 1 page of 24).
    private static func renderRetrying(_ page: ScreenshotPage, number: Int, in work: String, chromium: String)
        -> Result<[UInt8], Failure>
    {
        var outcome = render(page, number: number, attempt: 0, in: work, chromium: chromium)
        for attempt in 1...2 {
            guard case .failure(let failure) = outcome, failure.noPicture else { break }
            outcome = render(page, number: number, attempt: attempt, in: work, chromium: chromium)
        }
        return outcome
    }

    /// One page in headless Chromium: its PNG's bytes.
    private static func render(
        _ page: ScreenshotPage, number: Int, attempt: Int, in work: String, chromium: String
    ) -> Result<[UInt8], Failure> {
        let html = "\(work)/\(number)-\(attempt).html"
        let png = "\(work)/\(number)-\(attempt).png"
        do {
            try Data(page.html.utf8).write(to: URL(fileURLWithPath: html), options: .withoutOverwriting)
        } catch {
            return .failure(Failure(reason: error.localizedDescription))
        }
        var arguments = [
            "--headless=new", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--mute-audio", "--user-data-dir=\(work)/profile-\(number)-\(attempt)",
            "--force-device-scale-factor=\(scale)", "--window-size=\(page.width),\(page.height)",
            "--screenshot=\(png)",
            // The picture once fonts (CJK, emoji) have loaded and every stage has drawn, not at the load event.
            "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000",
        ]
        // Chromium's sandbox refuses to start as root.
        if geteuid() == 0 { arguments.append("--no-sandbox") }
        arguments.append(URL(fileURLWithPath: html).absoluteString)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(Failure(reason: "\(chromium) did not start: \(error.localizedDescription)"))
        }
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: timer)
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            return .failure(
                Failure(reason: "\(chromium) ended with status \(process.terminationStatus) (60 s at most)"))
        }
        guard let bytes = FileManager.default.contents(atPath: png).map({ [UInt8]($0) }),
            bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
        else {
            return .failure(Failure(reason: "\(chromium) wrote no PNG", noPicture: true))
        }
        return .success(bytes)
    }

    /// Writes `bytes` to `name` inside the open folder: a new file, or an existing regular file replaced in place;
    /// a symbolic link or anything else is left alone. The problem in words, or nil.
    static func put(_ bytes: [UInt8], named name: String, in folder: Int32) -> String? {
        guard !name.contains("/"), name != ".", name != ".." else { return "not a file name" }
        var existing = stat()
        if fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) == 0, existing.st_mode & S_IFMT != S_IFREG {
            return "it exists and is not a regular file, so it is not replaced"
        }
        let descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            return errno == ELOOP
                ? "it is a symbolic link, so it is not followed" : String(cString: strerror(errno))
        }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return "it is not a regular file, so it is not replaced"
        }
        guard ftruncate(descriptor, 0) == 0 else {
            let problem = String(cString: strerror(errno))
            close(descriptor)
            return problem
        }
        var failure = FileDescriptorWriter.writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, failure == nil { failure = errno }
        return failure.map { FileDescriptorWriter.describe($0) }
    }

    private static func temporaryFolder() throws(OutputFile.Failure) -> String {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("richpush-shots-XXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard made else { throw OutputFile.Failure(path: path, reason: FileDescriptorWriter.describe(errno)) }
        return path
    }
}
