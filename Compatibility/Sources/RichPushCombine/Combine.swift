// Apple's Combine (https://developer.apple.com/documentation/combine), which a team's extension imports as `Combine`
// (`-module-alias Combine=RichPushCombine`), as OpenCombine 0.14 implements it on Linux
// (https://github.com/OpenCombine/OpenCombine): `Publisher`, `Subscriber`, `AnyCancellable`, `Just`, `Future`,
// `PassthroughSubject`, `CurrentValueSubject`, `@Published`, the operators (`map`, `tryMap`, `decode`, `catch`,
// `replaceError(with:)`, `receive(on:)`, `sink`, `assign`, …); `DispatchQueue`, `RunLoop` and `OperationQueue` as
// schedulers (`.receive(on: DispatchQueue.main)`); Foundation's publishers, `URLSession.dataTaskPublisher(for:)`,
// `NotificationCenter.publisher(for:)` and `Timer.publish(every:on:in:)`; `Publisher.values` for `for await`. What
// OpenCombine 0.14 lacks of Apple's Combine: `combineLatest` and `merge(with:)` (Publishers.CombineLatest, Merge,
// MergeMany), which fail to build ("has no member"), named as not in the compatibility modules.
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
