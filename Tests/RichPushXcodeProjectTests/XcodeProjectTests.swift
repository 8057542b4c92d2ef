import Foundation
import RichPushFiles
import RichPushTestSupport
import Testing

@testable import RichPushXcodeProject

@Suite("How richpush reads a team's Xcode project")
struct XcodeProjectTests {
    static let projects = repositoryRootPath + "/examples/projects"

    // MARK: The example projects

    @Test("a classic project: the extension's own file and the app file its Sources phase shares, its pod")
    func classicProject() throws {
        let root = Self.projects + "/ClassicApp"
        let target = try ExtensionTarget.find(in: root)
        #expect(target.name == "NotificationServiceExtension")
        #expect(target.projectPath == root + "/ClassicApp.xcodeproj")
        #expect(
            target.swiftFiles == [
                root + "/App/Shared/AppGroup.swift", root + "/NotificationServiceExtension/NotificationService.swift",
            ])
        #expect(target.objectiveCFiles.isEmpty)
        #expect(target.infoPlistPath == root + "/NotificationServiceExtension/Info.plist")
        #expect(target.principalClass == "$(PRODUCT_MODULE_NAME).NotificationService")
        #expect(target.extensionPointIdentifier == "com.apple.usernotifications.service")
        #expect(target.productModuleName == "NotificationServiceExtension")
        #expect(target.configuration == "Debug")
        // The Pods_NotificationServiceExtension framework stands for the Podfile's block, not a dependency itself; the
        // development pod is built from its folder, so it is what the target links from its repository.
        #expect(target.dependencies == [.pod("OneSignalXCFramework")])
        #expect(
            target.linkedTargets == [
                ExtensionTarget.LinkedTarget(
                    name: "InboxStyle", moduleName: "InboxStyle",
                    swiftFiles: [
                        root + "/DevPods/InboxStyle/Sources/InboxStyle.swift",
                        root + "/DevPods/InboxStyle/Sources/Internal/Channel.swift",
                    ], objectiveCFiles: [], missingFiles: [], dependsOn: [], notes: [],
                    kind: .developmentPod(folder: root + "/DevPods/InboxStyle"))
            ])
        // The Pods/ xcconfig files `pod install` makes are absent from a checkout, and say nothing.
        #expect(target.missingFiles.isEmpty)
        #expect(target.notes.isEmpty)

        // The same target through the project folder and its project.pbxproj.
        #expect(try ExtensionTarget.find(in: root + "/ClassicApp.xcodeproj") == target)
        #expect(try ExtensionTarget.find(in: root + "/ClassicApp.xcodeproj/project.pbxproj") == target)
    }

    @Test("an Xcode 16 project: folder groups, an exception keeping a file out, one bringing an app file in")
    func synchronizedProject() throws {
        let root = Self.projects + "/SyncedApp"
        let target = try ExtensionTarget.find(in: root)
        #expect(target.name == "NotificationService")
        // PayloadPreview.swift is in the extension's folder but excluded from it; NotificationStyle.swift is in the
        // app's folder and included; Info.plist is excluded (and not a source).
        #expect(
            target.swiftFiles == [
                root + "/NotificationService/NotificationService.swift",
                root + "/SyncedApp/Shared/NotificationStyle.swift",
            ])
        #expect(target.infoPlistPath == root + "/NotificationService/Info.plist")
        #expect(target.principalClass == "$(PRODUCT_MODULE_NAME).NotificationService")
        #expect(target.dependencies == [.package(repositoryName: "firebase-ios-sdk", product: "FirebaseMessaging")])
        #expect(
            target.resolvedPackages == [
                ExtensionTarget.ResolvedPackage(
                    identity: "firebase-ios-sdk", location: "https://github.com/firebase/firebase-ios-sdk",
                    version: "11.4.0", revision: "8328630971a8fdd8072b36bb22bef732eb15e1f0", branch: nil)
            ])
        #expect(target.missingFiles.isEmpty)
    }

    @Test("an exception set for a target that does not own the folder brings that file into the target")
    func synchronizedMembershipOfTheApp() throws {
        let graph = try ProjectGraph.load(Self.projects + "/SyncedApp/SyncedApp.xcodeproj")
        let app = try #require(NativeTarget.all(in: graph).first { $0.name == "SyncedApp" })
        let files = SynchronizedFolders(target: app.id, sourcesPhase: nil, in: graph).files
            .map { ProjectPath.relative($0, to: graph.sourceRoot) }
        #expect(
            files.sorted() == [
                "NotificationService/PayloadPreview.swift", "SyncedApp/ContentView.swift",
                "SyncedApp/Shared/NotificationStyle.swift", "SyncedApp/SyncedAppApp.swift",
            ])
    }

    @Test("two service extensions: an error naming both and --target; --target reads the one named")
    func twoServiceExtensions() throws {
        let root = Self.projects + "/TwoExtensions"
        let problem = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: root) }
        #expect(problem.kind == .severalServiceExtensions)
        #expect(problem.targets == ["AcmeNotificationService", "AcmeDevNotificationService"])
        #expect(problem.description.contains("AcmeNotificationService, AcmeDevNotificationService"))
        #expect(problem.description.contains("--target NAME"))

        let dev = try ExtensionTarget.find(in: root, targetName: "AcmeDevNotificationService")
        #expect(dev.swiftFiles == [root + "/AcmeDevNotificationService/NotificationService.swift"])
        #expect(dev.dependencies == [.framework("UserNotifications")])
        let production = try ExtensionTarget.find(in: root, targetName: "AcmeNotificationService")
        #expect(production.swiftFiles == [root + "/AcmeNotificationService/NotificationService.swift"])
    }

    @Test("--target naming a content extension, an app or nothing: an error saying what it is and what there is")
    func targetsThatAreNotServiceExtensions() throws {
        let root = Self.projects + "/TwoExtensions"
        let content = try #require(throws: ProjectProblem.self) {
            try ExtensionTarget.find(in: root, targetName: "AcmeNotificationContent")
        }
        #expect(content.kind == .notAServiceExtension)
        #expect(content.description.contains("com.apple.usernotifications.content-extension"))
        let app = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: root, targetName: "Acme") }
        #expect(app.kind == .notAServiceExtension)
        #expect(app.description.contains("Acme is an app"))
        let none = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: root, targetName: "Acme2") }
        #expect(none.kind == .noSuchTarget)
        #expect(
            none.description.contains(
                "AcmeNotificationService (com.apple.usernotifications.service), AcmeDevNotificationService (com.apple.usernotifications.service), AcmeNotificationContent (com.apple.usernotifications.content-extension)"
            ))
    }

    @Test("the app's own NotificationService.swift is not compiled into the extension; SOURCE_ROOT files are")
    func sameNameInTheApp() throws {
        let root = Self.projects + "/ShadowedName"
        let target = try ExtensionTarget.find(in: root)
        #expect(target.name == "RelayNotificationService")
        #expect(
            target.swiftFiles == [
                root + "/Config/BuildFlags.swift", root + "/RelayNotificationService/NotificationService.swift",
            ])
        #expect(!target.swiftFiles.contains(root + "/Relay/Notifications/NotificationService.swift"))
        #expect(target.infoPlistPath == root + "/RelayNotificationService/Supporting Files/Info.plist")
        // $(TARGET_NAME)/$(TARGET_NAME)-Bridging-Header.h, expanded.
        #expect(target.bridgingHeader == root + "/RelayNotificationService/RelayNotificationService-Bridging-Header.h")
        #expect(target.missingFiles.isEmpty)
    }

    @Test("a framework target the extension depends on, and a local package it links, are read as what it links")
    func linkedTargetAndLocalPackage() throws {
        let root = Self.projects + "/Courier"
        let target = try ExtensionTarget.find(in: root)
        #expect(target.name == "CourierNotificationService")
        #expect(target.swiftFiles == [root + "/CourierNotificationService/NotificationService.swift"])
        // The framework target, by its target dependency and its product in the Frameworks phase (once).
        #expect(
            target.linkedTargets == [
                ExtensionTarget.LinkedTarget(
                    name: "CourierKit", moduleName: "CourierKit",
                    swiftFiles: [root + "/CourierKit/Sender.swift", root + "/CourierKit/ThreadNames.swift"],
                    objectiveCFiles: [], missingFiles: [], dependsOn: [], notes: [])
            ])
        // The local package's folder, relative to the folder holding the .xcodeproj.
        #expect(
            target.dependencies.contains(
                .localPackage(path: root + "/Packages/MessageFormat", product: "MessageFormat")))
        // The app target is not a library the extension links.
        #expect(!target.linkedTargets.contains { $0.name == "Courier" })
    }

    @Test("a podspec read without Ruby: source_files over lines, exclude_files, module_name, dependency; JSON too")
    func podspecs() throws {
        let spec = Podspec.ruby(
            """
            Pod::Spec.new do |spec|
              spec.name         = "Chat-UI"   # the pod
              spec.module_name  = 'ChatUI'
              spec.source_files = [
                'Sources/**/*.{swift,h}',
                "Extra/One.swift",
              ]
              spec.exclude_files = 'Sources/Previews'
              spec.dependency 'ChatCore', '~> 1.0'
              spec.subspec 'Links' do |links|
                links.source_files = 'Links/*.swift'
              end
            end
            """, pod: "Chat-UI")
        #expect(spec.name == "Chat-UI")
        #expect(spec.moduleName == "ChatUI")
        #expect(spec.sourcePatterns == ["Sources/**/*.{swift,h}", "Extra/One.swift", "Links/*.swift"])
        #expect(spec.excludePatterns == ["Sources/Previews"])
        #expect(spec.dependencies == ["ChatCore"])

        let folder = try TemporaryFolder()
        for file in [
            "Sources/A.swift", "Sources/Deep/B.swift", "Sources/Deep/C.h", "Sources/Previews/P.swift",
            "Extra/One.swift",
            "Extra/Two.swift", "Links/L.swift", "Links/Nested/N.swift", "Sources/.hidden/H.swift",
        ] {
            _ = try folder.write(file, "")
        }
        #expect(
            spec.files(in: folder.path).map { ProjectPath.relative($0, to: folder.path) } == [
                "Extra/One.swift", "Links/L.swift", "Sources/A.swift", "Sources/Deep/B.swift", "Sources/Deep/C.h",
            ])

        let json = Podspec.json(
            #"{"name": "Feed", "source_files": "Feed/**/*.swift", "dependencies": {"Nuke": [">= 12"]},"#
                + #" "subspecs": [{"name": "Core", "source_files": ["Core/*.swift"]}]}"#, pod: "Feed")
        #expect(json.sourcePatterns == ["Feed/**/*.swift", "Core/*.swift"])
        #expect(json.dependencies == ["Nuke"])
        // Hostile or broken text reads as a podspec with nothing in it, never a crash.
        #expect(Podspec.json("{", pod: "X").sourcePatterns.isEmpty)
        #expect(Podspec.ruby("s.source_files = [\n'A", pod: "X").sourcePatterns.isEmpty)
    }

    @Test("development pods: ordered by their podspecs' dependencies; a missing podspec is a note")
    func developmentPodsInOrder() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(in: folder, objects: Self.serviceExtension(name: "NotificationService"))
        _ = try folder.write("Ext/Info.plist", Self.plist(point: "com.apple.usernotifications.service"))
        _ = try folder.write("Ext/NotificationService.swift", "class NotificationService {}\n")
        _ = try folder.write(
            "Pods-dev/Feed/Feed.podspec", "s.source_files = 'Feed/*.swift'\ns.dependency 'Store'\n")
        _ = try folder.write("Pods-dev/Feed/Feed/Feed.swift", "")
        _ = try folder.write("Pods-dev/Store/Store.podspec", "s.source_files = 'Store/*.swift'\n")
        _ = try folder.write("Pods-dev/Store/Store/Store.swift", "")
        // Store is a development pod of the Podfile too, though only Feed's podspec names it.
        _ = try folder.write(
            "Podfile",
            """
            target 'NotificationService' do
              pod 'Feed/Core', :path => 'Pods-dev/Feed'
              pod 'Gone', path: 'Pods-dev/Gone'
            end
            pod 'Store', :path => './Pods-dev/Store'
            """)
        let target = try ExtensionTarget.find(in: folder.path)
        #expect(target.linkedTargets.map(\.name) == ["Store", "Feed"])
        #expect(target.linkedTargets.last?.dependsOn == ["Store"])
        #expect(target.dependencies.isEmpty, "\(target.dependencies)")
        #expect(target.notes.contains { $0.hasPrefix("development pod Gone: ") && $0.contains("no Gone.podspec") })
    }

    @Test("a framework another project of the workspace makes (its product in the Frameworks phase) is linked")
    func frameworkOfASiblingProject() throws {
        let folder = try TemporaryFolder()
        var app = Self.serviceExtension(name: "NotificationService")
        app = app.map {
            $0.hasPrefix("T = ")
                ? $0.replacingOccurrences(of: "buildPhases = (S, );", with: "buildPhases = (S, FW, );") : $0
        }
        app += [
            "FW = {isa = PBXFrameworksBuildPhase; files = (BK, ); };",
            "BK = {isa = PBXBuildFile; fileRef = KF; };",
            "KF = {isa = PBXFileReference; explicitFileType = wrapper.framework; path = Kit.framework; sourceTree = BUILT_PRODUCTS_DIR; };",
        ]
        try Self.writeProject(in: folder, objects: app)
        _ = try folder.write("Ext/Info.plist", Self.plist(point: "com.apple.usernotifications.service"))
        _ = try folder.write("Ext/NotificationService.swift", "import Kit\n")
        let kit = [
            "P = {isa = PBXProject; buildConfigurationList = PL; mainGroup = G0; projectDirPath = \"\"; targets = (K, ); };",
            "PL = {isa = XCConfigurationList; buildConfigurations = (PD, ); };",
            "PD = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Debug; };",
            "G0 = {isa = PBXGroup; children = (G1, ); sourceTree = \"<group>\"; };",
            "G1 = {isa = PBXGroup; children = (KS, ); path = Kit; sourceTree = \"<group>\"; };",
            "KS = {isa = PBXFileReference; path = Greeting.swift; sourceTree = \"<group>\"; };",
            "BS = {isa = PBXBuildFile; fileRef = KS; };",
            "SP = {isa = PBXSourcesBuildPhase; files = (BS, ); };",
            "KP = {isa = PBXFileReference; explicitFileType = wrapper.framework; path = Kit.framework; sourceTree = BUILT_PRODUCTS_DIR; };",
            "K = {isa = PBXNativeTarget; buildConfigurationList = KL; buildPhases = (SP, ); name = Kit; productReference = KP; productType = \"com.apple.product-type.framework\"; };",
            "KL = {isa = XCConfigurationList; buildConfigurations = (KD, ); };",
            "KD = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_NAME = Kit; }; name = Debug; };",
        ]
        try Self.writeProject(in: folder, subfolder: "Kit", objects: kit)
        _ = try folder.write("Kit/Kit/Greeting.swift", "public let greeting = 1\n")
        _ = try folder.write(
            "App.xcworkspace/contents.xcworkspacedata",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:Ext.xcodeproj"></FileRef>
               <FileRef location = "group:Kit/Ext.xcodeproj"></FileRef>
            </Workspace>
            """)
        // Named by the workspace, and by the app's project alone (the workspace beside it says where Kit is).
        for path in [folder.path + "/App.xcworkspace", folder.path + "/Ext.xcodeproj"] {
            let target = try ExtensionTarget.find(in: path, targetName: "NotificationService")
            #expect(target.linkedTargets.map(\.name) == ["Kit"], "\(path)")
            #expect(target.linkedTargets.first?.swiftFiles == [folder.path + "/Kit/Kit/Greeting.swift"])
        }
    }

    // MARK: Projects written for one test

    @Test("files the Sources phase names that are not on disk are missing, not compiled")
    func missingSources() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(
            in: folder,
            objects: Self.serviceExtension(
                sources: ["F1", "F2"],
                files: [
                    "F1 = {isa = PBXFileReference; path = NotificationService.swift; sourceTree = \"<group>\"; };",
                    "F2 = {isa = PBXFileReference; path = Generated.swift; sourceTree = \"<group>\"; };",
                ]))
        try folder.write("Ext/NotificationService.swift", "")
        try folder.write("Ext/Info.plist", Self.plist(point: "com.apple.usernotifications.service"))
        let target = try ExtensionTarget.find(in: folder.path)
        #expect(target.swiftFiles == [folder.path + "/Ext/NotificationService.swift"])
        #expect(target.missingFiles == [folder.path + "/Ext/Generated.swift"])
    }

    @Test("a file named in another case than the disk's is found (macOS ignores case), and the note says so")
    func caseDifferences() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(
            in: folder,
            objects: Self.serviceExtension(
                files: ["F1 = {isa = PBXFileReference; path = notificationService.swift; sourceTree = \"<group>\"; };"],
                settings: "SWIFT_OBJC_BRIDGING_HEADER = Ext/ext-Bridging-Header.h;"))
        try folder.write("ext/NotificationService.swift", "")
        try folder.write("ext/Ext-Bridging-Header.h", "")
        try folder.write("ext/info.plist", Self.plist(point: "com.apple.usernotifications.service"))
        let target = try ExtensionTarget.find(in: folder.path)
        #expect(target.swiftFiles == [folder.path + "/ext/NotificationService.swift"])
        #expect(target.bridgingHeader == folder.path + "/ext/Ext-Bridging-Header.h")
        #expect(target.infoPlistPath == folder.path + "/ext/info.plist")
        #expect(target.missingFiles.isEmpty)
        #expect(
            target.notes.contains(
                "Ext/notificationService.swift: found as ext/NotificationService.swift (the project names it in another case, which macOS ignores and Linux does not)"
            ))
    }

    @Test("no service extension: the app extensions and their extension points are listed")
    func noServiceExtension() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(in: folder, objects: Self.serviceExtension(name: "Widgets"))
        try folder.write("Ext/Info.plist", Self.plist(point: "com.apple.widgetkit-extension"))
        let problem = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: folder.path) }
        #expect(problem.kind == .noServiceExtension)
        #expect(problem.description.contains("Widgets (com.apple.widgetkit-extension)"))
    }

    @Test("a missing Info.plist: an extension named like a service extension is taken, and the note says why")
    func missingInfoPlist() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(in: folder, objects: Self.serviceExtension(name: "MyNotificationService"))
        try folder.write("Ext/NotificationService.swift", "")
        let target = try ExtensionTarget.find(in: folder.path)
        #expect(target.name == "MyNotificationService")
        #expect(target.extensionPointIdentifier == nil)
        #expect(target.missingFiles == [folder.path + "/Ext/Info.plist"])
        #expect(target.notes.contains { $0.contains("taken for the Notification Service Extension by its name") })

        // Another name says nothing: no guess.
        try Self.writeProject(in: folder, objects: Self.serviceExtension(name: "Widgets"))
        let problem = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: folder.path) }
        #expect(problem.description.contains("Widgets (extension point unknown: \(folder.path)/Ext/Info.plist"))
    }

    @Test("INFOPLIST_KEY_ settings give the extension point and principal class, over the Info.plist")
    func infoPlistKeySettings() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(
            in: folder,
            objects: Self.serviceExtension(
                settings:
                    "INFOPLIST_KEY_NSExtensionPointIdentifier = com.apple.usernotifications.service; INFOPLIST_KEY_NSExtensionPrincipalClass = \"$(PRODUCT_MODULE_NAME).Rich\"; PRODUCT_NAME = \"My Ext\";"
            ))
        try folder.write("Ext/Info.plist", Self.plist(point: "com.apple.widgetkit-extension"))
        let target = try ExtensionTarget.find(in: folder.path)
        #expect(target.extensionPointIdentifier == "com.apple.usernotifications.service")
        #expect(target.principalClass == "$(PRODUCT_MODULE_NAME).Rich")
        #expect(target.productModuleName == "My_Ext")
    }

    @Test("build settings: $(inherited) through project, xcconfig and target; conditions; operators")
    func buildSettings() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "Base.xcconfig", "// comment\nFLAGS = -base\n#include \"Extra.xcconfig\"\nHEADER = $(SRCROOT)/h.h\n")
        try folder.write("Extra.xcconfig", "EXTRA = yes // trailing comment\n")
        var objects = Self.serviceExtension(
            settings:
                "FLAGS = \"$(inherited) -target\"; \"HEADER[sdk=macosx*]\" = mac.h; \"NAME[sdk=iphoneos*]\" = \"$(TARGET_NAME:lower)\";"
        )
        objects.append(
            "XC = {isa = PBXFileReference; path = Base.xcconfig; sourceTree = SOURCE_ROOT; };")
        objects = objects.map {
            $0.hasPrefix("TD =")
                ? $0.replacingOccurrences(of: "name = Debug;", with: "name = Debug; baseConfigurationReference = XC;")
                : $0
        }
        try Self.writeProject(in: folder, objects: objects)
        let graph = try ProjectGraph.load(folder.path + "/Ext.xcodeproj")
        let settings = BuildSettings(target: "T", name: "Ext", in: graph)
        #expect(settings.configuration == "Debug")
        #expect(settings.value("FLAGS") == "-base -target")
        #expect(settings.value("EXTRA") == "yes")
        #expect(settings.value("HEADER") == folder.path + "/h.h")
        #expect(settings.value("NAME") == "ext")
        #expect(settings.expand("$(PRODUCT_NAME:c99extidentifier) ${TARGET_NAME:upper} $TARGET_NAME") == "Ext EXT Ext")
        #expect(BuildSettings(configuration: "Debug", values: ["A": "$(B)", "B": "$(A)"]).value("A") == "")
    }

    @Test("settings that each name the next many times expand in bounded time (a hostile project, not a hang)")
    func settingsThatMultiply() {
        // S0 names S1 ten times, S1 names S2 ten times, …: 10^15 references 15 deep, each expanding to nothing.
        var values: [String: String] = [:]
        for level in 0..<15 { values["S\(level)"] = String(repeating: "$(S\(level + 1))", count: 10) }
        values["S15"] = "$(UNSET)"
        let start = ContinuousClock.now
        #expect(BuildSettings(configuration: "Debug", values: values).value("S0") == "")
        #expect(ContinuousClock.now - start < .seconds(5))
        // A value that does grow stops at the length cap, as before.
        values["S15"] = "x"
        #expect(BuildSettings(configuration: "Debug", values: values).value("S0")?.isEmpty == false)
    }

    @Test("a project written as an XML property list (as some generators write it) reads as the OpenStep one")
    func xmlProject() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(in: folder, objects: Self.serviceExtension())
        try folder.write("Ext/Info.plist", Self.plist(point: "com.apple.usernotifications.service"))
        try folder.write("Ext/NotificationService.swift", "")
        let openStep = try ExtensionTarget.find(in: folder.path)
        let file = folder.path + "/Ext.xcodeproj/project.pbxproj"
        func foundation(_ value: PropertyListValue) -> Any {
            switch value {
            case .string(let text): text
            case .array(let values): values.map(foundation)
            case .dictionary(let table): table.mapValues(foundation)
            case .data(let bytes): Data(bytes)
            }
        }
        let parsed = try OpenStepPropertyList.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        try PropertyListSerialization.data(fromPropertyList: foundation(parsed), format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: file))
        #expect(try ExtensionTarget.find(in: folder.path) == openStep)
        try folder.write("Ext.xcodeproj/project.pbxproj", "<?xml version=\"1.0\"?><plist><dict><key>a</key>")
        let problem = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: folder.path) }
        #expect(problem.kind == .malformed)
        #expect(problem.description.contains("not a project file Xcode can open (XML: "))
    }

    // MARK: Finding the project

    @Test("a folder holding the project one level down (ios/), a workspace, and paths that are no project")
    func locating() throws {
        let folder = try TemporaryFolder()
        try Self.writeProject(in: folder, subfolder: "ios", objects: Self.serviceExtension())
        try folder.write("ios/Ext/Info.plist", Self.plist(point: "com.apple.usernotifications.service"))
        try folder.write("ios/Ext/NotificationService.swift", "")
        try folder.write("ios/Pods/Pods.xcodeproj/project.pbxproj", "not read")
        #expect(
            try ExtensionTarget.find(in: folder.path).swiftFiles == [folder.path + "/ios/Ext/NotificationService.swift"]
        )
        try folder.write(
            "ios/Ext.xcworkspace/contents.xcworkspacedata",
            "<Workspace version = \"1.0\"><FileRef location = \"group:Ext.xcodeproj\"></FileRef><FileRef location = \"group:Pods/Pods.xcodeproj\"></FileRef></Workspace>"
        )
        #expect(
            ProjectLocator.workspaceProjects(folder.path + "/ios/Ext.xcworkspace") == [
                folder.path + "/ios/Ext.xcodeproj"
            ])
        #expect(try ExtensionTarget.find(in: folder.path + "/ios/Ext.xcworkspace").name == "Ext")

        let missing = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: folder.path + "/nope") }
        #expect(missing.kind == .noProject)
        #expect(missing.description == folder.path + "/nope: no such file or folder")
        let empty = try TemporaryFolder()
        let none = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: empty.path) }
        #expect(none.kind == .noProject)
        #expect(none.description.contains("no Xcode project (.xcodeproj)"))
    }

    // MARK: Hostile projects

    @Test("a project.pbxproj that is a FIFO is refused, not waited on")
    func fifoProject() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/A.xcodeproj", withIntermediateDirectories: true)
        try folder.fifo("A.xcodeproj/project.pbxproj")
        let problem = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: folder.path) }
        #expect(problem.kind == .unreadable)
        #expect(problem.description.contains("A.xcodeproj/project.pbxproj: cannot be read (a fifo"))
        // Files over their limit are refused before they are read.
        let large = try folder.write("large.pbxproj", String(repeating: "x", count: 2048))
        #expect(BoundedFile.read(large, limit: 1024) == .failure(FileProblem("2 KB, more than 1 KB")))
    }

    @Test("a project.pbxproj that is a link to itself, and a project folder that is: errors, no hang")
    func symbolicLinkLoops() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/A.xcodeproj", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/A.xcodeproj/project.pbxproj", withDestinationPath: "project.pbxproj")
        let file = try #require(throws: ProjectProblem.self) {
            try ExtensionTarget.find(in: folder.path + "/A.xcodeproj")
        }
        #expect(file.kind == .unreadable)
        #expect(file.description.lowercased().contains("too many levels of symbolic links"))

        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/B.xcodeproj", withDestinationPath: "B.xcodeproj")
        let project = try #require(throws: ProjectProblem.self) {
            try ExtensionTarget.find(in: folder.path + "/B.xcodeproj")
        }
        #expect(project.kind == .unreadable)
        #expect(project.description.lowercased().contains("too many levels of symbolic links"))
    }

    @Test("a truncated project: malformed, with the line where it ends")
    func truncatedProject() throws {
        let real = try String(
            contentsOfFile: Self.projects + "/ClassicApp/ClassicApp.xcodeproj/project.pbxproj", encoding: .utf8)
        let folder = try TemporaryFolder()
        // Cut at the end of a line in the middle of the objects.
        let half = real.index(real.startIndex, offsetBy: real.count / 2)
        let cut = String(real[...(real[half...].firstIndex(of: "\n") ?? half)])
        try folder.write("A.xcodeproj/project.pbxproj", cut)
        let problem = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: folder.path) }
        #expect(problem.kind == .malformed)
        let lines = cut.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(problem.description.contains("line \(lines): the file ends inside the dictionary opened on line"))
    }

    @Test("10 MB of nesting: an error at the depth limit, at once")
    func deepNesting() throws {
        let folder = try TemporaryFolder()
        let depth = 5 * 1024 * 1024
        try folder.write(
            "A.xcodeproj/project.pbxproj", String(repeating: "(", count: depth) + String(repeating: ")", count: depth))
        let started = ContinuousClock.now
        let problem = try #require(throws: ProjectProblem.self) { try ExtensionTarget.find(in: folder.path) }
        #expect(problem.kind == .malformed)
        #expect(problem.description.contains("line 1: values nested more than 64 levels deep"))
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("groups that contain each other, and a synchronized folder linking to itself: read once, no hang")
    func cycles() throws {
        let folder = try TemporaryFolder()
        // G1 (Ext) contains G2 (Loop), which contains G1 again.
        var objects = Self.serviceExtension()
        objects = objects.map {
            $0.hasPrefix("G1 =")
                ? "G1 = {isa = PBXGroup; children = (F1, G2, ); path = Ext; sourceTree = \"<group>\"; };" : $0
        }
        objects.append("G2 = {isa = PBXGroup; children = (G1, ); path = Loop; sourceTree = \"<group>\"; };")
        // A synchronized folder with a link to itself inside.
        objects.append("SG = {isa = PBXFileSystemSynchronizedRootGroup; path = Synced; sourceTree = \"<group>\"; };")
        objects = objects.map {
            $0.hasPrefix("T =")
                ? $0.replacingOccurrences(of: "buildPhases", with: "fileSystemSynchronizedGroups = (SG, ); buildPhases")
                : $0
        }
        objects = objects.map { $0.hasPrefix("G0 =") ? $0.replacingOccurrences(of: "G1, ", with: "G1, SG, G2, ") : $0 }
        try Self.writeProject(in: folder, objects: objects)
        try folder.write("Ext/Info.plist", Self.plist(point: "com.apple.usernotifications.service"))
        try folder.write("Ext/NotificationService.swift", "")
        try folder.write("Synced/Helper.swift", "")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Synced/again", withDestinationPath: ".")
        let target = try ExtensionTarget.find(in: folder.path)
        #expect(
            target.swiftFiles == [folder.path + "/Ext/NotificationService.swift", folder.path + "/Synced/Helper.swift"])

        // A file whose only group is in a cycle unreachable from the main group: no path, noted.
        let graph = ProjectGraph(
            projectPath: "/p/A.xcodeproj", projectFile: "/p/A.xcodeproj/project.pbxproj", sourceRoot: "/p",
            objects: [
                "A": ["isa": .string("PBXGroup"), "path": .string("a")],
                "B": ["isa": .string("PBXGroup"), "path": .string("b")],
                "F": ["isa": .string("PBXFileReference"), "path": .string("F.swift")],
            ],
            rootID: "P", parents: ["F": "A", "A": "B", "B": "A"])
        #expect(graph.location(of: "F") == .unresolved("its groups contain each other"))
    }

    // MARK: The formats

    @Test("the OpenStep parser: comments, quoting, escapes, UTF-8, data; errors with their line")
    func openStep() throws {
        func parse(_ text: String) throws(OpenStepPropertyList.SyntaxError) -> PropertyListValue {
            try OpenStepPropertyList.parse(Array(text.utf8))
        }
        let value = try parse(
            "// !$*UTF8*$!\n{\n\ta = \"Caf\u{e9} \\\"x\\\"\\n\\\\\"; /* c */ b = (1, two, \"3\", ); c = <0fA0 01>;\n\tID/* name */ = {};\n\td = \"\\U00e9\\UD83D\\UDE00\";\n}\n"
        )
        #expect(value["a"] == .string("Caf\u{e9} \"x\"\n\\"))
        #expect(value["b"] == .array([.string("1"), .string("two"), .string("3")]))
        #expect(value["c"] == .data([0x0F, 0xA0, 0x01]))
        #expect(value["ID"] == .dictionary([:]))
        #expect(value["d"] == .string("\u{e9}\u{1F600}"))

        func problem(_ text: String) -> String {
            do {
                _ = try parse(text)
                return "parsed"
            } catch {
                return error.description
            }
        }
        #expect(problem("{ a = \"open;\n}\n") == "line 1: a string opened on line 1 is never closed")
        #expect(problem("{ a = 1; }\n junk") == "line 2: 'j' after the end of the root value")
        #expect(problem("{\n a = 1\n b = 2; }") == "line 3: 'b' where ';' should follow the value of \"a\"")
        #expect(problem("{ /* never closed\n") == "line 1: a comment opened on line 1 is never closed")
        #expect(problem("{ a = (1 2); }") == "line 1: '2' where ',' or ')' should be in a list")
        var invalid = Array("{ a = \"".utf8)
        invalid += [0xC3, 0x28]
        invalid += Array("\"; }".utf8)
        #expect(throws: OpenStepPropertyList.SyntaxError(line: 1, message: "a string that is not valid UTF-8")) {
            try OpenStepPropertyList.parse(invalid)
        }
    }

    @Test("Podfile: nested targets inherit, inherit! stops it, abstract targets, methods of pods, Ruby around them")
    func podfile() {
        let podfile = Podfile(
            """
            platform :ios, '15.0'
            pod 'Everywhere' # top level: every target
            def shared_pods
              pod 'Shared', '~> 1.0'
              more_pods
            end
            def more_pods; pod 'More'; end
            abstract_target 'defaults' do
              shared_pods
              target 'App' do
                pod 'AppOnly'
                if ENV['CI']
                  pod 'Conditional'
                end
                target 'AppTests' do
                  inherit! :search_paths
                  pod 'Quick'
                end
                target "NotificationService" do
                  pod 'Firebase/Messaging'
                end
              end
              target 'Widget'
            end
            post_install do |installer|
              installer.pods_project.targets.each do |target|
                target.build_configurations.each do |config|
                  config.build_settings['X'] = 'pod \\'NotAPod\\''
                end
              end
            end
            target 'Late' do
              pod "Late"
            end
            """)
        #expect(
            podfile.pods(for: "NotificationService") == [
                "Firebase/Messaging", "AppOnly", "Conditional", "Shared", "More", "Everywhere",
            ])
        #expect(podfile.pods(for: "AppTests") == ["Quick"])
        #expect(podfile.pods(for: "Widget") == ["Shared", "More", "Everywhere"])
        #expect(podfile.pods(for: "Late") == ["Late", "Everywhere"])
        #expect(podfile.pods(for: "Missing") == nil)
    }

    @Test("Package.resolved versions 1, 2 and 3")
    func packageResolved() throws {
        let folder = try TemporaryFolder()
        let first = try folder.write(
            "v1.resolved",
            #"{"object":{"pins":[{"package":"Kingfisher","repositoryURL":"https://github.com/onevcat/Kingfisher.git","state":{"branch":null,"revision":"abc","version":"7.10.0"}}]},"version":1}"#
        )
        let second = try folder.write(
            "v2.resolved",
            #"{"pins":[{"identity":"kingfisher","kind":"remoteSourceControl","location":"https://github.com/onevcat/Kingfisher.git","state":{"revision":"abc","version":"7.10.0"}}],"version":2}"#
        )
        let expected = ExtensionTarget.ResolvedPackage(
            identity: "kingfisher", location: "https://github.com/onevcat/Kingfisher.git", version: "7.10.0",
            revision: "abc", branch: nil)
        #expect(PackageResolved.read(first) == [expected])
        #expect(PackageResolved.read(second) == [expected])
        #expect(PackageResolved.read(try folder.write("bad.resolved", "{\"pins\": 3")) == [])
        #expect(
            PackageResolved.repositoryName(of: "git@github.com:firebase/firebase-ios-sdk.git/") == "firebase-ios-sdk")
    }

    // MARK: Support

    /// The objects of a small project with one app extension target `T` named `name`: its Sources phase compiles
    /// the file references `sources`, in group `G1` (folder `Ext`); its Info.plist is `Ext/Info.plist`.
    static func serviceExtension(
        name: String = "Ext", sources: [String] = ["F1"], files: [String]? = nil, settings: String = ""
    ) -> [String] {
        let fileObjects =
            files ?? ["F1 = {isa = PBXFileReference; path = NotificationService.swift; sourceTree = \"<group>\"; };"]
        let buildFiles = sources.map { "B\($0) = {isa = PBXBuildFile; fileRef = \($0); };" }
        return [
            "P = {isa = PBXProject; buildConfigurationList = PL; mainGroup = G0; projectDirPath = \"\"; targets = (T, ); };",
            "PL = {isa = XCConfigurationList; buildConfigurations = (PD, ); defaultConfigurationName = Release; };",
            "PD = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Debug; };",
            "G0 = {isa = PBXGroup; children = (G1, ); sourceTree = \"<group>\"; };",
            "G1 = {isa = PBXGroup; children = (\(sources.map { $0 + ", " }.joined())); path = Ext; sourceTree = \"<group>\"; };",
            "S = {isa = PBXSourcesBuildPhase; files = (\(sources.map { "B\($0), " }.joined())); };",
            "T = {isa = PBXNativeTarget; buildConfigurationList = TL; buildPhases = (S, ); name = \"\(name)\"; productType = \"com.apple.product-type.app-extension\"; };",
            "TL = {isa = XCConfigurationList; buildConfigurations = (TD, ); };",
            "TD = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = Ext/Info.plist; \(settings) }; name = Debug; };",
        ] + fileObjects + buildFiles
    }

    /// Writes `objects` as `Ext.xcodeproj/project.pbxproj` in `folder` (or its `subfolder`).
    static func writeProject(in folder: TemporaryFolder, subfolder: String? = nil, objects: [String]) throws {
        let text =
            "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n\tobjects = {\n"
            + objects.map { "\t\t" + $0 + "\n" }.joined() + "\t};\n\trootObject = P;\n}\n"
        try folder.write((subfolder.map { $0 + "/" } ?? "") + "Ext.xcodeproj/project.pbxproj", text)
    }

    static func plist(point: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSExtension</key><dict>
        <key>NSExtensionPointIdentifier</key><string>\(point)</string>
        <key>NSExtensionPrincipalClass</key><string>$(PRODUCT_MODULE_NAME).NotificationService</string>
        </dict></dict></plist>
        """
    }

    // MARK: Measurement

    /// Opt-in: `RICHPUSH_CORPUS=/work/corpus` reads the project of each corpus entry (its `project/` with
    /// `extension/` put back at the entry's NSE path and `shared/` at the root) without a target name, and with the
    /// entry's target when there are several; prints one line per entry and writes them to
    /// `$RICHPUSH_CORPUS_REPORT` when set.
    @Test(
        "real projects: each corpus project gives its service extension, compiling only the entry's files",
        .enabled(if: ProcessInfo.processInfo.environment["RICHPUSH_CORPUS"] != nil))
    func corpus() throws {
        let corpus = try #require(ProcessInfo.processInfo.environment["RICHPUSH_CORPUS"])
        let manager = FileManager.default
        var lines: [String] = []
        for entry in try manager.contentsOfDirectory(atPath: corpus).sorted() {
            let base = corpus + "/" + entry
            guard let data = manager.contents(atPath: base + "/.meta.json"),
                let meta = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let nse = meta["nse"] as? String
            else { continue }
            let listed = (meta["nse_targets"] as? [[String]])?.first
            guard let listed, listed.count == 2, listed[0].hasSuffix("project.pbxproj"),
                manager.fileExists(atPath: base + "/project/" + listed[0])
            else {
                lines.append("\(entry): no project.pbxproj (an XcodeGen spec)")
                continue
            }
            let overlay = try TemporaryFolder()
            try Self.merge(base + "/project", into: overlay.path)
            try Self.merge(base + "/extension", into: overlay.path + "/" + nse)
            try Self.merge(base + "/shared", into: overlay.path)
            let project = ProjectPath.parent(of: overlay.path + "/" + listed[0])
            let found = Result { () throws(ProjectProblem) in try ExtensionTarget.find(in: project) }
            var how = "found"
            let target: ExtensionTarget
            switch found {
            case .success(let read):
                target = read
            case .failure(let problem):
                #expect(problem.kind == .severalServiceExtensions, "\(entry): \(problem)")
                how = "\(problem.targets.count) service extensions, --target \(listed[1])"
                target = try ExtensionTarget.find(in: project, targetName: listed[1])
            }
            let entryFiles = Set(
                (manager.enumerator(atPath: overlay.path)?.allObjects as? [String] ?? []).map {
                    overlay.path + "/" + $0
                })
            #expect(target.name == listed[1], "\(entry)")
            #expect(Set(target.swiftFiles).isSubset(of: entryFiles), "\(entry)")
            let absent = target.missingFiles.map { ProjectPath.relative($0, to: overlay.path) }
            lines.append(
                "\(entry): \(how): \(target.name), \(target.swiftFiles.count) Swift, \(target.objectiveCFiles.count) C-family"
                    + (absent.isEmpty ? "" : ", absent: " + absent.joined(separator: ", ")))
        }
        print(lines.joined(separator: "\n"))
        if let report = ProcessInfo.processInfo.environment["RICHPUSH_CORPUS_REPORT"] {
            try lines.joined(separator: "\n").write(toFile: report, atomically: true, encoding: .utf8)
        }
    }

    /// Copies the files under `source` (links skipped) into `destination`, beside what is there.
    static func merge(_ source: String, into destination: String) throws {
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: source) else { return }
        while let relative = walker.nextObject() as? String {
            let from = source + "/" + relative
            let to = destination + "/" + relative
            guard case .success(let node) = FileNode.itself(from) else { continue }
            if node.isDirectory {
                try manager.createDirectory(atPath: to, withIntermediateDirectories: true)
            } else if node.isRegularFile {
                try manager.createDirectory(atPath: ProjectPath.parent(of: to), withIntermediateDirectories: true)
                if manager.fileExists(atPath: to) { try manager.removeItem(atPath: to) }
                try manager.copyItem(atPath: from, toPath: to)
            }
        }
    }
}
