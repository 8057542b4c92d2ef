import RichPushCombine
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Combine as extensions use it (the module they import as `Combine`): a publisher chain delivered on the main queue, a subject,
/// and URLSession's publisher (built, not run: the network is the extension tests').
@Suite("Combine: OpenCombine under Apple's name, DispatchQueue as a scheduler, URLSession's publisher")
struct CombineTests {
    @Test("Just, map, receive(on: DispatchQueue.global()), sink: delivered on the queue")
    func chain() {
        let delivered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var value: String?
        let cancellable = Just(21).map { $0 * 2 }.map { "value \($0)" }
            .receive(on: DispatchQueue.global())
            .sink {
                value = $0
                delivered.signal()
            }
        #expect(delivered.wait(timeout: .now() + 5) == .success)
        cancellable.cancel()
        #expect(value == "value 42")
    }

    @Test("PassthroughSubject, @Published, and URLSession.shared.dataTaskPublisher(for:) as Apple names them")
    func subjects() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        let cancellable = subject.filter { $0.isMultiple(of: 2) }.sink { seen.append($0) }
        (1...6).forEach(subject.send)
        cancellable.cancel()
        #expect(seen == [2, 4, 6])

        final class Model: ObservableObject {
            @Published var title = "before"
        }
        let model = Model()
        var titles: [String] = []
        let watching = model.$title.sink { titles.append($0) }
        model.title = "after"
        watching.cancel()
        #expect(titles == ["before", "after"])

        let publisher: URLSession.DataTaskPublisher = URLSession.shared.dataTaskPublisher(
            for: URL(string: "https://fixtures.richpush.test/cat.png")!)
        #expect(publisher.request.url?.host == "fixtures.richpush.test")
    }
}
