import Foundation
import RichPushCodecs
import RichPushCore
import RichPushTestSupport
import Testing

/// The ffmpeg command that makes the tests' audio and video.
let ffmpegCommand = "/usr/bin/ffmpeg"

/// FFmpeg's reading of audio and video files, on real files made at test time by the ffmpeg command (Debian's
/// `ffmpeg`, which scripts/install-system-packages installs for the tests): their container, codecs, duration and
/// size, a video's poster frame decoded back as a PNG, and hostile files refused with a sentence, never a crash.
@Suite(
    "Audio and video read with FFmpeg",
    .enabled(if: FileManager.default.isExecutableFile(atPath: ffmpegCommand), "no ffmpeg command"))
struct MediaProbeTests {
    static let ffmpeg = ffmpegCommand

    /// Makes `name` in `folder` with the ffmpeg command's `arguments` (inputs and codecs); returns its path.
    func make(_ name: String, in folder: TemporaryFolder, _ arguments: [String]) async throws -> String {
        let path = folder.path + "/" + name
        let run = try await runExecutable(
            Self.ffmpeg, ["-v", "error", "-nostdin", "-y"] + arguments + [path], in: folder.path)
        try #require(run.status == 0, "ffmpeg: \(run.stderr)")
        return path
    }

    /// A 2 s, 64x48, 10 frames-per-second test picture (a moving pattern and a counter) with a 440 Hz tone.
    static let video = [
        "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=2", "-f", "lavfi", "-i",
        "sine=frequency=440:sample_rate=16000:duration=2", "-shortest",
    ]

    func mp4(in folder: TemporaryFolder, _ name: String = "clip.mp4", faststart: Bool = false) async throws -> String {
        try await make(
            name, in: folder,
            Self.video + ["-c:v", "mpeg4", "-c:a", "aac", "-ac", "1"] + (faststart ? ["-movflags", "+faststart"] : []))
    }

    @Test("an MP4 of mpeg4 and aac: its container, codecs, duration and size")
    func mp4() async throws {
        let folder = try TemporaryFolder()
        let path = try await mp4(in: folder)
        let info = try MediaProbe().probe(path)
        #expect(info.container == "MP4")
        #expect(info.brand == "isom")
        #expect(info.codecs == ["mpeg4", "aac"])
        #expect(info.hasVideo && info.hasAudio)
        #expect(abs((info.duration ?? 0) - 2.0) < 0.1, "\(String(describing: info.duration))")
        #expect(info.width == 64 && info.height == 48)
        let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(info.bytes == bytes)
    }

    @Test("the poster frame at a time is a PNG of the video's size that decodes, and another time gives another frame")
    func poster() async throws {
        let folder = try TemporaryFolder()
        let path = try await mp4(in: folder)
        let probe = MediaProbe()
        let late = try probe.poster(of: path, at: 1.0, writingTo: folder.path + "/late.png")
        #expect(abs(late.time - 1.0) < 0.05, "\(late.time)")
        #expect(late.width == 64 && late.height == 48)
        let image = try ImageDecoder().decode(contentsOf: late.file)
        #expect(image.width == 64 && image.height == 48)
        let first = try probe.poster(of: path, at: 0, writingTo: folder.path + "/first.png")
        #expect(first.time == 0)
        // testsrc draws a frame counter and a moving gradient: the two frames differ.
        #expect(try Data(contentsOf: first.file) != Data(contentsOf: late.file))
        // The PNG is written once, never over a file that is there.
        #expect(throws: MediaProbe.Failure.self) {
            try probe.poster(of: path, at: 0, writingTo: folder.path + "/first.png")
        }
    }

    @Test("a thumbnail time past the end gives the last frame, and its time says so")
    func posterPastTheEnd() async throws {
        let folder = try TemporaryFolder()
        let path = try await mp4(in: folder)
        let poster = try MediaProbe().poster(of: path, at: 30, writingTo: folder.path + "/poster.png")
        #expect(abs(poster.time - 1.9) < 0.05, "\(poster.time)")
        #expect(try ImageDecoder().decode(contentsOf: poster.file).width == 64)
    }

    @Test("each container iOS attaches is named as the result names it")
    func containers() async throws {
        let folder = try TemporaryFolder()
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000:duration=1"]
        let picture = ["-f", "lavfi", "-i", "testsrc=size=32x32:rate=25:duration=1"]
        // The duration as the container gives it, within a tolerance: an MP3's frames and encoder padding make it
        // longer; an MPEG program stream has no duration, and libavformat's estimate from its timestamps is rough.
        let cases: [(String, [String], String, [String], Double)] = [
            ("tone.wav", tone, "WAV", ["pcm_s16le"], 0.01),
            ("tone.aiff", tone, "AIFF", ["pcm_s16be"], 0.01),
            ("tone.mp3", tone + ["-c:a", "libmp3lame"], "MP3", ["mp3"], 0.2),
            ("tone.m4a", tone + ["-c:a", "aac"], "M4A", ["aac"], 0.1),
            ("clip.mpg", picture + ["-c:v", "mpeg2video"], "MPEG", ["mpeg2video"], 0.5),
            ("clip.avi", picture + ["-c:v", "mpeg4"], "AVI", ["mpeg4"], 0.1),
            ("clip.mov", picture + ["-c:v", "mpeg4"], "QuickTime", ["mpeg4"], 0.1),
            ("clip.mkv", picture + ["-c:v", "mpeg4"], "Matroska", ["mpeg4"], 0.1),
        ]
        for (name, arguments, container, codecs, tolerance) in cases {
            let path = try await make(name, in: folder, arguments)
            let info = try MediaProbe().probe(path)
            #expect(info.container == container, "\(name): \(info.format)")
            #expect(info.codecs == codecs, "\(name)")
            #expect(abs((info.duration ?? 0) - 1.0) <= tolerance, "\(name): \(String(describing: info.duration))")
        }
    }

    @Test("a valid MP4 made 52 MB by a sparse tail is still read, its size the file's")
    func sparseBigMP4() async throws {
        let folder = try TemporaryFolder()
        let path = try await mp4(in: folder, faststart: true)
        #expect(truncate(path, 52_428_800) == 0)
        let start = Date()
        let info = try MediaProbe().probe(path)
        #expect(info.bytes == 52_428_800)
        #expect(info.container == "MP4")
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test("garbage, a picture, a truncated MP4, an empty file: each refused with what it is")
    func notMedia() async throws {
        let folder = try TemporaryFolder()
        var generator = SplitMix64(seed: 39)
        let noise = (0..<3000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let garbage = folder.path + "/noise.mp4"
        try Data(noise).write(to: URL(fileURLWithPath: garbage))
        #expect(failure(garbage) == "not an audio or video file (no container libavformat recognises)")
        let png = fixturesRoot.appendingPathComponent("cat.png").path
        #expect(failure(png)?.hasPrefix("not an audio or video file (libavformat reads it as") == true)
        // Samples after the index: the index points past the end of the file.
        let whole = try await mp4(in: folder, faststart: true)
        let cut = folder.path + "/cut.mp4"
        try Data(try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(6000)).write(to: URL(fileURLWithPath: cut))
        let truncated = try #require(failure(cut))
        #expect(truncated.hasPrefix("truncated: its QuickTime / MOV index runs to byte "), "\(truncated)")
        #expect(truncated.hasSuffix(", but the file has 6000 bytes"))
        // The index at the end (no faststart), cut off with it.
        let tailless = folder.path + "/tailless.mp4"
        try Data(try Data(contentsOf: URL(fileURLWithPath: try await mp4(in: folder, "late-index.mp4"))).prefix(6000))
            .write(to: URL(fileURLWithPath: tailless))
        #expect(failure(tailless)?.hasPrefix("a QuickTime / MOV file libavformat cannot open") == true)
        let empty = try folder.write("empty.wav", "")
        #expect(failure(empty) == "an empty file")
    }

    @Test("an MP4 of audio alone has no video: no poster, and the probe says it has audio only")
    func audioOnly() async throws {
        let folder = try TemporaryFolder()
        let path = try await make(
            "tone.mp4", in: folder, ["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac"])
        let info = try MediaProbe().probe(path)
        #expect(info.hasAudio && !info.hasVideo)
        #expect(info.width == nil)
        #expect(throws: MediaProbe.Failure(description: "no video stream")) {
            try MediaProbe().poster(of: path, at: 0, writingTo: folder.path + "/poster.png")
        }
    }

    @Test("a FIFO, a symbolic link and a folder are refused without being read or waited on")
    func notRegularFiles() async throws {
        let folder = try TemporaryFolder()
        let fifo = try folder.fifo("pipe.mp4")
        #expect(failure(fifo) == "not a regular file")
        let target = try await mp4(in: folder)
        let link = folder.path + "/link.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(failure(link)?.hasPrefix("cannot be opened") == true)
        #expect(failure(folder.path) == "not a regular file")
    }

    @Test("the time limit holds: a probe with none left stops at its first read")
    func timeLimit() async throws {
        let folder = try TemporaryFolder()
        let path = try await mp4(in: folder)
        #expect(throws: MediaProbe.Failure(description: "reading it took longer than 0.0 s")) {
            try MediaProbe(timeLimit: 0).probe(path)
        }
    }

    @Test("a frame over the pixel budget is not decoded")
    func pixelBudget() async throws {
        let folder = try TemporaryFolder()
        let path = try await mp4(in: folder)
        #expect(throws: MediaProbe.Failure(description: "a 64x48 video is not decoded (at most 1000 pixels)")) {
            try MediaProbe(maxFramePixels: 1000).poster(of: path, at: 0, writingTo: folder.path + "/p.png")
        }
    }

    func failure(_ path: String) -> String? {
        do {
            _ = try MediaProbe().probe(path)
            return nil
        } catch {
            return error.description
        }
    }
}
