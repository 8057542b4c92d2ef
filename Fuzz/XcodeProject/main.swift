// libFuzzer target: the Xcode project reader (RichPushXcodeProject), fed the input as the project.pbxproj of a
// project of its own: the OpenStep parser, the object graph, the targets, their build settings, Info.plist and
// sources. A project file is hostile input, as a payload is: the reader must never trap or hang, and it either
// gives a Notification Service Extension target or says in one sentence why not.
import Foundation
import RichPushXcodeProject

/// The folder of this fuzzing process, removed when it exits (a crash or a timeout leaves it).
let scratch: String = {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).path + "/richpush-fuzz-xcodeproject-\(getpid())"
    atexit { try? FileManager.default.removeItem(atPath: scratch) }
    return folder
}()

/// The `.xcodeproj` folder each input is written into.
let project: String = {
    let path = scratch + "/Fuzz.xcodeproj"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXcodeProject(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? Data() : Data(bytes: data!, count: size)
    guard FileManager.default.createFile(atPath: project + "/project.pbxproj", contents: bytes) else {
        FileHandle.standardError.write(Data("XcodeProject fuzz: cannot write into \(project)\n".utf8))
        abort()
    }
    do {
        let target = try ExtensionTarget.find(in: project)
        if target.name.isEmpty || target.projectPath.isEmpty {
            FileHandle.standardError.write(Data("XcodeProject fuzz: a target without a name or project\n".utf8))
            abort()
        }
    } catch {
        if error.file.isEmpty || !error.description.hasPrefix(error.file + ": ") {
            FileHandle.standardError.write(Data("XcodeProject fuzz: a problem naming no file: \(error)\n".utf8))
            abort()
        }
    }
    return 0
}
