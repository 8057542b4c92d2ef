import Foundation
import RichPushFiles
import RichPushTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct FileNodeTests {
    @Test("a regular file, a folder and a FIFO are told apart, with their size and phrase")
    func kinds() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a.json", "0123456789")
        let pipe = try folder.fifo("pipe.json")
        let regular = try FileNode.following(file).get()
        #expect(regular.isRegularFile && regular.size == 10)
        #expect(try FileNode.following(folder.path).get().isDirectory)
        let fifo = try FileNode.following(pipe).get()
        #expect(fifo.isFIFO && !fifo.isRegularFile)
        #expect(fifo.kind.phrase == "a FIFO (named pipe)")
        #expect(try FileNode.following(folder.path).get().kind.phrase == "a folder")
    }

    @Test("a symbolic link is itself a link and leads to its target, the same file as the target's own path")
    func links() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a.json", "{}")
        let link = "\(folder.path)/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let hard = "\(folder.path)/hard.json"
        try FileManager.default.linkItem(atPath: file, toPath: hard)
        #expect(try FileNode.itself(link).get().kind == .symlink)
        #expect(try FileNode.following(link).get().identity == FileNode.following(file).get().identity)
        #expect(try FileNode.itself(hard).get().identity == FileNode.itself(file).get().identity)
        #expect(try FileNode.itself(link).get().identity != FileNode.itself(file).get().identity)
    }

    @Test("a missing file and a broken link are nothing, with the system's words; the broken link is there itself")
    func missing() throws {
        let folder = try TemporaryFolder()
        let broken = "\(folder.path)/broken.json"
        try FileManager.default.createSymbolicLink(atPath: broken, withDestinationPath: "\(folder.path)/gone.json")
        #expect(FileNode.following("\(folder.path)/gone.json") == .failure(FileProblem(errno: ENOENT)))
        #expect(FileProblem(errno: ENOENT).description == "No such file or directory")
        #expect(!FileNode.exists(broken))
        #expect(try FileNode.itself(broken).get().kind == .symlink)
        #expect(FileNode.exists(folder.path))
    }

    @Test("an open descriptor is the file it was opened on")
    func descriptor() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a.json", "12345")
        let descriptor = open(file, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let opened = try FileNode.of(descriptor: descriptor).get()
        #expect(opened == (try FileNode.following(file).get()))
        #expect(opened.size == 5)
    }
}
