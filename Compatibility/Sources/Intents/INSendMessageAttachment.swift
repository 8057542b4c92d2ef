import Foundation

/// Something sent with a message: an audio message.
/// https://developer.apple.com/documentation/intents/insendmessageattachment
open class INSendMessageAttachment: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant.
    /// https://developer.apple.com/documentation/intents/insendmessageattachment/audiomessagefile
    public let audioMessageFile: INFile?

    init(audioMessageFile: INFile?) {
        self.audioMessageFile = audioMessageFile
        super.init()
    }

    /// https://developer.apple.com/documentation/intents/insendmessageattachment/attachment(withaudiomessagefile:)
    open class func attachment(withAudioMessageFile audioMessageFile: INFile) -> INSendMessageAttachment {
        INSendMessageAttachment(audioMessageFile: audioMessageFile)
    }
}

/// A file for an intent. https://developer.apple.com/documentation/intents/infile
open class INFile: NSObject, @unchecked Sendable {
    // @unchecked: as ``INIntent`` (`filename` may change).
    /// https://developer.apple.com/documentation/intents/infile/data
    public let data: Data
    /// https://developer.apple.com/documentation/intents/infile/filename
    open var filename: String
    /// https://developer.apple.com/documentation/intents/infile/typeidentifier
    public let typeIdentifier: String?
    /// https://developer.apple.com/documentation/intents/infile/fileurl
    public let fileURL: URL?

    /// https://developer.apple.com/documentation/intents/infile/init(data:filename:typeidentifier:)
    public init(data: Data, filename: String, typeIdentifier: String?) {
        self.data = data
        self.filename = filename
        self.typeIdentifier = typeIdentifier
        fileURL = nil
        super.init()
    }

    /// https://developer.apple.com/documentation/intents/infile/init(fileurl:filename:typeidentifier:)
    public init(fileURL: URL, filename: String?, typeIdentifier: String?) {
        data = (try? Data(contentsOf: fileURL)) ?? Data()
        self.filename = filename ?? fileURL.lastPathComponent
        self.typeIdentifier = typeIdentifier
        self.fileURL = fileURL
        super.init()
    }
}
