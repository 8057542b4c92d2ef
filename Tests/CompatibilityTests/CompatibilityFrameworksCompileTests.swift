import Foundation
import RichPushTestSupport
import Testing

/// Code as real extensions write it with UIKit, Intents, CryptoKit and Security (the shapes of the corpus's Ice Cubes,
/// Bark, Rocket.Chat, Mattermost, Damus, Element X, Mastodon and Nextcloud Talk extensions, written anew), compiled
/// unmodified in Swift 5 mode against the compatibility modules; and `UIApplication.shared`, refused as in an app
/// extension on iOS.
@Suite("Extension code using UIKit, Intents, CryptoKit and Security compiles unmodified")
struct CompatibilityFrameworksCompileTests {
    func expectCompiles(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (status, output) = try await CompatibilityTypecheck.typecheck("NotificationService.swift", code)
        #expect(status == 0, "\(output)", sourceLocation: sourceLocation)
        #expect(!output.contains("warning:"), "\(output)", sourceLocation: sourceLocation)
    }

    @Test(
        "Intents: a communication notification as chat apps write it (INPerson, INSendMessageIntent, donate, updating(from:))"
    )
    func communication() async throws {
        try await expectCompiles(
            #"""
            import Intents
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                var contentHandler: ((UNNotificationContent) -> Void)?
                var bestAttemptContent: UNMutableNotificationContent?

                override func didReceive(
                    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
                ) {
                    self.contentHandler = contentHandler
                    bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
                    guard let bestAttemptContent else { return contentHandler(request.content) }
                    if #available(iOSApplicationExtension 15.0, *) {
                        let intent = messageIntent(content: bestAttemptContent, avatar: nil)
                        let interaction = INInteraction(intent: intent, response: nil)
                        interaction.direction = .incoming
                        interaction.donate { [weak self] error in
                            guard let self else { return }
                            if let error { print("donation failed: \(error)") }
                            do {
                                let updated = try bestAttemptContent.updating(from: intent)
                                self.contentHandler?(updated)
                            } catch {
                                self.contentHandler?(bestAttemptContent)
                            }
                        }
                    } else {
                        contentHandler(bestAttemptContent)
                    }
                }

                @available(iOSApplicationExtension 15.0, *)
                func messageIntent(content: UNMutableNotificationContent, avatar data: Data?) -> INSendMessageIntent {
                    var nameComponents = PersonNameComponents()
                    nameComponents.nickname = content.title
                    let avatar = data.map { INImage(imageData: $0) }
                    let sender = INPerson(
                        personHandle: INPersonHandle(value: "sender-1", type: .unknown), nameComponents: nameComponents,
                        displayName: nameComponents.nickname, image: avatar, contactIdentifier: nil, customIdentifier: nil,
                        isMe: false, suggestionType: .none)
                    let me = INPerson(
                        personHandle: INPersonHandle(value: "me", type: .emailAddress), nameComponents: nil, displayName: nil,
                        image: nil, contactIdentifier: nil, customIdentifier: nil, isMe: true)
                    let placeholder = INPerson(
                        personHandle: INPersonHandle(value: "placeholder", type: .unknown), nameComponents: nil,
                        displayName: nil, image: nil, contactIdentifier: nil, customIdentifier: "recipient_1")
                    let intent = INSendMessageIntent(
                        recipients: [me, placeholder], outgoingMessageType: .outgoingMessageText, content: content.body,
                        speakableGroupName: INSpeakableString(spokenPhrase: content.subtitle),
                        conversationIdentifier: content.threadIdentifier, serviceName: nil, sender: sender, attachments: nil)
                    intent.setImage(avatar, forParameterNamed: \.speakableGroupName)
                    if let image = sender.image {
                        intent.setImage(image, forParameterNamed: \.speakableGroupName)
                    }
                    let metadata = INSendMessageIntentDonationMetadata()
                    metadata.mentionsCurrentUser = true
                    metadata.recipientCount = 2
                    intent.donationMetadata = metadata
                    return intent
                }

                @available(iOSApplicationExtension 15.0, *)
                func update(_ content: UNMutableNotificationContent, avatarFile: URL) async -> UNMutableNotificationContent {
                    let handle = INPersonHandle(value: "42", type: .unknown)
                    let sender = INPerson(
                        personHandle: handle, nameComponents: nil, displayName: "Ada", image: INImage(url: avatarFile),
                        contactIdentifier: nil, customIdentifier: nil)
                    let intent = INSendMessageIntent(
                        recipients: nil, outgoingMessageType: .outgoingMessageText, content: nil, speakableGroupName: nil,
                        conversationIdentifier: "42", serviceName: nil, sender: sender, attachments: nil)
                    let interaction = INInteraction(intent: intent, response: nil)
                    interaction.direction = .incoming
                    do {
                        try await interaction.donate()
                        let updated = try content.updating(from: intent) as! UNMutableNotificationContent
                        updated.threadIdentifier = "mention"
                        return updated
                    } catch {
                        return content
                    }
                }

                func placeholder() -> INImage {
                    let image = INImage(named: "")
                    INInteraction(intent: INSendMessageIntent(recipients: nil, outgoingMessageType: .outgoingMessageText, content: "x", speakableGroupName: nil, conversationIdentifier: "NOT_VERIFIED", serviceName: nil, sender: nil, attachments: nil), response: nil).donate(completion: nil)
                    return image
                }
            }

            """#)
    }

    @Test("UIKit: decoding, resizing with UIGraphicsImageRenderer and the older image context, PNG and JPEG out")
    func uikit() async throws {
        try await expectCompiles(
            #"""
            import UIKit

            class MuteProcessor {
                func process(_ content: UNMutableNotificationContent) -> UNMutableNotificationContent {
                    if #available(iOSApplicationExtension 15.0, *) {
                        content.interruptionLevel = .passive
                    }
                    return content
                }
            }

            class NotificationService: UNNotificationServiceExtension {
                func attachment(for data: Data, maxWidth: CGFloat = 300) -> UNNotificationAttachment? {
                    guard let image = UIImage(data: data) ?? UIImage(data: data, scale: UIScreen.main.scale) else { return nil }
                    let ratio = maxWidth / image.size.width
                    let size = CGSize(width: maxWidth, height: image.size.height * ratio)
                    let format = UIGraphicsImageRendererFormat.default()
                    format.scale = 1
                    format.opaque = false
                    let renderer = UIGraphicsImageRenderer(size: size, format: format)
                    let resized = renderer.image { context in
                        UIColor(red: 1, green: 1, blue: 1, alpha: 1).setFill()
                        context.fill(CGRect(origin: .zero, size: size))
                        image.draw(in: CGRect(origin: .zero, size: size))
                    }
                    let png = renderer.pngData { _ in image.draw(at: .zero) }
                    _ = renderer.jpegData(withCompressionQuality: 0.7) { context in context.stroke(context.format.bounds) }
                    let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("image.jpg")
                    guard (try? resized.jpegData(compressionQuality: 1.0)?.write(to: fileURL, options: .atomic)) != nil,
                        !png.isEmpty
                    else { return nil }
                    return try? UNNotificationAttachment(identifier: "image", url: fileURL, options: nil)
                }

                func legacyResize(_ image: UIImage, to size: CGSize) -> UIImage? {
                    UIGraphicsBeginImageContextWithOptions(size, false, 0.0)
                    defer { UIGraphicsEndImageContext() }
                    UIColor.black.withAlphaComponent(0.2).set()
                    UIRectFill(CGRect(origin: .zero, size: size))
                    image.draw(in: CGRect(origin: .zero, size: size))
                    return UIGraphicsGetImageFromCurrentImageContext()
                }

                func avatar(path: String) async -> UIImage? {
                    let font = UIFont.systemFont(ofSize: 14, weight: .semibold)
                    print(font.pointSize, UIFont.boldSystemFont(ofSize: 12).fontName)
                    guard let image = UIImage(contentsOfFile: path) ?? UIImage(named: "placeholder") else { return nil }
                    return await image.byPreparingThumbnail(ofSize: CGSize(width: 100, height: 100))
                        ?? image.preparingThumbnail(of: CGSize(width: 100, height: 100))
                }
            }

            """#)
    }

    @Test("CryptoKit: Web Push decryption (P-256, HKDF, AES-GCM), digests, ChaChaPoly, HMAC, the Secure Enclave check")
    func cryptokit() async throws {
        try await expectCompiles(
            #"""
            import CryptoKit
            import Foundation
            import UserNotifications

            extension String {
                func urlSafeBase64Decoded() -> Data? {
                    var s = replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                    while s.count % 4 != 0 { s += "=" }
                    return Data(base64Encoded: s)
                }
            }

            class NotificationService: UNNotificationServiceExtension {
                static func decrypt(
                    payload: Data, salt: Data, auth: Data, privateKey: P256.KeyAgreement.PrivateKey,
                    publicKey: P256.KeyAgreement.PublicKey
                ) -> Data? {
                    guard let sharedSecret = try? privateKey.sharedSecretFromKeyAgreement(with: publicKey) else { return nil }
                    let keyMaterial = sharedSecret.hkdfDerivedSymmetricKey(
                        using: SHA256.self, salt: auth, sharedInfo: Data("Content-Encoding: auth\0".utf8), outputByteCount: 32)
                    let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: keyMaterial, salt: salt, info: Data(), outputByteCount: 16)
                    let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: keyMaterial, salt: salt, info: Data(), outputByteCount: 12)
                    let nonceData = nonce.withUnsafeBytes(Array.init)
                    guard let sealedBox = try? AES.GCM.SealedBox(combined: nonceData + payload) else { return nil }
                    return try? AES.GCM.open(sealedBox, using: key)
                }

                func fileName(for id: String) -> String {
                    let hash = SHA256.hash(data: Data(id.utf8))
                    return hash.compactMap { String(format: "%02x", $0) }.joined()
                }

                func publicKey(_ encoded: String) -> P256.KeyAgreement.PublicKey? {
                    encoded.urlSafeBase64Decoded().flatMap { try? P256.KeyAgreement.PublicKey(x963Representation: $0) }
                }

                func boxes(_ key: SymmetricKey, _ data: Data) throws -> Data {
                    let digest = Insecure.MD5.hash(data: data)
                    let sealed = try ChaChaPoly.seal(Data(digest), using: key)
                    let mac = HMAC<SHA256>.authenticationCode(for: data, using: key)
                    return sealed.combined + Data(mac)
                }

                func enclave() throws -> Bool {
                    if SecureEnclave.isAvailable { _ = try SecureEnclave.P256.Signing.PrivateKey() }
                    return SecureEnclave.isAvailable
                }
            }

            """#)
    }

    @Test(
        "Security: a keychain property wrapper, String keys with kCFBooleanTrue, SecKey, SecRandomCopyBytes, beside MobileCoreServices"
    )
    func security() async throws {
        try await expectCompiles(
            #"""
            import Foundation
            import MobileCoreServices
            import Security
            import UserNotifications

            @propertyWrapper struct KeychainStorage {
                let account: String
                private let service = "app"

                var wrappedValue: String? {
                    get {
                        let query = [
                            kSecAttrService: service,
                            kSecAttrAccount: account,
                            kSecClass: kSecClassGenericPassword,
                            kSecReturnData: true,
                            kSecMatchLimit: kSecMatchLimitOne,
                        ] as [CFString: Any] as CFDictionary
                        var result: AnyObject?
                        let status = SecItemCopyMatching(query, &result)
                        if status == errSecSuccess, let data = result as? Data {
                            return String(data: data, encoding: .utf8)
                        }
                        return nil
                    }
                    set {
                        if let newValue {
                            let query = [
                                kSecAttrService: service, kSecAttrAccount: account, kSecClass: kSecClassGenericPassword,
                                kSecValueData: newValue.data(using: .utf8) as Any,
                            ] as [CFString: Any] as CFDictionary
                            var status = SecItemAdd(query, nil)
                            if status == errSecDuplicateItem {
                                let match = [kSecAttrService: service, kSecAttrAccount: account, kSecClass: kSecClassGenericPassword]
                                    as [CFString: Any] as CFDictionary
                                let updates = [kSecValueData: newValue.data(using: .utf8) as Any] as CFDictionary
                                status = SecItemUpdate(match, updates)
                            }
                        } else {
                            let query = [kSecAttrService: service, kSecAttrAccount: account, kSecClass: kSecClassGenericPassword]
                                as [CFString: Any] as CFDictionary
                            _ = SecItemDelete(query)
                        }
                    }
                }

                init(account: String) { self.account = account }
            }

            class NotificationService: UNNotificationServiceExtension {
                @KeychainStorage(account: "token") var token: String?

                func randomBytes(count: Int) -> Data {
                    var bytes = [Int8](repeating: 0, count: count)
                    guard SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess else {
                        fatalError("can't copy secure random data")
                    }
                    return Data(bytes: bytes, count: count)
                }

                func sharedToken() -> String? {
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: "com.example.app",
                        kSecAttrAccessGroup as String: "TEAMID.com.example.shared",
                        kSecReturnData as String: kCFBooleanTrue!,
                        kSecMatchLimit as String: kSecMatchLimitOne,
                    ]
                    var dataTypeRef: CFTypeRef?
                    let status: OSStatus = SecItemCopyMatching(query as CFDictionary, &dataTypeRef)
                    guard status == noErr || status == errSecSuccess, let data = dataTypeRef as? Data else {
                        if let message = SecCopyErrorMessageString(status, nil) { print(message as String) }
                        return nil
                    }
                    return String(decoding: data, as: UTF8.self)
                }

                func sign(_ message: Data) throws -> Data {
                    let attributes: [String: Any] = [
                        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                        kSecAttrKeySizeInBits as String: 256,
                        kSecPrivateKeyAttrs as String: [
                            kSecAttrIsPermanent as String: true,
                            kSecAttrApplicationTag as String: "com.example.key".data(using: .utf8)!,
                        ],
                    ]
                    var error: Unmanaged<CFError>?
                    guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
                        throw error!.takeRetainedValue() as Error
                    }
                    guard let publicKey = SecKeyCopyPublicKey(privateKey),
                        SecKeyIsAlgorithmSupported(privateKey, .sign, .ecdsaSignatureMessageX962SHA256),
                        let signature = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data?,
                        SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, signature as CFData, &error),
                        let exported = SecKeyCopyExternalRepresentation(publicKey, &error) as Data?,
                        let encrypted = SecKeyCreateEncryptedData(publicKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, exported as CFData, &error),
                        SecKeyCreateDecryptedData(privateKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, encrypted, &error) != nil
                    else {
                        throw error!.takeRetainedValue() as Error
                    }
                    let hint = [UNNotificationAttachmentOptionsTypeHintKey: kUTTypeJPEG]
                    print(hint, kSecClass as String)
                    return signature
                }
            }

            """#)
    }

    @Test("UIApplication.shared does not build, as in an app extension on iOS, and the compiler says why")
    func sharedApplicationRefused() async throws {
        let (status, output) = try await CompatibilityTypecheck.typecheck(
            "NotificationService.swift",
            #"""
            import UIKit
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(
                    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
                ) {
                    UIApplication.shared.applicationIconBadgeNumber = 0
                    contentHandler(request.content)
                }
            }

            """#)
        #expect(status != 0, "\(output)")
        #expect(output.contains("'shared' is unavailable: not available in app extensions"), "\(output)")
        let errors = output.split(separator: "\n").filter { $0.contains("error:") }
        #expect(
            !errors.isEmpty && errors.allSatisfy { $0.contains("'shared' is unavailable") },
            "the only error is the unavailability, no missing member: \(output)")
    }
}
