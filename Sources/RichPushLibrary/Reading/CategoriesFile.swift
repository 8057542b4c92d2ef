public import RichPushCore

/// The app's categories file (`--categories FILE`, `given.categories`), read as every other file richpush is given:
/// never blocking on a FIFO or a device, size-capped, its problems one line naming the file.
public enum CategoriesFile {
    /// A categories file larger than this is refused unread; an app's categories are a few KB.
    public static let maxBytes = 1024 * 1024

    public static func load(_ path: String) -> Result<AppCategories, AppCategoriesError> {
        let shown = TextSanitizer.singleLine(path, limit: 200)
        switch SafeFileReader.read(path, limit: maxBytes) {
        case .bytes(let bytes):
            do {
                return .success(try AppCategories.parse(bytes))
            } catch {
                return .failure(AppCategoriesError("\(shown): \(error.message)"))
            }
        case .tooLarge(let size):
            return .failure(
                AppCategoriesError(
                    "\(shown): is \(ByteCount.text(size)); a categories file may be at most \(ByteCount.text(maxBytes))"
                ))
        case .failure(let message):
            return .failure(AppCategoriesError("\(shown): \(message)"))
        }
    }
}
